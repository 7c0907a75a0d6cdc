// Writes a recorder's events as a Value Change Dump (IEEE 1364 VCD) that GTKWave opens.
//
// Hierarchy: the dotted track name "group.a.b" becomes nested scopes group > a > b; names
// are reduced to [A-Za-z0-9_] (others become '_', a leading digit gets a '_' prefix, and
// siblings that collide get a numeric suffix). Per track, only the signals for the kinds
// of events it carries:
//   busy   wire 1      1 while at least one slice covers the cycle. Overlapping slices
//                      (pipelined issue) and back-to-back slices ([0,4) then [4,9)) keep
//                      it 1 without a gap: the unit is occupied in every one of those cycles.
//   slice  integer 32  index of the slice name shown (the latest-started active slice;
//                      0 = idle or unnamed); a $comment in the header maps index -> name.
//   value  integer 32  the counter (64 bits if a value does not fit a signed 32-bit
//                      integer); 0 until the first sample (no signal starts as x).
//   event  event       instants (their names are in the Perfetto trace only).
// Time: one VCD time unit is the largest of 1/10/100 s..fs dividing the clock period,
// so for a 1 ns clock the VCD time equals the cycle number. Times are absolute cycles,
// starting at the window begin with $dumpvars holding every signal's value there.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "traces/trace_recorder.h"

namespace tlmcraft::traces {

struct VcdOptions {
  std::string date;  // $date text; empty = the current UTC time
  std::string version = "tlmcraft traces";
};

// The signals a VCD declares, for tools that display it (the GTKWave save file).
struct VcdSignal {
  enum class Kind { Busy, Slice, Value, Event };
  std::string path;  // hierarchical name as GTKWave shows it, e.g. "plena.vector.slice"
  Kind kind = Kind::Busy;
  int width = 1;
};
struct VcdLayout {
  std::vector<VcdSignal> signals;       // in declaration order
  std::vector<std::string> slice_names;  // slice_names[i] is the name of 'slice' value i + 1
};

VcdLayout write_vcd(const TraceRecorder& recorder, std::ostream& out, const VcdOptions& options = {});
// Also writes, beside the VCD, "<path>.names.txt" (a GTKWave translate filter mapping each
// 'slice' value to its instruction name) and "<path without .vcd>.gtkw" (a GTKWave save file
// that shows every signal with the filter applied to the 'slice' signals), unless
// `gtkwave_files` is false. Throws std::runtime_error naming a path that cannot be written.
void write_vcd_file(const TraceRecorder& recorder, const std::string& path,
                    const VcdOptions& options = {}, bool gtkwave_files = true);

// The VCD $timescale for a clock ("1ns", "10ps", ...) and the number of those units per
// cycle; exposed for tests and for tools that convert VCD times back to cycles.
struct VcdTimescale {
  std::string text;
  uint64_t units_per_cycle = 1;
};
VcdTimescale vcd_timescale(const TraceClock& clock);

}  // namespace tlmcraft::traces
