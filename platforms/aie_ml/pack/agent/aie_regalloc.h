// Register reallocation inside basic blocks: removes the false dependences (write after
// read, write after write) that come from reusing a few register names, so compaction
// can overlap independent chains (above all the copies of an unrolled loop body).
//
// A web is one value: an op's destination operand (a w / x / am / bm / r view, written
// whole, not read-modify-write) and every later read of exactly that view until the next
// write of any of its units. The block's pool is the units of those files that are not
// live into or out of the block (tile liveness, loop-back edges included) and are touched
// in the block only by webs; webs are then re-coloured from the pool in order of their
// definitions (interval colouring): a register whose last reader is already an ancestor
// of the new value (no new ordering), else one unused so far, else the one free the
// longest, so independent chains (the copies of an unrolled body) keep apart.
//
// Safety: every rewritten op is re-assembled, and the block is replayed symbolically
// before and after (each op's inputs as value numbers, each live-out unit's final
// value); the block is left unchanged unless the two replays agree exactly.
#pragma once
#include "isa/aie_ml/program_text.h"

namespace tlmcraft::agent::search::aie {

using isa::aie_ml::AieKernel;

// Reallocates every block of every tile; returns how many webs changed register.
int reallocate_registers(AieKernel& kernel);

}  // namespace tlmcraft::agent::search::aie
