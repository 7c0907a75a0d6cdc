// simd_accel's timing model (README.md, "Timing model"): in-order issue of one instruction
// per cycle, a register scoreboard (RAW, WAW), fixed latencies per latency class, and the
// interlocks between the core's scratchpad accesses and DMA transfers in flight. Pure
// arithmetic: the DMA's own cycles come from the DMA, DRAM and scratchpad models.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "isa/isa_spec.h"
#include "semantics.h"
#include "simd_config.h"

namespace simd_accel {

class TimingModel {
 public:
  // Throws tlmcraft::InputError naming a latency class with no cycles (neither in the
  // config nor in the ISA YAML).
  TimingModel(const tlmcraft::isa::IsaSpec& spec, const SimdConfig& config);

  uint64_t latency(const tlmcraft::isa::InstructionSpec& ins) const;
  // The earliest cycle >= slot at which an instruction reading and writing `a` may issue:
  // its sources are ready (RAW) and its result is not ready before an older write of the
  // same register (WAW: issue + latency > that write's ready cycle).
  uint64_t registers_ready(const tlmcraft::isa::Accesses& a, uint64_t slot, uint64_t latency) const;
  void write_back(const tlmcraft::isa::Accesses& a, uint64_t issue, uint64_t latency);

  // The earliest cycle >= slot at which a core access `e` (SpadRead / SpadWrite) or a DMA
  // (DmaLoad / DmaStore) may use the scratchpad bytes it names without racing a transfer
  // in flight (README.md, "Interlocks").
  uint64_t spad_ready(const Effect& e, uint64_t slot) const;
  void vector_store(uint64_t done) { vstore_done_ = std::max(vstore_done_, done); }
  void dma_started(const Effect& e, uint64_t issue, uint64_t done);
  uint64_t dma_idle() const { return dma_done_; }
  // Every result written and every transfer complete.
  uint64_t drained() const;

 private:
  struct Transfer {
    bool to_spad;
    uint64_t begin, end, done;
  };
  const tlmcraft::isa::IsaSpec& spec_;
  std::vector<uint64_t> latency_;                  // per instruction id
  std::array<std::array<uint64_t, 16>, 2> ready_{};  // per register class (s, v), per register
  std::vector<Transfer> transfers_;
  uint64_t vstore_done_ = 0, dma_done_ = 0;
};

}  // namespace simd_accel
