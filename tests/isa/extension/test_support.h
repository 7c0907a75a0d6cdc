// Helpers of the semantics-language tests: operand sets shaped like the platforms'
// register classes, and compiling a text to its error message.
#pragma once
#include <string>
#include <vector>

#include "isa/extension/expression.h"

namespace tlmcraft::isa::extension::test {

// A literal block scalar whose first text line is line 10 of ext.yaml, indented by 4
// (text column 0 is file column 5).
inline SourceLocation block() { return {"ext.yaml", 10, 5, true}; }

// PLENA-like: rd and rs1 are 64-lane bf16 rows, gp2 a u32 scalar, f1 a bf16 scalar.
inline std::vector<OperandDecl> vector_operands() {
  return {{"rd", vector_of(ElemFormat::BF16, 64), Role::Output},
          {"rs1", vector_of(ElemFormat::BF16, 64), Role::Input},
          {"gp2", scalar_of(ElemFormat::U32), Role::Input},
          {"f1", scalar_of(ElemFormat::BF16), Role::Input}};
}

// "no error" when the text compiles, else the ExtensionError's what().
inline std::string error_of(const std::string& text, const std::vector<OperandDecl>& operands,
                            const SourceLocation& where = block(), const ExprLimits& limits = {}) {
  try {
    (void)compile_semantics(text, where, operands, limits);
  } catch (const ExtensionError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace tlmcraft::isa::extension::test
