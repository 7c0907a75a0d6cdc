// The order in which a rewriter tries an overlay's composed instructions. Each site
// goes to the first instruction that matches it, so an instruction with more steps is
// tried first: a sub-chain of it (its first two steps, say) would otherwise take the
// site and leave the rest as separate instructions, saving less. Ties keep the
// overlay's order, so the placement depends on the overlay alone.
#pragma once
#include <algorithm>
#include <vector>

namespace tlmcraft::isa::dataflow {

// Sorts `instructions` in place, the most steps first (`step_count(x)`); stable.
template <class Instruction, class StepCount>
void order_larger_first(std::vector<Instruction>& instructions, StepCount step_count) {
  std::stable_sort(instructions.begin(), instructions.end(),
                   [&](const Instruction& a, const Instruction& b) { return step_count(a) > step_count(b); });
}

}  // namespace tlmcraft::isa::dataflow
