// Per-step vtype of a composition and the scratch groups it needs (compose_vtype.h).
#include "isa/riscv/compose_vtype.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>

#include "isa/riscv/vector_common.h"

namespace tlmcraft::isa::riscv {
namespace {

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// A widening step's destination spans 2 x LMUL at 2 x SEW (vwadd, vwmul, vwmacc...; not
// the reductions, whose destination is one register).
bool widens_destination(const std::string& m) { return starts(m, "vw") && !starts(m, "vwred"); }
// A `.w` source (vwadd.wv's vs2, vnsrl.wi's vs2) has twice the element width.
bool wide_source(const std::string& m) {
  const size_t dot = m.find('.');
  return dot != std::string::npos && m.compare(dot, 2, ".w") == 0;
}

}  // namespace

bool parse_vtype_words(const std::vector<std::string>& w, uint32_t& vtype) {
  static const std::map<std::string, uint32_t> sew = {{"e8", 0}, {"e16", 1}, {"e32", 2}};
  static const std::map<std::string, uint32_t> lmul = {{"m1", 0},  {"m2", 1},  {"m4", 2}, {"m8", 3},
                                                       {"mf8", 5}, {"mf4", 6}, {"mf2", 7}};
  if (w.size() != 4 || !sew.count(w[0]) || !lmul.count(w[1]) || (w[2] != "ta" && w[2] != "tu") ||
      (w[3] != "ma" && w[3] != "mu"))
    return false;
  vtype = lmul.at(w[1]) | sew.at(w[0]) << 3 | (w[2] == "ta" ? 1u : 0u) << 6 | (w[3] == "ma" ? 1u : 0u) << 7;
  return true;
}

bool parse_vtype_step(const std::vector<std::string>& ops, uint32_t& vtype, std::string& why) {
  if (ops.size() != 6 || ops[0] != "zero" || ops[1] != "zero") {
    why = "a vtype step is 'vsetvli zero, zero, <sew>, <lmul>, <ta|tu>, <ma|mu>' (vl kept)";
    return false;
  }
  if (!parse_vtype_words({ops.begin() + 2, ops.end()}, vtype)) {
    why = "unknown vtype '" + ops[2] + ", " + ops[3] + ", " + ops[4] + ", " + ops[5] +
          "' (sew e8/e16/e32, lmul mf8..m8, ta|tu, ma|mu)";
    return false;
  }
  if (!vec::vtype_supported(vtype)) {
    why = "vtype '" + ops[2] + ", " + ops[3] + "' is not supported (LMUL x ELEN must be at least SEW)";
    return false;
  }
  return true;
}

std::string vtype_text(uint32_t vtype) {
  static const char* lmul[] = {"m1", "m2", "m4", "m8", "m?", "mf8", "mf4", "mf2"};
  return "e" + std::to_string(8u << ((vtype >> 3) & 7)) + ", " + lmul[vtype & 7] + ", " +
         (vtype >> 6 & 1 ? "ta" : "tu") + ", " + (vtype >> 7 & 1 ? "ma" : "mu");
}

unsigned lmul_registers(uint32_t vtype) { return vec::group_regs(vec::lmul_log2_of(vtype)); }

bool same_vl_ratio(uint32_t a, uint32_t b) {
  // SEW/LMUL = 2^(sew_log2 + 3 - lmul_log2): equal exponents.
  return int((a >> 3) & 7) - vec::lmul_log2_of(a) == int((b >> 3) & 7) - vec::lmul_log2_of(b);
}

bool same_policies(uint32_t a, uint32_t b) { return ((a ^ b) & 0xc0u) == 0; }

bool reads_only_vl(const std::string& m) {
  size_t k = m.size() > 2 && m[0] == 'v' && (m[1] == 'l' || m[1] == 's') ? 2 : std::string::npos;
  if (k == std::string::npos) return false;
  if (m[k] == 's') ++k;
  if (m.compare(k, 1, "e") != 0) return false;
  const size_t digits = ++k;
  while (k < m.size() && std::isdigit(uint8_t(m[k]))) ++k;
  if (k == digits) return false;
  const std::string rest = m.substr(k);
  return rest == ".v" || rest == "ff.v";
}

bool changes_vtype(const CustomInsn& in) {
  return std::any_of(in.steps.begin(), in.steps.end(), [](const ComposeStep& s) { return s.sets_vtype >= 0; });
}

unsigned placed_sew_bytes(const CustomInsn& in) {
  unsigned sew = 4;
  for (const ComposeStep& st : in.steps)
    if (st.sets_vtype >= 0) sew = 1u << ((uint32_t(st.sets_vtype) >> 3) & 7);
  return sew;
}

namespace {
int log2_bytes(unsigned bytes) { return bytes >= 4 ? 2 : bytes >= 2 ? 1 : 0; }
}  // namespace

bool vector_loads_fit(const CustomInsn& in, uint32_t entry) {
  uint32_t vt = entry;
  for (const ComposeStep& st : in.steps) {
    if (st.sets_vtype >= 0) vt = uint32_t(st.sets_vtype);
    if (!st.load || !st.vector) continue;
    const int emul_log2 =
        vec::lmul_log2_of(vt) + log2_bytes(st.load_bytes) - log2_bytes(1u << ((vt >> 3) & 7));
    if (emul_log2 < -3 || emul_log2 > 3) return false;
  }
  return true;
}

std::vector<NameGroup> name_groups(const CustomInsn& in, uint32_t entry) {
  // Every name holds at least one group at the entry vtype (a `semantics:` instruction's too).
  // (A `semantics:` instruction has operands but no names: one entry per operand then.)
  std::vector<NameGroup> g(std::max(in.names.size(), in.operands.size()),
                           NameGroup{lmul_registers(entry), 1u << ((entry >> 3) & 7)});
  uint32_t vt = entry;
  for (const ComposeStep& st : in.steps) {
    if (st.sets_vtype >= 0) {
      vt = uint32_t(st.sets_vtype);
      continue;
    }
    const int lmul_log2 = vec::lmul_log2_of(vt);
    const unsigned sew_bytes = 1u << ((vt >> 3) & 7);
    if (st.load && st.vector) {  // its group at EMUL = EEW / SEW x LMUL, elements of EEW
      NameGroup& n = g[size_t(st.binds[0].name)];
      const int emul_log2 = lmul_log2 + log2_bytes(st.load_bytes) - log2_bytes(sew_bytes);
      n.registers = std::max(n.registers, vec::group_regs(std::max(-3, std::min(3, emul_log2))));
      n.element_bytes = std::max(n.element_bytes, st.load_bytes);
      continue;
    }
    for (const auto& b : st.binds) {
      if (b.cls != ValueClass::V) continue;
      const bool wide =
          b.field == Field::Rd ? widens_destination(st.mnemonic) : b.field == Field::Rs2 && wide_source(st.mnemonic);
      NameGroup& n = g[size_t(b.name)];
      n.registers = std::max(n.registers, vec::group_regs(lmul_log2 + (wide ? 1 : 0)));
      n.element_bytes = std::max(n.element_bytes, sew_bytes * (wide ? 2 : 1));
    }
  }
  return g;
}

bool allocate_scratch(const CustomInsn& in, const std::vector<NameGroup>& groups, std::vector<uint32_t>& reg) {
  reg.assign(in.names.size(), 0);
  unsigned nx = 1, nf = 0;
  std::vector<size_t> vector_names;
  for (size_t i = 0; i < in.names.size(); ++i) {
    if (in.names[i].cls == ValueClass::X)
      reg[i] = nx++;
    else if (in.names[i].cls == ValueClass::F)
      reg[i] = nf++;
    else if (in.names[i].cls == ValueClass::V)
      vector_names.push_back(i);
  }
  // Largest groups first: each lands on the first aligned free group, so sizes pack exactly.
  std::stable_sort(vector_names.begin(), vector_names.end(),
                   [&](size_t a, size_t b) { return groups[a].registers > groups[b].registers; });
  uint32_t used = 1;  // v0: the mask
  for (size_t i : vector_names) {
    const unsigned n = groups[i].registers;
    const uint32_t bits = n >= 32 ? ~0u : ((1u << n) - 1);
    unsigned at = n;
    while (at + n <= 32 && (used >> at & bits)) at += n;
    if (at + n > 32) return false;
    used |= bits << at;
    reg[i] = at;
  }
  return nx <= 32 && nf <= 32;
}

bool window_keeps_vtype(const CustomInsn& in, uint32_t entry) {
  uint32_t last = entry;
  for (const ComposeStep& st : in.steps) {
    if (st.sets_vtype < 0) continue;
    if (!same_vl_ratio(entry, uint32_t(st.sets_vtype))) return false;
    last = uint32_t(st.sets_vtype);
  }
  return last == entry;
}

bool operands_fit(const CustomInsn& in, uint32_t entry, const std::vector<int>& operand_registers) {
  const std::vector<NameGroup> groups = name_groups(in, entry);
  std::vector<uint32_t> scratch;
  if (!allocate_scratch(in, groups, scratch)) return false;
  for (size_t i = 0; i < in.operands.size() && i < operand_registers.size(); ++i)
    if (in.operands[i].value == ValueClass::V && operand_registers[i] % int(groups[i].registers) != 0) return false;
  return true;
}

}  // namespace tlmcraft::isa::riscv
