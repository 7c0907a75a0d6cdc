// Flow arrows "load -> first use" for Coral traces: from each vector load's LSU slice
// (its last cycle) to the first later instruction that reads one of the vector registers
// it wrote, on that instruction's first unit slice (or its dispatch slot when it has
// none). A register overwritten before anything reads it drops its pending load.
#pragma once
#include <array>
#include <cstdint>

#include "isa/riscv/hart.h"
#include "platforms/coral/core_timing.h"
#include "traces/trace_recorder.h"

namespace tlmcraft::coral {

class LoadFlows {
 public:
  explicit LoadFlows(traces::TraceRecorder& rec);
  // The instruction dispatched at `dispatch` on `issue_track`; `unit_tracks` maps units to tracks.
  void instruction(const rv::StepInfo& step, const TimingEvents& events, int issue_track, uint64_t dispatch,
                   const int (&unit_tracks)[kNumUnits]);

 private:
  static constexpr int kVectorRegisters = 32;
  struct Pending {  // the load whose data a register holds, not yet read
    uint64_t load = 0;  // sequence number; 0 = none
    uint64_t last_cycle = 0;
  };
  void link_readers(const rv::StepInfo& step, const TimingEvents& events, int issue_track, uint64_t dispatch,
                    const int (&unit_tracks)[kNumUnits]);
  void note_writes(const rv::StepInfo& step, const TimingEvents& events);

  traces::TraceRecorder& rec_;
  std::array<Pending, kVectorRegisters> pending_{};
  uint64_t loads_ = 0;
};

}  // namespace tlmcraft::coral
