// Untrusted text is bounded: every limit is an error at its position, never a crash,
// a stack overflow or unbounded work.
#include <gtest/gtest.h>

#include "tests/isa/extension/test_support.h"

namespace tlmcraft::isa::extension::test {
namespace {

// With the text-size bound raised so that the nesting bound is what stops it.
ExprLimits large_text() {
  ExprLimits limits;
  limits.max_text_bytes = 1 << 20;
  return limits;
}

TEST(SemanticsBounds, HundredThousandNestedParenthesesAreAnError) {
  // The 65th '(' (text column 5 + 64 = 69, file column 74) is one level too deep.
  const std::string text = "rd = " + std::string(100000, '(') + "rs1" + std::string(100000, ')');
  EXPECT_EQ(error_of(text, vector_operands(), block(), large_text()),
            "ext.yaml:10:74: expression nested too deeply (more than 64 levels)");
  // With the default bounds the text is too large to start with.
  EXPECT_EQ(error_of(text, vector_operands()), "ext.yaml:10:5: semantics text is 200008 bytes (at most 65536)");
}

TEST(SemanticsBounds, DeepUnaryChainsAndLongOperatorChainsAreErrors) {
  EXPECT_EQ(error_of("rd = " + std::string(100000, '-') + "rs1", vector_operands(), block(), large_text()),
            "ext.yaml:10:74: expression nested too deeply (more than 64 levels)");
  // rs1 + rs1 + ... nests to the left without parentheses: the 64th '+' makes a node of
  // height 65. The k-th '+' is at text column 9 + 6 (k - 1): the 64th at 387 -> 392.
  std::string chain = "rd = rs1";
  for (int i = 0; i < 100; ++i) chain += " + rs1";
  EXPECT_EQ(error_of(chain, vector_operands()), "ext.yaml:10:392: expression nested too deeply (more than 64 levels)");
}

TEST(SemanticsBounds, TextSizeStatementsNodesAndLanes) {
  EXPECT_EQ(error_of(std::string(70000, ' '), vector_operands()),
            "ext.yaml:10:5: semantics text is 70000 bytes (at most 65536)");
  std::string many;
  for (int i = 0; i < 300; ++i) many += "t" + std::to_string(i) + " = rs1\n";
  // Statement 257 starts on text line 256 -> file line 266.
  EXPECT_EQ(error_of(many, vector_operands()), "ext.yaml:266:5: too many statements (at most 256)");
  ExprLimits small;
  small.max_nodes = 4;
  // Nodes: rs1, exp, f1, mul (4); the add is the fifth (the '+' at text column 21 -> 26).
  EXPECT_EQ(error_of("rd = exp(rs1) * f1 + rs1", vector_operands(), block(), small),
            "ext.yaml:10:24: expression too large (more than 4 operations)");
  EXPECT_EQ(error_of("rd = rs1", {{"rd", vector_of(ElemFormat::I8, 20000), Role::Output}}),
            "ext.yaml:10:5: operand 'rd' has 20000 lanes (at most 16384)");
}

TEST(SemanticsBounds, LongChainsOfTemporariesAreEvaluatedWithoutRecursion) {
  // t_k = t_(k-1) + x, 250 times: t_250 = 251 x. With x = 3 (i32): 753.
  std::string text = "t0 = x\n";
  for (int k = 1; k <= 250; ++k) text += "t" + std::to_string(k) + " = t" + std::to_string(k - 1) + " + x\n";
  text += "y = t250";
  const ExprProgram p = compile_semantics(text, block(),
                                          {{"y", scalar_of(ElemFormat::I32), Role::Output},
                                           {"x", scalar_of(ElemFormat::I32), Role::Input}});
  EXPECT_EQ(p.dataflow.nodes.size(), 251u);
  EXPECT_EQ(evaluate(p, {Value::scalar_int(ElemFormat::I32, 3)})[0].ints[0], 753);
}

TEST(SemanticsBounds, UntypedLiteralChainsThroughTemporariesAreBounded) {
  // c_k = c_(k-1) + c_(k-1) doubles an untyped literal without a format; beyond 64
  // levels it must be given a format (and checking stays linear: shared work is memoised).
  std::string text = "c0 = 1.0\n";
  for (int k = 1; k <= 100; ++k) text += "c" + std::to_string(k) + " = c" + std::to_string(k - 1) + " + c" + std::to_string(k - 1) + "\n";
  text += "rd = rs1 * c100";
  // c65 is the first whose depth (65) passes the bound: its line is text line 65 -> 75,
  // the '+' at text column 10 -> 15.
  EXPECT_EQ(error_of(text, vector_operands()),
            "ext.yaml:75:15: literal expression nested too deeply through temporaries; give it a format, e.g. f32(...)");
  // 60 levels are fine: 2^60 in bf16 is exact (0x5D80).
  std::string ok = "c0 = 1.0\n";
  for (int k = 1; k <= 60; ++k) ok += "c" + std::to_string(k) + " = c" + std::to_string(k - 1) + " + c" + std::to_string(k - 1) + "\n";
  ok += "rd = f1 * c60";
  const ExprProgram p = compile_semantics(ok, block(), {{"rd", scalar_of(ElemFormat::BF16), Role::Output},
                                                        {"f1", scalar_of(ElemFormat::BF16), Role::Input}});
  EXPECT_EQ(evaluate(p, {Value::scalar_float(ElemFormat::BF16, 1.0f)})[0].bf16_bits()[0], 0x5D80);
}

TEST(SemanticsBounds, ControlCharactersAndNonAsciiAreErrors) {
  EXPECT_EQ(error_of(std::string("rd = rs1\x01"), vector_operands()), "ext.yaml:10:13: unexpected character (byte 0x01)");
  EXPECT_EQ(error_of("rd = r\xC3\xA9s", vector_operands()), "ext.yaml:10:11: unexpected character (byte 0xC3)");
}

}  // namespace
}  // namespace tlmcraft::isa::extension::test
