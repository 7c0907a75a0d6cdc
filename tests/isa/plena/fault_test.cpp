// Every fault: exact message, nothing committed (pc, registers, memory unchanged).
#include <stdexcept>

#include <gtest/gtest.h>

#include "test_machine.h"

using namespace plena_test;

namespace {
// Executes one instruction expected to fault; checks the message and that pc and VRAM
// did not change.
std::string fault_of(Machine& m, const tlmcraft::isa::Instruction& i) {
  const uint32_t pc = m.s.pc;
  const std::vector<uint16_t> vram = m.vram;
  const auto gp = m.s.gp;
  const auto r = m.exec(i);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.next_pc, pc);
  EXPECT_EQ(m.s.pc, pc);
  EXPECT_FALSE(r.has_transfer);
  EXPECT_EQ(r.n_reads + r.n_writes, 0);
  EXPECT_EQ(m.vram, vram);
  EXPECT_EQ(m.s.gp, gp);
  return r.fault;
}
}  // namespace

TEST(PlenaFaults, VramAlignmentAndRange) {
  Machine m;
  m.s.gp[1] = 3;
  EXPECT_EQ(fault_of(m, inst(Opcode::V_ADD_VV, 2, 1, 2, 0)),
            "V_ADD_VV: VRAM source address 3 (gp1) is not a multiple of VLEN (8)");
  m.s.gp[1] = 0;
  m.s.gp[3] = 256;  // one past the end of the 256-element VRAM
  EXPECT_EQ(fault_of(m, inst(Opcode::V_EXP_V, 3, 1, 0, 0)),
            "V_EXP_V: VRAM destination [256, 264) (gp3) exceeds VRAM (256 elements)");
  // Huge addresses do not wrap around.
  m.s.gp[3] = 0xFFFFFFF8u;
  EXPECT_EQ(fault_of(m, inst(Opcode::V_MUL_VV, 3, 1, 1, 0)),
            "V_MUL_VV: VRAM destination [4294967288, 4294967296) (gp3) exceeds VRAM (256 elements)");
  m.s.gp[3] = 8;
  EXPECT_EQ(fault_of(m, inst(Opcode::V_ADD_VV, 3, 1, 1, 2)), "V_ADD_VV: rmask must be 0 or 1, got 2");
}

TEST(PlenaFaults, MatrixAddresses) {
  Machine m;
  m.s.gp[1] = 3;
  EXPECT_EQ(fault_of(m, inst(Opcode::M_MM, 0, 1, 0)),
            "M_MM: MSRAM address 3 (gp1) is tile 0 + offset 3; the offset must be a multiple of "
            "BLEN (2) below MLEN (8)");
  m.s.gp[1] = 8;  // row 1 of the tile: not a column offset
  EXPECT_EQ(fault_of(m, inst(Opcode::M_MM, 0, 1, 0)),
            "M_MM: MSRAM address 8 (gp1) is tile 0 + offset 8; the offset must be a multiple of "
            "BLEN (2) below MLEN (8)");
  m.s.gp[1] = 128;  // tile 2 of a two-tile MSRAM
  EXPECT_EQ(fault_of(m, inst(Opcode::M_MM, 0, 1, 0)),
            "M_MM: MSRAM tile [128, 192) (gp1) exceeds MSRAM (128 elements)");
  m.s.gp[1] = 0;
  m.s.gp[2] = 4;
  EXPECT_EQ(fault_of(m, inst(Opcode::M_MM, 0, 1, 2)),
            "M_MM: VRAM activation address 4 (gp2) is not a multiple of VLEN (8)");
  m.s.gp[2] = 8;
  EXPECT_EQ(fault_of(m, inst(Opcode::M_TMM, 0, 2, 2)),
            "M_TMM: MSRAM address 8 (gp2) is tile 0 + offset 8; the offset must be a multiple of "
            "BLEN*MLEN (16) below the tile size (64)");
  EXPECT_EQ(fault_of(m, inst(Opcode::M_MV, 0, 2, 0)),
            "M_MV: MSRAM address 8 (gp2) must be tile-aligned (a multiple of MLEN*MLEN = 64): this "
            "instruction reads a whole tile");
  m.s.gp[3] = 2;
  m.s.gp[4] = 1;
  EXPECT_EQ(fault_of(m, inst(Opcode::M_BTMM, 4, 0, 0)),
            "M_BTMM: MSRAM address 1 (gp0+gp4) is tile 0 + offset 1; the offset must be a multiple "
            "of HLEN (4) below MLEN (8)");
  EXPECT_EQ(fault_of(m, inst(Opcode::M_MM_WO, 3, 0, 0, 0, 0, 1)),
            "M_MM_WO: VRAM destination address 3 (gp3+1) is not a multiple of BLEN (2)");
  EXPECT_EQ(fault_of(m, inst(Opcode::M_MM_WO, 3, 4, 0, 0, 0, 0)),
            "M_MM_WO: row stride 1 (gp4) is smaller than BLEN (2): the stride counts elements "
            "(VLEN = 8 for consecutive VRAM rows; gp0 selects VLEN)");
  EXPECT_EQ(fault_of(m, inst(Opcode::M_MM_WO, 3, 0, 0, 0, 0, 246)),
            "M_MM_WO: VRAM destination [248, 258) (gp3+246: 2 rows of 2, stride 8) exceeds VRAM "
            "(256 elements)");
}

TEST(PlenaFaults, PrefetchDestinations) {
  Machine m;
  m.s.gp[1] = 8;
  EXPECT_EQ(fault_of(m, inst(Opcode::H_PREFETCH_M, 1, 0, 0, 0, 0)),
            "H_PREFETCH_M: MSRAM destination address 8 (gp1) is not a multiple of MLEN*MLEN (64)");
  m.s.gp[1] = 128;
  EXPECT_EQ(fault_of(m, inst(Opcode::H_PREFETCH_M, 1, 0, 0, 0, 0)),
            "H_PREFETCH_M: MSRAM destination [128, 192) (gp1: 8 rows of 8, stride 8) exceeds MSRAM "
            "(128 elements)");
  m.s.gp[1] = 4;
  EXPECT_EQ(fault_of(m, inst(Opcode::H_STORE_V, 1, 0, 0, 0, 0)),
            "H_STORE_V: VRAM source address 4 (gp1) is not a multiple of VLEN (8)");
  EXPECT_EQ(fault_of(m, inst(Opcode::H_PREFETCH_V, 0, 0, 9, 0, 0)),
            "H_PREFETCH_V: address register number 9 out of range (a0-a7)");
  EXPECT_EQ(fault_of(m, inst(Opcode::H_PREFETCH_V, 0, 0, 0, 3, 0)),
            "H_PREFETCH_V: rstride must be 0 or 1, got 3");
}

TEST(PlenaFaults, ScalarMemoriesAndRegisters) {
  Machine m;  // INT_MEM 16 words, FP_MEM 32 elements
  m.s.gp[2] = 10;
  EXPECT_EQ(fault_of(m, inst(Opcode::S_LD_INT, 1, 2, 0, 0, 0, 6)),
            "S_LD_INT: INT_MEM address 16 (gp2+6) is outside INT_MEM (16 entries)");
  EXPECT_EQ(fault_of(m, inst(Opcode::S_ST_INT, 1, 2, 0, 0, 0, 100)),
            "S_ST_INT: INT_MEM address 110 (gp2+100) is outside INT_MEM (16 entries)");
  EXPECT_EQ(fault_of(m, inst(Opcode::S_ST_FP, 1, 2, 0, 0, 0, 22)),
            "S_ST_FP: FP_MEM address 32 (gp2+22) is outside FP_MEM (32 entries)");
  EXPECT_EQ(fault_of(m, inst(Opcode::S_MAP_V_FP, 0, 2, 0, 0, 0, 15)),
            "S_MAP_V_FP: FP_MEM source [25, 33) (gp2+15) exceeds FP_MEM (32 elements)");
  EXPECT_EQ(fault_of(m, inst(Opcode::S_ADD_FP, 9, 1, 1)),
            "S_ADD_FP: fp register number 9 out of range (f0-f7)");
  EXPECT_EQ(fault_of(m, inst(Opcode::S_ADD_INT, 16, 1, 1)),
            "S_ADD_INT: gp register number 16 out of range (gp0-gp15)");
  EXPECT_EQ(fault_of(m, inst(Opcode::S_ADDI_INT, 1, 1, 0, 0, 0, -1)),
            "S_ADDI_INT: immediate -1 must not be negative");
}

TEST(PlenaFaults, Loops) {
  Machine m;
  EXPECT_EQ(fault_of(m, inst(Opcode::C_LOOP_END, 3)),
            "C_LOOP_END: C_LOOP_END gp3 without an open C_LOOP_START");
  EXPECT_EQ(fault_of(m, inst(Opcode::C_LOOP_START, 0, 0, 0, 0, 0, 4)),
            "C_LOOP_START: the loop counter register must not be gp0 (it is always 0)");
  EXPECT_EQ(fault_of(m, inst(Opcode::C_LOOP_START, 1, 0, 0, 0, 0, 0)),
            "C_LOOP_START: loop count must be at least 1");
  ASSERT_TRUE(m.exec(Opcode::C_LOOP_START, 1, 0, 0, 0, 0, 4).ok());
  EXPECT_EQ(fault_of(m, inst(Opcode::C_LOOP_END, 2)),
            "C_LOOP_END: C_LOOP_END gp2 does not match the innermost open loop, whose counter is "
            "gp1 (started at pc 0)");
  EXPECT_EQ(fault_of(m, inst(Opcode::C_LOOP_START, 1, 0, 0, 0, 0, 2)),
            "C_LOOP_START: gp1 is already the counter of an enclosing loop (started at pc 0)");

  pl::PlenaParams p = small_params();
  p.loop_depth = 2;
  Machine shallow(p);
  ASSERT_TRUE(shallow.exec(Opcode::C_LOOP_START, 1, 0, 0, 0, 0, 2).ok());
  ASSERT_TRUE(shallow.exec(Opcode::C_LOOP_START, 2, 0, 0, 0, 0, 2).ok());
  EXPECT_EQ(fault_of(shallow, inst(Opcode::C_LOOP_START, 3, 0, 0, 0, 0, 2)),
            "C_LOOP_START: loop stack overflow: more than 2 nested loops");
  EXPECT_EQ(shallow.s.loop_count, 2u);
}

TEST(PlenaFaults, UnimplementedAndUnknownOpcodes) {
  Machine m;
  EXPECT_EQ(fault_of(m, inst(Opcode::V_TOPK, 1, 1)),
            "V_TOPK: listed in the PLENA ISA but not implemented on this platform");
  EXPECT_EQ(fault_of(m, inst(Opcode::V_PS_V, 1, 1)),
            "V_PS_V: listed in the PLENA ISA but not implemented on this platform");
  EXPECT_EQ(fault_of(m, inst(Opcode::C_HADAMARD_TRANSFORM)),
            "C_HADAMARD_TRANSFORM: listed in the PLENA ISA but not implemented on this platform");
  tlmcraft::isa::Instruction bad;
  bad.opcode = 0x3F;
  EXPECT_EQ(fault_of(m, bad), "?: unknown opcode 0x3F");
}

TEST(PlenaFaults, UnboundMemoriesFaultInsteadOfCrashing) {
  pl::PlenaState s(small_params());  // no memory views set
  auto r = pl::execute(inst(Opcode::V_ADD_VV, 0, 0, 0, 0), s);
  EXPECT_EQ(r.fault, "V_ADD_VV: VRAM source [0, 8) (gp0) exceeds VRAM (0 elements)");
  EXPECT_THROW(pl::PlenaState bad(pl::PlenaParams{64, 64, 5, 16, 4, 8}), std::invalid_argument);
  EXPECT_EQ(pl::validate(pl::PlenaParams{64, 64, 5, 16, 4, 8}), "mlen (64) must be a multiple of blen (5)");
  EXPECT_EQ(pl::validate(pl::PlenaParams{}), "");
}
