// HBM transfer descriptors, special registers, hardware loops and C_BREAK.
#include <gtest/gtest.h>

#include "test_machine.h"

using namespace plena_test;
using Dir = pl::HbmTransfer::Direction;

TEST(PlenaMemory, PrefetchMDescriptorWithStride) {
  Machine m;
  // a1 = {gp2 (high), gp3 (low)} = 0x1_0000_1000 via C_SET_ADDR_REG a1, gp2, gp3.
  m.s.gp[2] = 1;
  m.s.gp[3] = 0x1000;
  ASSERT_TRUE(m.exec(Opcode::C_SET_ADDR_REG, 1, 2, 3).ok());
  EXPECT_EQ(m.s.a[1], 0x100001000ull);
  m.s.gp[4] = 256;
  ASSERT_TRUE(m.exec(Opcode::C_SET_STRIDE_REG, 4).ok());
  m.s.gp[5] = 4096;
  ASSERT_TRUE(m.exec(Opcode::C_SET_SCALE_REG, 5).ok());
  EXPECT_EQ(m.s.stride, 256u);
  EXPECT_EQ(m.s.scale, 4096u);

  // H_PREFETCH_M gp6 (MSRAM 64 = tile 1), gp7 (HBM offset 64), a1, rstride 1, precision 0
  m.s.gp[6] = 64;
  m.s.gp[7] = 64;
  const uint16_t before = m.msram[64];
  auto r = m.exec(Opcode::H_PREFETCH_M, 6, 7, 1, 1, 0);
  ASSERT_TRUE(r.ok()) << r.fault;
  ASSERT_TRUE(r.has_transfer);
  const pl::HbmTransfer& t = r.transfer;
  EXPECT_EQ(t.direction, Dir::HbmToSram);
  EXPECT_EQ(t.sram, pl::Memory::MSRAM);
  EXPECT_EQ(t.sram_addr, 64u);
  EXPECT_EQ(t.sram_row_pitch, 8u);
  EXPECT_EQ(t.hbm_base, 0x100001000ull);
  EXPECT_EQ(t.rows, 8u);          // MLEN rows
  EXPECT_EQ(t.row_elements, 8u);  // of MLEN
  EXPECT_EQ(t.row_stride, 256u);  // STRIDE
  EXPECT_EQ(t.scale, 4096u);
  EXPECT_EQ(t.precision, 0);
  // Row 3 starts at element offset 64 + 3 * 256 = 832; MXFP8 byte = base + 832; its
  // scale byte = base + SCALE + 832 / 8 = base + 4096 + 104.
  EXPECT_EQ(t.element_offset(3), 832u);
  EXPECT_EQ(t.byte_address(3, 0, 1), 0x100001000ull + 832);
  EXPECT_EQ(t.byte_address(3, 5, 2), 0x100001000ull + 2 * 837);  // a BF16 tensor
  EXPECT_EQ(t.mx_scale_address(t.element_offset(3)), 0x100001000ull + 4096 + 104);
  EXPECT_EQ(t.total_elements(), 64u);
  // The DMA engine moves the data, not the semantics; the range it fills is reported.
  EXPECT_EQ(m.msram[64], before);
  ASSERT_EQ(r.n_writes, 1);
  EXPECT_EQ(r.writes[0].mem, pl::Memory::MSRAM);
  EXPECT_EQ(r.writes[0].first, 64u);
  EXPECT_EQ(r.writes[0].end(), 128u);

  // rstride 0: rows are contiguous (row stride = MLEN); precision 1 passes through.
  r = m.exec(Opcode::H_PREFETCH_M, 6, 7, 1, 0, 1);
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(r.transfer.row_stride, 8u);
  EXPECT_EQ(r.transfer.precision, 1);
  EXPECT_EQ(r.transfer.element_offset(2), 64u + 16u);
}

TEST(PlenaMemory, PrefetchAndStoreVectorRows) {
  Machine m;  // v_rows = 2 in the small parameters
  m.s.a[2] = 1000;
  m.s.gp[1] = 16;
  m.s.gp[2] = 40;
  auto r = m.exec(Opcode::H_PREFETCH_V, 1, 2, 2, 0, 0);
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(r.transfer.sram, pl::Memory::VRAM);
  EXPECT_EQ(r.transfer.rows, 2u);
  EXPECT_EQ(r.transfer.row_elements, 8u);
  EXPECT_EQ(r.transfer.row_stride, 8u);
  EXPECT_EQ(r.transfer.hbm_offset, 40u);
  EXPECT_EQ(r.writes[0].end(), 32u);

  r = m.exec(Opcode::H_STORE_V, 1, 2, 2, 1, 2);  // strided (STRIDE = 1 after reset), precision 2
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(r.transfer.direction, Dir::SramToHbm);
  EXPECT_EQ(r.transfer.row_stride, 1u);
  EXPECT_EQ(r.transfer.precision, 2);
  EXPECT_EQ(r.n_writes, 0);
  ASSERT_EQ(r.n_reads, 1);
  EXPECT_EQ(r.reads[0].first, 16u);
  EXPECT_EQ(r.reads[0].rows, 2u);

  // v_rows is a parameter: 4 rows (BLEN in the benchmark).
  pl::PlenaParams p = small_params();
  p.v_rows = 4;
  Machine m4(p);
  r = m4.exec(Opcode::H_PREFETCH_V, 0, 0, 0, 0, 0);
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(r.transfer.rows, 4u);
}

TEST(PlenaControl, SpecialRegistersAndBreak) {
  Machine m;
  m.s.gp[1] = 0b11;
  ASSERT_TRUE(m.exec(Opcode::C_SET_V_MASK_REG, 1).ok());
  EXPECT_EQ(m.s.v_mask, 3u);
  // C_BREAK outside a loop faults (the reference simulator stops with an error).
  m.s.pc = 5;
  EXPECT_FALSE(m.exec(Opcode::C_BREAK).ok());
  // Inside a loop it pops the innermost loop, clears its counter and falls through.
  m.s.pc = 5;
  ASSERT_TRUE(m.exec(Opcode::C_LOOP_START, 3, 0, 0, 0, 0, 4).ok());
  m.s.pc = 7;
  auto r = m.exec(Opcode::C_BREAK);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.halt);
  EXPECT_EQ(m.s.loop_count, 0u);
  EXPECT_EQ(m.s.gp[3], 0u);
  EXPECT_EQ(r.next_pc, 8u);
}

TEST(PlenaControl, NestedLoopsRunTheirBodies) {
  using I = tlmcraft::isa::Instruction;
  const std::vector<I> program = {
      inst(Opcode::S_ADDI_INT, 5, 0, 0, 0, 0, 0),   // 0: gp5 = 0
      inst(Opcode::C_LOOP_START, 1, 0, 0, 0, 0, 3),  // 1: outer x3 (counter gp1)
      inst(Opcode::C_LOOP_START, 2, 0, 0, 0, 0, 4),  // 2:   inner x4 (counter gp2)
      inst(Opcode::S_ADDI_INT, 5, 5, 0, 0, 0, 1),   // 3:     gp5 += 1
      inst(Opcode::C_LOOP_END, 2),                   // 4:   end inner
      inst(Opcode::S_ADDI_INT, 6, 6, 0, 0, 0, 10),  // 5:   gp6 += 10
      inst(Opcode::C_LOOP_END, 1),                   // 6: end outer
      inst(Opcode::S_ADDI_INT, 7, 0, 0, 0, 0, 1),   // 7: after the loops
  };
  Machine m;
  const auto rr = m.run(program);
  EXPECT_EQ(rr.fault, "");
  EXPECT_EQ(m.s.gp[5], 12u);  // 3 * 4
  EXPECT_EQ(m.s.gp[6], 30u);  // 3 * 10
  EXPECT_EQ(m.s.gp[7], 1u);
  EXPECT_EQ(m.s.gp[1], 0u);
  EXPECT_EQ(m.s.gp[2], 0u);
  EXPECT_EQ(m.s.loop_count, 0u);
  // Executed: 2 + 3 * (1 + 4 * 2 + 1 + 1) + 1 = 36 instructions.
  EXPECT_EQ(rr.steps, 36u);
  EXPECT_EQ(m.s.pc, 8u);
}

TEST(PlenaControl, LoopEndJumpsToTheBodyStartAndCountsDown) {
  Machine m;
  m.s.pc = 10;
  ASSERT_TRUE(m.exec(Opcode::C_LOOP_START, 3, 0, 0, 0, 0, 2).ok());
  EXPECT_EQ(m.s.gp[3], 2u);
  EXPECT_EQ(m.s.pc, 11u);
  m.s.pc = 20;
  auto r = m.exec(Opcode::C_LOOP_END, 3);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.next_pc, 11u);  // back to the body
  EXPECT_EQ(m.s.gp[3], 1u);
  m.s.pc = 20;
  r = m.exec(Opcode::C_LOOP_END, 3);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.next_pc, 21u);  // done: falls through
  EXPECT_EQ(m.s.gp[3], 0u);
  EXPECT_EQ(m.s.loop_count, 0u);
}
