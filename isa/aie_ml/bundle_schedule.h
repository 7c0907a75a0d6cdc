// Bundle compaction of AIE-ML core programs: what a VLIW compiler's scheduler does, on the
// kernel text. Each basic block is list-scheduled: its operations are placed, in program
// order, at the earliest cycle their ordering constraints allow (def_use.h: RAW and
// WAW on any register unit and a store before an access it may overlap need a later
// bundle; WAR and a load before a store it may overlap may share the bundle, since a
// bundle reads all registers before any slot writes and its loads read before its
// stores write; an ordered pair is also kept the producer's result latency apart) in a
// free slot (a vector load may move between the two load units, a pointer update
// between the three AGUs). Cycles become bundles in order; empty cycles vanish (the core
// is interlocked, so a wait reappears as a stall only where a dependence needs it).
//
// Block boundaries: a label that anything branches to (or the loop start `ls`), after a
// branch, jump, return or DONE (which stay in the block's last bundle), and after the
// zero-overhead loop's last bundle (`le`): its label is moved onto the block's new last
// bundle (every op of the block still runs before the loop-back test, and writes of lc
// keep their order, so the test sees the same lc). Lock operations stay in order and no
// memory access crosses them. Refused: a tile setting ls/le from anything but a label or
// with indirect jumps (left unchanged); a block with a bundle whose atomic reads cannot
// be ordered (two ops each reading what the other writes) or a lock sharing a bundle
// with a memory access (that block left unchanged).
#pragma once
#include <string>
#include <vector>

#include "isa/aie_ml/program_text.h"

namespace tlmcraft::isa::aie_ml {

struct CompactStats {
  int blocks_changed = 0;
  int bundles_before = 0, bundles_after = 0;
  std::string refused;  // why a tile was left alone ("" when none was)
};

// Compacts every block of every tile; true when the text changed. By default ops are
// placed in program order; critical_path_first schedules cycle by cycle, the ready ops
// with the longest latency-weighted path to the block's end first.
bool compact(AieKernel& kernel, CompactStats* stats = nullptr, bool critical_path_first = false);

// What a generator tells the scheduler beyond the code itself.
struct ScheduleOptions {
  // false: each op, in program order, at the earliest cycle with a free slot; true: cycle
  // by cycle, the ready ops with the longest latency-weighted path to the end first (what
  // software-pipelined loop bodies and interleaved chains need).
  bool critical_path_first = false;
  // Pointer numbers (p0..p7) whose accesses address disjoint buffers throughout the code:
  // an access through one of them never overlaps an access through another of them, so
  // loads and stores through different ones may be reordered (accesses through one
  // pointer are still compared by their offsets). The caller's promise: the scheduler
  // cannot check it when pointers are set from registers.
  std::vector<int> disjoint_pointers;
  // Keep a write of a 512-bit x register or bm accumulator after an earlier read of
  // another view of it (w1 after a read of w0): the platform interlocks whole x/bm
  // registers, so the read would wait for the write. It pins such writes (a load into
  // w1 cannot be hoisted above a use of w0): worth it in code that keeps reusing the
  // halves of a few registers (the split-precision generators), a loss in general
  // compaction (the search agent measured silu C1 2.91x without it, 2.59x with it).
  bool keep_register_view_order = false;
};

// Schedules straight-line code or a loop body for a generator: `ops` are slot operations
// in program order, one per entry ("VLDA w0, [p0, #0]"), optionally with a trailing
// comment ("; ..."); an entry may also be a bundle ("a ;; b", its atomic reads kept).
// Returns the bundle lines, issue order, one per cycle that issues something (no
// indentation; ops in slot order, the ops' comments joined after ';'). The rules are
// compact()'s (register and memory dependences, result latencies, slot variants), on one
// block with no pointer values known. A branch or DONE may only be the last entry; it
// goes into the last bundle. A zero-overhead loop body's last bundle is the last line.
// Throws std::invalid_argument naming the op (1-based) and the cause for ops that do
// not assemble, labels, directives, a branch before the end, a lock sharing a bundle
// with a memory access, or a bundle whose reads cannot be ordered.
std::vector<std::string> schedule_bundles(const std::vector<std::string>& ops, const ScheduleOptions& options = {});

// Static cycle estimate: each block's issue cycles under the interlocked model (one
// bundle per cycle, a bundle waits for the registers it reads), loop bodies counted
// with the loop's trip count when it is a constant (`MOVXM lc, N`), the slowest tile.
double estimate_cycles(const AieKernel& kernel);

}  // namespace tlmcraft::isa::aie_ml
