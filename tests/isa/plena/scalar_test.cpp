// Scalar FP / INT instructions, FP_MEM / INT_MEM loads and stores, S_MAP_V_FP.
#include <gtest/gtest.h>

#include "test_machine.h"

using namespace plena_test;

TEST(PlenaScalar, FloatingPointOpsRoundToBf16) {
  Machine m;
  m.set_fp(2, 1.0f);
  m.set_fp(3, 0.0078125f);  // 2^-7
  m.set_fp(4, 3.0f);
  ASSERT_TRUE(m.exec(Opcode::S_ADD_FP, 1, 2, 3).ok());
  EXPECT_EQ(m.fp(1), 1.0078125f);  // 1 + 2^-7 is exact in bf16
  // 3 + 2^-7 = 3.0078125: spacing in [2, 4) is 2^-6, a half step -> tie -> even 3.0.
  ASSERT_TRUE(m.exec(Opcode::S_ADD_FP, 1, 4, 3).ok());
  EXPECT_EQ(m.fp(1), 3.0f);
  ASSERT_TRUE(m.exec(Opcode::S_SUB_FP, 1, 2, 4).ok());
  EXPECT_EQ(m.fp(1), -2.0f);
  ASSERT_TRUE(m.exec(Opcode::S_MUL_FP, 1, 4, 4).ok());
  EXPECT_EQ(m.fp(1), 9.0f);
  ASSERT_TRUE(m.exec(Opcode::S_MAX_FP, 1, 2, 4).ok());
  EXPECT_EQ(m.fp(1), 3.0f);
  ASSERT_TRUE(m.exec(Opcode::S_EXP_FP, 1, 2).ok());
  EXPECT_EQ(m.fp(1), 2.71875f);  // exp(1) = 2.718282 -> 46/128 mantissa -> 2.71875
  ASSERT_TRUE(m.exec(Opcode::S_RECI_FP, 1, 4).ok());
  EXPECT_EQ(m.fp(1), 0.333984375f);  // 1/3 -> 1.3359375 / 4
  m.set_fp(5, 2.0f);
  ASSERT_TRUE(m.exec(Opcode::S_SQRT_FP, 1, 5).ok());
  EXPECT_EQ(m.fp(1), 1.4140625f);  // sqrt 2 = 1.414214: 0.414214 * 128 = 53.02 -> 53
  m.set_fp(5, -4.0f);
  ASSERT_TRUE(m.exec(Opcode::S_SQRT_FP, 1, 5).ok());
  EXPECT_TRUE(fmt::bf16_is_nan(m.s.fp[1]));
  // f0 reads as 0 and ignores writes: S_ADD_FP f1, f0, f0 = 0; S_ADD_FP f0, f2, f2 dropped.
  ASSERT_TRUE(m.exec(Opcode::S_ADD_FP, 1, 0, 0).ok());
  EXPECT_EQ(m.s.fp[1], 0);
  ASSERT_TRUE(m.exec(Opcode::S_ADD_FP, 0, 2, 2).ok());
  EXPECT_EQ(m.s.fp[0], 0);
}

TEST(PlenaScalar, IntegerOpsWrapAt32Bits) {
  Machine m;
  ASSERT_TRUE(m.exec(Opcode::S_ADDI_INT, 1, 0, 0, 0, 0, 262143).ok());  // largest imm18
  EXPECT_EQ(m.s.gp[1], 262143u);
  ASSERT_TRUE(m.exec(Opcode::S_ADDI_INT, 2, 0, 0, 0, 0, 5).ok());
  ASSERT_TRUE(m.exec(Opcode::S_ADD_INT, 3, 1, 2).ok());
  EXPECT_EQ(m.s.gp[3], 262148u);
  ASSERT_TRUE(m.exec(Opcode::S_SUB_INT, 3, 0, 2).ok());
  EXPECT_EQ(m.s.gp[3], 0xFFFFFFFBu);  // 0 - 5 mod 2^32
  ASSERT_TRUE(m.exec(Opcode::S_MUL_INT, 4, 1, 1).ok());
  EXPECT_EQ(m.s.gp[4], uint32_t(uint64_t(262143) * 262143));  // low 32 bits
  ASSERT_TRUE(m.exec(Opcode::S_LUI_INT, 5, 0, 0, 0, 0, 3).ok());
  EXPECT_EQ(m.s.gp[5], 3u << 12);
  ASSERT_TRUE(m.exec(Opcode::S_LUI_INT, 5, 0, 0, 0, 0, 4194303).ok());  // 0x3FFFFF << 12
  EXPECT_EQ(m.s.gp[5], 0xFFFFF000u);
  // gp0 stays 0.
  ASSERT_TRUE(m.exec(Opcode::S_ADDI_INT, 0, 1, 0, 0, 0, 7).ok());
  EXPECT_EQ(m.s.gp[0], 0u);
}

TEST(PlenaScalar, LoadsAndStores) {
  Machine m;
  m.int_mem[9] = 1234;
  m.s.gp[2] = 4;
  auto r = m.exec(Opcode::S_LD_INT, 1, 2, 0, 0, 0, 5);  // INT_MEM[4 + 5]
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(m.s.gp[1], 1234u);
  ASSERT_EQ(r.n_reads, 1);
  EXPECT_EQ(r.reads[0].mem, pl::Memory::INT_MEM);
  EXPECT_EQ(r.reads[0].first, 9u);
  r = m.exec(Opcode::S_ST_INT, 1, 2, 0, 0, 0, 11);  // INT_MEM[15] = 1234
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(m.int_mem[15], 1234u);
  EXPECT_EQ(r.writes[0].first, 15u);

  m.fp_mem[6] = fmt::float_to_bf16(0.125f);
  ASSERT_TRUE(m.exec(Opcode::S_LD_FP, 3, 2, 0, 0, 0, 2).ok());  // FP_MEM[4 + 2]
  EXPECT_EQ(m.fp(3), 0.125f);
  ASSERT_TRUE(m.exec(Opcode::S_ST_FP, 3, 0, 0, 0, 0, 20).ok());
  EXPECT_EQ(m.fp_mem[20], fmt::float_to_bf16(0.125f));
  ASSERT_TRUE(m.exec(Opcode::S_ST_FP, 0, 0, 0, 0, 0, 21).ok());  // f0 stores +0.0
  EXPECT_EQ(m.fp_mem[21], 0);
}

TEST(PlenaScalar, MapFpMemToVramRow) {
  Machine m;
  for (int i = 0; i < 32; ++i) m.fp_mem[i] = fmt::float_to_bf16(float(i));
  m.s.gp[1] = 24;  // VRAM row 3
  m.s.gp[2] = 4;
  auto r = m.exec(Opcode::S_MAP_V_FP, 1, 2, 0, 0, 0, 3);  // FP_MEM[7 .. 15)
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(m.vrow(24, 8), (std::vector<float>{7, 8, 9, 10, 11, 12, 13, 14}));
  EXPECT_EQ(m.vram[23], kPoison);
  EXPECT_EQ(m.vram[32], kPoison);
  ASSERT_EQ(r.n_reads, 1);
  EXPECT_EQ(r.reads[0].mem, pl::Memory::FP_MEM);
  EXPECT_EQ(r.reads[0].first, 7u);
  EXPECT_EQ(r.reads[0].count, 8u);
  EXPECT_EQ(r.writes[0].mem, pl::Memory::VRAM);
}
