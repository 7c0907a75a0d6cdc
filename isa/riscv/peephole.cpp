// The composed-instruction peephole (peephole.h): the assembly is parsed into lines with
// register defs and uses, split into basic blocks, liveness is solved over the blocks,
// and each match is replaced; the text is re-analysed after every replacement.
#include "isa/riscv/peephole.h"

#include <algorithm>
#include <bitset>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

#include "isa/dataflow/pattern_match.h"
#include "isa/dataflow/placement_order.h"
#include "isa/riscv/compose_vtype.h"
#include "isa/riscv/load_step.h"
#include "isa/riscv/register_names.h"
#include "isa/riscv/step_encoder.h"

namespace tlmcraft::isa::riscv {
namespace {

using RegSet = std::bitset<128>;
// vtype/vl as two pseudo-registers: "vtype" (SEW and LMUL) and "vl" (vl, the SEW/LMUL
// ratio and the tail/mask policies). A unit-stride or strided load or store reads only
// "vl" (its EMUL = EEW x LMUL / SEW depends on the ratio alone), so a vtype change that
// keeps the ratio does not reach it (compositions across a vtype change, compose_vtype.h).
constexpr int kVtype = 96, kVl = 97;
// Data memory as one pseudo-register "mem": loads read it; stores, fences and CSR accesses
// write it (a CSR access may have side effects on what memory holds), so no match moves a
// load step across them (memory order: load_step.h).
constexpr int kMem = 98;


// Register id of an operand token (x 0-31, f 32-63, v 64-95), or -1. "8(a0)" is a0.
int reg_of(std::string t) {
  const size_t open = t.find('(');
  if (open != std::string::npos) {
    const size_t close = t.find(')', open);
    t = t.substr(open + 1, close == std::string::npos ? std::string::npos : close - open - 1);
  }
  if (t == "v0.t") return 64;
  static const std::map<std::string, int> names = [] {
    std::map<std::string, int> m;
    for (int i = 0; i < 32; ++i) {
      m[kXNames[i]] = i;
      m["x" + std::to_string(i)] = i;
      m[kFNames[i]] = 32 + i;
      m["f" + std::to_string(i)] = 32 + i;
      m["v" + std::to_string(i)] = 64 + i;
    }
    m["fp"] = 8;
    return m;
  }();
  auto it = names.find(t);
  return it == names.end() ? -1 : it->second;
}

std::string reg_name(int r) {
  if (r < 32) return kXNames[r];
  if (r < 64) return kFNames[r - 32];
  return "v" + std::to_string(r - 64);
}

std::string pseudo_or_reg_name(int r) {
  return r == kVtype ? "vtype" : r == kVl ? "vl" : r == kMem ? "mem" : reg_name(r);
}

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

struct Line {
  std::string text;
  bool insn = false, label = false, deleted = false;
  std::string name;               // label name
  std::string mnemonic;
  std::vector<std::string> ops;
  RegSet defs, uses;
  bool barrier = false;           // inline asm, calls: nothing may be moved across
  bool ends_block = false, falls_through = true;
  std::string target;             // branch/jump target label
};

bool is_branch(const std::string& m) {
  static const std::set<std::string> b = {"beq", "bne", "blt", "bge", "bltu", "bgeu", "bgt", "ble", "bgtu", "bleu",
                                          "beqz", "bnez", "blez", "bgez", "bltz", "bgtz"};
  return b.count(m) > 0;
}

bool is_store(const std::string& m) {
  if (m == "sb" || m == "sh" || m == "sw" || m == "fsw" || m == "vsm.v") return true;
  auto digit_after = [&](const char* p) { return starts(m, p) && m.size() > std::strlen(p) && std::isdigit(uint8_t(m[std::strlen(p)])); };
  return digit_after("vse") || digit_after("vsse") || digit_after("vsuxei") || digit_after("vsoxei") ||
         (starts(m, "vs") && m.size() == 6 && std::isdigit(uint8_t(m[2])) && m.substr(3) == "r.v");
}

bool is_load(const std::string& m) {
  return m == "lb" || m == "lh" || m == "lw" || m == "lbu" || m == "lhu" || m == "flw" || starts(m, "vl");
}

void reads_vector_config(Line& l) {
  l.uses.set(kVl);
  if (!reads_only_vl(l.mnemonic)) l.uses.set(kVtype);
}

bool reads_destination(const std::string& m) {
  return starts(m, "vmacc") || starts(m, "vnmsac") || starts(m, "vmadd") || starts(m, "vnmsub") || starts(m, "vwmacc") ||
         starts(m, "vslideup") || starts(m, "vmerge");
}

void uses_all_tokens(Line& l) {
  for (const auto& t : l.ops)
    if (int r = reg_of(t); r >= 0) l.uses.set(size_t(r));
}

void classify(Line& l) {
  const std::string& m = l.mnemonic;
  const bool vector = m[0] == 'v';
  if (is_branch(m)) {
    uses_all_tokens(l);
    l.ends_block = true;
    l.target = l.ops.empty() ? "" : l.ops.back();
    return;
  }
  if (m == "j") {
    l.ends_block = true;
    l.falls_through = false;
    l.target = l.ops.empty() ? "" : l.ops[0];
    return;
  }
  if (m == "ret") {
    l.ends_block = true;
    l.falls_through = false;
    for (const char* r : {"a0", "a1", "fa0", "fa1", "sp", "ra", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8",
                          "s9", "s10", "s11", "fs0", "fs1", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9",
                          "fs10", "fs11"})
      l.uses.set(size_t(reg_of(r)));
    return;
  }
  if (m == "call" || m == "tail" || m == "jal" || m == "jalr" || m == "jr" || m == "ecall" || m == "ebreak") {
    l.barrier = true;
    l.uses.set();
    if (m == "tail" || m == "jr") {
      l.ends_block = true;
      l.falls_through = false;
    }
    return;
  }
  if (m == "fence" || m == "fence.i" || starts(m, "csr")) l.defs.set(kMem);
  if (is_load(m)) l.uses.set(kMem);
  if (is_store(m)) {
    l.defs.set(kMem);
    uses_all_tokens(l);
    if (vector) reads_vector_config(l);
    return;
  }
  if (starts(m, "vset")) {
    if (!l.ops.empty())
      if (int r = reg_of(l.ops[0]); r >= 0) l.defs.set(size_t(r));
    for (size_t k = 1; k < l.ops.size(); ++k)
      if (int r = reg_of(l.ops[k]); r >= 0) l.uses.set(size_t(r));
    l.defs.set(kVtype);
    l.defs.set(kVl);
    return;
  }
  // Everything else writes its first operand (when it is a register) and reads the rest.
  for (size_t k = 0; k < l.ops.size(); ++k) {
    const int r = reg_of(l.ops[k]);
    if (r < 0) continue;
    if (k == 0 && l.ops[k] != "v0.t" && l.ops[k].find('(') == std::string::npos) l.defs.set(size_t(r));
    else l.uses.set(size_t(r));
  }
  const bool masked = !l.ops.empty() && l.ops.back() == "v0.t";
  if (vector && (masked || reads_destination(m)) && !l.ops.empty())
    if (int r = reg_of(l.ops[0]); r >= 0) l.uses.set(size_t(r));
  if (vector) reads_vector_config(l);
  l.defs.reset(0);  // x0
}

std::vector<Line> parse(const std::string& text) {
  std::vector<Line> lines;
  bool in_asm = false;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    Line l;
    l.text = text.substr(pos, nl - pos);
    pos = nl + 1;
    std::string body = l.text;
    const size_t first = body.find_first_not_of(" \t");
    if (first != std::string::npos && body.compare(first, 4, "#APP") == 0) in_asm = true;
    if (first != std::string::npos && body.compare(first, 7, "#NO_APP") == 0) in_asm = false;
    if (const size_t hash = body.find('#'); hash != std::string::npos) body = body.substr(0, hash);
    const size_t start = body.find_first_not_of(" \t");
    if (start == std::string::npos) {
      lines.push_back(l);
      if (pos > text.size()) break;
      continue;
    }
    const size_t colon = body.find(':');
    if (start == 0 && colon != std::string::npos && body.find_first_of(" \t") > colon) {
      l.label = true;
      l.name = body.substr(0, colon);
    } else if (body[start] != '.' || in_asm) {
      Token mn;
      std::vector<Token> ops;
      split_instruction(body, mn, ops);
      l.insn = true;
      l.mnemonic = mn.text;
      for (const auto& o : ops) l.ops.push_back(o.text);
      if (in_asm || l.mnemonic[0] == '.') {
        l.barrier = true;
        l.uses.set();
      } else {
        classify(l);
      }
    }
    lines.push_back(l);
    if (pos > text.size()) break;
  }
  return lines;
}

// The lines as the shared matcher's dataflow (isa/dataflow/): one op per instruction
// line, registers as storage by ABI name (x0 a literal "zero"), vtype/vl as "vtype", a
// label as a barrier op (another path may enter there) that branches jump to (except
// clang's debug-range labels .Ltmp*); a return
// reads the ABI's return and callee-saved registers, a jump to an unknown label reads
// everything.
struct Flow {
  std::vector<dataflow::Op> ops;
  std::vector<size_t> line;  // per op: its line
};

// Literal text as the overlay's steps hold it: an integer in decimal, x0 as "zero".
std::string literal_text(const std::string& tok) {
  if (reg_of(tok) == 0) return "zero";
  char* end = nullptr;
  const long long v = std::strtoll(tok.c_str(), &end, 0);
  return !tok.empty() && *end == '\0' ? std::to_string(v) : tok;
}

// The operand tokens as the matcher sees them: a load's "8(a1)" is the offset "8" and the
// address register "a1" (as a load step's operands, load_step.h).
std::vector<std::string> operand_tokens(const Line& l) {
  std::string offset, reg;
  if (load_step_form(l.mnemonic) && l.ops.size() == 2 && split_memory_operand(l.ops[1], offset, reg))
    return {l.ops[0], offset, reg};
  return l.ops;
}

dataflow::Op op_of(const Line& l) {
  dataflow::Op op;
  op.mnemonic = l.mnemonic;
  op.barrier = l.barrier || l.ends_block;
  op.falls_through = l.falls_through;
  const std::vector<std::string> tokens = operand_tokens(l);
  std::multiset<int> named;
  for (const auto& t : tokens) named.insert(reg_of(t));
  RegSet covered;
  for (size_t k = 0; k < tokens.size(); ++k) {
    const std::string& t = tokens[k];
    const int r = reg_of(t);
    dataflow::Operand o;
    o.text = t;
    if (r <= 0 || r >= 96) {
      o.text = literal_text(t);
      op.operands.push_back(o);
      continue;
    }
    const bool w = k == 0 && l.defs[size_t(r)] && t.find('(') == std::string::npos && t != "v0.t";
    const bool rd = l.uses[size_t(r)] && (!w || named.count(r) == 1);
    o.access = w && rd ? dataflow::Access::ReadWrite : w ? dataflow::Access::Write : dataflow::Access::Read;
    o.storage = reg_name(r);
    covered.set(size_t(r));
    op.operands.push_back(o);
  }
  for (int r = 1; r <= kMem; ++r) {  // what the operands do not say: vtype, vl, memory, ABI registers at a return
    if (covered[size_t(r)]) continue;
    const std::string name = pseudo_or_reg_name(r);
    if (l.uses[size_t(r)]) op.implicit_reads.push_back(name);
    if (l.defs[size_t(r)]) op.implicit_writes.push_back(name);
  }
  return op;
}

Flow dataflow_of(const std::vector<Line>& lines) {
  Flow f;
  std::map<std::string, size_t> label_op;
  for (size_t i = 0; i < lines.size(); ++i) {
    // clang's .Ltmp labels mark debug-info ranges, never a jump target: not a barrier.
    if (lines[i].label && starts(lines[i].name, ".Ltmp")) continue;
    if (lines[i].label) {
      label_op[lines[i].name] = f.ops.size();
      dataflow::Op mark;
      mark.mnemonic = ".label";
      mark.barrier = true;
      f.ops.push_back(mark);
      f.line.push_back(i);
    } else if (lines[i].insn) {
      f.ops.push_back(op_of(lines[i]));
      f.line.push_back(i);
    }
  }
  for (size_t k = 0; k < f.ops.size(); ++k) {
    const Line& l = lines[f.line[k]];
    if (!l.insn || !l.ends_block || l.target.empty()) continue;
    auto it = label_op.find(l.target);
    if (it != label_op.end()) {
      f.ops[k].jumps_to.push_back(it->second);
    } else {  // leaves the function or goes somewhere unknown: everything may be read there
      for (int r = 1; r <= kMem; ++r) f.ops[k].implicit_reads.push_back(pseudo_or_reg_name(r));
    }
  }
  return f;
}

bool commutative(const std::string& m) {
  static const std::set<std::string> c = {
      "add", "mul", "and", "or", "xor", "mulh", "mulhu", "fadd.s", "fmul.s", "fmin.s", "fmax.s", "vadd.vv", "vmul.vv",
      "vand.vv", "vor.vv", "vxor.vv", "vmin.vv", "vmax.vv", "vminu.vv", "vmaxu.vv", "vmulh.vv", "vmulhu.vv",
      "vsadd.vv", "vsaddu.vv", "vwmul.vv", "vwmulu.vv", "vwadd.vv", "vwaddu.vv", "vmacc.vv", "vnmsac.vv"};
  return c.count(m) > 0;
}

std::string name_id(int n) { return "n" + std::to_string(n); }

// The composition as a shared-matcher pattern; `swap` bit k swaps the two sources of
// step k (a commutative step matches either order).
dataflow::Pattern pattern_of(const CustomInsn& in, unsigned swap) {
  dataflow::Pattern p;
  p.name = in.mnemonic;
  for (size_t i = 0; i < in.names.size(); ++i) {
    const std::string id = name_id(int(i));
    if (in.names[i].temp) {
      p.temps.push_back(id);
    } else if (in.operands[i].value == ValueClass::Imm) {
      p.parameters.push_back(id);
    } else {
      if (in.operands[i].read) p.inputs.push_back(id);  // an accumulator (read and written) is both
      if (in.operands[i].write) p.outputs.push_back(id);
    }
  }
  for (size_t k = 0; k < in.steps.size(); ++k) {
    const ComposeStep& st = in.steps[k];
    std::vector<size_t> order(st.names_by_position.size());
    for (size_t j = 0; j < order.size(); ++j) order[j] = j;
    if ((swap >> k) & 1) std::swap(order[1], order[2]);
    dataflow::PatternStep step{st.mnemonic, {}};
    for (size_t j : order) {
      const int n = st.names_by_position[j];
      dataflow::Operand o;
      if (n < 0) {
        o.text = st.literals[j];
      } else if (in.names[size_t(n)].cls == ValueClass::Imm) {
        o.storage = name_id(n);  // a parameter: whatever literal the kernel has there
      } else {
        // The destination of vmacc-like steps is read too (as op_of says of the kernel's).
        o.access = j != 0                           ? dataflow::Access::Read
                   : reads_destination(st.mnemonic) ? dataflow::Access::ReadWrite
                                                    : dataflow::Access::Write;
        o.storage = name_id(n);
      }
      step.operands.push_back(o);
    }
    p.steps.push_back(step);
  }
  return p;
}

// Every variant of the pattern with commutative steps' sources either way.
std::vector<dataflow::Pattern> patterns_of(const CustomInsn& in) {
  unsigned swappable = 0;
  for (size_t k = 0; k < in.steps.size() && k < 8; ++k)
    if (commutative(in.steps[k].mnemonic) && in.steps[k].names_by_position.size() == 3) swappable |= 1u << k;
  std::vector<dataflow::Pattern> out;
  for (unsigned swap = 0; swap < 256; ++swap)
    if ((swap & ~swappable) == 0) out.push_back(pattern_of(in, swap));
  return out;
}

// The kernel's value for each field of the instruction; false when an immediate does not
// fit the I format's 12 bits.
bool field_values(const CustomInsn& in, const dataflow::Match& m, std::vector<std::string>& values) {
  std::vector<Field> fields = in.format == CustomFormat::R4  ? std::vector<Field>{Field::Rd, Field::Rs1, Field::Rs2, Field::Rs3}
                              : in.format == CustomFormat::I ? std::vector<Field>{Field::Rd, Field::Rs1, Field::Imm}
                                                             : std::vector<Field>{Field::Rd, Field::Rs1, Field::Rs2};
  for (Field f : fields) {
    int name = -1;
    for (size_t i = 0; i < in.operands.size(); ++i)
      if (in.operands[i].field == f) name = int(i);
    if (name < 0) {
      values.push_back(f == Field::Imm ? "0" : "x0");
    } else if (in.operands[size_t(name)].value == ValueClass::Imm) {
      const std::string& t = m.text.at(name_id(name));
      char* end = nullptr;
      const long long v = std::strtoll(t.c_str(), &end, 0);
      if (t.empty() || *end || v < -2048 || v > 2047) return false;
      values.push_back(std::to_string(v));
    } else {
      values.push_back(m.storage.at(name_id(name)));
    }
  }
  return true;
}

bool usable(const CustomInsn& in) {
  // The result comes from the last step that is not a vtype step.
  auto last = in.steps.rbegin();
  while (last != in.steps.rend() && last->sets_vtype >= 0) ++last;
  if (last == in.steps.rend()) return false;
  const int out = last->names_by_position.empty() ? -1 : last->names_by_position[0];
  if (out < 0 || in.names[size_t(out)].temp || !in.operands[size_t(out)].write) return false;
  // Every input must be read by some step (else the match could not bind it).
  for (size_t i = 0; i < in.operands.size(); ++i) {
    bool seen = false;
    for (const auto& st : in.steps)
      for (int n : st.names_by_position) seen = seen || n == int(i);
    if (!seen) return false;
  }
  return true;
}

// The LMUL a vset* line sets (1 for a fractional mf<n>), or 0 when it names none.
unsigned lmul_set_by(const Line& l) {
  if (!l.insn || !starts(l.mnemonic, "vset")) return 0;
  for (const std::string& t : l.ops) {
    if (starts(t, "mf")) return 1;
    if (t.size() == 2 && t[0] == 'm' && std::isdigit(uint8_t(t[1]))) return unsigned(t[1] - '0');
  }
  return 8;  // vsetvl with a register: unknown
}

constexpr uint32_t kNoVtype = 0xffffffffu;  // not set by the line / not known

// The vtype a vset* line sets (kNoVtype when unknown: vsetvl, no policies), whether it sets one.
bool vtype_set_by(const Line& l, uint32_t& vtype) {
  if (!l.insn || !starts(l.mnemonic, "vset")) return false;
  vtype = kNoVtype;
  if (l.mnemonic != "vsetvli" && l.mnemonic != "vsetivli") return true;
  if (l.ops.size() != 6 || !parse_vtype_words({l.ops.begin() + 2, l.ops.end()}, vtype)) vtype = kNoVtype;
  return true;
}

// A forward "what the last vset* on every path set" analysis: `set(line, value)` says
// whether the line sets the state; `unknown` where paths disagree, at the function's entry
// and after a call or inline asm (either may change vtype).
template <class SetBy>
std::vector<uint32_t> vector_state(const std::vector<Line>& lines, const Flow& f, SetBy set, uint32_t unknown) {
  const uint32_t kUnset = 0xfffffffeu;
  std::vector<uint32_t> in(f.ops.size(), kUnset);
  if (f.ops.empty()) return in;
  in[0] = unknown;
  std::vector<size_t> work{0};
  auto flow_to = [&](size_t to, uint32_t v) {
    if (to >= in.size() || in[to] == v || in[to] == unknown) return;
    in[to] = in[to] == kUnset ? v : unknown;
    work.push_back(to);
  };
  while (!work.empty()) {
    const size_t k = work.back();
    work.pop_back();
    const Line& l = lines[f.line[k]];
    uint32_t value = 0;
    const uint32_t out = l.insn && l.barrier ? unknown : set(l, value) ? value : in[k];
    if (f.ops[k].falls_through) flow_to(k + 1, out);
    for (size_t t : f.ops[k].jumps_to) flow_to(t, out);
  }
  for (uint32_t& v : in) v = v == kUnset ? unknown : v;
  return in;
}

// The LMUL (registers per group) in effect at each op: 8 (the largest, so never too
// small) where it is not known.
std::vector<unsigned> group_registers(const std::vector<Line>& lines, const Flow& f) {
  const auto set = [](const Line& l, uint32_t& v) { return (v = lmul_set_by(l)) != 0; };
  const std::vector<uint32_t> s = vector_state(lines, f, set, 8);
  return {s.begin(), s.end()};
}

// The vtype in effect at each op (kNoVtype where not known).
std::vector<uint32_t> vtypes_in_effect(const std::vector<Line>& lines, const Flow& f) {
  return vector_state(lines, f, vtype_set_by, kNoVtype);
}

// A `vsetvli zero, zero, ...` that keeps the SEW/LMUL ratio and the policies of the vtype
// before it keeps vl and everything a unit-stride access depends on: it writes "vtype" only.
void narrow_vl_keeping_vsetvli(const std::vector<Line>& lines, const std::vector<uint32_t>& vtypes, Flow& f) {
  for (size_t k = 0; k < f.ops.size(); ++k) {
    const Line& l = lines[f.line[k]];
    uint32_t set = kNoVtype;
    if (!vtype_set_by(l, set) || set == kNoVtype || l.ops[0] != "zero" || l.ops[1] != "zero") continue;
    if (vtypes[k] == kNoVtype || !same_vl_ratio(set, vtypes[k]) || !same_policies(set, vtypes[k])) continue;
    auto& w = f.ops[k].implicit_writes;
    w.erase(std::remove(w.begin(), w.end(), "vl"), w.end());
  }
}

// Whether the vector instruction can execute at `lmul` with these field values: each
// vector register starts a group (else the hart raises illegal instruction), and its
// names (operands and temps, one group each, v0 kept for the mask) fit the scratch
// register file (custom_ext.cpp, scratch_map).
bool fits_groups(const CustomInsn& in, const std::vector<std::string>& values, unsigned lmul) {
  if (!in.is_vector()) return true;
  unsigned groups = 1;
  for (const auto& n : in.names) groups += n.cls == ValueClass::V ? 1 : 0;
  if (lmul * groups > 32) return false;
  for (const std::string& v : values)
    if (const int r = reg_of(v); r >= 64 && (r - 64) % int(lmul) != 0) return false;
  return true;
}

// Per operand of the instruction, the register number the kernel binds it to (-1: none).
std::vector<int> operand_registers(const CustomInsn& in, const std::vector<std::string>& values) {
  const std::vector<Field> order = in.format == CustomFormat::I ? std::vector<Field>{Field::Rd, Field::Rs1, Field::Imm}
                                                                : std::vector<Field>{Field::Rd, Field::Rs1, Field::Rs2, Field::Rs3};
  std::vector<int> regs;
  for (const CustomOperand& o : in.operands) {
    const size_t k = size_t(std::find(order.begin(), order.end(), o.field) - order.begin());
    const int r = k < values.size() ? reg_of(values[k]) : -1;
    regs.push_back(r >= 64 ? r - 64 : -1);
  }
  return regs;
}

// Whether the match may become the instruction at the place the matcher chose. One across a
// vtype change (compose_vtype.h) needs the vtype before its window known and left by the
// window as it was, and its groups at that vtype.
bool placeable(const CustomInsn& in, const std::vector<std::string>& values, size_t first, size_t at,
               const std::vector<unsigned>& lmul, const std::vector<uint32_t>& vtypes) {
  // A vector load step's group is its EMUL (compose_vtype.h): placed where the vtype is known.
  if (has_load_step(in) && in.is_vector() && !changes_vtype(in)) {
    const uint32_t entry = vtypes[at];
    return entry != kNoVtype && vector_loads_fit(in, entry) && operands_fit(in, entry, operand_registers(in, values));
  }
  if (!changes_vtype(in)) return fits_groups(in, values, lmul[at]);
  const uint32_t entry = vtypes[first];
  return entry != kNoVtype && window_keeps_vtype(in, entry) && vector_loads_fit(in, entry) &&
         operands_fit(in, entry, operand_registers(in, values));
}

// Replaces every match of one pattern (they never overlap) in one pass; how many.
size_t replace_matches(std::string& text, const CustomInsn& in, const dataflow::Pattern& p) {
  std::vector<Line> lines = parse(text);
  Flow f = dataflow_of(lines);
  const std::vector<unsigned> lmul = group_registers(lines, f);
  const std::vector<uint32_t> vtypes = vtypes_in_effect(lines, f);
  narrow_vl_keeping_vsetvli(lines, vtypes, f);
  dataflow::MatchLimits limits;
  limits.max_matches = 100000;
  // Across a vtype change the loads clang interleaves overwrite the first step's sources:
  // such a window can only become the instruction at its first op.
  limits.place_first = changes_vtype(in);
  std::map<size_t, std::string> replace;  // line -> new text ("" = removed)
  for (const dataflow::Match& m : dataflow::find_matches(f.ops, p, limits)) {
    std::vector<std::string> values;
    const size_t at = limits.place_first ? m.at : m.ops.back();
    if (!field_values(in, m, values) || !placeable(in, values, m.ops.front(), at, lmul, vtypes)) continue;
    for (size_t op : m.ops) replace[f.line[op]] = "";
    replace[f.line[at]] = "\t" + insn_directive(in, values) + "\t# " + in.mnemonic;
  }
  if (replace.empty()) return 0;
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    auto it = replace.find(i);
    if (it != replace.end() && it->second.empty()) continue;
    out += it != replace.end() ? it->second : lines[i].text;
    if (i + 1 < lines.size()) out += "\n";
  }
  text = out;
  size_t n = 0;
  for (const auto& [line, t] : replace) n += t.empty() ? 0 : 1;
  return n;
}

}  // namespace

PeepholeResult apply_composed_peephole(const std::string& assembly, const CustomExtensions& ext) {
  PeepholeResult r;
  r.assembly = assembly;
  // Larger first: a sub-chain listed earlier would otherwise take a longer chain's sites.
  std::vector<const CustomInsn*> order;
  for (const CustomInsn& in : ext.instructions()) order.push_back(&in);
  dataflow::order_larger_first(order, [](const CustomInsn* in) { return in->steps.size(); });
  for (const CustomInsn* insn : order) {
    const CustomInsn& in = *insn;
    if (!usable(in)) continue;
    for (const dataflow::Pattern& p : patterns_of(in)) {
      // A replacement can expose another match (its output feeding a later one): repeat.
      for (size_t guard = 0; guard < 64; ++guard) {
        const size_t n = replace_matches(r.assembly, in, p);
        if (n == 0) break;
        r.replaced[in.mnemonic] += n;
      }
    }
  }
  return r;
}

}  // namespace tlmcraft::isa::riscv
