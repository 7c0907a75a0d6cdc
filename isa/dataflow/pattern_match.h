// Finds a composed instruction's dataflow in a kernel (docs/isa-extensions.md,
// "Kernels use new instructions automatically"). A pattern is the composed
// instruction's steps over its own names: inputs, outputs, temporaries and
// literal parameters (an immediate operand of the new instruction, such as a
// mask flag). A match binds every name to the kernel's storage so that
// replacing the matched ops by one instruction placed at the last of them
// computes the same values:
// - steps match ops of the same mnemonic, in the steps' order, with any
// independent ops
//   interleaved (within `window` ops and no barrier between);
// - the two operands of an op's commutative pair (Op::commutes_a/b) match in
//   either order;
// - every value a step reads is the one its producing step wrote (or, for an
// input, the
//   value before the first matched op): register renaming and in-place reuse
//   are allowed;
// - the interleaved ops neither read nor write what the steps write, nor write
//   what the steps they now run after read: with the new instruction at the
//   last step (the default), every step before them; where the caller allows it
//   (MatchLimits::place_first) and the last step's place is not legal, at the
//   first step, every step after them (a post-increment whose register an
//   interleaved op reads keeps its place before that op: write-after-read order);
// - a storage whose last matched write is a temporary is dead afterwards
// (live_at);
// - a name both an input and an output is read and written (a register updated
//   in place, such as a post-incremented address); a step operand whose
//   `address` names a pattern name is reached through the register bound to it
//   (the kernel op's Operand::address), which the step reads. Memory reached through two different registers holding
//   the same
// address cannot be seen here: the caller evaluates a rewritten kernel before
// trusting it (the search agent does).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "isa/dataflow/dataflow.h"

namespace tlmcraft::isa::dataflow {

struct PatternStep {
  std::string mnemonic;
  // Read/Write/ReadWrite operands name a pattern name in `storage` (and, for a
  // memory operand reached through a register of the pattern, in `address`;
  // empty: any register, the storage alone must agree). A Literal
  // operand with an empty `storage` must equal `text`; one with a `storage`
  // name is a parameter bound to whatever literal the kernel has there (the
  // same text at every use).
  std::vector<Operand> operands;
};

struct Pattern {
  std::string name;  // the instruction it becomes
  std::vector<std::string> inputs, outputs, temps, parameters;
  // Inputs that must bind to one particular storage (a register the steps name
  // directly, such as a constant register): name -> storage.
  std::map<std::string, std::string> fixed;
  std::vector<PatternStep> steps;
};

struct Match {
  std::vector<size_t> ops;                     // matched op index per step, increasing
  size_t at = 0;                               // where the new instruction goes: ops.back() or ops.front()
  std::map<std::string, std::string> storage;  // pattern name -> kernel storage
  std::map<std::string, std::string> text;     // pattern name -> operand text as written
};

struct MatchLimits {
  size_t window = 64;        // ops from the first matched op to the last
  size_t max_matches = 256;  // stop after this many (non-overlapping) matches
  bool place_first = false;  // the caller places a match at Match::at, which may be its first op
};

// Non-overlapping matches of `pattern` in `ops`, earliest first.
std::vector<Match> find_matches(const std::vector<Op>& ops, const Pattern& pattern, const MatchLimits& limits = {});

// Problems with a pattern itself (a name used but not declared, an input
// written that is not also an output, an output never written, a temporary read before it is written, a
// fixed name that is not an input), one message each.
std::vector<std::string> check_pattern(const Pattern& pattern);

// A step as assembly text: its mnemonic, then each operand by the name `names`
// gives its storage (a literal as written); throws std::out_of_range for a name
// `names` lacks.
std::string step_text(const PatternStep& step, const std::map<std::string, std::string>& names);

}  // namespace tlmcraft::isa::dataflow
