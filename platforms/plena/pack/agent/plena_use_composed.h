// Kernels use composed instructions automatically (docs/isa-extensions.md, "Kernels use
// new instructions automatically"): each composed instruction's steps become a dataflow
// pattern (by running them through PLENA's dataflow adapter on a synthetic kernel, so the
// pattern sees rows and registers exactly as a kernel's ops do), the shared matcher
// (isa/dataflow/pattern_match.h) finds them in a kernel, and each match becomes one
// instruction placed where its last step was.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent/codesign/kernel_dataflow.h"
#include "isa/dataflow/pattern_match.h"

namespace tlmcraft::agent::search::plena {

struct ComposedDefinition {
  std::string mnemonic;
  struct Operand {
    std::string name, kind;  // kind: an ISA operand kind ("gp", "fp", "flag", ...)
  };
  std::vector<Operand> operands;  // in assembly order
  std::vector<std::string> temps;
  std::vector<std::string> steps;  // "V_EXP_V t1, t0, 0"
};

// The composed instructions of an overlay document (its `instructions` with `compose:`).
std::vector<ComposedDefinition> composed_definitions(const nlohmann::json& overlay);

// The definition's dataflow pattern; std::invalid_argument when a step does not assemble
// or uses more registers than PLENA has.
isa::dataflow::Pattern composed_pattern(const ComposedDefinition& def, const nlohmann::json& hardware);

struct UseReport {
  std::string kernel;                             // the rewritten text (the input when nothing matched)
  std::vector<std::pair<std::string, int>> uses;  // mnemonic -> instructions placed
  std::map<std::string, uint64_t> executions;     // mnemonic -> times they run (loop counts)
};

// Every non-overlapping match of every definition (earlier definitions first) replaced by
// its instruction. Kernels that do not parse come back unchanged.
UseReport use_composed(const std::string& kernel_text, const std::vector<ComposedDefinition>& defs,
                       const nlohmann::json& hardware);

// The co-design adapter's form: the composed instructions of `overlay`, larger first.
codesign::KernelRewrite plena_use_overlay(const std::string& kernel_text, const nlohmann::json& overlay,
                                          const nlohmann::json& hardware);

}  // namespace tlmcraft::agent::search::plena
