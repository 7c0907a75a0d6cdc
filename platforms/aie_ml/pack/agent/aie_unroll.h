// Unrolling of AIE-ML zero-overhead loops on the kernel text, with register renaming so
// the copies are independent and compaction can overlap them.
//
// unroll_loop(kernel, tile, loop, f): the body (from the `ls` label to the `le` bundle) is
// repeated f times and the constant written to lc before the loop divided by f; the `le`
// label moves to the last copy's last bundle. Refused: an unknown or indivisible trip
// count, a body with other labels, branches, locks or DONE, a body that reads or writes
// ls, le or lc, an lc constant shared with another loop, a tile over the program memory
// (1024 bundles).
//
// Renaming (copies 2..f): a register is renamed when the body writes it before any read
// (nothing flows in from the previous iteration) and it is dead when the loop exits
// (backward liveness over the tile's control flow, loop-back edges included); a part of
// it no op of the tile ever writes holds the reset value 0 under both names; vector
// registers are renamed as whole x registers (w halves follow), accumulators as whole
// bm registers (am quarters follow), scalars as r registers, each to a register the tile
// never mentions. Registers used through y / cm views or as 8-bit lane masks (r and r+1)
// are not renamed. Every renamed op is re-assembled and its def/use checked against the
// renaming; any mismatch refuses the renaming (the loop is then unrolled without it).
#pragma once
#include <string>

#include "isa/aie_ml/program_text.h"

namespace tlmcraft::agent::search::aie {

using isa::aie_ml::AieKernel;

struct UnrollStats {
  int renamed_registers = 0;  // register groups renamed over all copies
};

bool unroll_loop(AieKernel& kernel, size_t tile, size_t loop, int factor, bool rename, std::string& why,
                 UnrollStats* stats = nullptr);

// Inlines zero-overhead loops with a trip count of 1 (typically after full unrolling):
// their `MOVXM ls`, `MOVXM le` and lc set-up operations and their two labels go, so the
// body joins the surrounding blocks. lc is 0 after every completed loop and at reset, so
// the loop-end bundle can no longer branch. Only loops whose labels nothing else names,
// whose lc constant is their own, with no branch, lock or DONE in the body, in tiles
// that never read ls, le or lc as data. Returns how many loops were inlined.
int inline_single_trip_loops(AieKernel& kernel);

constexpr size_t kProgramBundles = 1024;  // 16 KB program memory / 128-bit bundles (docs/platforms/aie-ml.md)

}  // namespace tlmcraft::agent::search::aie
