// The canonical dataflow (what a pattern matcher compares) and the operation counts
// (what energy per action and area per operator are derived from).
#include <gtest/gtest.h>

#include "tests/isa/extension/test_support.h"

namespace tlmcraft::isa::extension::test {
namespace {

Dataflow flow_of(const std::string& text) { return compile_semantics(text, block(), vector_operands()).dataflow; }

TEST(SemanticsDataflow, TemporariesCommutationAndSharingDoNotChangeTheForm) {
  const Dataflow silu = flow_of("s = sigmoid(rs1)\nrd = rs1 * s");
  EXPECT_EQ(flow_of("rd = sigmoid(rs1) * rs1"), silu);
  EXPECT_EQ(flow_of("t = rs1   # a copy\nu = sigmoid(t)\nrd = (t * u)"), silu);
  EXPECT_FALSE(flow_of("rd = rs1 * rs1") == silu);
  EXPECT_FALSE(flow_of("rd = sigmoid(rs1) - rs1") == silu);
  // Commutative operands in any order, whatever the sub-expressions' textual order.
  EXPECT_EQ(flow_of("rd = exp(rs1) * f1 + rs1 * f1"), flow_of("rd = rs1 * f1 + f1 * exp(rs1)"));
  // Subtraction does not commute.
  EXPECT_FALSE(flow_of("rd = rs1 - f1") == flow_of("rd = f1 - rs1"));
}

TEST(SemanticsDataflow, NodesAreInPostOrderFromTheOutputs) {
  // rd = rs1 * sigmoid(rs1): input rs1, sigmoid of it, the product; rs1 is one node.
  const Dataflow flow = flow_of("rd = rs1 * sigmoid(rs1)");
  ASSERT_EQ(flow.nodes.size(), 3u);
  EXPECT_EQ(flow.nodes[0].op, Op::Input);
  EXPECT_EQ(flow.nodes[0].input, 1u);  // rs1 is operand 1
  EXPECT_EQ(flow.nodes[0].type, vector_of(ElemFormat::BF16, 64));
  EXPECT_EQ(flow.nodes[1].op, Op::Sigmoid);
  EXPECT_EQ(flow.nodes[1].args, std::vector<uint32_t>{0});
  EXPECT_EQ(flow.nodes[2].op, Op::Mul);
  ASSERT_EQ(flow.outputs.size(), 1u);
  EXPECT_EQ(flow.outputs[0].operand, 0u);
  EXPECT_EQ(flow.outputs[0].node, 2u);
}

TEST(SemanticsDataflow, LiteralsAreTypedNodes) {
  // 2.0 in a bf16 context is a bf16 scalar literal holding 2.0.
  const Dataflow flow = flow_of("rd = rs1 * 2.0");
  ASSERT_EQ(flow.nodes.size(), 3u);
  EXPECT_EQ(flow.nodes[2].op, Op::Mul);
  const uint32_t lit_id = flow.nodes[flow.nodes[2].args[0]].op == Op::Literal ? flow.nodes[2].args[0] : flow.nodes[2].args[1];
  const DataflowNode& lit = flow.nodes[lit_id];
  EXPECT_EQ(lit.op, Op::Literal);
  EXPECT_EQ(lit.type, scalar_of(ElemFormat::BF16));
  EXPECT_EQ(lit.float_value, 2.0f);
}

bool has_count(const std::vector<OpCount>& counts, const std::string& op, ElemFormat f, ElemFormat src,
               uint32_t lanes, uint32_t count) {
  for (const OpCount& c : counts)
    if (c.op == op && c.format == f && c.source == src && c.lanes == lanes && c.count == count) return true;
  return false;
}

TEST(SemanticsOpCounts, SiluAsExpAddRecipMul) {
  // rd = rs1 * recip(exp(-rs1) + 1.0) on 64 lanes: per lane one neg, exp, add, recip and
  // mul in bf16.
  const ExprProgram p = compile_semantics("rd = rs1 * recip(exp(-rs1) + 1.0)", block(), vector_operands());
  ASSERT_EQ(p.op_counts.size(), 5u);
  for (const char* op : {"neg", "exp", "add", "recip", "mul"})
    EXPECT_TRUE(has_count(p.op_counts, op, ElemFormat::BF16, ElemFormat::BF16, 64, 1)) << op;
}

TEST(SemanticsOpCounts, SharedSubexpressionsCountOnceAndDeadTemporariesNot) {
  // exp(rs1) appears twice but is one node; t is never used.
  const ExprProgram p = compile_semantics("t = sqrt(rs1)\nrd = exp(rs1) + exp(rs1)", block(), vector_operands());
  ASSERT_EQ(p.op_counts.size(), 2u);
  EXPECT_TRUE(has_count(p.op_counts, "exp", ElemFormat::BF16, ElemFormat::BF16, 64, 1));
  EXPECT_TRUE(has_count(p.op_counts, "add", ElemFormat::BF16, ElemFormat::BF16, 64, 1));
}

TEST(SemanticsOpCounts, ReductionsConversionsAndScalars) {
  // rd = rs1 * (sum(rs1) * bf16(gp2)): the bf16 sum adds 64 lanes in f32 and rounds once
  // (a convert f32 -> bf16 on one lane); the scalar product and the conversion of gp2 run
  // once (lanes 1); the vector product runs on 64 lanes.
  const ExprProgram p = compile_semantics("rd = rs1 * (sum(rs1) * bf16(gp2))", block(), vector_operands());
  ASSERT_EQ(p.op_counts.size(), 5u);
  EXPECT_TRUE(has_count(p.op_counts, "reduce_add", ElemFormat::F32, ElemFormat::BF16, 64, 1));
  EXPECT_TRUE(has_count(p.op_counts, "convert", ElemFormat::BF16, ElemFormat::F32, 1, 1));
  EXPECT_TRUE(has_count(p.op_counts, "convert", ElemFormat::BF16, ElemFormat::U32, 1, 1));
  EXPECT_TRUE(has_count(p.op_counts, "mul", ElemFormat::BF16, ElemFormat::BF16, 1, 1));
  EXPECT_TRUE(has_count(p.op_counts, "mul", ElemFormat::BF16, ElemFormat::BF16, 64, 1));
}

TEST(SemanticsOpCounts, IntegerRequantisationOnRunTimeLengthVectors) {
  // vd = srs(va * vb, 7, i8) with i16 lanes of run-time length (lanes 0): one i16
  // multiply and one srs i16 -> i8 per lane; comparisons count at their operands' format.
  const ExprProgram p = compile_semantics("vd = srs(va * vb, 7, i8)\nm = va < vb", block(),
                                          {{"vd", vector_of(ElemFormat::I8, 0), Role::Output},
                                           {"m", vector_of(ElemFormat::Bool, 0), Role::Output},
                                           {"va", vector_of(ElemFormat::I16, 0), Role::Input},
                                           {"vb", vector_of(ElemFormat::I16, 0), Role::Input}});
  ASSERT_EQ(p.op_counts.size(), 3u);
  EXPECT_TRUE(has_count(p.op_counts, "mul", ElemFormat::I16, ElemFormat::I16, 0, 1));
  EXPECT_TRUE(has_count(p.op_counts, "srs", ElemFormat::I8, ElemFormat::I16, 0, 1));
  EXPECT_TRUE(has_count(p.op_counts, "lt", ElemFormat::I16, ElemFormat::I16, 0, 1));
}

}  // namespace
}  // namespace tlmcraft::isa::extension::test
