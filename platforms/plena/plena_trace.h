// PLENA's trace tracks, fed one instruction at a time by PlenaTop:
//   plena.<unit>               the instruction's slice [issue, done) (pc, line args)
//   plena.pc                   the PC at each issue
//   plena.stall.<unit>         "wait" [in-order slot, issue): operand, unit or memory hazards
//   plena.stall.hbm_queue      "queue full" [ready, accepted): a full DMA queue held the controller
//   plena.hbm.prefetch_queue   transfers accepted by the prefetch engine and not yet complete
//   plena.hbm.store_queue      the same for the store engine
//   plena.hbm.channel<k>, plena.hbm.row_*   per-channel activity and row outcomes
//                              (plena_hbm_trace.h), once watch() attached the HBM timer
// and flows "prefetch -> first use" from a prefetch's last cycle to the first instruction
// that reads the on-chip range it filled.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "platforms/plena/hbm_timing.h"
#include "platforms/plena/plena_hbm_trace.h"

#include "platforms/plena/timing_model.h"
#include "traces/occupancy.h"
#include "traces/trace_recorder.h"

namespace tlmcraft::plena {

class PlenaTrace {
 public:
  explicit PlenaTrace(traces::TraceRecorder& rec);
  // Observes `timer`'s DRAM engine for the per-channel tracks (unless the scope filter
  // drops them all); the trace must not outlive the timer's run.
  void watch(HbmTimer& timer);

  struct Issued {
    Unit unit;
    uint32_t pc, line;
    const std::string* mnemonic;
    uint64_t issue, done;
    uint64_t stall;             // cycles between the in-order slot and the issue
    bool transfer = false;      // an HBM transfer (prefetch or store)
    uint64_t ready = 0;         // transfers: the cycle it could have issued but for its queue
  };
  void instruction(const Issued& in, const std::vector<Range>& ranges);
  // Writes the queue occupancy counters and the HBM channel activity (draining the writes
  // still buffered: call after reading the timer's stats) and extends the trace to the
  // run's end.
  void finish(uint64_t cycles);

 private:
  struct Pending {  // a prefetched on-chip range not yet read
    MemId mem;
    uint64_t lo, hi, last_cycle;
  };
  void link_first_use(const Issued& in, const std::vector<Range>& ranges);

  traces::TraceRecorder& rec_;
  int units_[kNumUnits] = {}, stalls_[kNumUnits] = {};
  int pc_, queue_stall_, prefetch_queue_, store_queue_;
  traces::OccupancyCounter prefetch_occupancy_, store_occupancy_;
  std::vector<Pending> pending_;
  std::unique_ptr<PlenaHbmTrace> hbm_;
  HbmTimer* timer_ = nullptr;
};

}  // namespace tlmcraft::plena
