#include "semantics.h"

#include <cmath>
#include <cstring>
#include <map>

#include "isa/formats/bf16.h"

namespace simd_accel {

namespace {

namespace fmt = tlmcraft::isa::formats;
using isa_spec = tlmcraft::isa::InstructionSpec;
using instr = tlmcraft::isa::Instruction;

// Operand i's value as assembled (register number or immediate).
int64_t op(const isa_spec& s, const instr& in, size_t i) { return in.field[size_t(s.operands.at(i).field)]; }
uint32_t sreg(const State& st, int64_t r) { return r == 0 ? 0 : st.s[size_t(r)]; }
void set_s(State& st, int64_t r, uint32_t v) {
  if (r != 0) st.s[size_t(r)] = v;
}
using Lanes = std::array<float, kLanes>;
const Lanes& vreg(const State& st, int64_t r) { return st.v[size_t(r)]; }

// The scratchpad range [addr, addr + bytes) of a vector access, or a fault.
Effect spad_access(const isa_spec& s, const instr& in, const State& st, uint64_t bytes, Effect::Kind kind) {
  Effect e;
  e.kind = kind;
  e.spad_addr = uint32_t(sreg(st, op(s, in, 1)) + uint32_t(op(s, in, 2)));
  e.bytes = bytes;
  if (e.spad_addr % 2 != 0) e.fault = "scratchpad address " + std::to_string(e.spad_addr) + " is not 2-byte aligned";
  else if (e.spad_addr + bytes > st.spad_bytes)
    e.fault = "scratchpad bytes [" + std::to_string(e.spad_addr) + ", " + std::to_string(e.spad_addr + bytes) +
              ") are outside the scratchpad (" + std::to_string(st.spad_bytes) + " bytes)";
  return e;
}

float load_bf16(const State& st, uint64_t addr) {
  uint16_t bits;
  std::memcpy(&bits, st.spad + addr, 2);
  return fmt::bf16_to_float(bits);
}

template <class F>
Effect lanewise(const isa_spec& s, const instr& in, State& st, F f) {
  const Lanes a = vreg(st, op(s, in, 1)), b = vreg(st, op(s, in, 2));
  Lanes& d = st.v[size_t(op(s, in, 0))];
  for (int i = 0; i < kLanes; ++i) d[i] = f(a[i], b[i], d[i]);
  return {};
}

Effect exec_s_li(const isa_spec& s, const instr& in, State& st) {
  set_s(st, op(s, in, 0), uint32_t(op(s, in, 1)));
  return {};
}
Effect exec_s_addi(const isa_spec& s, const instr& in, State& st) {
  set_s(st, op(s, in, 0), sreg(st, op(s, in, 1)) + uint32_t(op(s, in, 2)));
  return {};
}
Effect exec_s_add(const isa_spec& s, const instr& in, State& st) {
  set_s(st, op(s, in, 0), sreg(st, op(s, in, 1)) + sreg(st, op(s, in, 2)));
  return {};
}
Effect exec_s_mul(const isa_spec& s, const instr& in, State& st) {
  set_s(st, op(s, in, 0), sreg(st, op(s, in, 1)) * sreg(st, op(s, in, 2)));
  return {};
}

Effect exec_v_ld(const isa_spec& s, const instr& in, State& st) {
  Effect e = spad_access(s, in, st, kVectorBytes, Effect::Kind::SpadRead);
  if (!e.fault.empty()) return e;
  Lanes& d = st.v[size_t(op(s, in, 0))];
  for (int i = 0; i < kLanes; ++i) d[i] = load_bf16(st, e.spad_addr + 2 * uint64_t(i));
  return e;
}
Effect exec_v_bcast(const isa_spec& s, const instr& in, State& st) {
  Effect e = spad_access(s, in, st, 2, Effect::Kind::SpadRead);
  if (!e.fault.empty()) return e;
  st.v[size_t(op(s, in, 0))].fill(load_bf16(st, e.spad_addr));
  return e;
}
Effect exec_v_st(const isa_spec& s, const instr& in, State& st) {
  Effect e = spad_access(s, in, st, kVectorBytes, Effect::Kind::SpadWrite);
  if (!e.fault.empty()) return e;
  const Lanes& v = vreg(st, op(s, in, 0));
  for (int i = 0; i < kLanes; ++i) {
    const uint16_t bits = fmt::float_to_bf16(v[i]);
    std::memcpy(st.spad + e.spad_addr + 2 * uint64_t(i), &bits, 2);
  }
  return e;
}
Effect exec_v_add(const isa_spec& s, const instr& in, State& st) {
  return lanewise(s, in, st, [](float a, float b, float) { return a + b; });
}
Effect exec_v_mul(const isa_spec& s, const instr& in, State& st) {
  return lanewise(s, in, st, [](float a, float b, float) { return a * b; });
}
Effect exec_v_max(const isa_spec& s, const instr& in, State& st) {
  return lanewise(s, in, st, [](float a, float b, float) { return a > b ? a : b; });
}
Effect exec_v_fma(const isa_spec& s, const instr& in, State& st) {
  return lanewise(s, in, st, [](float a, float b, float d) { return std::fma(a, b, d); });
}

Effect dma(const isa_spec& s, const instr& in, const State& st, Effect::Kind kind) {
  Effect e;
  e.kind = kind;
  e.spad_addr = sreg(st, op(s, in, 0));
  e.dram_addr = sreg(st, op(s, in, 1));
  e.bytes = sreg(st, op(s, in, 2));
  if (e.spad_addr % 64 || e.dram_addr % 64 || e.bytes % 64)
    e.fault = "DMA scratchpad address " + std::to_string(e.spad_addr) + ", DRAM address " + std::to_string(e.dram_addr) +
              " and byte count " + std::to_string(e.bytes) + " must all be multiples of 64";
  else if (e.spad_addr + e.bytes > st.spad_bytes)
    e.fault = "DMA scratchpad bytes [" + std::to_string(e.spad_addr) + ", " + std::to_string(e.spad_addr + e.bytes) +
              ") are outside the scratchpad (" + std::to_string(st.spad_bytes) + " bytes)";
  return e;
}
Effect exec_dma_ld(const isa_spec& s, const instr& in, State& st) { return dma(s, in, st, Effect::Kind::DmaLoad); }
Effect exec_dma_st(const isa_spec& s, const instr& in, State& st) { return dma(s, in, st, Effect::Kind::DmaStore); }
Effect exec_dma_wait(const isa_spec&, const instr&, State&) { return {Effect::Kind::DmaWait}; }

Effect exec_loop(const isa_spec& s, const instr& in, State& st) {
  set_s(st, op(s, in, 0), uint32_t(op(s, in, 1)));
  return {Effect::Kind::LoopStart};
}
Effect exec_loop_end(const isa_spec& s, const instr& in, State& st) {
  const int64_t r = op(s, in, 0);
  const uint32_t left = sreg(st, r);
  set_s(st, r, left > 1 ? left - 1 : 0);
  Effect e{Effect::Kind::LoopEnd};
  e.loop_again = left > 1;
  return e;
}

const std::map<std::string, Semantics>& table() {
  static const std::map<std::string, Semantics> t = {
      {"S_LI", exec_s_li},       {"S_ADDI", exec_s_addi}, {"S_ADD", exec_s_add},     {"S_MUL", exec_s_mul},
      {"V_LD", exec_v_ld},       {"V_BCAST", exec_v_bcast}, {"V_ST", exec_v_st},     {"V_ADD", exec_v_add},
      {"V_MUL", exec_v_mul},     {"V_MAX", exec_v_max},   {"V_FMA", exec_v_fma},     {"DMA_LD", exec_dma_ld},
      {"DMA_ST", exec_dma_st},   {"DMA_WAIT", exec_dma_wait}, {"LOOP", exec_loop}, {"LOOP_END", exec_loop_end},
  };
  return t;
}

}  // namespace

Semantics find_semantics(const std::string& mnemonic) {
  const auto it = table().find(mnemonic);
  return it == table().end() ? nullptr : it->second;
}

}  // namespace simd_accel
