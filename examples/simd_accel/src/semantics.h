// The function of every simd instruction: plain C++ over the architectural state, no
// SystemC and no timing. One function per instruction, all in semantics.cpp, found by
// mnemonic; a fused instruction of the ISA YAML runs its steps through the same table.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "isa/isa_spec.h"
#include "isa/program.h"

namespace simd_accel {

constexpr int kLanes = 16;
constexpr uint64_t kVectorBytes = 2 * kLanes;  // 16 BF16 values in the scratchpad

struct State {
  std::array<uint32_t, 16> s{};                         // s0 reads 0
  std::array<std::array<float, kLanes>, 8> v{};         // v0 reads 0.0
  uint8_t* spad = nullptr;
  uint64_t spad_bytes = 0;
};

// What an instruction asks of the machine besides its registers: a scratchpad access (for
// the DMA interlocks), a DMA transfer to start, a loop decision, or a fault.
struct Effect {
  enum class Kind { None, SpadRead, SpadWrite, DmaLoad, DmaStore, DmaWait, LoopStart, LoopEnd };
  Kind kind = Kind::None;
  uint64_t spad_addr = 0, dram_addr = 0, bytes = 0;  // scratchpad range; DMA: also DRAM address
  bool loop_again = false;                           // LoopEnd: jump back to the body
  std::string fault;                                 // non-empty: the instruction cannot run
};

using Semantics = Effect (*)(const tlmcraft::isa::InstructionSpec&, const tlmcraft::isa::Instruction&, State&);

// The function of an ordinary instruction, or nullptr if none is compiled for `mnemonic`.
Semantics find_semantics(const std::string& mnemonic);

}  // namespace simd_accel
