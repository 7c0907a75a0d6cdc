// Vector instructions on VLEN = 8 rows with HLEN = 4 (heads: lanes 0-3 and 4-7).
#include <cmath>

#include <gtest/gtest.h>

#include "test_machine.h"

using namespace plena_test;

namespace {
// gp1 = 0 (row A), gp2 = 8 (row B), gp3 = 16 (destination row).
Machine vector_machine() {
  Machine m;
  m.s.gp[1] = 0;
  m.s.gp[2] = 8;
  m.s.gp[3] = 16;
  m.set_vram(0, {1, 2, 3, 4, 5, 6, 7, 8});
  m.set_vram(8, {0.5f, 0.25f, -1, 10, 1.0078125f, 0, 2, -8});  // 1.0078125 = 1 + 2^-7
  return m;
}
}  // namespace

TEST(PlenaVector, AddSubMulVectorVector) {
  Machine m = vector_machine();
  auto r = m.exec(Opcode::V_ADD_VV, 3, 1, 2, 0);
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(r.next_pc, 1u);
  // 5 + 1.0078125 = 6.0078125: bf16 spacing in [4, 8) is 2^-5, a quarter step -> 6.
  EXPECT_EQ(m.vrow(16, 8), (std::vector<float>{1.5f, 2.25f, 2, 14, 6, 6, 9, 0}));
  // Hazard ranges: two source rows read, the destination row written.
  ASSERT_EQ(r.n_reads, 2);
  EXPECT_EQ(r.reads[0].mem, pl::Memory::VRAM);
  EXPECT_EQ(r.reads[0].first, 0u);
  EXPECT_EQ(r.reads[0].count, 8u);
  EXPECT_EQ(r.reads[1].first, 8u);
  ASSERT_EQ(r.n_writes, 1);
  EXPECT_EQ(r.writes[0].first, 16u);
  EXPECT_EQ(r.writes[0].end(), 24u);

  // V_SUB_VV is Vector[rs1] - Vector[rs2]. 5 - 1.0078125 = 3.9921875: spacing in [2, 4)
  // is 2^-6 -> 255.5 steps, a tie -> 256 (even) -> 4.
  ASSERT_TRUE(m.exec(Opcode::V_SUB_VV, 3, 1, 2, 0).ok());
  EXPECT_EQ(m.vrow(16, 8), (std::vector<float>{0.5f, 1.75f, 4, -6, 4, 6, 5, 16}));
  ASSERT_TRUE(m.exec(Opcode::V_MUL_VV, 3, 1, 2, 0).ok());
  // 5 * 1.0078125 = 5.0390625 = 161.25 steps of 2^-5 -> 161 -> 5.03125.
  EXPECT_EQ(m.vrow(16, 8), (std::vector<float>{0.5f, 0.5f, -3, 40, 5.03125f, 0, 14, -64}));
}

TEST(PlenaVector, MaskWritesOnlySelectedHeads) {
  Machine m = vector_machine();
  m.s.v_mask = 0b10;  // head 1 = lanes 4..7
  ASSERT_TRUE(m.exec(Opcode::V_ADD_VV, 3, 1, 2, /*rmask*/ 1).ok());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(m.vram[16 + i], kPoison) << "lane " << i << " must keep its value";
  EXPECT_EQ(m.vrow(20, 4), (std::vector<float>{6, 6, 9, 0}));
  // rmask = 0 ignores V_MASK.
  ASSERT_TRUE(m.exec(Opcode::V_MUL_VF, 3, 1, 0, 0).ok());  // * f0 = 0
  EXPECT_EQ(m.vrow(16, 8), std::vector<float>(8, 0.0f));
  // Mask 0b01 with a scalar op: lanes 0..3 only.
  m.s.v_mask = 0b01;
  m.set_fp(2, 10.0f);
  ASSERT_TRUE(m.exec(Opcode::V_ADD_VF, 3, 1, 2, 1).ok());
  EXPECT_EQ(m.vrow(16, 8), (std::vector<float>{11, 12, 13, 14, 0, 0, 0, 0}));
}

TEST(PlenaVector, VectorScalarOps) {
  Machine m = vector_machine();
  m.set_fp(1, 1.0f);
  m.set_fp(2, 4.5f);
  ASSERT_TRUE(m.exec(Opcode::V_SUB_VF, 3, 1, 2, 0, /*rorder*/ 0).ok());
  EXPECT_EQ(m.vrow(16, 8), (std::vector<float>{-3.5f, -2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 3.5f}));
  ASSERT_TRUE(m.exec(Opcode::V_SUB_VF, 3, 1, 2, 0, /*rorder*/ 1).ok());
  EXPECT_EQ(m.vrow(16, 8), (std::vector<float>{3.5f, 2.5f, 1.5f, 0.5f, -0.5f, -1.5f, -2.5f, -3.5f}));
  ASSERT_TRUE(m.exec(Opcode::V_MUL_VF, 3, 1, 2, 0).ok());
  EXPECT_EQ(m.vrow(16, 8), (std::vector<float>{4.5f, 9, 13.5f, 18, 22.5f, 27, 31.5f, 36}));
  ASSERT_TRUE(m.exec(Opcode::V_MAX_VF, 3, 1, 2, 0).ok());
  EXPECT_EQ(m.vrow(16, 8), (std::vector<float>{4.5f, 4.5f, 4.5f, 4.5f, 5, 6, 7, 8}));
  ASSERT_TRUE(m.exec(Opcode::V_MIN_VF, 3, 1, 2, 0).ok());
  EXPECT_EQ(m.vrow(16, 8), (std::vector<float>{1, 2, 3, 4, 4.5f, 4.5f, 4.5f, 4.5f}));
}

TEST(PlenaVector, ExpAndReciprocalRoundToBf16) {
  Machine m;
  m.s.gp[1] = 0;
  m.s.gp[3] = 8;
  m.set_vram(0, {0, 1, -1, 2, 4, 3, 0.5f, -0.0f});
  ASSERT_TRUE(m.exec(Opcode::V_EXP_V, 3, 1, 0, 0).ok());
  // exp(1) = 2.718282 = 1.359141 * 2: 0.359141 * 128 = 45.97 -> 46 -> 1.359375 * 2 = 2.71875
  // exp(-1) = 0.367879 = 1.471518 / 4: 0.471518 * 128 = 60.35 -> 60 -> 0.3671875
  // exp(2) = 7.389056 = 1.847264 * 4: 108.45 -> 108 -> 7.375
  EXPECT_EQ(m.v(8), 1.0f);
  EXPECT_EQ(m.v(9), 2.71875f);
  EXPECT_EQ(m.v(10), 0.3671875f);
  EXPECT_EQ(m.v(11), 7.375f);
  ASSERT_TRUE(m.exec(Opcode::V_RECI_V, 3, 1, 0, 0).ok());
  // 1/3 = 1.333333 / 4: 42.67 -> 43 -> 1.3359375 / 4 = 0.333984375; 1/0 = +inf, 1/-0 = -inf.
  EXPECT_EQ(m.v(8), INFINITY);
  EXPECT_EQ(m.v(9), 1.0f);
  EXPECT_EQ(m.v(11), 0.5f);
  EXPECT_EQ(m.v(12), 0.25f);
  EXPECT_EQ(m.v(13), 0.333984375f);
  EXPECT_EQ(m.v(15), -INFINITY);
}

TEST(PlenaVector, SiluStepsOnASmallRow) {
  // silu(x) = x * 1 / (1 + exp(-x)) as a kernel computes it, every step rounded to bf16:
  //   t = 0 - x (V_SUB_VF rorder=1 with f0); t = exp(t); t = t + 1 (f1); t = 1/t; y = x*t
  // x = 1:  exp(-1) -> 0.3671875; +1 = 1.3671875 (exact, 1 + 47/128); 1/1.3671875 =
  //         0.731429 = 1.462857 / 2 -> 59.25 -> 59 -> 0.73046875; y = 0.73046875
  // x = 2:  exp(-2) = 0.135335 = 1.082682 / 8 -> 10.58 -> 11 -> 0.1357421875; +1 =
  //         1.1357421875 -> 17.375 -> 17 -> 1.1328125; 1/1.1328125 = 0.882759 =
  //         1.765517 / 2 -> 97.99 -> 98 -> 0.8828125; y = 1.765625
  // x = 0:  exp(0) = 1; 2; 0.5; y = 0
  // x = -1: exp(1) -> 2.71875; +1 = 3.71875 (exact, 1.859375 * 2); 1/3.71875 = 0.268908 =
  //         1.075630 / 4 -> 9.68 -> 10 -> 0.26953125; y = -0.26953125
  // x = -2: exp(2) -> 7.375; +1 = 8.375 (exact); 1/8.375 = 0.119403 = 1.910448 / 16 ->
  //         116.54 -> 117 -> 0.11962890625; y = -0.2392578125
  Machine m;
  m.s.gp[1] = 0;   // x
  m.s.gp[2] = 8;   // t
  m.s.gp[3] = 16;  // y
  m.set_vram(0, {1, 2, 0, -1, -2, 0, 0, 0});
  m.set_fp(1, 1.0f);
  ASSERT_TRUE(m.exec(Opcode::V_SUB_VF, 2, 1, 0, 0, 1).ok());
  ASSERT_TRUE(m.exec(Opcode::V_EXP_V, 2, 2, 0, 0).ok());
  ASSERT_TRUE(m.exec(Opcode::V_ADD_VF, 2, 2, 1, 0).ok());
  ASSERT_TRUE(m.exec(Opcode::V_RECI_V, 2, 2, 0, 0).ok());
  ASSERT_TRUE(m.exec(Opcode::V_MUL_VV, 3, 1, 2, 0).ok());
  EXPECT_EQ(m.vrow(16, 5), (std::vector<float>{0.73046875f, 1.765625f, 0.0f, -0.26953125f, -0.2392578125f}));
}

TEST(PlenaVector, ReductionsAccumulateIntoTheFpRegister) {
  Machine m = vector_machine();
  m.set_fp(3, 0.5f);
  auto r = m.exec(Opcode::V_RED_SUM, 3, 1, 0, 0);
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(m.fp(3), 36.5f);  // 0.5 + (1 + ... + 8) = 36.5 = 1.140625 * 32, exact
  EXPECT_EQ(r.n_writes, 0);
  EXPECT_EQ(r.n_reads, 1);
  // Masked: only head 1 (5 + 6 + 7 + 8 = 26) added to 0.
  m.set_fp(3, 0.0f);
  m.s.v_mask = 0b10;
  ASSERT_TRUE(m.exec(Opcode::V_RED_SUM, 3, 1, 0, 1).ok());
  EXPECT_EQ(m.fp(3), 26.0f);

  // The row sum is accumulated in float32 and rounded to bf16 once at the end:
  // 256 + 1 + 0.5 = 257.5 -> bf16 spacing 2 at 256..512 -> 258. (Rounding after each add
  // would give 256 + 1 -> 256 (tie, even), + 0.5 -> 256.)
  m.set_vram(24, {256, 1, 0.5f, 0, 0, 0, 0, 0});
  m.s.gp[4] = 24;
  m.set_fp(5, 0.0f);
  ASSERT_TRUE(m.exec(Opcode::V_RED_SUM, 5, 4, 0, 0).ok());
  EXPECT_EQ(m.fp(5), 258.0f);

  m.set_fp(6, 3.0f);
  ASSERT_TRUE(m.exec(Opcode::V_RED_MAX, 6, 1, 0, 0).ok());
  EXPECT_EQ(m.fp(6), 8.0f);
  m.set_fp(6, 10.0f);
  ASSERT_TRUE(m.exec(Opcode::V_RED_MAX, 6, 1, 0, 0).ok());
  EXPECT_EQ(m.fp(6), 10.0f);
  // Masked max over head 0 of row B {0.5, 0.25, -1, 10 | ...}: 10; head 1 only: 2.
  m.set_fp(6, -100.0f);
  m.s.v_mask = 0b10;
  ASSERT_TRUE(m.exec(Opcode::V_RED_MAX, 6, 2, 0, 1).ok());
  EXPECT_EQ(m.fp(6), 2.0f);
  // f0 as destination: the result is dropped, f0 stays 0.
  ASSERT_TRUE(m.exec(Opcode::V_RED_SUM, 0, 1, 0, 0).ok());
  EXPECT_EQ(m.s.fp[0], 0);
}

TEST(PlenaVector, ShiftIsLeftByLanes) {
  Machine m = vector_machine();
  m.s.gp[4] = 3;
  ASSERT_TRUE(m.exec(Opcode::V_SHFT_V, 3, 1, 4, 0).ok());
  EXPECT_EQ(m.vrow(16, 8), (std::vector<float>{4, 5, 6, 7, 8, 0, 0, 0}));
  // In place.
  ASSERT_TRUE(m.exec(Opcode::V_SHFT_V, 1, 1, 4, 0).ok());
  EXPECT_EQ(m.vrow(0, 8), (std::vector<float>{4, 5, 6, 7, 8, 0, 0, 0}));
  // A shift of VLEN or more clears the row.
  m.s.gp[4] = 100;
  ASSERT_TRUE(m.exec(Opcode::V_SHFT_V, 3, 2, 4, 0).ok());
  EXPECT_EQ(m.vrow(16, 8), std::vector<float>(8, 0.0f));
}
