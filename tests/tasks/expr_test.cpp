#include <gtest/gtest.h>

#include "tasks/expr.h"

namespace tlmcraft::tasks {
namespace {

std::string error_of(const std::string& e, const Params& p) {
  try {
    eval_expr(e, p);
  } catch (const ExprError& err) {
    return err.what();
  }
  return "";
}

TEST(Expr, EvaluatesShapesOfTheSpecs) {
  EXPECT_EQ(eval_expr("n / 64", {{"n", 256}}), 4);
  // GQA C5: 512 / 8 * 2 = 128 (left to right).
  EXPECT_EQ(eval_expr("h / heads * kv_heads", {{"h", 512}, {"heads", 8}, {"kv_heads", 2}}), 128);
  EXPECT_EQ(eval_expr("k * k * c_in", {{"k", 3}, {"c_in", 4}}), 36);
  EXPECT_EQ(eval_expr("256", {}), 256);
}

TEST(Expr, PrecedenceAssociativityAndUnaryMinus) {
  EXPECT_EQ(eval_expr("2 + 3 * 4", {}), 14);
  EXPECT_EQ(eval_expr("(2 + 3) * 4", {}), 20);
  EXPECT_EQ(eval_expr("10 - 2 - 3", {}), 5);   // (10 - 2) - 3
  EXPECT_EQ(eval_expr("64 / 4 / 2", {}), 8);   // (64 / 4) / 2
  EXPECT_EQ(eval_expr("-3 + 5", {}), 2);
  EXPECT_EQ(eval_expr(" ( ( 7 ) ) ", {}), 7);
}

TEST(Expr, ErrorsNameTheExpressionColumnAndCause) {
  EXPECT_EQ(error_of("n / 3", {{"n", 256}}), "expression \"n / 3\" column 5: 256 is not divisible by 3");
  EXPECT_EQ(error_of("n * m", {{"n", 2}}), "expression \"n * m\" column 5: unknown parameter 'm'");
  EXPECT_EQ(error_of("n / 0", {{"n", 2}}), "expression \"n / 0\" column 5: division by zero");
  EXPECT_EQ(error_of("n +", {{"n", 2}}), "expression \"n +\" column 4: expected a number, a name or '('");
  EXPECT_EQ(error_of("(n", {{"n", 2}}), "expression \"(n\" column 3: expected ')'");
  EXPECT_EQ(error_of("n $", {{"n", 2}}), "expression \"n $\" column 3: unexpected '$'");
  EXPECT_NE(error_of("99999999999999999999", {}).find("overflows"), std::string::npos);
}

TEST(Expr, NamesListsEveryParameterMentioned) {
  EXPECT_EQ(expr_names("h / heads * kv_heads"), (std::vector<std::string>{"h", "heads", "kv_heads"}));
  EXPECT_TRUE(expr_names("256").empty());
  EXPECT_THROW(expr_names("h /"), ExprError);
}

}  // namespace
}  // namespace tlmcraft::tasks
