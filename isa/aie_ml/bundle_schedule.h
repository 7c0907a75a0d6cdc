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

// Static cycle estimate: each block's issue cycles under the interlocked model (one
// bundle per cycle, a bundle waits for the registers it reads), loop bodies counted
// with the loop's trip count when it is a constant (`MOVXM lc, N`), the slowest tile.
double estimate_cycles(const AieKernel& kernel);

}  // namespace tlmcraft::isa::aie_ml
