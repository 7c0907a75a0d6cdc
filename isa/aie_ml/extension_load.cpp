// Loads the ops of aie_ml.yaml that have no C++ semantics: their named operands, and their
// `compose:` steps (assembled here against the built-in ops, each step's operands bound to
// the op's operands or temporaries) or their `semantics:` expression. Every problem is an
// error at its file:line:col (extension_ops.h says how these ops execute).
#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "isa/aie_ml/extension_semantics.h"
#include "isa/aie_ml/isa_loader.h"
#include "isa/aie_ml/op_codes.h"
#include "isa/isa_spec.h"

namespace tlmcraft::isa::aie_ml {

bool allocate_hidden_register(RegClass cls, std::vector<uint16_t>& used, int& num) {
  for (int n = 0; n < reg_class_count(cls); ++n) {
    const std::vector<uint16_t> units = storage_units(cls, n);
    if (std::any_of(units.begin(), units.end(), [&](uint16_t u) { return std::count(used.begin(), used.end(), u) > 0; }))
      continue;
    used.insert(used.end(), units.begin(), units.end());
    num = n;
    return true;
  }
  return false;
}

namespace {

// A concrete register class ("x", "bm", "r"...), not a shape that accepts several.
bool register_class_of(const std::string& shape, RegClass& out) {
  if (shape == "sdst" || shape == "ssrc" || shape == "vany") return false;
  for (int c = int(RegClass::R); c <= int(RegClass::LR); ++c)
    if (shape == reg_class_prefix(RegClass(c))) return out = RegClass(c), true;
  return false;
}

bool is_vector_class(RegClass c) { return CoreState::view_bytes(c) > 0; }

// Element formats of lanes (vector classes) or of a scalar register's value.
bool format_fits(const std::string& f, RegClass cls) {
  static const char* vector_formats[] = {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "bf16", "fp32", "f32"};
  static const char* scalar_formats[] = {"i8", "i16", "i32", "u8", "u16", "u32"};
  if (is_vector_class(cls)) return std::count(std::begin(vector_formats), std::end(vector_formats), f) > 0;
  return std::count(std::begin(scalar_formats), std::end(scalar_formats), f) > 0;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// A name that reads as a register (x1, bm0, ls, crsat) would be ambiguous in a step.
bool looks_like_register(const std::string& s) {
  size_t i = 0;
  while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
  const std::string prefix = s.substr(0, i), digits = s.substr(i);
  static const char* singles[] = {"ls", "le", "lc", "lr", "crrnd", "crsat"};
  if (digits.empty()) return std::count(std::begin(singles), std::end(singles), prefix) > 0;
  static const char* prefixes[] = {"r", "p", "m", "dn", "dj", "dc", "s", "w", "wl", "wh", "x", "y",
                                   "am", "amll", "amlh", "amhl", "amhh", "bm", "bml", "bmh", "cm"};
  return std::all_of(digits.begin(), digits.end(), ::isdigit) &&
         std::count(std::begin(prefixes), std::end(prefixes), prefix) > 0;
}

// Checks a new operand or temp name; records it.
bool check_name(YamlErrors& L, const YAML::Node& at, const std::string& name, const std::string& mnemonic,
                std::vector<std::string>& names) {
  if (!is_identifier(name)) {
    L.error(at, mnemonic + ": '" + name + "' is not a name (letters, digits, '_')");
    return false;
  }
  if (looks_like_register(name)) {
    L.error(at, mnemonic + ": the name '" + name + "' is a register name; choose another (d, a, b, acc, t0...)");
    return false;
  }
  if (std::count(names.begin(), names.end(), name)) {
    L.error(at, mnemonic + ": the name '" + name + "' is used twice");
    return false;
  }
  names.push_back(name);
  return true;
}

const char* kClassList = "r, p, m, dn, dj, dc, s, w, x, y, am, bm, cm, ls, le, lc, lr";

}  // namespace

void read_named_operands(YamlErrors& L, const YAML::Node& list, const AieIsaDetails& d, OpSpec& op, OpExtra& ex,
                         ExtensionOp& ext) {
  op.operands.clear();
  ex.dst = 0;
  ex.rw.clear();
  bool reads_started = false;
  std::vector<std::string> names;
  for (const auto& n : list) {
    L.check_keys(n, {"name", "class", "role", "format"}, "an operand of op " + op.mnemonic);
    ExtOperand a;
    a.name = YamlErrors::text(n, "name");
    a.shape = YamlErrors::text(n, "class");
    const YAML::Node class_node = n["class"] ? n["class"] : n;
    check_name(L, n["name"] ? n["name"] : n, a.name, op.mnemonic, names);
    if (!n["class"]) {
      L.error(n, op.mnemonic + ": operand '" + a.name + "' needs `class:` (a register class or an immediate kind)");
    } else if (!register_class_of(a.shape, a.cls) && !d.imm(a.shape)) {
      std::string kinds;
      for (const auto& k : d.immediates) kinds += (kinds.empty() ? "" : ", ") + k.name;
      L.error(class_node, op.mnemonic + ": register class '" + a.shape + "' does not exist in the AIE-ML ISA (" + kClassList +
                              "; or an immediate kind: " + kinds + ")");
    }
    const std::string role = n["role"] ? YamlErrors::text(n, "role") : "read";
    if (role == "read") a.role = ExtOperand::Role::Read;
    else if (role == "write") a.role = ExtOperand::Role::Write;
    else if (role == "readwrite") a.role = ExtOperand::Role::ReadWrite;
    else L.error(n["role"], op.mnemonic + ": role '" + role + "' must be read, write or readwrite");
    if (a.written() && a.cls == RegClass::None && d.imm(a.shape))
      L.error(n["role"], op.mnemonic + ": operand '" + a.name + "' is an immediate and cannot be written");
    if (a.written()) {
      if (reads_started)
        L.error(n, op.mnemonic + ": written operands come first (operand '" + a.name + "' follows a read-only one)");
      if (a.role == ExtOperand::Role::ReadWrite) ex.rw.push_back(ex.dst);
      ++ex.dst;
    } else {
      reads_started = true;
    }
    a.format = YamlErrors::text(n, "format");
    if (a.format == "f32") a.format = "fp32";
    if (n["format"] && a.cls != RegClass::None && !format_fits(a.format, a.cls))
      L.error(n["format"], op.mnemonic + ": format '" + a.format + "' does not fit class '" + a.shape + "' (" +
                               (is_vector_class(a.cls) ? "lanes: i8 i16 i32 i64 u8 u16 u32 bf16 fp32" : "scalars: i8 i16 i32 u8 u16 u32") +
                               ")");
    if (n["format"] && a.cls == RegClass::None && a.format != "i32")
      L.error(n["format"], op.mnemonic + ": an immediate operand has format i32, not '" + a.format + "'");
    op.operands.push_back(a.shape);
    ext.operands.push_back(a);
  }
}

namespace {

struct StepToken {
  std::string text;
  size_t col = 0;  // 0-based offset in the step string
};

// The mnemonic and comma-separated operands of one step, with their offsets.
std::vector<StepToken> split_step(const std::string& s) {
  std::vector<StepToken> out;
  size_t i = s.find_first_not_of(" \t");
  if (i == std::string::npos) return out;
  size_t e = s.find_first_of(" \t", i);
  out.push_back({s.substr(i, e == std::string::npos ? std::string::npos : e - i), i});
  if (e == std::string::npos) return out;
  size_t start = e;
  for (size_t k = e; k <= s.size(); ++k) {
    if (k < s.size() && s[k] != ',') continue;
    const std::string part = s.substr(start, k - start);
    const size_t b = part.find_first_not_of(" \t");
    const size_t last = part.find_last_not_of(" \t");
    if (b == std::string::npos) out.push_back({"", start});
    else out.push_back({part.substr(b, last - b + 1), start + b});
    start = k + 1;
  }
  return out;
}

bool composable(Code c, const OpExtra& ex, const OpSpec& s) {
  if (ex.access_bytes) return false;
  for (const auto& shape : s.operands)
    if (shape.find("mem") != std::string::npos || shape.find("ptrmod") != std::string::npos ||
        shape.find("label") != std::string::npos)
      return false;
  switch (c) {
    case Code::J: case Code::JL: case Code::JZ: case Code::JNZ: case Code::JNZD: case Code::RET:
    case Code::ACQ: case Code::ACQ_EQ: case Code::REL: case Code::DONE: case Code::NOP:
    case Code::VLT_S8: case Code::VSEL_8:  // they use a register pair: r and r+1
      return false;
    default: return true;
  }
}

// A name of the op: an operand (temp = false) or a temp, with its placeholder register.
struct Named {
  bool temp = false;
  int index = 0;
  RegClass cls = RegClass::None;
  int num = 0;
  std::string imm_text;  // an immediate operand's placeholder value
};

class ComposeBuilder {
 public:
  ComposeBuilder(YamlErrors& L, const AieIsaDetails& d, ExtensionOp& ext) : L_(L), d_(d), ext_(ext) {}

  void build(const YAML::Node& c) {
    L_.check_keys(c, {"temps", "steps"}, "compose of op " + ext_.mnemonic);
    if (!c.IsMap()) {
      L_.error(c, ext_.mnemonic + ": compose is a mapping: {temps: [...], steps: [...]}");
      return;
    }
    if (!read_temps(c["temps"]) || !place_names(c)) return;
    const YAML::Node steps = c["steps"];
    if (!steps || !steps.IsSequence() || steps.size() == 0) {
      L_.error(steps ? steps : c, ext_.mnemonic + ": compose needs `steps:`, a list of ops (\"VADD.F t, a, b\")");
      return;
    }
    written_.assign(ext_.operands.size() + ext_.temps.size(), false);
    for (size_t k = 0; k < steps.size(); ++k)
      if (!step(steps[k], k + 1)) return;  // later steps would only repeat the consequences
    for (size_t i = 0; i < ext_.operands.size(); ++i)
      if (ext_.operands[i].written() && !written_[i])
        L_.error(c, ext_.mnemonic + ": output '" + ext_.operands[i].name + "' is never written by a step");
  }

 private:
  bool read_temps(const YAML::Node& temps) {
    std::vector<std::string> names;
    for (const auto& o : ext_.operands) names.push_back(o.name);
    if (!temps) return true;
    if (!temps.IsSequence()) {
      L_.error(temps, ext_.mnemonic + ": temps is a list: [{name: t, class: bm}, ...]");
      return false;
    }
    bool ok = true;
    for (const auto& t : temps) {
      L_.check_keys(t, {"name", "class"}, "a temp of op " + ext_.mnemonic);
      ExtTemp temp;
      temp.name = YamlErrors::text(t, "name");
      ok = check_name(L_, t["name"] ? t["name"] : t, temp.name, ext_.mnemonic, names) && ok;
      if (!register_class_of(YamlErrors::text(t, "class"), temp.cls)) {
        L_.error(t["class"] ? t["class"] : t, ext_.mnemonic + ": register class '" + YamlErrors::text(t, "class") +
                                                  "' does not exist in the AIE-ML ISA (" + kClassList + ")");
        ok = false;
      }
      ext_.temps.push_back(temp);
    }
    return ok;
  }

  // Placeholder registers: every operand and temp its own register (the worst case: no
  // operands alias), plus a renamed copy of every output, as the executor allocates them.
  bool place_names(const YAML::Node& c) {
    std::vector<uint16_t> used;
    auto place = [&](const std::string& name, RegClass cls, Named n) {
      if (!allocate_hidden_register(cls, used, n.num)) {
        L_.error(c, ext_.mnemonic + ": too many registers of class '" + reg_class_prefix(cls) + "' for '" + name +
                        "' (operands, their renamed outputs and temps must fit in the register file)");
        return false;
      }
      n.cls = cls;
      named_[name] = n;
      return true;
    };
    for (size_t i = 0; i < ext_.operands.size(); ++i) {
      const ExtOperand& o = ext_.operands[i];
      Named n{false, int(i)};
      if (o.cls == RegClass::None) {
        const ImmKind* k = d_.imm(o.shape);
        int64_t v = k->min;
        while (v % k->align) ++v;
        n.imm_text = std::to_string(v);
        named_[o.name] = n;
      } else if (!place(o.name, o.cls, n)) {
        return false;
      }
    }
    for (size_t i = 0; i < ext_.temps.size(); ++i)
      if (!place(ext_.temps[i].name, ext_.temps[i].cls, Named{true, int(i)})) return false;
    for (const auto& o : ext_.operands) {
      int num;
      if (o.written() && !allocate_hidden_register(o.cls, used, num)) {
        L_.error(c, ext_.mnemonic + ": too many registers of class '" + o.shape + "' to rename output '" + o.name + "'");
        return false;
      }
    }
    return true;
  }

  void error_at(const YAML::Node& n, size_t offset, const std::string& msg) {
    YAML::Mark m = n.Mark();
    m.column += int(offset) + (n.Tag() == "!" ? 1 : 0);  // a quoted scalar starts at its quote
    L_.error(m, msg);
  }

  std::string names_list() const {
    std::string s;
    for (const auto& o : ext_.operands) s += (s.empty() ? "" : ", ") + o.name;
    for (const auto& t : ext_.temps) s += (s.empty() ? "" : ", ") + t.name;
    return s;
  }

  // Does operand `i` of step op `s` accept this name's register class or immediate kind?
  bool accepts(const OpSpec& s, size_t i, const Named& n) const {
    std::stringstream alts(s.operands[i]);
    const ExtOperand* o = n.temp ? nullptr : &ext_.operands[size_t(n.index)];
    for (std::string a; std::getline(alts, a, '|');) {
      if (n.cls != RegClass::None && is_register_shape(a) && shape_accepts_class(a, n.cls)) return true;
      if (n.cls == RegClass::None && o) {
        const ImmKind* k = d_.imm(o->shape);
        const ImmKind* want = d_.imm(a);
        if (k && want && want->min <= k->min && k->max <= want->max && k->align % want->align == 0) return true;
      }
    }
    return false;
  }

  bool step(const YAML::Node& node, size_t number) {
    const std::string where = ext_.mnemonic + " step " + std::to_string(number);
    if (!node.IsScalar()) {
      L_.error(node, where + ": a step is one op as text (\"VADD.F t, a, b\")");
      return false;
    }
    const std::string text = node.Scalar();
    const std::vector<StepToken> toks = split_step(text);
    if (toks.empty()) {
      L_.error(node, where + ": empty step");
      return false;
    }
    std::string mn = toks[0].text;
    for (char& ch : mn) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    const OpSpec* s = d_.isa.find(mn);
    if (!s) {
      error_at(node, toks[0].col, where + ": unknown op '" + toks[0].text + "' (a step is a built-in op of this ISA)");
      return false;
    }
    const size_t si = size_t(s - d_.isa.ops.data());
    if (Code(s->code) == Code::Extension) {
      error_at(node, toks[0].col, where + ": '" + mn + "' is itself added by data; steps are built-in ops");
      return false;
    }
    if (!composable(Code(s->code), d_.extra[si], *s)) {
      error_at(node, toks[0].col, where + ": '" + mn + "' accesses memory, controls flow, takes a lock or uses a register "
                                           "pair; a compose step is a register-to-register op");
      return false;
    }
    if (toks.size() - 1 != s->operands.size()) {
      error_at(node, toks[0].col, where + ": '" + mn + "' takes " + std::to_string(s->operands.size()) + " operands, got " +
                                      std::to_string(toks.size() - 1));
      return false;
    }
    ComposeStep cs;
    cs.text = text;
    std::string sub = mn;
    std::vector<std::pair<size_t, size_t>> col_map;  // (offset in sub, offset in text)
    for (size_t i = 1; i < toks.size(); ++i) {
      const StepToken& t = toks[i];
      sub += i == 1 ? " " : ", ";
      col_map.push_back({sub.size(), t.col});
      const auto it = named_.find(t.text);
      if (it == named_.end()) {
        if (t.text.empty() || std::isalpha(static_cast<unsigned char>(t.text[0])) || t.text[0] == '_') {
          error_at(node, t.col, where + ": '" + t.text + "' is not an operand or temp of " + ext_.mnemonic + " (" +
                                    names_list() + "); a step names them, or gives an immediate");
          return false;
        }
        sub += t.text;  // a literal immediate
        continue;
      }
      const Named& n = it->second;
      if (!accepts(*s, i - 1, n)) {
        const std::string what = n.cls == RegClass::None ? "an immediate " + ext_.operands[size_t(n.index)].shape
                                                         : std::string("class ") + reg_class_prefix(n.cls);
        error_at(node, t.col, where + ": '" + t.text + "' (" + what + ") does not fit operand " + std::to_string(i) + " of " +
                                  mn + " (" + s->operands[i - 1] + ")");
        return false;
      }
      sub += n.cls == RegClass::None ? n.imm_text : std::string(reg_class_prefix(n.cls)) + std::to_string(n.num);
      cs.bindings.push_back({int(i - 1), n.temp, n.index});
    }
    std::vector<Diagnostic> diags;
    AieProgram prog = assemble_core_with(d_, sub, L_.file, 1, diags);
    if (!diags.empty() || prog.bundles.size() != 1 || prog.bundles[0].ops.size() != 1) {
      const Diagnostic& g = diags.empty() ? Diagnostic{} : diags[0];
      size_t offset = 0;
      for (const auto& [in_sub, in_text] : col_map)
        if (g.col >= 1 && in_sub <= g.col - 1) offset = in_text;
      error_at(node, offset, where + ": " + (diags.empty() ? std::string("does not assemble") : g.message));
      return false;
    }
    cs.op = prog.bundles[0].ops[0];
    if (!check_roles(node, cs, d_.extra[si], where, toks)) return false;
    collect_implicit_reads(cs);
    ext_.steps.push_back(std::move(cs));
    return true;
  }

  // Inputs are never written; outputs and temps are written before a step reads them.
  bool check_roles(const YAML::Node& node, const ComposeStep& cs, const OpExtra& sx, const std::string& where,
                   const std::vector<StepToken>& toks) {
    std::vector<size_t> writes_now;
    for (const auto& b : cs.bindings) {
      const bool w = b.step_operand < sx.dst;
      const bool r = !w || std::count(sx.rw.begin(), sx.rw.end(), b.step_operand) > 0;
      const size_t slot = b.temp ? ext_.operands.size() + size_t(b.index) : size_t(b.index);
      const std::string& name = toks[size_t(b.step_operand) + 1].text;
      const size_t col = toks[size_t(b.step_operand) + 1].col;
      const bool input = !b.temp && !ext_.operands[size_t(b.index)].written();
      const bool output_only = !b.temp && ext_.operands[size_t(b.index)].role == ExtOperand::Role::Write;
      if (w && input) {
        error_at(node, col, where + ": writes input '" + name + "'; inputs are read-only (write an output or a temp)");
        return false;
      }
      if (r && (b.temp || output_only) && !written_[slot]) {
        error_at(node, col, where + ": reads '" + name + "' before any step writes it");
        return false;
      }
      if (w) writes_now.push_back(slot);
    }
    for (size_t slot : writes_now) written_[slot] = true;
    return true;
  }

  // Storage units a step reads that are not its bound registers (the SRS control registers).
  void collect_implicit_reads(const ComposeStep& cs) {
    std::vector<uint16_t> bound;
    for (const auto& b : cs.bindings) {
      const Operand& o = cs.op.operands[size_t(b.step_operand)];
      if (o.kind != Operand::Kind::Reg) continue;
      for (uint16_t u : storage_units(o.cls, o.num)) bound.push_back(u);
    }
    for (uint16_t u : cs.op.reads)
      if (!std::count(bound.begin(), bound.end(), u) && !std::count(ext_.implicit_reads.begin(), ext_.implicit_reads.end(), u))
        ext_.implicit_reads.push_back(u);
  }

  YamlErrors& L_;
  const AieIsaDetails& d_;
  ExtensionOp& ext_;
  std::map<std::string, Named> named_;
  std::vector<bool> written_;  // operands then temps: written by an earlier step
};

// MACs of a composed op: its steps' (one format), unless the YAML states them.
void derive_macs(YamlErrors& L, const AieIsaDetails& d, const YAML::Node& node, const ExtensionOp& ext, OpSpec& spec) {
  if (spec.macs) return;
  for (const auto& s : ext.steps) {
    const OpSpec& step = d.isa.ops[s.op.op];
    if (!step.macs) continue;
    if (spec.mac_format != MacFormat::None && spec.mac_format != step.mac_format) {
      L.error(node, spec.mnemonic + ": steps multiply in several formats; state `macs` and `format`");
      return;
    }
    spec.mac_format = step.mac_format;
    spec.macs += step.macs;
  }
}

// `replaces:` a composition in `compose:` syntax, checked like one (on a scratch copy of the
// op), kept only as the pattern the search agent matches.
void read_replaces(YamlErrors& L, const AieIsaDetails& d, const YAML::Node& replaces, ExtensionOp& ext) {
  ExtensionOp scratch = ext;
  scratch.temps.clear();
  scratch.steps.clear();
  ComposeBuilder(L, d, scratch).build(replaces);
  ext.replaces_temps = std::move(scratch.temps);
  ext.replaces = std::move(scratch.steps);
}

}  // namespace

void build_extension(YamlErrors& L, AieIsaDetails& d, const PendingExtension& p, ExtensionOp ext) {
  OpSpec& spec = d.isa.ops[p.op_index];
  const YAML::Node compose = p.node["compose"], semantics = p.node["semantics"], replaces = p.node["replaces"];
  const size_t errors_before = L.errors.size();
  if (compose && semantics) {
    L.error(semantics, spec.mnemonic + ": give `compose:` or `semantics:`, not both");
    return;
  }
  if (replaces && !semantics) {
    L.error(replaces, spec.mnemonic + ": `replaces:` is allowed only beside `semantics:` (a composed op is matched by "
                                      "its own steps)");
    return;
  }
  if (compose) {
    ComposeBuilder(L, d, ext).build(compose);
    if (L.errors.size() == errors_before) derive_macs(L, d, compose, ext, spec);
    if (spec.operation.empty())
      for (const auto& s : ext.steps) spec.operation += (spec.operation.empty() ? "" : "; ") + s.text;
  } else {
    ext.semantics = parse_extension_semantics(L, semantics, ext);
    if (spec.operation.empty() && semantics.IsScalar()) {
      spec.operation = semantics.Scalar();
      spec.operation.erase(spec.operation.find_last_not_of(" \n") + 1);  // a literal block ends in '\n'
    }
    if (replaces) read_replaces(L, d, replaces, ext);
    if (ext.semantics) {
      try {
        ext.actions = semantics_actions(*ext.semantics, spec.slot == Slot::Vector ? "vector" : "scalar");
      } catch (const ActionError& e) {
        L.error(semantics, spec.mnemonic + ": " + e.what());
      }
    }
  }
  if (L.errors.size() != errors_before) return;
  spec.extension = int(d.isa.extensions.size());
  d.isa.extensions.push_back(std::make_shared<const ExtensionOp>(std::move(ext)));
}

}  // namespace tlmcraft::isa::aie_ml
