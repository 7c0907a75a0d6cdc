// Offset addressing: inside a basic block, a pointer that only moves by immediate
// post-modifies (`VLDA w0, [p0], #32` then `VLDA w2, [p0], #32`) is rewritten so every
// access uses an offset from the block-entry value (`[p0]`, `[p0, #32]`) and one pointer
// update (`PADDA [p0], #64`) joins the block's last bundle. A chain of post-modifying
// loads through one pointer waits for each previous update (the AGU's latency, one
// cycle, on the platform), so the loads issue one per bundle at best; with offsets the
// loads are independent and compaction can pair them.
//
// The rewritten region ends at the first bundle that uses the pointer outside an
// address (MOV r, p / MOV p, r); the update then goes into a new bundle just before it.
// A pointer is left alone when the region uses a modifier or 2-D/3-D post-modify or a
// modifier offset `[p, m]`, post-modifies it twice in one bundle, moves it fewer than
// twice, when an offset would leave the op's immediate range (the re-assembly checks),
// or the block's last bundle has no free address-generation slot (lda, ldb, st).
#pragma once
#include <string>

#include "isa/aie_ml/program_text.h"

namespace tlmcraft::agent::search::aie {

using isa::aie_ml::AieKernel;

// Rewrites every eligible pointer of every block; returns how many pointer chains.
int offset_addressing(AieKernel& kernel);

}  // namespace tlmcraft::agent::search::aie
