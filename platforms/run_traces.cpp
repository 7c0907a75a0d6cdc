#include "platforms/run_traces.h"

#include "traces/perfetto_writer.h"
#include "traces/vcd_writer.h"

namespace tlmcraft {

std::unique_ptr<traces::TraceRecorder> make_trace_recorder(const TraceOptions& options, double clock_ns) {
  if (options.vcd_path.empty() && options.perfetto_path.empty()) return nullptr;
  traces::TraceConfig tc;
  tc.window_begin = options.window_begin;
  tc.window_end = options.window_end;
  tc.clock = traces::TraceClock::from_period_ns(clock_ns);
  tc.scopes = traces::TraceRecorder::parse_scopes(options.scopes);
  return std::make_unique<traces::TraceRecorder>(tc);
}

void write_trace_files(const traces::TraceRecorder* rec, const TraceOptions& options) {
  if (!rec) return;
  if (!options.vcd_path.empty()) traces::write_vcd_file(*rec, options.vcd_path);
  if (!options.perfetto_path.empty()) {
    traces::PerfettoOptions po;
    po.max_bytes = options.perfetto_max_bytes;
    traces::write_perfetto_file(*rec, options.perfetto_path, po);
  }
}

}  // namespace tlmcraft
