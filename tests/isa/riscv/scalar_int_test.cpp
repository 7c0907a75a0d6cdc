// RV32I and M semantics through the real step loop (decode cache + handlers).
#include <gtest/gtest.h>

#include "scalar_support.h"

namespace tlmcraft::isa::riscv::test {
namespace {

constexpr uint32_t a0 = 10, a1 = 11, a2 = 12, a3 = 13, t0 = 5, ra = 1;

TEST(RiscvScalarInt, ImmediateAlu) {
  Machine m;
  m.run({
      addi(a0, 0, -5),         // a0 = -5 = 0xfffffffb
      slti(a1, a0, -4),        // -5 < -4 -> 1
      sltiu(a2, a0, -4),       // 0xfffffffb < 0xfffffffc unsigned -> 1
      xori(a3, a0, -1),        // ~(-5) = 4
      ori(t0, 0, 0x7ff),       // 2047
      andi(6, a0, 0xff),       // 0xfb
      slli(7, t0, 21),         // 0x7ff << 21 = 0xffe00000
      srli(28, 7, 28),         // 0xffe00000 >> 28 = 0xf
      srai(29, 7, 28),         // arithmetic: 0xffffffff
      addi(0, a0, 1),          // writes x0: stays 0
  });
  const uint32_t* x = m.hart.x;
  EXPECT_EQ(x[a0], 0xfffffffbu);
  EXPECT_EQ(x[a1], 1u);
  EXPECT_EQ(x[a2], 1u);
  EXPECT_EQ(x[a3], 4u);
  EXPECT_EQ(x[t0], 2047u);
  EXPECT_EQ(x[6], 0xfbu);
  EXPECT_EQ(x[7], 0xffe00000u);
  EXPECT_EQ(x[28], 0xfu);
  EXPECT_EQ(x[29], 0xffffffffu);
  EXPECT_EQ(x[0], 0u);
  EXPECT_EQ(m.hart.minstret, 11u);  // 10 instructions + mpause
}

TEST(RiscvScalarInt, RegisterAluAndShiftMasking) {
  Machine m;
  m.hart.x[a0] = 0x80000001u;
  m.hart.x[a1] = 33;  // shifts use the low 5 bits: 33 -> 1
  m.run({
      alu(AluOp::Sll, 12, a0, a1),   // 0x80000001 << 1 = 0x00000002
      alu(AluOp::Srl, 13, a0, a1),   // 0x40000000
      alu(AluOp::Sra, 14, a0, a1),   // 0xc0000000
      alu(AluOp::Add, 15, a0, a0),   // 0x100000002 mod 2^32 = 2
      alu(AluOp::Sub, 16, a1, a0),   // 33 - 0x80000001 = 0x80000020
      alu(AluOp::Slt, 17, a0, a1),   // negative < 33 -> 1
      alu(AluOp::Sltu, 18, a0, a1),  // 0x80000001 < 33 unsigned -> 0
      alu(AluOp::Xor, 19, a0, a1),   // 0x80000020
      alu(AluOp::Or, 20, a0, a1),    // 0x80000021
      alu(AluOp::And, 21, a0, a1),   // 0x00000001
  });
  const uint32_t* x = m.hart.x;
  EXPECT_EQ(x[12], 2u);
  EXPECT_EQ(x[13], 0x40000000u);
  EXPECT_EQ(x[14], 0xc0000000u);
  EXPECT_EQ(x[15], 2u);
  EXPECT_EQ(x[16], 0x80000020u);
  EXPECT_EQ(x[17], 1u);
  EXPECT_EQ(x[18], 0u);
  EXPECT_EQ(x[19], 0x80000020u);
  EXPECT_EQ(x[20], 0x80000021u);
  EXPECT_EQ(x[21], 1u);
}

TEST(RiscvScalarInt, LuiAuipcAndJumps) {
  Machine m;
  m.run({
      lui(a0, 0x12345),        // pc 0: a0 = 0x12345000
      auipc(a1, 0x1),          // pc 4: a1 = 4 + 0x1000
      jal(ra, 12),             // pc 8: ra = 12, jump to 20
      addi(a2, 0, 1),          // pc 12: skipped
      addi(a2, 0, 2),          // pc 16: skipped
      jalr(t0, ra, 12),        // pc 20: t0 = 24, jump to ra + 12 = 24
      addi(a3, 0, 7),          // pc 24: a3 = 7
  });
  EXPECT_EQ(m.hart.x[a0], 0x12345000u);
  EXPECT_EQ(m.hart.x[a1], 0x1004u);
  EXPECT_EQ(m.hart.x[ra], 12u);
  EXPECT_EQ(m.hart.x[a2], 0u);
  EXPECT_EQ(m.hart.x[t0], 24u);
  EXPECT_EQ(m.hart.x[a3], 7u);
}

TEST(RiscvScalarInt, JalrClearsBitZeroAndReadsRs1BeforeWritingRd) {
  Machine m;
  m.hart.x[a0] = 13;  // target = (13 + 0) & ~1 = 12
  m.run({
      jalr(a0, a0, 0),         // pc 0: a0 = 4, jump to 12
      addi(a1, 0, 1),          // pc 4: skipped
      addi(a1, 0, 2),          // pc 8: skipped
      addi(a2, 0, 3),          // pc 12
  });
  EXPECT_EQ(m.hart.x[a0], 4u);
  EXPECT_EQ(m.hart.x[a1], 0u);
  EXPECT_EQ(m.hart.x[a2], 3u);
}

TEST(RiscvScalarInt, BranchesSignedAndUnsigned) {
  // Each taken branch skips one "addi a3,a3,1"; a3 counts the branches NOT taken.
  Machine m;
  m.hart.x[a0] = 0xffffffffu;  // -1 signed, max unsigned
  m.hart.x[a1] = 1;
  m.run({
      beq(a0, a1, 8), addi(a3, a3, 1),    // not taken: +1
      bne(a0, a1, 8), addi(a3, a3, 1),    // taken
      blt(a0, a1, 8), addi(a3, a3, 1),    // -1 < 1 taken
      bge(a0, a1, 8), addi(a3, a3, 1),    // not taken: +1
      bltu(a0, a1, 8), addi(a3, a3, 1),   // 0xffffffff < 1 no: +1
      bgeu(a0, a1, 8), addi(a3, a3, 1),   // taken
  });
  EXPECT_EQ(m.hart.x[a3], 3u);
}

TEST(RiscvScalarInt, BackwardBranchLoop) {
  // Sum 1..10 with a countdown loop: a0 = 10 + 9 + ... + 1 = 55.
  Machine m;
  m.run({
      addi(a1, 0, 10),         // pc 0
      alu(AluOp::Add, a0, a0, a1),  // pc 4
      addi(a1, a1, -1),        // pc 8
      bne(a1, 0, -8),          // pc 12 -> 4
  });
  EXPECT_EQ(m.hart.x[a0], 55u);
  EXPECT_EQ(m.hart.minstret, 1u + 3 * 10 + 1);
}

TEST(RiscvScalarInt, LoadsAndStoresWithSignExtension) {
  Machine m;
  m.hart.x[a0] = Machine::kDtcm;
  m.hart.x[a1] = 0x8081f2f3u;
  m.run({
      sw(a1, a0, 0),           // dtcm[0..3] = f3 f2 81 80 (little endian)
      sh(a1, a0, 6),           // dtcm[6..7] = f3 f2
      sb(a1, a0, 9),           // dtcm[9] = f3
      lb(12, a0, 3),           // 0x80 -> 0xffffff80
      lbu(13, a0, 3),          // 0x80
      lh(14, a0, 2),           // 0x8081 -> 0xffff8081
      lhu(15, a0, 2),          // 0x8081
      lw(16, a0, 0),           // 0x8081f2f3
      lhu(17, a0, 6),          // 0xf2f3
      lbu(18, a0, 9),          // 0xf3
      lw(19, a0, -4 + 4),      // same word again
  });
  EXPECT_EQ(m.hart.x[12], 0xffffff80u);
  EXPECT_EQ(m.hart.x[13], 0x80u);
  EXPECT_EQ(m.hart.x[14], 0xffff8081u);
  EXPECT_EQ(m.hart.x[15], 0x8081u);
  EXPECT_EQ(m.hart.x[16], 0x8081f2f3u);
  EXPECT_EQ(m.hart.x[17], 0xf2f3u);
  EXPECT_EQ(m.hart.x[18], 0xf3u);
  EXPECT_EQ(m.hart.x[19], 0x8081f2f3u);
  EXPECT_EQ(m.dtcm_word(4), 0xf2f30000u);
  EXPECT_EQ(m.hart.info.mem_bytes, 0u);  // the last step (mpause) accessed no memory
}

TEST(RiscvScalarInt, ExternalMemoryIsAddressable) {
  Machine m;
  m.hart.x[a0] = Machine::kExt + 0x100;
  m.hart.x[a1] = 0xdeadbeefu;
  m.run({sw(a1, a0, 8), lw(a2, a0, 8)});
  EXPECT_EQ(m.hart.x[a2], 0xdeadbeefu);
  EXPECT_EQ(m.ext[0x108], 0xef);
}

TEST(RiscvScalarInt, Multiply) {
  Machine m;
  m.hart.x[a0] = 0xfffffffeu;  // -2 / 4294967294
  m.hart.x[a1] = 0x00000003u;
  m.hart.x[a2] = 0x80000000u;  // INT_MIN
  m.run({
      alu(AluOp::Mul, 13, a0, a1),     // -6 = 0xfffffffa
      alu(AluOp::Mulh, 14, a0, a1),    // -6 >> 32 = -1 = 0xffffffff
      alu(AluOp::Mulhu, 15, a0, a1),   // 4294967294 * 3 = 0x2_fffffffa -> 2
      alu(AluOp::Mulhsu, 16, a0, a1),  // -2 * 3 (rs2 unsigned) = -6 -> 0xffffffff
      alu(AluOp::Mulhsu, 17, a1, a0),  // 3 * 4294967294 = 0x2_fffffffa -> 2
      alu(AluOp::Mulh, 18, a2, a2),    // 2^62 -> 0x40000000
      alu(AluOp::Mulhu, 19, a2, a2),   // 2^62 -> 0x40000000
      alu(AluOp::Mulhsu, 20, a2, a0),  // -2^31 * (2^32 - 2) = -2^63 + 2^32 -> high 0x80000001
  });
  EXPECT_EQ(m.hart.x[13], 0xfffffffau);
  EXPECT_EQ(m.hart.x[14], 0xffffffffu);
  EXPECT_EQ(m.hart.x[15], 2u);
  EXPECT_EQ(m.hart.x[16], 0xffffffffu);
  EXPECT_EQ(m.hart.x[17], 2u);
  EXPECT_EQ(m.hart.x[18], 0x40000000u);
  EXPECT_EQ(m.hart.x[19], 0x40000000u);
  EXPECT_EQ(m.hart.x[20], 0x80000001u);
}

TEST(RiscvScalarInt, DivisionCornerCases) {
  // Spec table: x/0 -> -1 (divu: 2^32-1), x%0 -> x; INT_MIN/-1 -> INT_MIN, INT_MIN%-1 -> 0.
  Machine m;
  m.hart.x[a0] = 0x80000000u;
  m.hart.x[a1] = 0xffffffffu;  // -1
  m.hart.x[a2] = 7;
  m.hart.x[a3] = 0xfffffff9u;  // -7
  m.run({
      alu(AluOp::Div, 14, a2, 0),      // 7/0 = -1
      alu(AluOp::Divu, 15, a2, 0),     // 0xffffffff
      alu(AluOp::Rem, 16, a2, 0),      // 7
      alu(AluOp::Remu, 17, a3, 0),     // 0xfffffff9
      alu(AluOp::Div, 18, a0, a1),     // INT_MIN
      alu(AluOp::Rem, 19, a0, a1),     // 0
      alu(AluOp::Div, 20, a3, 6),      // x6 = 0: -7/0 = -1
  });
  EXPECT_EQ(m.hart.x[14], 0xffffffffu);
  EXPECT_EQ(m.hart.x[15], 0xffffffffu);
  EXPECT_EQ(m.hart.x[16], 7u);
  EXPECT_EQ(m.hart.x[17], 0xfffffff9u);
  EXPECT_EQ(m.hart.x[18], 0x80000000u);
  EXPECT_EQ(m.hart.x[19], 0u);
  EXPECT_EQ(m.hart.x[20], 0xffffffffu);

  // Rounding toward zero: -7/2 = -3 rem -1; divu 0xfffffff9/2 = 0x7ffffffc rem 1.
  Machine n;
  n.hart.x[a3] = 0xfffffff9u;
  n.hart.x[6] = 2;
  n.run({alu(AluOp::Div, 20, a3, 6), alu(AluOp::Rem, 21, a3, 6), alu(AluOp::Divu, 22, a3, 6),
         alu(AluOp::Remu, 23, a3, 6)});
  EXPECT_EQ(n.hart.x[20], 0xfffffffdu);
  EXPECT_EQ(n.hart.x[21], 0xffffffffu);
  EXPECT_EQ(n.hart.x[22], 0x7ffffffcu);
  EXPECT_EQ(n.hart.x[23], 1u);
}

TEST(RiscvScalarInt, StepInfoReportsBranchesAndMemory) {
  Machine m;
  m.hart.x[a0] = Machine::kDtcm + 8;
  m.load({lw(a1, a0, 4), beq(0, 0, 8), addi(a2, 0, 1)});
  m.hart.step();
  EXPECT_EQ(m.hart.info.pc, 0u);
  EXPECT_EQ(m.hart.info.mem_addr, Machine::kDtcm + 12);
  EXPECT_EQ(m.hart.info.mem_bytes, 4u);
  EXPECT_EQ(m.hart.info.insn->cls, OpClass::Load);
  m.hart.step();
  EXPECT_TRUE(m.hart.info.taken);
  EXPECT_EQ(m.hart.info.mem_bytes, 0u);
  EXPECT_EQ(m.hart.pc, 12u);
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::test
