// The VCD / Perfetto recording every platform's run() offers: a recorder when the trace
// options ask for a file, and the files written once the run is over.
#pragma once
#include <memory>

#include "platforms/platform.h"
#include "traces/trace_recorder.h"

namespace tlmcraft {

// Null when neither a VCD nor a Perfetto path is set.
std::unique_ptr<traces::TraceRecorder> make_trace_recorder(const TraceOptions& options, double clock_ns);
// Writes the requested files (nothing when rec is null).
void write_trace_files(const traces::TraceRecorder* rec, const TraceOptions& options);

}  // namespace tlmcraft
