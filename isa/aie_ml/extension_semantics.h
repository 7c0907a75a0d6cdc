// Internal to isa/aie_ml: `semantics:` ops, an expression of the shared language
// (isa/extension) over the op's named operands, typed by their class and format.
#pragma once
#include <memory>
#include <string>

#include "isa/aie_ml/extension_ops.h"
#include "isa/aie_ml/isa_loader.h"

namespace tlmcraft::isa::aie_ml {

// Parses and type-checks the expression; errors (file:line:col) go to L. nullptr on error.
std::shared_ptr<const ExtensionSemantics> parse_extension_semantics(YamlErrors& L, const YAML::Node& node,
                                                                    const ExtensionOp& ext);

// The energy actions of one evaluation: each counted operation on `unit` ("vector").
// Throws isa::ActionError for an operation the action table cannot decompose.
NamedActions semantics_actions(const ExtensionSemantics& sem, const std::string& unit);

// The values of the op's operands before the bundle (register images, scalars,
// immediates), and where its outputs go.
struct ExtensionIo {
  std::vector<const uint8_t*> in;      // per operand: register image (nullptr: scalar or immediate)
  std::vector<int64_t> scalar;         // per operand: scalar register or immediate value
  std::vector<uint8_t*> out;           // per operand: destination image of a written vector operand
  std::vector<int64_t> scalar_out;     // per operand: value of a written scalar operand
};

// Evaluates every output from the inputs (all read before any is stored). False with a
// message when evaluation fails.
bool run_extension_semantics(const ExtensionSemantics& sem, const ExtensionOp& ext, ExtensionIo& io, std::string& error);

}  // namespace tlmcraft::isa::aie_ml
