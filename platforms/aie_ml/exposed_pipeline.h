// The AIE-ML core's exposed pipeline (compute.pipeline: exposed): the core has no register
// interlocks, so every operand is read and every result written at its pipeline stage, and
// a bundle that reads a register before an earlier op's result lands sees the old value, as
// on the hardware ("the processor pipeline does not include stall logic to enforce data
// dependencies": AMD's open AIE compiler, Xilinx/llvm-aie, whose AIE2 scheduling model
// gives the stages). Stages, counted in pipeline cycles (a stalled core freezes its pipeline,
// so lock, bank-conflict and slot stalls do not let results land):
// - a result lands `latency` cycles after issue (the ISA's latency classes: load 7, VMAC 6,
//   ALU 1, ...; a post-modified pointer and the AGU's dimension counters 1), readable from
//   the bundle issued that many cycles later;
// - operands are read at issue, except the accumulator input of a multiply-accumulate, read
//   compute.acc_read_cycles after issue (AIE2: stage 3, so 2).
// Memory is read and written at issue (AIE2 loads read and stores write memory in the same
// stage, E5, so their order is program order).
//
// Hazards the hardware does not compute reliably are faults naming both kernel lines and the
// register: two results landing in one register in one cycle (a write-port collision), an
// earlier op's result landing after a later op's (the later write would be lost), and a read
// of a result still in flight across a taken branch (this model has no branch delay slots,
// so where the result lands relative to the branch target differs from the hardware).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/aie_ml/aie_core.h"
#include "isa/aie_ml/read_stages.h"

namespace tlmcraft::aie_ml {

class ExposedPipeline {
 public:
  // acc_read_cycles: cycles after issue at which a multiply-accumulate reads its accumulator.
  explicit ExposedPipeline(uint32_t acc_read_cycles) : acc_read_(acc_read_cycles) {}

  // Before executing bundle b at pipeline cycle t: lands the results due by t, notes reads of
  // registers with a result still in flight, and gives each late accumulator read the value
  // it sees then. Returns a hazard message ("" when none).
  std::string before(isa::aie_ml::CoreState& s, const isa::aie_ml::Bundle& b, uint64_t t);
  // After execute_bundle committed b (not stalled, no fault): moves b's register results out
  // of the state into flight, landing at their stages, with the hazard checks. Returns a
  // hazard message ("" when none).
  std::string after(isa::aie_ml::CoreState& s, const isa::aie_ml::Bundle& b, uint64_t t,
                    const isa::aie_ml::BundleResult& r);
  // The bundle did not execute (a lock refused it): undoes before()'s late reads.
  void abort(isa::aie_ml::CoreState& s);
  // The core halted: every result in flight lands (the pipeline drains).
  void drain(isa::aie_ml::CoreState& s);

  uint64_t early_reads() const { return early_reads_; }
  const std::vector<std::string>& early_read_notes() const { return notes_; }

 private:
  // 32 bytes of register storage: a scalar register (4 bytes used) or half of an x / bm.
  struct Cell {
    uint16_t unit = 0;
    uint8_t half = 0;
    bool operator==(const Cell& o) const { return unit == o.unit && half == o.half; }
  };
  struct InFlight {
    Cell cell;
    uint64_t land = 0;  // first pipeline cycle that reads the new value
    std::array<uint8_t, 32> data{};
    uint32_t line = 0;
    std::string mnemonic;
    bool crossed_branch = false;
  };
  struct Saved {
    Cell cell;
    std::array<uint8_t, 32> data{};
  };

  void land(isa::aie_ml::CoreState& s, uint64_t t);
  std::string check_reads(const isa::aie_ml::Bundle& b, uint64_t t);
  void apply_late_reads(isa::aie_ml::CoreState& s, const isa::aie_ml::Bundle& b, uint64_t t);
  std::string enqueue(InFlight w);

  uint32_t acc_read_;
  std::vector<InFlight> flight_;
  std::vector<Saved> before_;       // the bundle's written cells as they were before it
  std::vector<Saved> late_;         // cells a late read changed, with their real values
  std::vector<std::string> early_;  // the bundle's reads of results in flight (one per op)
  uint64_t early_reads_ = 0;
  std::vector<std::string> notes_;
};

// The storage units a memory access's AGU writes (post-modified pointer, dimension counters).
std::vector<uint16_t> post_modify_units(const isa::aie_ml::SlotOp& op);

}  // namespace tlmcraft::aie_ml
