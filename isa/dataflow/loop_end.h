// Loop-end fusion candidates (docs/codesign.md, "Loop-end fusion"): a register updated in
// place from itself and literals (`r = r + 64`) in a loop body, done instead by the loop's
// end instruction as it runs. The loop end keeps its own control flow (counter, branch);
// the fused part is the update only. Legal where nothing between the update and the loop
// end reads or writes the register (it would see the old value, or be overwritten) and
// the loop end itself does not touch it.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "isa/dataflow/dataflow.h"
#include "isa/dataflow/pattern_match.h"

namespace tlmcraft::isa::dataflow {

// The updates of region [begin, end) that the op at `end` (a loop end) can absorb, in
// order: indices of ops that update a register in place with no op after them up to
// and including ops[end] reading or writing it.
std::vector<size_t> loop_end_updates(const std::vector<Op>& ops, size_t begin, size_t end);

// The candidate as a pattern: the update with its register named io0 (input and output),
// then the loop end (no operands: its counter is its own); `signature` one line per step.
Pattern loop_end_pattern(const Op& update, const Op& loop_end, std::string& signature);

}  // namespace tlmcraft::isa::dataflow
