// Writes a recorder's events as Chrome trace-event JSON, the format ui.perfetto.dev and
// chrome://tracing load:
//   {"displayTimeUnit":"ns","otherData":{...},"traceEvents":[...]}
// - one process per group (ph "M" process_name, process_sort_index = first-use order);
// - one thread per track (ph "M" thread_name, thread_sort_index). A track whose slices
//   overlap (a pipelined unit with several instructions in flight) is split into lanes,
//   threads named "vector", "vector #2", ...: the viewers require slices on one thread to
//   nest, so each slice goes to the lowest-numbered lane that is free at its begin;
// - slices as complete events (ph "X") with args begin_cycle, end_cycle (as recorded,
//   before window clipping) plus the caller's args; instants as ph "i" (thread scope);
//   counters as ph "C" named after the track with one series "value";
// - a truncated trace carries otherData.truncated = true and a global instant
//   "TRACE TRUNCATED ..." at the cycle of the first dropped event.
// Time: "ts" and "dur" are microseconds (the format's unit), written as exact decimals
// of cycles x clock period: at 1 GHz one cycle is 0.001, cycle 1234 is 1.234.
// Size: with a budget (PerfettoOptions::max_bytes, by default 40 MB), a trace whose
// estimated JSON exceeds it is aggregated into bins of W cycles (traces/perfetto_budget.h);
// otherData.aggregation_bin_cycles records W (1 = every event as recorded).
// Flows (TraceRecorder::flow) become ph "s" / ph "f" (bp "e") pairs bound to the slices
// covering their cycles, drawn as arrows.
// A path ending in ".gz" is written gzip-compressed.
// Events are streamed (no JSON tree is built), so millions of events need little memory.
#pragma once
#include <ostream>
#include <string>

#include "traces/trace_recorder.h"

namespace tlmcraft::traces {

struct PerfettoOptions {
  // Estimated uncompressed JSON bytes above which events are aggregated; 0 = no budget.
  uint64_t max_bytes = 40'000'000;
};

void write_perfetto(const TraceRecorder& recorder, std::ostream& out, const PerfettoOptions& options = {});
// Throws std::runtime_error naming the path when the file cannot be written.
void write_perfetto_file(const TraceRecorder& recorder, const std::string& path,
                         const PerfettoOptions& options = {});

// Exact decimal microseconds of `cycles` at `clock` ("0.001", "1.25", "0").
std::string cycles_to_us(uint64_t cycles, const TraceClock& clock);

}  // namespace tlmcraft::traces
