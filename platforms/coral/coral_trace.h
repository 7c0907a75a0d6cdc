// Coral's trace tracks, fed one dispatched instruction at a time by CoralTop:
//   coral.issue<k>          the instruction dispatched in slot k (1 cycle; pc, line args)
//   coral.pc                the PC at each dispatch
//   coral.<unit>            a unit's occupancy (multi-cycle scalar units, vector micro-ops, AXI)
//   coral.stall.<unit>      "wait" [floor, start): an instruction waited for operands or the unit
//   coral.stall.dispatch    "no dispatch": cycles between two dispatches in which none happened
//   coral.axi.in_flight     AXI accesses holding the external-memory port at each cycle
#pragma once
#include <cstdint>
#include <vector>

#include "platforms/coral/core_timing.h"
#include "traces/occupancy.h"
#include "traces/trace_recorder.h"

namespace tlmcraft::coral {

class CoralTrace {
 public:
  CoralTrace(traces::TraceRecorder& rec, uint32_t dispatch_width);

  // One dispatched instruction at cycle t in `slot`, and the unit events it caused.
  void instruction(uint64_t t, uint32_t slot, traces::TraceName name, uint32_t pc, uint32_t line,
                   const std::vector<TimedEvent>& events);
  // Writes the AXI occupancy counter and extends the trace to the run's end.
  void finish(uint64_t cycles);

 private:
  traces::TraceRecorder& rec_;
  std::vector<int> issue_;
  int pc_, units_[kNumUnits], stalls_[kNumUnits], dispatch_stall_, axi_in_flight_;
  bool any_ = false;
  uint64_t last_dispatch_ = 0;
  traces::OccupancyCounter axi_;
};

}  // namespace tlmcraft::coral
