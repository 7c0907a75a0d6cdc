// A compact "where did the cycles go" summary for agents and humans: per-track busy
// cycles and utilisation over a cycle span, and the slice names (per track) that took the
// most cycles. Built from a recorder's events or from a platform's own unit counters.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "traces/trace_recorder.h"

namespace tlmcraft::traces {

struct TrackProfile {
  std::string name;            // "group.track"
  uint64_t busy_cycles = 0;    // cycles covered by at least one slice (overlaps counted once)
  uint64_t slices = 0;
  uint64_t slice_cycles = 0;   // summed slice durations (> busy when slices overlap)
  double utilisation = 0;      // busy_cycles / total_cycles
};

struct NameProfile {
  std::string track;           // "group.track"
  std::string name;            // slice name, e.g. a mnemonic or "dma.load"
  uint64_t count = 0;
  uint64_t cycles = 0;         // summed durations within the span
  double share = 0;            // cycles / total_cycles
};

struct Profile {
  uint64_t span_begin = 0;     // the cycle span [span_begin, span_end) measured
  uint64_t span_end = 0;
  uint64_t total_cycles = 0;   // span_end - span_begin
  std::vector<TrackProfile> tracks;  // busiest first
  std::vector<NameProfile> top;      // most cycles first
  bool truncated = false;      // the recorder dropped events: figures cover recorded ones
  uint64_t dropped_events = 0;

  std::string to_text() const;
  nlohmann::json to_json() const;
};

// From recorded slices, clipped to [window begin, end): end = min(window end,
// total_cycles) when total_cycles > 0 (a platform passes its run's cycles), else the last
// cycle the recorder reached. Only tracks with slices appear.
Profile profile_from_recorder(const TraceRecorder& recorder, uint64_t total_cycles = 0, size_t top_n = 10);

// From counters a platform keeps itself (exact whatever the trace window or limit):
// each entry's name, busy_cycles, slices (e.g. instructions) and slice_cycles are used;
// utilisation is computed. Tracks are sorted busiest first.
Profile profile_from_counters(std::vector<TrackProfile> tracks, uint64_t total_cycles);

}  // namespace tlmcraft::traces
