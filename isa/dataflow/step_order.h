// Orders of a few dependent steps: every order that keeps each pair of
// conflicting steps (one writes what the other reads or writes) as it was. The
// miner takes the smallest signature over them (isomorphic subgraphs in another
// order look alike); the matcher tries each (a kernel may interleave
// independent steps in any order).
#pragma once
#include <string>
#include <vector>

#include "isa/dataflow/dataflow.h"
#include "isa/dataflow/pattern_match.h"

namespace tlmcraft::isa::dataflow {

// The orders of `nodes` (op indices, increasing) that respect their storage
// conflicts; at most `cap`.
std::vector<std::vector<size_t>> topological_orders(const std::vector<Op>& ops, const std::vector<size_t>& nodes,
                                                    size_t cap);

// The pattern with its steps in every order that respects their name conflicts;
// at most `cap`.
std::vector<Pattern> step_orders(const Pattern& p, size_t cap);

// One line per step: "MNEMONIC name, name, literal".
std::string pattern_signature(const Pattern& p);

}  // namespace tlmcraft::isa::dataflow
