// Coral's trace tracks, fed one dispatched instruction at a time by CoralTop:
//   coral.issue<k>              the instruction dispatched in slot k (1 cycle; pc, line args)
//   coral.pc                    the PC at each dispatch
//   coral.<unit>                a unit's occupancy (multi-cycle scalar units, vector micro-ops, AXI)
//   coral.stall.<unit>          "wait" [floor, start): an instruction waited for operands or the unit
//   coral.stall.dispatch        "no dispatch": cycles between two dispatches in which none happened
//   coral.axi.in_flight         AXI accesses holding the external-memory port at each cycle
//   coral.retirement_buffer     entries of the scalar retirement buffer in use
//   coral.vector.command_queue  vector commands dispatched and not yet decoded
//   coral.vector.uop_queue      micro-ops decoded and not yet issued
//   coral.vector.rob            micro-ops in the vector reorder buffer
// and flows "load -> first use" from each vector load's LSU slice to the first
// instruction that reads a register it wrote (coral_load_flows.h).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "isa/riscv/hart.h"
#include "platforms/coral/coral_load_flows.h"
#include "platforms/coral/core_timing.h"
#include "traces/occupancy.h"
#include "traces/trace_recorder.h"

namespace tlmcraft::coral {

class CoralTrace {
 public:
  CoralTrace(traces::TraceRecorder& rec, uint32_t dispatch_width);

  // One dispatched instruction at cycle t in `slot` (`step`: what the hart executed), and
  // the unit events and queue entries it caused.
  void instruction(uint64_t t, uint32_t slot, traces::TraceName name, uint32_t pc, uint32_t line,
                   const rv::StepInfo& step, const TimingEvents& events);
  // Writes the remaining occupancy samples and extends the trace to the run's end.
  void finish(uint64_t cycles);

 private:
  traces::TraceRecorder& rec_;
  std::vector<int> issue_;
  int pc_, units_[kNumUnits], stalls_[kNumUnits], dispatch_stall_, axi_in_flight_;
  std::array<int, kNumQueues> queue_tracks_{};
  bool any_ = false;
  uint64_t last_dispatch_ = 0;
  traces::OccupancyCounter axi_;
  std::array<traces::OccupancyCounter, kNumQueues> queues_;
  LoadFlows load_flows_;
};

}  // namespace tlmcraft::coral
