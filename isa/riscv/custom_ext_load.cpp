// The overlay loader for `isa: riscv` (docs/isa-extensions.md, "Coral"): strict keys,
// encodings in custom-0..3 with the format's fixed funct bits, operands in x/f/v/imm
// classes, compose steps assembled by the step encoder, timing; every problem reported as
// file:line:col.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "isa/isa_variant.h"
#include "isa/riscv/custom_ext.h"
#include "isa/riscv/compose_vtype.h"
#include "isa/riscv/load_step.h"
#include "isa/riscv/step_encoder.h"

namespace tlmcraft::isa::riscv {
namespace {

std::string where(const std::string& file, const YAML::Mark& m) {
  return file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

// The fixed bits: opcode and funct3 always; funct7 (R, less the vm bit when masked) or
// funct2 (R4); the I format's upper bits are its immediate.
void set_match(CustomInsn& in) {
  in.match = in.opcode | in.funct3 << 12;
  in.mask = 0x7fu | 7u << 12;
  if (in.format == CustomFormat::R) {
    in.match |= in.funct7 << 25;
    in.mask |= (in.masked ? 0x7eu : 0x7fu) << 25;
  } else if (in.format == CustomFormat::R4) {
    in.match |= in.funct2 << 25;
    in.mask |= 3u << 25;
  }
}

// Steps that read their destination too (multiply-accumulate forms).
bool reads_destination(const std::string& mnemonic) {
  for (const char* m : {"vmacc.vv", "vmacc.vx", "vnmsac.vv", "vnmsac.vx", "vmadd.vv", "vmadd.vx", "vnmsub.vv", "vnmsub.vx",
                        "vwmacc.vv", "vwmacc.vx", "vwmaccu.vv", "vwmaccu.vx", "vwmaccsu.vv", "vwmaccsu.vx", "vwmaccus.vx"})
    if (mnemonic == m) return true;
  return false;
}

class Loader {
 public:
  Loader(std::string file, std::string text, CustomExtensions& into)
      : file_(std::move(file)), text_(std::move(text)), into_(into) {}
  void run(const YAML::Node& root);
  std::vector<std::string> errors;

 private:
  void error(const YAML::Node& n, const std::string& msg) { error(n.Mark(), msg); }
  void error(const YAML::Mark& m, const std::string& msg) { errors.push_back(where(file_, m) + ": " + msg); }
  void check_keys(const YAML::Node& n, std::initializer_list<const char*> allowed, const std::string& what);
  bool integer(const YAML::Node& n, int64_t lo, int64_t hi, const std::string& what, int64_t& out);
  void instruction(const YAML::Node& n);
  void area_and_energy(const YAML::Node& n, CustomInsn& in);
  bool encoding(const YAML::Node& n, CustomInsn& in);
  bool operands(const YAML::Node& n, CustomInsn& in);
  bool compose(const YAML::Node& n, CustomInsn& in);
  bool step(const YAML::Node& n, CustomInsn& in, std::vector<bool>& written);
  template <typename At>
  bool load_operands(const LoadStepForm* load, const At& at, const Token& mn, std::vector<Token>& ops,
                     const CustomInsn& in, StepTemplate& tpl);
  bool vtype_step(const std::string& text, const YAML::Mark& line, const YAML::Mark& at, const std::vector<Token>& ops,
                  CustomInsn& in);
  void timing(const YAML::Node& n, CustomInsn& in);
  void clashes(const YAML::Node& n, const CustomInsn& in);

  void semantics(const YAML::Node& n, CustomInsn& in);

  std::string file_;
  std::string text_;  // the overlay's text: semantics positions are found in it
  CustomExtensions& into_;
};

void Loader::semantics(const YAML::Node& n, CustomInsn& in) {
  if (!n.IsScalar()) return error(n, "`semantics:` is text (write `semantics: |` and one statement per line)");
  try {
    compile_custom_semantics(in, n.Scalar(), extension::locate_yaml_scalar(text_, n.Mark().line, n.Mark().column, file_));
  } catch (const extension::ExtensionError& e) {
    errors.push_back(e.what());
  }
}

void Loader::check_keys(const YAML::Node& n, std::initializer_list<const char*> allowed, const std::string& what) {
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string key = it->first.Scalar();
    bool ok = false;
    std::string list;
    for (const char* a : allowed) {
      ok = ok || key == a;
      list += std::string(list.empty() ? "" : ", ") + a;
    }
    if (!ok) error(it->first, "unknown key '" + key + "' in " + what + " (known: " + list + ")");
  }
}

bool Loader::integer(const YAML::Node& n, int64_t lo, int64_t hi, const std::string& what, int64_t& out) {
  if (!n.IsScalar()) {
    error(n, what + " must be an integer");
    return false;
  }
  const std::string s = n.Scalar();
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 0);
  if (s.empty() || *end != '\0') {
    error(n, what + " '" + s + "' is not an integer");
    return false;
  }
  if (v < lo || v > hi) {
    error(n, what + " " + s + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return false;
  }
  out = v;
  return true;
}

void Loader::run(const YAML::Node& root) {
  if (!root.IsMap()) {
    error(root, "an ISA overlay is a mapping with `isa:` and `instructions:`");
    return;
  }
  check_keys(root, {"isa", "instructions", "doc"}, "the overlay");
  if (!root["isa"]) {
    error(root, "missing `isa: riscv`");
  } else if (root["isa"].Scalar() != "riscv") {
    error(root["isa"], "this overlay extends ISA '" + root["isa"].Scalar() + "'; Coral's ISA is riscv");
    return;
  }
  const YAML::Node list = root["instructions"];
  if (!list || !list.IsSequence()) {
    error(list ? list : root, "`instructions:` must be a list");
    return;
  }
  for (const auto& n : list) instruction(n);
}

void Loader::instruction(const YAML::Node& n) {
  if (!n.IsMap()) {
    error(n, "an instruction is a mapping");
    return;
  }
  check_keys(n,
             {"mnemonic", "encoding", "operands", "compose", "semantics", "replaces", "timing", "doc", "masked", "energy",
              "area"},
             "an instruction");
  CustomInsn in;
  in.file = file_;
  const YAML::Node mn = n["mnemonic"];
  if (!mn || !mn.IsScalar() || mn.Scalar().empty()) {
    error(n, "missing `mnemonic:`");
    return;
  }
  in.mnemonic = mn.Scalar();
  in.line = mn.Mark().line + 1;
  in.col = mn.Mark().column + 1;
  for (char c : in.mnemonic)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_')) {
      error(mn, "mnemonic '" + in.mnemonic + "' may hold only letters, digits, '.' and '_'");
      return;
    }
  if (is_standard_mnemonic(in.mnemonic)) error(mn, "mnemonic '" + in.mnemonic + "' is a standard RISC-V instruction");
  for (const auto& other : into_.instructions())
    if (other.mnemonic == in.mnemonic)
      error(mn, "mnemonic '" + in.mnemonic + "' is already defined at " + other.file + ":" + std::to_string(other.line) +
                    ":" + std::to_string(other.col));
  if (n["doc"]) in.doc = n["doc"].Scalar();
  const size_t before = errors.size();
  if (!n["encoding"]) error(n, "missing `encoding:`");
  else encoding(n["encoding"], in);
  if (n["masked"]) in.masked = n["masked"].as<bool>(false);
  if (!n["operands"]) error(n, "missing `operands:`");
  else operands(n["operands"], in);
  if (errors.size() != before) return;
  if (in.masked && (!in.is_vector() || in.format != CustomFormat::R))
    error(n["masked"], "`masked: true` needs an R-format instruction with vector operands (bit 25 is its vm bit)");
  if (in.masked && (in.funct7 & 1))
    error(n["encoding"]["funct7"], "a masked instruction's funct7 bit 0 is its vm bit: give it as 0");
  set_match(in);
  if (n["compose"] && n["semantics"]) error(n["semantics"], "give exactly one of `compose:` and `semantics:`");
  else if (n["semantics"]) semantics(n["semantics"], in);
  else if (!n["compose"]) error(n, "missing `compose:` or `semantics:` (what the instruction computes)");
  else compose(n["compose"], in);
  // `replaces:` (compose: syntax) is the dataflow the peephole replaces by a semantics:
  // instruction; it executes by its semantics, never by these steps.
  if (n["replaces"] && (!n["semantics"] || n["compose"]))
    error(n["replaces"], "`replaces:` is allowed only beside `semantics:` (the composition a new-semantics "
                         "instruction replaces); a composed instruction gives its steps in `compose:`");
  else if (n["replaces"]) compose(n["replaces"], in);
  timing(n["timing"], in);
  area_and_energy(n, in);
  if (errors.size() != before) return;
  try {
    custom_actions(in, 4, 1);  // every operation must have an energy action (isa/actions.h)
  } catch (const ActionError& e) {
    error(mn, std::string("energy actions: ") + e.what());
  }
  clashes(n["encoding"], in);
  if (errors.size() == before) into_.mutable_instructions().push_back(std::move(in));
}

// `area:` is the instruction's added datapath in mm2 (else derived: custom_area_mm2).
// Energy is always derived per action from what it computes, so `energy:` is refused
// rather than read and ignored.
void Loader::area_and_energy(const YAML::Node& n, CustomInsn& in) {
  if (const YAML::Node e = n["energy"])
    error(e, "`energy:` is not read on Coral: an added instruction's energy is derived per action from its "
             "compose:/semantics: (docs/isa-extensions.md); remove the key");
  const YAML::Node a = n["area"];
  if (!a) return;
  double mm2 = -1;
  if (a.IsScalar()) {
    try {
      size_t used = 0;
      mm2 = std::stod(a.Scalar(), &used);
      if (used != a.Scalar().size()) mm2 = -1;
    } catch (const std::exception&) {
      mm2 = -1;
    }
  }
  if (!(mm2 >= 0) || !std::isfinite(mm2)) return error(a, "`area:` is the added area in mm2: a number >= 0");
  in.declared_area_mm2 = mm2;
}

bool Loader::encoding(const YAML::Node& n, CustomInsn& in) {
  if (!n.IsMap()) {
    error(n, "`encoding:` is a mapping {opcode, format, funct3, funct7 | funct2}");
    return false;
  }
  check_keys(n, {"opcode", "format", "funct3", "funct7", "funct2"}, "encoding");
  static const std::map<std::string, uint32_t> names = {
      {"custom-0", 0x0b}, {"custom-1", 0x2b}, {"custom-2", 0x5b}, {"custom-3", 0x7b}};
  const YAML::Node op = n["opcode"];
  if (!op) return error(n, "missing `opcode:` (custom-0..3 or 0x0b, 0x2b, 0x5b, 0x7b)"), false;
  if (names.count(op.Scalar())) {
    in.opcode = names.at(op.Scalar());
  } else {
    int64_t v = 0;
    char* end = nullptr;
    std::strtoll(op.Scalar().c_str(), &end, 0);
    if (!op.IsScalar() || op.Scalar().empty() || *end)
      return error(op, "unknown opcode '" + op.Scalar() + "' (custom-0..3, or 0x0b, 0x2b, 0x5b, 0x7b)"), false;
    if (!integer(op, 0, 127, "opcode", v)) return false;
    if (v != 0x0b && v != 0x2b && v != 0x5b && v != 0x7b)
      return error(op, "opcode " + op.Scalar() + " is not a custom opcode (custom-0..3: 0x0b, 0x2b, 0x5b, 0x7b)"), false;
    in.opcode = uint32_t(v);
  }
  const YAML::Node fmt = n["format"];
  if (!fmt) return error(n, "missing `format:` (r, i or r4)"), false;
  const std::string f = fmt.Scalar();
  if (f == "r" || f == "R") in.format = CustomFormat::R;
  else if (f == "i" || f == "I") in.format = CustomFormat::I;
  else if (f == "r4" || f == "R4") in.format = CustomFormat::R4;
  else return error(fmt, "unknown format '" + f + "' (r, i or r4)"), false;
  int64_t v = 0;
  if (!n["funct3"]) return error(n, "missing `funct3:`"), false;
  if (!integer(n["funct3"], 0, 7, "funct3", v)) return false;
  in.funct3 = uint32_t(v);
  const bool has7 = bool(n["funct7"]), has2 = bool(n["funct2"]);
  if (in.format == CustomFormat::R) {
    if (has2) return error(n["funct2"], "format r has funct7 (bits 31:25), not funct2"), false;
    if (!has7) return error(n, "format r needs `funct7:`"), false;
    if (!integer(n["funct7"], 0, 127, "funct7", v)) return false;
    in.funct7 = uint32_t(v);
  } else if (in.format == CustomFormat::R4) {
    if (has7) return error(n["funct7"], "format r4 has funct2 (bits 26:25), not funct7 (bits 31:27 hold rs3)"), false;
    if (!has2) return error(n, "format r4 needs `funct2:`"), false;
    if (!integer(n["funct2"], 0, 3, "funct2", v)) return false;
    in.funct2 = uint32_t(v);
  } else if (has7 || has2) {
    return error(has7 ? n["funct7"] : n["funct2"], "format i has no funct7/funct2 (bits 31:20 hold the immediate)"), false;
  }
  return true;
}

bool Loader::operands(const YAML::Node& n, CustomInsn& in) {
  if (!n.IsSequence()) return error(n, "`operands:` must be a list"), false;
  std::set<std::string> fields_used;
  for (const auto& o : n) {
    if (!o.IsMap()) {
      error(o, "an operand is a mapping {name, field, role, value}");
      continue;
    }
    check_keys(o, {"name", "field", "role", "value", "type", "doc"}, "an operand");
    CustomOperand op;
    if (!o["name"] || !o["field"] || !o["role"] || !o["value"]) {
      error(o, "an operand needs name, field, role and value");
      continue;
    }
    op.name = o["name"].Scalar();
    const std::string field = o["field"].Scalar();
    static const std::map<std::string, Field> fields = {
        {"rd", Field::Rd}, {"rs1", Field::Rs1}, {"rs2", Field::Rs2}, {"rs3", Field::Rs3}, {"imm", Field::Imm}};
    if (!fields.count(field)) {
      error(o["field"], "unknown field '" + field + "' (rd, rs1, rs2, rs3, imm)");
      continue;
    }
    op.field = fields.at(field);
    const bool in_format = in.format == CustomFormat::R    ? op.field <= Field::Rs2
                           : in.format == CustomFormat::R4 ? op.field <= Field::Rs3
                                                           : op.field == Field::Rd || op.field == Field::Rs1 || op.field == Field::Imm;
    if (!in_format) {
      error(o["field"], "format " + std::string(to_string(in.format)) + " has no field " + field);
      continue;
    }
    if (!fields_used.insert(field).second) error(o["field"], "field " + field + " is used twice");
    const std::string value = o["value"].Scalar();
    static const std::map<std::string, ValueClass> classes = {
        {"x", ValueClass::X}, {"f", ValueClass::F}, {"v", ValueClass::V}, {"imm", ValueClass::Imm}};
    if (!classes.count(value)) {
      error(o["value"], "unknown register class '" + value + "' (riscv has x, f, v; imm for the i format's immediate)");
      continue;
    }
    op.value = classes.at(value);
    if (const YAML::Node t = o["type"]) {
      const std::string ty = t.Scalar();
      const bool ok = (op.value == ValueClass::X && (ty == "i32" || ty == "u32")) ||
                      (op.value == ValueClass::V && (ty == "signed" || ty == "unsigned")) ||
                      (op.value == ValueClass::F && ty == "f32") || (op.value == ValueClass::Imm && ty == "i32");
      if (!ok) {
        error(t, "type '" + ty + "' does not fit value " + value + " (x: i32 or u32; v: signed or unsigned SEW-bit elements; f: f32)");
        continue;
      }
      op.is_unsigned = ty == "u32" || ty == "unsigned";
    }
    if ((op.value == ValueClass::Imm) != (op.field == Field::Imm)) {
      error(o["value"], "value imm goes with field imm, and field imm with value imm");
      continue;
    }
    const std::string role = o["role"].Scalar();
    op.read = role == "read" || role == "readwrite";
    op.write = role == "write" || role == "readwrite";
    if (!op.read && !op.write) {
      error(o["role"], "unknown role '" + role + "' (read, write, readwrite)");
      continue;
    }
    if (op.write && op.field != Field::Rd) error(o["role"], "only field rd can be written");
    for (const auto& other : in.operands)
      if (other.name == op.name) error(o["name"], "operand name '" + op.name + "' is used twice");
    in.operands.push_back(op);
  }
  return true;
}

bool Loader::compose(const YAML::Node& n, CustomInsn& in) {
  if (!n.IsMap()) return error(n, "`compose:` is a mapping {temps, steps}"), false;
  check_keys(n, {"temps", "steps"}, "compose");
  for (const auto& o : in.operands) in.names.push_back({o.name, o.value, false});
  if (const YAML::Node temps = n["temps"]) {
    if (!temps.IsSequence()) return error(temps, "`temps:` must be a list of names"), false;
    for (const auto& t : temps) {
      for (const auto& existing : in.names)
        if (existing.name == t.Scalar()) error(t, "temp '" + t.Scalar() + "' is already a name");
      in.names.push_back({t.Scalar(), ValueClass::Imm, true});  // class set by its first step
    }
  }
  const YAML::Node steps = n["steps"];
  if (!steps || !steps.IsSequence() || steps.size() == 0) return error(steps ? steps : n, "`steps:` must be a non-empty list"), false;
  std::vector<bool> written(in.names.size(), false);
  for (const auto& s : steps)
    if (!step(s, in, written)) return false;
  // Every output written exactly by the steps; every temp read after it is written.
  for (size_t i = 0; i < in.operands.size(); ++i)
    if (in.operands[i].write && !written[i]) error(steps, "output '" + in.operands[i].name + "' is never written by a step");
  for (size_t i = in.operands.size(); i < in.names.size(); ++i) {
    bool read = false;
    for (const auto& st : in.steps)
      for (size_t b = 1; b < st.binds.size() + 1; ++b)
        read = read || (st.binds[b - 1].name == int(i) && st.binds[b - 1].field != Field::Rd);
    if (!read) error(n["temps"], "temp '" + in.names[i].name + "' is never read");
  }
  return true;
}

bool Loader::step(const YAML::Node& n, CustomInsn& in, std::vector<bool>& written) {
  const std::string text = n.Scalar();
  // The column of offset k in the text: quoted scalars start one after the quote.
  const YAML::Mark m = n.Mark();
  const bool quoted = n.Tag() == "!";
  auto at = [&](size_t k) {
    YAML::Mark p = m;
    p.column += int(k) + (quoted ? 1 : 0);
    return p;
  };
  Token mn;
  std::vector<Token> ops;
  split_instruction(text, mn, ops);
  if (mn.text == "vsetvli") return vtype_step(text, m, at(mn.offset), ops, in);
  const LoadStepForm* load = load_step_form(mn.text);
  StepTemplate load_tpl;
  if (load && !load_operands(load, at, mn, ops, in, load_tpl)) return false;
  const auto tpls = load ? std::vector<const StepTemplate*>{&load_tpl} : step_templates(mn.text);
  if (tpls.empty()) {
    error(at(mn.offset), "'" + mn.text + "' is not a register-to-register RV32IMF/Zve32x instruction nor a load "
                         "(compose steps may not store or branch; loads as 'lw rd, 8(rs1)' or 'vle8.v rd, (rs1)'; "
                         "vtype changes as 'vsetvli zero, zero, <sew>, <lmul>, <ta|tu>, <ma|mu>')");
    return false;
  }
  const StepTemplate* tpl = nullptr;
  for (const auto* t : tpls)
    if (t->slots.size() == ops.size()) tpl = t;
  if (!tpl) {
    error(at(mn.offset), "'" + mn.text + "' takes " + std::to_string(tpls[0]->slots.size()) + " operands, not " +
                             std::to_string(ops.size()));
    return false;
  }
  ComposeStep st;
  st.text = text;
  st.line = m.line + 1;
  st.col = m.column + 1;
  st.base = tpl->base;
  st.vector = (tpl->base & 0x7f) == 0x57;
  st.mnemonic = mn.text;
  // Reads are checked against names written so far, writes recorded after the step.
  std::vector<int> writes;
  for (size_t k = 0; k < ops.size(); ++k) {
    const StepOperandSlot& slot = tpl->slots[k];
    const std::string& tok = ops[k].text;
    int idx = -1;
    for (size_t i = 0; i < in.names.size(); ++i)
      if (in.names[i].name == tok) idx = int(i);
    if (slot.cls == ValueClass::Imm) {
      int64_t value = 0;
      char* end = nullptr;
      value = std::strtoll(tok.c_str(), &end, 0);
      if (idx >= 0 && in.names[idx].cls == ValueClass::Imm && !in.names[idx].temp) {
        st.imm_kind = slot.imm_kind;
        st.binds.push_back({Field::Imm, idx, ValueClass::Imm});
        st.names_by_position.push_back(idx);
        st.literals.push_back("");
      } else if (!tok.empty() && *end == '\0' && immediate_fits(slot.imm_kind, value)) {
        st.base = place(st.base, slot, uint32_t(value));
        st.names_by_position.push_back(-1);
        st.literals.push_back(std::to_string(value));
      } else {
        error(at(ops[k].offset), "operand " + std::to_string(k + 1) + " of '" + mn.text +
                                     "' is an immediate: a number in range or the instruction's imm operand");
        return false;
      }
      continue;
    }
    if (idx < 0 && (tok == "zero" || tok == "x0") && slot.cls == ValueClass::X && slot.field != Field::Rd) {
      st.names_by_position.push_back(-1);  // the hardwired zero: its field stays 0
      st.literals.push_back("zero");
      continue;
    }
    if (idx < 0) {
      error(at(ops[k].offset), "unknown name '" + tok + "' (an operand or a temp of this instruction)");
      return false;
    }
    auto& name = in.names[idx];
    if (name.temp && name.cls == ValueClass::Imm) name.cls = slot.cls;  // a temp takes its first use's class
    if (name.cls != slot.cls) {
      error(at(ops[k].offset), "'" + tok + "' is class " + to_string(name.cls) + " but operand " + std::to_string(k + 1) +
                                   " of '" + mn.text + "' is class " + to_string(slot.cls));
      return false;
    }
    const bool is_write = slot.field == Field::Rd;
    // An accumulating step reads its destination: a value from before (role readwrite) or
    // one an earlier step wrote (then it continues that value, an output's too).
    const bool accumulates = is_write && reads_destination(mn.text);
    if (accumulates && !(written[idx] || (!name.temp && in.operands[idx].read))) {
      error(at(ops[k].offset), "'" + mn.text + "' also reads its destination: '" + tok + "' must hold a value first");
      return false;
    }
    if (is_write) {
      if (!name.temp && !in.operands[idx].write) {
        error(at(ops[k].offset), "'" + tok + "' is an input (role read) and cannot be written");
        return false;
      }
      if (!name.temp && written[idx] && !accumulates) {
        error(at(ops[k].offset), "output '" + tok + "' is written twice; write a temp first");
        return false;
      }
      writes.push_back(idx);
    } else {
      const bool readable = name.temp ? written[idx] : in.operands[idx].read;
      if (!readable) {
        error(at(ops[k].offset), name.temp ? "temp '" + tok + "' is read before a step writes it"
                                           : "'" + tok + "' is an output (role write): steps may not read it");
        return false;
      }
    }
    st.binds.push_back({slot.field, idx, slot.cls});
    st.names_by_position.push_back(idx);
    st.literals.push_back("");
  }
  // Accumulating instructions (vmacc, fmadd has rs3) read rd too: their destination must be readable.
  for (int w : writes) written[w] = true;
  if (load) {
    st.load = true;
    st.load_bytes = load->bytes;
    st.vector = load->vector;  // a masked instruction masks its vector load too
  }
  in.steps.push_back(std::move(st));
  return true;
}

// A load step's operands as the step loop reads them: "8(rs1)" split into the offset (an
// I-type immediate, a literal) and the address register (rs1); a vector load has no offset.
// At most custom_memory_ports().loads loads in one instruction.
template <typename At>
bool Loader::load_operands(const LoadStepForm* load, const At& at, const Token& mn, std::vector<Token>& ops,
                           const CustomInsn& in, StepTemplate& tpl) {
  int loads = 0;
  for (const ComposeStep& st : in.steps) loads += st.load ? 1 : 0;
  if (loads >= custom_memory_ports().loads) {
    error(at(mn.offset), "'" + mn.text + "': an added instruction holds at most " +
                             std::to_string(custom_memory_ports().loads) + " load (the one LSU port it may use)");
    return false;
  }
  std::string offset, reg;
  if (ops.size() != 2 || !split_memory_operand(ops[1].text, offset, reg)) {
    error(at(mn.offset), "'" + mn.text + "' takes a destination and a memory operand: '" +
                             load_step_text(mn.text, "rd", "0", "rs1") + "'");
    return false;
  }
  if (load->vector && ops[1].text[0] != '(') {
    error(at(ops[1].offset), "'" + mn.text + "' takes no offset: '(name)'");
    return false;
  }
  const size_t open = ops[1].text.find('(');
  const Token address{reg, ops[1].offset + open + 1};
  ops = {ops[0], Token{offset, ops[1].offset}, address};
  tpl.mnemonic = mn.text;
  tpl.base = load->base;
  tpl.cls = load->vector ? OpClass::VecLoad : load->value == ValueClass::F ? OpClass::FpLoad : OpClass::Load;
  tpl.slots = {{Field::Rd, load->value}, {Field::Imm, ValueClass::Imm, 1}, {Field::Rs1, ValueClass::X}};
  // The LSU reads the address from the register file as the instruction issues: an input.
  for (size_t i = 0; i < in.operands.size(); ++i)
    if (in.operands[i].name == reg && in.operands[i].read && in.operands[i].value == ValueClass::X) return true;
  error(at(address.offset), "the address of '" + mn.text + "' must be an x input operand of the instruction, not '" +
                                reg + "' (the load issues first, from the register file)");
  return false;
}

// `vsetvli zero, zero, e16, m4, ta, ma`: the steps after it run at that vtype (vl kept).
bool Loader::vtype_step(const std::string& text, const YAML::Mark& line, const YAML::Mark& at,
                        const std::vector<Token>& ops, CustomInsn& in) {
  std::vector<std::string> words;
  for (const Token& t : ops) words.push_back(t.text);
  uint32_t vtype = 0;
  std::string why;
  if (!parse_vtype_step(words, vtype, why)) return error(at, why), false;
  ComposeStep st;
  st.text = text;
  st.line = line.line + 1;
  st.col = line.column + 1;
  st.base = 0x57u | 7u << 12 | vtype << 20;  // OP-V, OPCFG: vsetvli x0, x0, vtype
  st.mnemonic = "vsetvli";
  st.sets_vtype = int32_t(vtype);
  st.names_by_position.assign(words.size(), -1);
  st.literals = words;
  in.steps.push_back(std::move(st));
  return true;
}

void Loader::timing(const YAML::Node& n, CustomInsn& in) {
  const bool vec = in.is_vector();
  bool fp = false;
  for (const auto& o : in.operands) fp = fp || o.value == ValueClass::F;
  in.unit = vec ? CustomUnit::VecAlu : fp ? CustomUnit::Fpu : CustomUnit::Alu;
  if (!n) return;
  if (!n.IsMap()) return error(n, "`timing:` is a mapping {unit, latency, ii}");
  check_keys(n, {"unit", "latency", "ii", "read_ports", "write_ports"}, "timing");
  if (const YAML::Node u = n["unit"]) {
    static const std::map<std::string, CustomUnit> units = {{"alu", CustomUnit::Alu},     {"mul", CustomUnit::Mul},
                                                             {"fpu", CustomUnit::Fpu},     {"valu", CustomUnit::VecAlu},
                                                             {"vmul", CustomUnit::VecMul}, {"vpermute", CustomUnit::VecPermute}};
    if (!units.count(u.Scalar())) return error(u, "unknown unit '" + u.Scalar() + "' (alu, mul, fpu, valu, vmul, vpermute)");
    in.unit = units.at(u.Scalar());
    const bool vunit = in.unit >= CustomUnit::VecAlu;
    if (vunit != vec)
      return error(u, vec ? "an instruction with vector operands runs on a vector backend unit (valu, vmul, vpermute)"
                          : "a scalar instruction runs on the scalar pipeline (alu, mul, fpu)");
  }
  int64_t v = 0;
  if (n["latency"] && integer(n["latency"], 1, 256, "latency", v)) in.latency = uint32_t(v);
  if (n["ii"] && integer(n["ii"], 1, 64, "ii", v)) {
    in.ii = uint32_t(v);
    if (in.ii > 1 && in.unit == CustomUnit::Alu) error(n["ii"], "the scalar ALU is pipelined: ii must be 1 (use unit mul or fpu)");
  }
  if (n["read_ports"]) integer(n["read_ports"], 0, 3, "read_ports", v);
  if (n["write_ports"]) integer(n["write_ports"], 0, 1, "write_ports", v);
}

void Loader::clashes(const YAML::Node& n, const CustomInsn& in) {
  for (const auto& other : into_.instructions()) {
    if (((in.match ^ other.match) & in.mask & other.mask) == 0)
      error(n, "encoding of '" + in.mnemonic + "' clashes with '" + other.mnemonic + "' (" + other.file + ":" +
                   std::to_string(other.line) + ":" + std::to_string(other.col) + ")");
  }
  const DecodedInsn d = decode(in.match, nullptr);
  if (d.exec != decode(0xffffffffu, nullptr).exec)
    error(n, "encoding of '" + in.mnemonic + "' clashes with the standard instruction '" + Hart::disassemble(in.match, 0) + "'");
}

}  // namespace

void parse_custom_overlay(const std::string& text, const std::string& file, CustomExtensions& into) {
  Loader l(file, text, into);
  try {
    l.run(YAML::Load(text));
  } catch (const YAML::Exception& e) {
    l.errors.push_back(where(file, e.mark) + ": " + e.msg);
  }
  if (!l.errors.empty()) {
    std::string all;
    for (const auto& e : l.errors) all += (all.empty() ? "" : "\n") + e;
    throw CustomExtError(all);
  }
  into.mutable_files().push_back(file);
}

std::shared_ptr<const CustomExtensions> load_custom_extensions(const std::vector<std::string>& files) {
  auto ext = std::make_shared<CustomExtensions>();
  constexpr uintmax_t kMaxOverlayBytes = 16u << 20;  // an overlay is a few KB
  for (const auto& f : files) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(f, ec)) throw CustomExtError(f + ": not a readable ISA overlay file");
    if (std::filesystem::file_size(f, ec) > kMaxOverlayBytes)
      throw CustomExtError(f + ": the ISA overlay is over " + std::to_string(kMaxOverlayBytes) + " bytes");
    std::ifstream in(f, std::ios::binary);
    if (!in) throw CustomExtError(f + ": cannot read the ISA overlay");
    std::ostringstream ss;
    ss << in.rdbuf();
    parse_custom_overlay(ss.str(), f, *ext);
  }
  return ext;
}

std::vector<std::string> variant_overlays() {
  std::vector<std::string> out = isa_source("riscv").overlays;
  const char* v = std::getenv("TLMCRAFT_ISA_EXT");
  if (!v) return out;
  std::istringstream in(v);
  for (std::string p; std::getline(in, p, ':');)
    if (!p.empty()) out.push_back(p);
  return out;
}

}  // namespace tlmcraft::isa::riscv
