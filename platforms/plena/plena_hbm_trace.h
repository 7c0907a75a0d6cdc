// PLENA's HBM tracks, fed by the command-level DRAM engine (as its observer) and labelled
// with the transfer instruction whose requests it received:
//   plena.hbm.channel<k>     a transfer's activity on channel k: a slice from its first
//                            command to the end of its last data burst (reads: the data's
//                            return), named after the instruction; args pc, requests,
//                            banks (distinct banks it touched), row_hits, row_misses,
//                            row_conflicts
//   plena.hbm.row_hits       counters: requests so far that found their row open, the
//   plena.hbm.row_misses     bank closed, another row open; sampled when a transfer's
//   plena.hbm.row_conflicts  last request finishes
// A store's writes complete on acceptance and drain later, so its channel slices may
// outlast the store instruction's own slice.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "models/dram_observer.h"
#include "traces/trace_recorder.h"

namespace tlmcraft::plena {

class PlenaHbmTrace : public models::DramObserver {
 public:
  PlenaHbmTrace(traces::TraceRecorder& rec, uint32_t channels);
  // True when a scope filter keeps at least one of these tracks.
  bool any_track_enabled() const;

  // The transfer instruction (`name` at `pc`) whose requests the engine received since
  // the previous call.
  void transfer(traces::TraceName name, uint32_t pc);
  // Writes the transfers still open (writes left in the controllers' buffers at the end).
  void finish();

  void batch(uint64_t first_id, uint64_t count, bool write, uint64_t cycle) override;
  void command(uint32_t channel, const models::DramRequest& request, models::DramCmd cmd,
               models::DramRowOutcome outcome, uint64_t cycle, uint64_t data_end) override;
  void returned(uint32_t channel, uint64_t id, uint64_t cycle) override;

 private:
  enum { kHit, kMiss, kConflict, kOutcomes };
  struct ChannelUse {
    uint64_t begin = UINT64_MAX, end = 0;
    uint32_t requests = 0;  // finished on this channel
    std::array<uint32_t, kOutcomes> outcomes{};
    std::vector<uint32_t> banks;  // distinct (pseudo-channel, bank group, bank) keys
    void cover(uint64_t b, uint64_t e);
  };
  struct Transfer {
    uint64_t first_id = 0, requests = 0, finished = 0;
    bool labelled = false;
    traces::TraceName name;
    uint32_t pc = 0;
    std::vector<ChannelUse> channels;
    uint64_t last_cycle = 0;
    std::array<uint64_t, kOutcomes> totals{};  // run totals at last_cycle
  };
  Transfer* owner(uint64_t id);
  void finished_request(Transfer& t, uint64_t cycle);
  void close_if_complete();
  void write(const Transfer& t);

  traces::TraceRecorder& rec_;
  std::vector<int> channel_tracks_;
  std::array<int, kOutcomes> outcome_tracks_{};
  traces::TraceName unlabelled_;
  std::deque<Transfer> open_;  // by first request id; the engine issues ids in order
  std::array<uint64_t, kOutcomes> totals_{};
  uint64_t sampled_cycle_ = 0;  // the latest counter sample written, and its totals
  std::array<uint64_t, kOutcomes> sampled_{};
};

}  // namespace tlmcraft::plena
