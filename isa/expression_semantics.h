// `semantics:` instructions (docs/isa-extensions.md, "New semantics"): each one's text is
// compiled once, when the ISA loads, by the shared evaluator (isa/extension/) against the
// operands that declare a value class; the class's `type` gives the operand's type
// ("bf16[VLEN]": a bf16 vector whose length the platform supplies at run time; "bf16",
// "u32", "i32": scalars) and the operand's role its role (read: input, write: output,
// readwrite: both). The platform evaluates the program and stores the outputs itself.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "isa/isa_spec.h"

namespace tlmcraft::isa {

// Compiles the `semantics:` of every instruction of `spec`. Returns the problems, each
// "file:line:col: message" in the file that holds the text.
std::vector<std::string> compile_expression_semantics(IsaSpec& spec, const DocumentLines& lines);

}  // namespace tlmcraft::isa
