// Turns intervals [begin, end) (a transfer waiting in a queue, an AXI access in flight, a
// reorder-buffer entry) into a counter track of how many are open at each cycle.
// Intervals may be added in any order; flush() records one sample per cycle at which the
// count changes. For long runs, advance(c) streams out every change before cycle c once
// the caller knows no later interval begins before c (e.g. the next dispatch cycle of an
// in-order core), so only the intervals still open are held in memory.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "traces/trace_recorder.h"

namespace tlmcraft::traces {

class OccupancyCounter {
 public:
  void add(uint64_t begin, uint64_t end) {
    if (end <= begin) return;  // an empty interval occupies nothing
    edges_.push({begin, +1});
    edges_.push({end, -1});
  }
  // Records every change before `cycle` on `track` (the count starts at 0 at cycle
  // `start`). Intervals added later must not begin before `cycle`.
  void advance(TraceRecorder& rec, int track, uint64_t cycle, uint64_t start = 0) {
    if (!started_) {
      rec.counter(track, start, 0);
      started_ = true;
    }
    while (!edges_.empty() && edges_.top().first < cycle) {
      const uint64_t t = edges_.top().first;
      int64_t open = open_;
      for (; !edges_.empty() && edges_.top().first == t; edges_.pop()) open += edges_.top().second;
      if (open != open_) rec.counter(track, t, open);  // an end and a begin at one cycle: no change
      open_ = open;
    }
  }
  // Records all remaining changes.
  void flush(TraceRecorder& rec, int track, uint64_t start = 0) { advance(rec, track, UINT64_MAX, start); }
  bool empty() const { return edges_.empty() && !started_; }
  int64_t open() const { return open_; }  // the count reached so far (after the last advance)

 private:
  using Edge = std::pair<uint64_t, int>;  // (cycle, +1 open / -1 close)
  std::priority_queue<Edge, std::vector<Edge>, std::greater<Edge>> edges_;
  int64_t open_ = 0;
  bool started_ = false;
};

}  // namespace tlmcraft::traces
