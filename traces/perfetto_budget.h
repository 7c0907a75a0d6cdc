// Keeps a Perfetto trace within a size budget by aggregating instead of failing: events
// are binned into windows of W cycles (W a power of two, the smallest whose estimated
// output fits). Per track, a slice at least W cycles long is kept as recorded; the short
// slices that begin in one bin become one summary slice spanning them ("vmac x12", or
// "12 slices, mostly vmac" when names differ, with the count, the summed cycles and the
// three most frequent names as args; a bin holding one short slice keeps it as is). A
// counter keeps, per bin, its largest sample and its last one (peaks and the value the
// bin ends with). Flows keep one arrow per (source track, destination track, bin).
// Instants are kept.
#pragma once
#include <cstdint>
#include <vector>

#include "traces/trace_recorder.h"

namespace tlmcraft::traces {

// Estimated bytes of JSON per written event (measured on PLENA and AIE-ML traces).
struct PerfettoSizeModel {
  static constexpr uint64_t kSlice = 120, kArg = 16, kSummary = 230, kCounter = 75, kInstant = 120, kFlow = 200;
};

// One slice as written: a recorded slice (index into the recorder's events) or a summary.
struct OutSlice {
  static constexpr uint32_t kSummary = UINT32_MAX;
  uint64_t begin = 0, end = 0;  // clipped to the window
  uint32_t index = kSummary;    // the recorded event, or kSummary
  uint32_t summary = 0;         // index into the summaries when index == kSummary
};

struct SliceSummary {
  uint32_t count = 0;
  uint64_t slice_cycles = 0;
  std::vector<std::pair<uint32_t, uint32_t>> names;  // (name id, count), most frequent first, at most 3
  bool one_name = true;                              // all summarised slices had names[0]
};

// The bin width that fits `max_bytes` (1 = no aggregation needed; max_bytes 0 = no budget).
uint64_t choose_bin_cycles(const TraceRecorder& rec, uint64_t max_bytes);

// A track's slices as written with bin width `bin` (1 = every slice as recorded), sorted
// by begin, longer first at equal begins. `slices` are the track's recorded slice event
// indices; summaries are appended to `summaries`.
std::vector<OutSlice> binned_slices(const TraceRecorder& rec, const std::vector<uint32_t>& slices, uint64_t bin,
                                    std::vector<SliceSummary>& summaries);

// A counter's samples (cycle, value) as written with bin width `bin`; `samples` sorted by cycle.
std::vector<std::pair<uint64_t, int64_t>> binned_counter(const std::vector<std::pair<uint64_t, int64_t>>& samples,
                                                         uint64_t bin);

// The flows kept with bin width `bin`, as indices into rec.flows().
std::vector<uint32_t> binned_flows(const TraceRecorder& rec, uint64_t bin);

}  // namespace tlmcraft::traces
