// libFuzzer harness: the semantics language of ISA extensions (isa/extension/). The
// first byte picks an operand set shaped like a platform's registers (bf16 rows, int8
// run-time-length vectors with an i32 accumulator, f32 scalars); the rest is the text.
// Bad text must end in an ExtensionError naming the file; a program that compiles is
// compiled again (the dataflow must be the same) and evaluated on fixed inputs, whose
// outputs must have the declared shapes. Crashes, leaks, UB and other exceptions are
// findings.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_input.h"
#include "isa/extension/expression.h"

using namespace tlmcraft;
using namespace tlmcraft::isa::extension;

namespace {

constexpr const char* kFile = "fuzz.sem";

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_semantics: %s\n", what.c_str());
  std::abort();
}

std::vector<OperandDecl> operand_set(uint8_t pick) {
  switch (pick % 3) {
    case 0:
      return {{"rd", vector_of(ElemFormat::BF16, 8), Role::Output},
              {"rs1", vector_of(ElemFormat::BF16, 8), Role::Input},
              {"rs2", vector_of(ElemFormat::BF16, 8), Role::Input},
              {"f1", scalar_of(ElemFormat::BF16), Role::Input},
              {"gp2", scalar_of(ElemFormat::U32), Role::Input}};
    case 1:
      return {{"vd", vector_of(ElemFormat::I8, 0), Role::Output},
              {"acc", scalar_of(ElemFormat::I32), Role::InOut},
              {"vs1", vector_of(ElemFormat::I8, 0), Role::Input},
              {"vs2", vector_of(ElemFormat::I16, 0), Role::Input},
              {"x1", scalar_of(ElemFormat::I64), Role::Input}};
    default:
      return {{"fd", scalar_of(ElemFormat::F32), Role::Output},
              {"fs1", scalar_of(ElemFormat::F32), Role::Input},
              {"fs2", scalar_of(ElemFormat::F32), Role::Input},
              {"u", scalar_of(ElemFormat::U64), Role::Input}};
  }
}

// Inputs with edge values (zero, negative, large, NaN, infinity) in every lane pattern.
Value input_for(const OperandDecl& d) {
  const size_t lanes = d.type.vector ? (d.type.lanes ? d.type.lanes : 5) : 1;
  static const float floats[] = {0.0f, -1.5f, 3.0e38f, -0.0f, __builtin_nanf(""), 1e-40f, -__builtin_inff(), 2.0f};
  static const int64_t ints[] = {0, -1, 127, -128, INT64_MIN, INT64_MAX, 300, 7};
  Value v;
  v.format = d.type.format;
  v.vector = d.type.vector;
  for (size_t i = 0; i < lanes; ++i) {
    if (is_float(v.format)) v.floats.push_back(v.format == ElemFormat::BF16 ? Value::scalar_float(v.format, floats[i % 8]).floats[0] : floats[i % 8]);
    else v.ints.push_back(Value::scalar_int(v.format, ints[i % 8]).ints[0]);
  }
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string text = fuzz::as_text(data + 1, size - 1);
  const std::vector<OperandDecl> operands = operand_set(data[0]);
  const SourceLocation where{kFile, 3, 7, (data[0] & 4) != 0};
  ExprProgram program;
  try {
    program = compile_semantics(text, where, operands);
  } catch (const ExtensionError& e) {
    if (std::string(e.what()).rfind(std::string(kFile) + ":", 0) != 0) fail(std::string("error does not name the file: ") + e.what());
    if (e.line() < 3 || e.column() < 1) fail(std::string("error before the text's start: ") + e.what());
    return 0;
  }
  if (!(compile_semantics(text, where, operands).dataflow == program.dataflow)) fail("compiling twice gave different dataflows");
  std::vector<Value> inputs;
  for (uint32_t index : program.inputs) inputs.push_back(input_for(operands[index]));
  const std::vector<Value> outputs = evaluate(program, inputs);
  if (outputs.size() != program.outputs.size()) fail("wrong number of outputs");
  for (size_t i = 0; i < outputs.size(); ++i) {
    const OperandDecl& d = operands[program.outputs[i]];
    const size_t lanes = d.type.vector ? (d.type.lanes ? d.type.lanes : 5) : 1;
    if (outputs[i].format != d.type.format || outputs[i].lanes() != lanes) fail("output '" + d.name + "' has the wrong shape");
  }
  return 0;
}
