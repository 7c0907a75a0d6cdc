// The semantics language (isa/extension/) reproduces PLENA's own vector semantics bit for
// bit: each instruction and its expression run on every bf16 bit pattern (or on many
// pseudo-random pairs) and must give the same bits. NaNs compare as NaN (their payload
// and sign are not part of either definition).
#include <gtest/gtest.h>

#include "isa/extension/expression.h"
#include "tests/isa/plena/test_machine.h"

using namespace plena_test;
namespace ext = tlmcraft::isa::extension;

namespace {

constexpr uint32_t kLanes = 8;  // small_params().vlen

ext::ExprProgram program(const std::string& text) {
  return ext::compile_semantics(text, {"match.yaml", 1, 1, true},
                                {{"rd", ext::vector_of(ext::ElemFormat::BF16, kLanes), ext::Role::Output},
                                 {"rs1", ext::vector_of(ext::ElemFormat::BF16, kLanes), ext::Role::Input},
                                 {"rs2", ext::vector_of(ext::ElemFormat::BF16, kLanes), ext::Role::Input},
                                 {"f1", ext::scalar_of(ext::ElemFormat::BF16), ext::Role::Input}});
}

bool same_bits(uint16_t a, uint16_t b) { return a == b || (fmt::bf16_is_nan(a) && fmt::bf16_is_nan(b)); }

// Row k of the sweep: lanes hold bit patterns 8k .. 8k + 7 (rs1) and a scrambled
// pattern (rs2), so every bf16 value appears once as rs1.
std::vector<uint16_t> row_a(uint32_t k) {
  std::vector<uint16_t> r(kLanes);
  for (uint32_t i = 0; i < kLanes; ++i) r[i] = uint16_t(k * kLanes + i);
  return r;
}
std::vector<uint16_t> row_b(uint32_t k) {
  std::vector<uint16_t> r(kLanes);
  for (uint32_t i = 0; i < kLanes; ++i) r[i] = uint16_t((k * kLanes + i) * 40503u + 12345u);
  return r;
}

// Runs `op` (rd = row 16, rs1 = row 0, rs2 = row 8, f1 = fp register 1) and the
// expression on every row of the sweep; returns the number of lanes that differ.
int mismatches(Opcode op, const std::string& text, int64_t rs2_field, int64_t funct1 = 0, uint16_t f1 = 0x3F80) {
  const ext::ExprProgram p = program(text);
  Machine m;
  m.s.gp[1] = 0;
  m.s.gp[2] = 8;
  m.s.gp[3] = 16;
  m.s.fp[1] = f1;
  int bad = 0;
  for (uint32_t k = 0; k < 65536 / kLanes; ++k) {
    const auto a = row_a(k), b = row_b(k);
    std::copy(a.begin(), a.end(), m.vram.begin());
    std::copy(b.begin(), b.end(), m.vram.begin() + 8);
    EXPECT_TRUE(m.exec(op, 3, 1, rs2_field, 0, funct1).ok());
    const auto out = ext::evaluate(p, {ext::Value::from_bf16_bits(a, true), ext::Value::from_bf16_bits(b, true),
                                       ext::Value::from_bf16_bits({f1}, false)})[0]
                         .bf16_bits();
    for (uint32_t i = 0; i < kLanes; ++i) bad += !same_bits(out[i], m.vram[16 + i]);
  }
  return bad;
}

TEST(PlenaExtensionMatch, UnaryInstructionsOnEveryBf16Value) {
  EXPECT_EQ(mismatches(Opcode::V_EXP_V, "rd = exp(rs1)", 0), 0);
  EXPECT_EQ(mismatches(Opcode::V_RECI_V, "rd = recip(rs1)", 0), 0);
}

TEST(PlenaExtensionMatch, BinaryInstructions) {
  EXPECT_EQ(mismatches(Opcode::V_ADD_VV, "rd = rs1 + rs2", 2), 0);
  EXPECT_EQ(mismatches(Opcode::V_SUB_VV, "rd = rs1 - rs2", 2), 0);
  EXPECT_EQ(mismatches(Opcode::V_MUL_VV, "rd = rs1 * rs2", 2), 0);
  // f1 = 1.5 (0x3FC0): vector-scalar forms, V_SUB_VF in both orders.
  EXPECT_EQ(mismatches(Opcode::V_ADD_VF, "rd = rs1 + f1", 1, 0, 0x3FC0), 0);
  EXPECT_EQ(mismatches(Opcode::V_SUB_VF, "rd = f1 - rs1", 1, 1, 0x3FC0), 0);
  EXPECT_EQ(mismatches(Opcode::V_MAX_VF, "rd = max(rs1, f1)", 1, 0, 0x3FC0), 0);
  EXPECT_EQ(mismatches(Opcode::V_MIN_VF, "rd = min(rs1, f1)", 1, 0, 0x3FC0), 0);
}

TEST(PlenaExtensionMatch, RowSumIntoTheFpRegister) {
  // V_RED_SUM f, row: f = bf16(f + the row's f32 sum), one rounding. In the language:
  // acc = bf16(f32(acc) + sum(f32(v))) (a plain acc + sum(v) would round twice).
  const ext::ExprProgram p = ext::compile_semantics(
      "acc = bf16(f32(acc) + sum(f32(v)))", {"match.yaml", 1, 1, true},
      {{"acc", ext::scalar_of(ext::ElemFormat::BF16), ext::Role::InOut},
       {"v", ext::vector_of(ext::ElemFormat::BF16, kLanes), ext::Role::Input}});
  Machine m;
  m.s.gp[1] = 0;
  int bad = 0;
  for (uint32_t k = 0; k < 65536 / kLanes; ++k) {
    const auto a = row_b(k);
    const uint16_t f = uint16_t(k * 7919u);
    std::copy(a.begin(), a.end(), m.vram.begin());
    m.s.fp[3] = f;
    ASSERT_TRUE(m.exec(Opcode::V_RED_SUM, 3, 1, 0, 0).ok());
    const auto out = ext::evaluate(p, {ext::Value::from_bf16_bits({f}, false), ext::Value::from_bf16_bits(a, true)});
    bad += !same_bits(out[0].bf16_bits()[0], m.s.fp[3]);
  }
  EXPECT_EQ(bad, 0);
}

TEST(PlenaExtensionMatch, SiluAsTheFiveStepsOfAKernel) {
  // The five instructions of a SiLU kernel (V_SUB_VF 0 - x, V_EXP_V, V_ADD_VF + 1,
  // V_RECI_V, V_MUL_VV), each rounding to bf16, equal this expression on every value.
  const ext::ExprProgram p = program("rd = rs1 * recip(exp(0.0 - rs1) + f1)");
  Machine m;
  m.s.gp[1] = 0;
  m.s.gp[2] = 8;
  m.s.gp[3] = 16;
  m.s.fp[0] = 0x0000;
  m.s.fp[1] = 0x3F80;
  int bad = 0;
  for (uint32_t k = 0; k < 65536 / kLanes; ++k) {
    const auto a = row_a(k);
    std::copy(a.begin(), a.end(), m.vram.begin());
    ASSERT_TRUE(m.exec(Opcode::V_SUB_VF, 2, 1, 0, 0, 1).ok());
    ASSERT_TRUE(m.exec(Opcode::V_EXP_V, 2, 2, 0, 0).ok());
    ASSERT_TRUE(m.exec(Opcode::V_ADD_VF, 2, 2, 1, 0).ok());
    ASSERT_TRUE(m.exec(Opcode::V_RECI_V, 2, 2, 0, 0).ok());
    ASSERT_TRUE(m.exec(Opcode::V_MUL_VV, 3, 1, 2, 0).ok());
    const auto out = ext::evaluate(p, {ext::Value::from_bf16_bits(a, true), ext::Value::from_bf16_bits(row_b(k), true),
                                       ext::Value::from_bf16_bits({0x3F80}, false)})[0]
                         .bf16_bits();
    for (uint32_t i = 0; i < kLanes; ++i) bad += !same_bits(out[i], m.vram[16 + i]);
  }
  EXPECT_EQ(bad, 0);
}

}  // namespace
