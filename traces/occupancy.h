// Turns intervals [begin, end) (a transfer waiting in a queue, an AXI access in flight)
// into a counter track of how many are open at each cycle. Intervals may be added in
// any order; flush() records one sample per cycle at which the count changes.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "traces/trace_recorder.h"

namespace tlmcraft::traces {

class OccupancyCounter {
 public:
  void add(uint64_t begin, uint64_t end) {
    if (end <= begin) return;  // an empty interval occupies nothing
    edges_.push_back({begin, +1});
    edges_.push_back({end, -1});
  }
  // Records the count on `track` (starting at 0 at cycle `start`) and clears the intervals.
  void flush(TraceRecorder& rec, int track, uint64_t start = 0) {
    std::sort(edges_.begin(), edges_.end());
    rec.counter(track, start, 0);
    int64_t open = 0;
    for (size_t i = 0; i < edges_.size();) {
      const uint64_t t = edges_[i].first;
      for (; i < edges_.size() && edges_[i].first == t; ++i) open += edges_[i].second;
      rec.counter(track, t, open);
    }
    edges_.clear();
  }
  bool empty() const { return edges_.empty(); }

 private:
  std::vector<std::pair<uint64_t, int>> edges_;  // (cycle, +1 open / -1 close)
};

}  // namespace tlmcraft::traces
