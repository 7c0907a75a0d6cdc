// Kernels use new instructions automatically (docs/isa-extensions.md, "Kernels use new
// instructions automatically"), PLENA's one rewriter for the search agent ("use X") and
// the co-design loop. A composed instruction's steps, or the `replaces:` composition of
// an instruction with its own `semantics:`, become a dataflow pattern (by running them
// through PLENA's dataflow adapter on a synthetic kernel, so the pattern sees rows and
// registers exactly as a kernel's ops do); the shared matcher
// (isa/dataflow/pattern_match.h) finds them in a kernel (any registers, independent
// instructions in between, rows named by the addresses their registers hold), and each
// match becomes one instruction placed where its last step was.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent/codesign/kernel_dataflow.h"
#include "isa/dataflow/pattern_match.h"
#include "isa/isa_spec.h"
#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {

struct ComposedDefinition {
  std::string mnemonic;
  struct Operand {
    std::string name, kind;    // kind: an ISA operand kind ("gp", "fp", "flag", ...)
    std::string absent = "0";  // written when no step names it (a placeholder, an unused default)
  };
  std::vector<Operand> operands;  // in assembly order
  std::vector<std::string> temps;
  std::vector<std::string> steps;  // "V_EXP_V t1, t0, 0"
};

// The placeable instructions of an overlay document: its `instructions` with `compose:`,
// and those with `semantics:` and `replaces:` (the composition they stand for).
std::vector<ComposedDefinition> composed_definitions(const nlohmann::json& overlay);
// The same from a loaded ISA (an ISA folder or overlays in force), in ISA order.
std::vector<ComposedDefinition> composed_definitions(const isa::IsaSpec& spec);

// The definition's dataflow pattern; std::invalid_argument when a step does not assemble,
// uses more registers than PLENA has, or writes a register it names literally.
isa::dataflow::Pattern composed_pattern(const ComposedDefinition& def, const nlohmann::json& hardware);

// Every non-overlapping match of `def` in `kernel` replaced by its instruction (commented
// "was N instructions"); returns how many, and adds to `executions` the times they run.
int place_composed(Kernel& kernel, const ComposedDefinition& def, const nlohmann::json& hardware,
                   uint64_t* executions = nullptr);

struct UseReport {
  std::string kernel;                             // the rewritten text (the input when nothing matched)
  std::vector<std::pair<std::string, int>> uses;  // mnemonic -> instructions placed
  std::map<std::string, uint64_t> executions;     // mnemonic -> times they run (loop counts)
};

// Every definition placed (earlier definitions first, no two matches sharing an op), on
// the kernel's text: the instructions need not be in the ISA in force. Kernels that do
// not parse come back unchanged.
UseReport use_composed(const std::string& kernel_text, const std::vector<ComposedDefinition>& defs,
                       const nlohmann::json& hardware);

// The co-design adapter's form: the placeable instructions of `overlay`, larger first.
codesign::KernelRewrite plena_use_overlay(const std::string& kernel_text, const nlohmann::json& overlay,
                                          const nlohmann::json& hardware);

}  // namespace tlmcraft::agent::search::plena
