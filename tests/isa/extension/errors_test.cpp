// Every error of the semantics language, with its exact message and file:line:col. The
// text is a literal block starting at ext.yaml line 10, column 5 (test_support.h), so
// text line k, column c (0-based) is file line 10 + k, column 5 + c.
#include <gtest/gtest.h>

#include "tests/isa/extension/test_support.h"

namespace tlmcraft::isa::extension::test {
namespace {

std::vector<OperandDecl> int_operands() {
  return {{"y", vector_of(ElemFormat::I8, 16), Role::Output},
          {"x", vector_of(ElemFormat::I8, 16), Role::Input},
          {"w", vector_of(ElemFormat::I8, 32), Role::Input},
          {"s", scalar_of(ElemFormat::BF16), Role::Output}};
}

TEST(SemanticsErrors, TypeMismatchNamesBothTypesAndTheConversion) {
  // '+' is text column 9 -> file column 14.
  EXPECT_EQ(error_of("rd = rs1 + gp2", vector_operands()),
            "ext.yaml:10:14: cannot add vector<bf16> and u32; convert with bf16(...)");
  EXPECT_EQ(error_of("rd = rs1 * bf16(gp2)\nrd2 = gp2 - f1", vector_operands()),
            "ext.yaml:11:15: cannot subtract u32 and bf16; convert with bf16(...)");
}

TEST(SemanticsErrors, PlainScalarMapsColumnsFromItsStart) {
  // A one-line scalar at line 7, column 16: '+' (text column 9) is column 25.
  EXPECT_EQ(error_of("rd = rs1 + gp2", vector_operands(), {"ext.yaml", 7, 16, false}),
            "ext.yaml:7:25: cannot add vector<bf16> and u32; convert with bf16(...)");
}

TEST(SemanticsErrors, UnknownName) {
  EXPECT_EQ(error_of("t = sigmoid(x)\nrd = t", vector_operands()), "ext.yaml:10:17: unknown name 'x'");
  EXPECT_EQ(error_of("rd = t\nt = rs1", vector_operands()), "ext.yaml:10:10: 't' is used before it is assigned");
  EXPECT_EQ(error_of("rd = exp", vector_operands()), "ext.yaml:10:10: 'exp' is a function; call it, e.g. exp(x)");
}

TEST(SemanticsErrors, OutputNeverAssignedIsReportedAtTheTextStart) {
  EXPECT_EQ(error_of("t = rs1", vector_operands()), "ext.yaml:10:5: output 'rd' is never assigned");
}

TEST(SemanticsErrors, InputAssigned) {
  EXPECT_EQ(error_of("rs1 = rs1\nrd = rs1", vector_operands()),
            "ext.yaml:10:5: 'rs1' is an input and cannot be assigned");
}

TEST(SemanticsErrors, OutputAssignedTwiceNamesTheFirstLine) {
  EXPECT_EQ(error_of("rd = rs1\n# a comment\n  rd = rs1 * 2.0", vector_operands()),
            "ext.yaml:12:7: output 'rd' is assigned twice (first on line 10)");
  EXPECT_EQ(error_of("t = rs1\nt = t\nrd = t", vector_operands()),
            "ext.yaml:11:5: 't' is assigned twice (first on line 10); temporaries are assigned once");
}

TEST(SemanticsErrors, OutputCannotBeRead) {
  EXPECT_EQ(error_of("rd = rd + rs1", vector_operands()), "ext.yaml:10:10: output 'rd' cannot be read");
}

TEST(SemanticsErrors, Arity) {
  EXPECT_EQ(error_of("rd = exp(rs1, rs1)", vector_operands()), "ext.yaml:10:10: exp takes 1 argument, got 2");
  EXPECT_EQ(error_of("rd = fma(rs1, rs1)", vector_operands()), "ext.yaml:10:10: fma takes 3 arguments, got 2");
  EXPECT_EQ(error_of("rd = max(rs1, rs1, rs1)", vector_operands()),
            "ext.yaml:10:10: max takes 2 arguments (or 1 to reduce a vector), got 3");
}

TEST(SemanticsErrors, UnknownFunction) {
  EXPECT_EQ(error_of("rd = softplus(rs1)", vector_operands()), "ext.yaml:10:10: unknown function 'softplus'");
}

TEST(SemanticsErrors, VectorLengthUnknown) {
  // A run-time-length vector output whose inputs are all scalars has no length.
  const std::vector<OperandDecl> ops = {{"vd", vector_of(ElemFormat::I32, 0), Role::Output},
                                        {"a", scalar_of(ElemFormat::I32), Role::Input}};
  EXPECT_EQ(error_of("vd = a", ops),
            "ext.yaml:10:5: the length of vector output 'vd' is unknown: no vector input has the run-time length");
}

TEST(SemanticsErrors, VectorLengthsMustAgree) {
  EXPECT_EQ(error_of("y = x + w", int_operands()),
            "ext.yaml:10:11: cannot add vectors of different lengths (16 lanes and 32 lanes)");
}

TEST(SemanticsErrors, LiteralsTakeTheirContextsFormat) {
  // 300 does not fit i8 (text column 8 -> 13); 0.5 is not an integer.
  EXPECT_EQ(error_of("y = x + 300", int_operands()), "ext.yaml:10:13: literal 300 does not fit i8");
  EXPECT_EQ(error_of("y = x + -129\ns = 0.0", int_operands()), "ext.yaml:10:13: literal -129 does not fit i8");
  EXPECT_EQ(error_of("y = x * 0.5", int_operands()), "ext.yaml:10:13: float literal 0.5 used as i8");
  EXPECT_EQ(error_of("t = 1 < 2\ny = x\ns = 0.0", int_operands()),
            "ext.yaml:10:11: cannot compare two literals; give one a format, e.g. f32(1.0)");
}

TEST(SemanticsErrors, ShapesAndFormatsOfAssignments) {
  EXPECT_EQ(error_of("s = bf16(x)\ny = x", int_operands()),
            "ext.yaml:10:5: cannot assign vector<bf16> to scalar output 's'; reduce it with sum(...), max(...) or min(...)");
  EXPECT_EQ(error_of("y = i16(x)\ns = 0.0", int_operands()),
            "ext.yaml:10:5: cannot assign vector<i16> to output 'y' of type vector<i8>; convert with i8(...)");
}

TEST(SemanticsErrors, FunctionsCheckTheirArgumentFormats) {
  EXPECT_EQ(error_of("y = exp(x)\ns = 0.0", int_operands()),
            "ext.yaml:10:9: exp needs bf16 or f32, got vector<i8>; convert with f32(...)");
  EXPECT_EQ(error_of("rd = rs1 % rs1", vector_operands()), "ext.yaml:10:14: '%' needs integers, got vector<bf16>");
  EXPECT_EQ(error_of("rd = select(rs1, rs1, f1)", vector_operands()),
            "ext.yaml:10:10: select's condition must be bool, got vector<bf16>; compare it, e.g. x != 0");
  EXPECT_EQ(error_of("y = sat(x, f32)\ns = 0.0", int_operands()),
            "ext.yaml:10:16: sat's last argument must be an integer format (i8 i16 i32 i64 u8 u16 u32 u64)");
  EXPECT_EQ(error_of("y = x\ns = sum(f1)", int_operands()), "ext.yaml:11:13: unknown name 'f1'");
  EXPECT_EQ(error_of("rd = rs1\nrd2 = sum(f1)", vector_operands()),
            "ext.yaml:11:11: sum of one argument reduces a vector, got bf16");
}

TEST(SemanticsErrors, Syntax) {
  EXPECT_EQ(error_of("rd = (rs1 + 1.0", vector_operands()),
            "ext.yaml:10:20: expected ')' to close the '(' at column 10, got end of text");
  EXPECT_EQ(error_of("rd = rs1 $ 2", vector_operands()), "ext.yaml:10:14: unexpected character '$'");
  EXPECT_EQ(error_of("rd rs1", vector_operands()), "ext.yaml:10:8: expected '=' after 'rd', got 'rs1'");
  EXPECT_EQ(error_of("rd = rs1 rs1", vector_operands()),
            "ext.yaml:10:14: unexpected 'rs1' after the expression (one statement per line)");
  EXPECT_EQ(error_of("rd = 1x", vector_operands()), "ext.yaml:10:10: malformed number '1x'");
  EXPECT_EQ(error_of("exp = rs1", vector_operands()),
            "ext.yaml:10:5: cannot assign to 'exp': it is a function or format name");
}

TEST(SemanticsErrors, BadDeclarationsAreReportedAtTheTextStart) {
  EXPECT_EQ(error_of("rd = rs1", {{"rd", scalar_of(ElemFormat::I32), Role::Output},
                                  {"rd", scalar_of(ElemFormat::I32), Role::Input}}),
            "ext.yaml:10:5: operand 'rd' is declared twice");
  EXPECT_EQ(error_of("rd = 1", {{"exp", scalar_of(ElemFormat::I32), Role::Output}}),
            "ext.yaml:10:5: operand 'exp' has the name of a function or format of the semantics language");
}

TEST(SemanticsLocation, LiteralBlockStartsOnTheNextLineAtItsIndentation) {
  // Line 2 (0-based) holds "    semantics: |" with '|' at column 15; the text starts on
  // line 3, indented by 6 -> 1-based line 4, column 7.
  const std::string yaml = "instructions:\n  - mnemonic: X\n    semantics: |\n      rd = rs1\n";
  const SourceLocation loc = locate_yaml_scalar(yaml, 2, 15, "x.yaml");
  EXPECT_EQ(loc.file, "x.yaml");
  EXPECT_EQ(loc.line, 4);
  EXPECT_EQ(loc.column, 7);
  EXPECT_TRUE(loc.literal_block);
  // A quoted scalar starts one column after its quote; a plain one at its mark.
  const std::string quoted = "semantics: \"rd = rs1\"\n";
  const SourceLocation q = locate_yaml_scalar(quoted, 0, 11, "q.yaml");
  EXPECT_EQ(q.line, 1);
  EXPECT_EQ(q.column, 13);
  EXPECT_FALSE(q.literal_block);
  EXPECT_EQ(locate_yaml_scalar("semantics: rd = rs1\n", 0, 11, "p.yaml").column, 12);
}

}  // namespace
}  // namespace tlmcraft::isa::extension::test
