// The composed-instruction peephole (peephole.h): the assembly is parsed into lines with
// register defs and uses, split into basic blocks, liveness is solved over the blocks,
// and each match is replaced; the text is re-analysed after every replacement.
#include "isa/riscv/peephole.h"

#include <algorithm>
#include <bitset>
#include <cstring>
#include <cstdlib>
#include <map>
#include <set>

#include "isa/riscv/step_encoder.h"
#include "isa/riscv/register_names.h"

namespace tlmcraft::isa::riscv {
namespace {

using RegSet = std::bitset<128>;
constexpr int kVtype = 96;  // vl and vtype, as one pseudo-register


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

bool class_has(ValueClass c, int r) {
  return (c == ValueClass::X && r >= 0 && r < 32) || (c == ValueClass::F && r >= 32 && r < 64) ||
         (c == ValueClass::V && r >= 64 && r < 96);
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
  if (is_store(m)) {
    uses_all_tokens(l);
    if (vector) l.uses.set(kVtype);
    return;
  }
  if (starts(m, "vset")) {
    if (!l.ops.empty())
      if (int r = reg_of(l.ops[0]); r >= 0) l.defs.set(size_t(r));
    for (size_t k = 1; k < l.ops.size(); ++k)
      if (int r = reg_of(l.ops[k]); r >= 0) l.uses.set(size_t(r));
    l.defs.set(kVtype);
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
  if (vector) l.uses.set(kVtype);
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

struct Block {
  size_t begin, end;  // line range
  std::vector<int> succ;
  bool unknown_succ = false;
  RegSet live_in, live_out;
};

struct Analysis {
  std::vector<Line> lines;
  std::vector<Block> blocks;
  std::vector<int> block_of;   // per line
  std::vector<RegSet> live_after;  // per line
};

Analysis analyse(const std::string& text) {
  Analysis a;
  a.lines = parse(text);
  std::map<std::string, int> label_block;
  size_t begin = 0;
  auto close = [&](size_t end) {
    if (end > begin || a.blocks.empty()) a.blocks.push_back({begin, end, {}, false, {}, {}});
    begin = end;
  };
  for (size_t i = 0; i < a.lines.size(); ++i) {
    if (a.lines[i].label) {
      close(i);
      label_block[a.lines[i].name] = int(a.blocks.size());
    }
    if (a.lines[i].insn && a.lines[i].ends_block) close(i + 1);
  }
  close(a.lines.size());
  a.block_of.assign(a.lines.size(), 0);
  for (size_t b = 0; b < a.blocks.size(); ++b) {
    Block& bl = a.blocks[b];
    for (size_t i = bl.begin; i < bl.end; ++i) a.block_of[i] = int(b);
    const Line* last = nullptr;
    for (size_t i = bl.begin; i < bl.end; ++i)
      if (a.lines[i].insn) last = &a.lines[i];
    const bool falls = !last || !last->ends_block || last->falls_through;
    if (falls && b + 1 < a.blocks.size()) bl.succ.push_back(int(b + 1));
    if (last && last->ends_block && !last->target.empty()) {
      auto it = label_block.find(last->target);
      if (it != label_block.end() && it->second < int(a.blocks.size())) bl.succ.push_back(it->second);
      else bl.unknown_succ = true;
    }
  }
  // Backward liveness to a fixed point.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = a.blocks.size(); b-- > 0;) {
      Block& bl = a.blocks[b];
      RegSet out;
      if (bl.unknown_succ) out.set();
      for (int s : bl.succ) out |= a.blocks[size_t(s)].live_in;
      RegSet live = out;
      for (size_t i = bl.end; i-- > bl.begin;)
        if (a.lines[i].insn) live = (live & ~a.lines[i].defs) | a.lines[i].uses;
      if (live != bl.live_in || out != bl.live_out) changed = true;
      bl.live_in = live;
      bl.live_out = out;
    }
  }
  a.live_after.assign(a.lines.size(), RegSet());
  for (const Block& bl : a.blocks) {
    RegSet live = bl.live_out;
    for (size_t i = bl.end; i-- > bl.begin;) {
      a.live_after[i] = live;
      if (a.lines[i].insn) live = (live & ~a.lines[i].defs) | a.lines[i].uses;
    }
  }
  return a;
}

bool commutative(const std::string& m) {
  static const std::set<std::string> c = {
      "add", "mul", "and", "or", "xor", "mulh", "mulhu", "fadd.s", "fmul.s", "fmin.s", "fmax.s", "vadd.vv", "vmul.vv",
      "vand.vv", "vor.vv", "vxor.vv", "vmin.vv", "vmax.vv", "vminu.vv", "vmaxu.vv", "vmulh.vv", "vmulhu.vv",
      "vsadd.vv", "vsaddu.vv", "vwmul.vv", "vwmulu.vv", "vwadd.vv", "vwaddu.vv", "vmacc.vv", "vnmsac.vv"};
  return c.count(m) > 0;
}

struct Binding {
  std::map<int, int> reg;           // name -> register id
  std::map<int, std::string> imm;   // name -> immediate text
};

// Binds step `st` to line `l` (operand positions possibly swapped by `order`).
bool bind_step(const CustomInsn& in, const ComposeStep& st, const Line& l, const std::vector<size_t>& order, Binding& b) {
  if (!l.insn || l.barrier || l.mnemonic != st.mnemonic || l.ops.size() != st.names_by_position.size()) return false;
  for (size_t j = 0; j < order.size(); ++j) {
    const std::string& tok = l.ops[order[j]];
    const int name = st.names_by_position[j];
    if (name < 0 && st.literals[j] == "zero") {
      if (reg_of(tok) != 0) return false;
      continue;
    }
    if (name < 0) {
      char* end = nullptr;
      const long long v = std::strtoll(tok.c_str(), &end, 0);
      if (tok.empty() || *end || std::to_string(v) != st.literals[j]) return false;
      continue;
    }
    const ValueClass cls = in.names[size_t(name)].cls;
    if (cls == ValueClass::Imm) {
      char* end = nullptr;
      const long long v = std::strtoll(tok.c_str(), &end, 0);
      if (tok.empty() || *end || v < -2048 || v > 2047) return false;
      auto it = b.imm.find(name);
      if (it != b.imm.end() && it->second != std::to_string(v)) return false;
      b.imm[name] = std::to_string(v);
      continue;
    }
    const int r = reg_of(tok);
    if (!class_has(cls, r) || tok.find('(') != std::string::npos) return false;
    auto it = b.reg.find(name);
    if (it != b.reg.end() && it->second != r) return false;
    b.reg[name] = r;
  }
  return true;
}

std::vector<std::vector<size_t>> orders(const ComposeStep& st) {
  std::vector<size_t> id(st.names_by_position.size());
  for (size_t k = 0; k < id.size(); ++k) id[k] = k;
  std::vector<std::vector<size_t>> out{id};
  if (commutative(st.mnemonic) && id.size() == 3) out.push_back({0, 2, 1});
  return out;
}

struct Match {
  std::vector<size_t> pos;  // per step
  Binding b;
};

// The step that writes name `t` last before step `k`, or -1.
int writer_before(const CustomInsn& in, const std::vector<ComposeStep>& steps, int t, size_t k) {
  for (size_t j = k; j-- > 0;)
    if (!steps[j].names_by_position.empty() && steps[j].names_by_position[0] == t) return int(j);
  (void)in;
  return -1;
}

// Latest line before `p` in `p`'s block that writes `r`, or -1.
int reaching_def(const Analysis& a, size_t p, int r) {
  const Block& bl = a.blocks[size_t(a.block_of[p])];
  for (size_t i = p; i-- > bl.begin;)
    if (a.lines[i].insn && (a.lines[i].defs[size_t(r)] || a.lines[i].barrier)) return a.lines[i].barrier ? -1 : int(i);
  return -1;
}

// Resolves steps k-1 .. 0 (each a temp's definition) given steps k.. matched.
bool resolve(const Analysis& a, const CustomInsn& in, int k, Match& m) {
  if (k < 0) return true;
  const ComposeStep& st = in.steps[size_t(k)];
  const int t = st.names_by_position.empty() ? -1 : st.names_by_position[0];
  if (t < 0 || !in.names[size_t(t)].temp) return false;
  // The first later step that reads t fixes where t's definition must be.
  for (size_t j = size_t(k) + 1; j < in.steps.size(); ++j) {
    const auto& names = in.steps[j].names_by_position;
    bool reads = false;
    for (size_t q = 1; q < names.size(); ++q) reads = reads || names[q] == t;
    if (!reads) continue;
    auto it = m.b.reg.find(t);
    if (it == m.b.reg.end()) return false;
    const int q = reaching_def(a, m.pos[j], it->second);
    if (q < 0) return false;
    for (const auto& order : orders(st)) {
      Match trial = m;
      if (!bind_step(in, st, a.lines[size_t(q)], order, trial.b)) continue;
      trial.pos[size_t(k)] = size_t(q);
      if (resolve(a, in, k - 1, trial)) {
        m = trial;
        return true;
      }
    }
    return false;
  }
  return false;
}

// The conditions of peephole.h under which the replacement computes the same.
bool safe(const Analysis& a, const CustomInsn& in, const Match& m) {
  std::set<size_t> pattern(m.pos.begin(), m.pos.end());
  if (pattern.size() != m.pos.size()) return false;
  const size_t first = *pattern.begin(), last = m.pos.back();
  if (*pattern.rbegin() != last) return false;  // the output's step must come last
  RegSet all, temps;
  for (const auto& [name, r] : m.b.reg) {
    all.set(size_t(r));
    if (in.names[size_t(name)].temp) temps.set(size_t(r));
  }
  const bool vector = in.is_vector();
  for (size_t i = first + 1; i < last; ++i) {
    const Line& l = a.lines[i];
    if (!l.insn || pattern.count(i)) continue;
    if (l.barrier || (l.defs & all).any() || (l.uses & temps).any() || (vector && l.defs[kVtype])) return false;
  }
  // Each step's reads: inputs not yet overwritten by an earlier step of the match; temps
  // from their own definition.
  for (size_t k = 0; k < in.steps.size(); ++k) {
    const auto& names = in.steps[k].names_by_position;
    for (size_t q = 1; q < names.size(); ++q) {
      const int n = names[q];
      if (n < 0 || in.names[size_t(n)].cls == ValueClass::Imm) continue;
      const int r = m.b.reg.at(n);
      if (in.names[size_t(n)].temp) {
        const int w = writer_before(in, in.steps, n, k);
        if (w < 0 || reaching_def(a, m.pos[k], r) != int(m.pos[size_t(w)])) return false;
        continue;
      }
      for (size_t j = 0; j < in.steps.size(); ++j)
        if (j != k && m.pos[j] < m.pos[k] && m.b.reg.at(in.steps[j].names_by_position[0]) == r) return false;
    }
  }
  // Temps are dead after the match, unless their register is the output's.
  const int out_reg = m.b.reg.at(in.steps.back().names_by_position[0]);
  for (const auto& [name, r] : m.b.reg)
    if (in.names[size_t(name)].temp && r != out_reg && a.live_after[last][size_t(r)]) return false;
  return true;
}

std::string replacement(const CustomInsn& in, const Match& m) {
  std::vector<Field> fields = in.format == CustomFormat::R4  ? std::vector<Field>{Field::Rd, Field::Rs1, Field::Rs2, Field::Rs3}
                              : in.format == CustomFormat::I ? std::vector<Field>{Field::Rd, Field::Rs1, Field::Imm}
                                                             : std::vector<Field>{Field::Rd, Field::Rs1, Field::Rs2};
  std::vector<std::string> values;
  for (Field f : fields) {
    int name = -1;
    for (size_t i = 0; i < in.operands.size(); ++i)
      if (in.operands[i].field == f) name = int(i);
    if (name < 0) values.push_back(f == Field::Imm ? "0" : "x0");
    else if (in.operands[size_t(name)].value == ValueClass::Imm) values.push_back(m.b.imm.at(name));
    else values.push_back(reg_name(m.b.reg.at(name)));
  }
  return "\t" + insn_directive(in, values) + "\t# " + in.mnemonic;
}

bool usable(const CustomInsn& in) {
  if (in.steps.empty()) return false;
  const int out = in.steps.back().names_by_position.empty() ? -1 : in.steps.back().names_by_position[0];
  if (out < 0 || in.names[size_t(out)].temp || !in.operands[size_t(out)].write) return false;
  for (const auto& o : in.operands)
    if (o.read && o.write) return false;  // rd both read and written: not expressible as steps' dataflow
  // Every input must be read by some step (else the match could not bind it).
  for (size_t i = 0; i < in.operands.size(); ++i) {
    bool seen = false;
    for (const auto& st : in.steps)
      for (int n : st.names_by_position) seen = seen || n == int(i);
    if (!seen) return false;
  }
  return !in.masked || true;
}

// One replacement, or false when nothing matches.
bool replace_one(std::string& text, const CustomExtensions& ext, std::map<std::string, size_t>& replaced) {
  const Analysis a = analyse(text);
  for (const CustomInsn& in : ext.instructions()) {
    if (!usable(in)) continue;
    const ComposeStep& last = in.steps.back();
    for (size_t p = 0; p < a.lines.size(); ++p) {
      if (!a.lines[p].insn || a.lines[p].mnemonic != last.mnemonic) continue;
      for (const auto& order : orders(last)) {
        Match m;
        m.pos.assign(in.steps.size(), 0);
        m.pos.back() = p;
        if (!bind_step(in, last, a.lines[p], order, m.b)) continue;
        if (!resolve(a, in, int(in.steps.size()) - 2, m) || !safe(a, in, m)) continue;
        std::string out;
        for (size_t i = 0; i < a.lines.size(); ++i) {
          const bool removed = std::find(m.pos.begin(), m.pos.end() - 1, i) != m.pos.end() - 1;
          if (removed) continue;
          out += (i == p ? replacement(in, m) : a.lines[i].text);
          if (i + 1 < a.lines.size()) out += "\n";
        }
        text = out;
        ++replaced[in.mnemonic];
        return true;
      }
    }
  }
  return false;
}

}  // namespace

PeepholeResult apply_composed_peephole(const std::string& assembly, const CustomExtensions& ext) {
  PeepholeResult r;
  r.assembly = assembly;
  for (size_t guard = 0; guard < 100000 && replace_one(r.assembly, ext, r.replaced); ++guard) {
  }
  return r;
}

}  // namespace tlmcraft::isa::riscv
