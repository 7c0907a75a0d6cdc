// Semantics-preserving transformations of PLENA kernels. Each one checks its own
// legality (register and memory dependences, loop-counter liveness) and refuses with a
// reason rather than produce a kernel that computes something else; the evaluator
// re-checks every kept kernel anyway.
//
// Loops are named by their pre-order index (0 = the first C_LOOP_START in the text).
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "platforms/plena/pack/agent/plena_analysis.h"
#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {

int count_loops(const Block& block);
// The loop with pre-order index `id`, nullptr if there is none.
const Node* find_loop(const Block& block, int id);

// Registers live after the loop `id` (read before being written on some path).
std::set<int> live_after_loop(const Kernel& kernel, int id);
// Registers live before each top-level node of the kernel, and (last) after its code.
std::vector<std::set<int>> live_before_each(const Kernel& kernel);

// Replicates the body of loop `id` `factor` times. factor == count unrolls fully (the
// loop disappears); otherwise factor must divide count (the loop runs count/factor
// times). Refused when the body reads or writes the counter, when unrolling fully
// and the counter is read after the loop, or when the result would exceed
// `max_instructions` static instructions.
bool unroll(Kernel& kernel, int id, int64_t factor, std::string& why, size_t max_instructions = 4096);

// Removes set-up instructions that write the value the register already holds
// (value numbering), reads registers known to hold 0 from gp0 instead, removes set-up
// whose result is never read (liveness), and loops of one
// iteration whose counter nobody reads. Repeats until nothing changes; returns the
// number of instructions removed from the text.
int simplify(Kernel& kernel);

// Moves loop-invariant set-up (pure S_*_INT / C_SET_* whose inputs the loop never
// writes) out of loop `id`, renaming a destination that the body writes more than once
// to a free gp register first. Returns the number of instructions hoisted.
int hoist_invariants(Kernel& kernel, int id);

// Reorders every straight-line region so that prefetches (and the set-up feeding
// them) issue as early as their register and memory dependences allow, overlapping
// HBM transfers with compute in the pipelined timing mode. Returns true if any
// instruction moved.
bool schedule_prefetch_first(Kernel& kernel, const Arch& arch);

}  // namespace tlmcraft::agent::search::plena
