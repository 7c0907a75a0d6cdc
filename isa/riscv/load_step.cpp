#include "isa/riscv/load_step.h"

#include <cstdlib>
#include <cstring>

namespace tlmcraft::isa::riscv {

const LoadStepForm* load_step_form(const std::string& mnemonic) {
  // LOAD (0x03) funct3 0 lb, 1 lh, 2 lw, 4 lbu, 5 lhu; LOAD-FP (0x07) width 2 flw;
  // unit-stride vle<eew>.v: LOAD-FP, width 0/5/6, vm = 1 (unmasked), mop = lumop = nf = 0.
  static const LoadStepForm forms[] = {
      {"lb", 0x0003u, ValueClass::X, 1, false},        {"lh", 0x1003u, ValueClass::X, 2, false},
      {"lw", 0x2003u, ValueClass::X, 4, false},        {"lbu", 0x4003u, ValueClass::X, 1, false},
      {"lhu", 0x5003u, ValueClass::X, 2, false},       {"flw", 0x2007u, ValueClass::F, 4, false},
      {"vle8.v", 0x02000007u, ValueClass::V, 1, true}, {"vle16.v", 0x02005007u, ValueClass::V, 2, true},
      {"vle32.v", 0x02006007u, ValueClass::V, 4, true}};
  for (const LoadStepForm& f : forms)
    if (mnemonic == f.mnemonic) return &f;
  return nullptr;
}

bool split_memory_operand(const std::string& token, std::string& offset, std::string& reg) {
  const size_t open = token.find('(');
  if (open == std::string::npos || token.empty() || token.back() != ')') return false;
  reg = token.substr(open + 1, token.size() - open - 2);
  offset = open == 0 ? "0" : token.substr(0, open);
  char* end = nullptr;
  const long long v = std::strtoll(offset.c_str(), &end, 0);
  if (reg.empty() || offset.empty() || *end != '\0') return false;
  offset = std::to_string(v);  // decimal, as the overlay's literals are compared
  return true;
}

std::string load_step_text(const std::string& mnemonic, const std::string& dest, const std::string& offset,
                           const std::string& address) {
  const LoadStepForm* f = load_step_form(mnemonic);
  const bool bare = f && f->vector;  // vle*.v takes no offset: "(a0)"
  return mnemonic + " " + dest + ", " + (bare ? "" : offset) + "(" + address + ")";
}

const CustomMemoryPorts& custom_memory_ports() {
  // An added instruction reaches the data memory through the LSU slot the core's loads use:
  // one load (its address from a source field), no store (no second write path is built).
  static const CustomMemoryPorts ports{1, 0};
  return ports;
}

bool has_load_step(const CustomInsn& in) {
  for (const ComposeStep& st : in.steps)
    if (st.load) return true;
  return false;
}

int load_address_operand(const CustomInsn& in) {
  for (const ComposeStep& st : in.steps)
    for (const ComposeStep::Bind& b : st.binds)
      if (st.load && b.field == Field::Rs1 && size_t(b.name) < in.operands.size()) return b.name;
  return -1;
}

}  // namespace tlmcraft::isa::riscv
