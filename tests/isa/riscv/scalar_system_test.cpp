// Traps (with their messages), CSRs and the system instructions.
#include <gtest/gtest.h>

#include <cstring>

#include "scalar_support.h"

namespace tlmcraft::isa::riscv::test {
namespace {

constexpr uint32_t a0 = 10, a1 = 11, a2 = 12, a3 = 13;
constexpr uint32_t CSRRW = 1, CSRRS = 2, CSRRC = 3, CSRRWI = 5, CSRRSI = 6, CSRRCI = 7;

TEST(RiscvScalarTraps, MisalignedLoadLeavesStateUnchanged) {
  Machine m;
  m.hart.x[a0] = Machine::kDtcm + 2;
  m.hart.x[a1] = 77;
  Trap t = m.run_expect_trap({addi(a2, 0, 1), lw(a1, a0, 0)});
  EXPECT_EQ(t.cause, TrapCause::LoadMisaligned);
  EXPECT_EQ(t.tval, Machine::kDtcm + 2);
  EXPECT_EQ(t.detail, "misaligned 4-byte load at 0x00010002");
  EXPECT_EQ(m.hart.pc, 4u);          // still at the faulting load
  EXPECT_EQ(m.hart.x[a1], 77u);      // destination untouched
  EXPECT_EQ(m.hart.minstret, 1u);    // only the addi retired
}

TEST(RiscvScalarTraps, MisalignedStoreAndHalfword) {
  Machine m;
  m.hart.x[a0] = Machine::kDtcm + 1;
  Trap t = m.run_expect_trap({sh(a1, a0, 0)});
  EXPECT_EQ(t.cause, TrapCause::StoreMisaligned);
  EXPECT_EQ(t.detail, "misaligned 2-byte store at 0x00010001");
  EXPECT_EQ(m.dtcm[1], 0);
}

TEST(RiscvScalarTraps, UnmappedAccessesFault) {
  Machine m;
  m.hart.x[a0] = 0x00050000u;
  Trap load = m.run_expect_trap({lw(a1, a0, 0)});
  EXPECT_EQ(load.cause, TrapCause::LoadAccessFault);
  EXPECT_EQ(load.detail, "load from unmapped address 0x00050000 (4 bytes)");
  Trap store = m.run_expect_trap({sb(a1, a0, 3)});
  EXPECT_EQ(store.cause, TrapCause::StoreAccessFault);
  EXPECT_EQ(store.tval, 0x00050003u);
  EXPECT_EQ(store.detail, "store to unmapped address 0x00050003 (1 bytes)");
  // The last word of DTCM is mapped, the word after it is not.
  m.hart.x[a0] = Machine::kDtcm + 32768 - 4;
  m.run({lw(a1, a0, 0)});
  EXPECT_EQ(m.run_expect_trap({lw(a1, a0, 4)}).cause, TrapCause::LoadAccessFault);
}

TEST(RiscvScalarTraps, StoreToItcmFaults) {
  Machine m;
  m.hart.x[a0] = 0x40;
  Trap t = m.run_expect_trap({sw(a1, a0, 0)});
  EXPECT_EQ(t.cause, TrapCause::StoreAccessFault);
  EXPECT_EQ(t.tval, 0x40u);
  EXPECT_EQ(t.detail, "store to itcm at 0x00000040 (read-only at run time)");
  // Loads from ITCM are allowed (constants placed in .text).
  m.run({lw(a1, 0, 0)});
  EXPECT_EQ(m.hart.x[a1], lw(a1, 0, 0));
}

TEST(RiscvScalarTraps, FetchOutsideExecutableMemory) {
  Machine m;
  m.hart.x[a0] = Machine::kDtcm;
  Trap t = m.run_expect_trap({jalr(0, a0, 0)});
  EXPECT_EQ(t.cause, TrapCause::InstructionAccessFault);
  EXPECT_EQ(t.tval, Machine::kDtcm);
  EXPECT_EQ(t.detail, "instruction fetch from non-executable address 0x00010000");
  EXPECT_EQ(m.hart.pc, Machine::kDtcm);  // the jump retired, the fetch faulted
  // Falling off the end of ITCM: 0x2000 is unmapped.
  Machine n;
  n.hart.pc = 0x1ffc;
  n.itcm[0x1ffc] = 0x13;  // nop
  EXPECT_THROW(n.hart.run(10), Trap);
  EXPECT_EQ(n.hart.pc, 0x2000u);
}

TEST(RiscvScalarTraps, JumpToMisalignedTargetTrapsAtTheJump) {
  Machine m;
  m.hart.x[a0] = 6;
  Trap t = m.run_expect_trap({jalr(1, a0, 0)});
  EXPECT_EQ(t.cause, TrapCause::InstructionAccessFault);
  EXPECT_EQ(t.tval, 6u);
  EXPECT_EQ(t.detail, "jump to misaligned address 0x00000006");
  EXPECT_EQ(m.hart.pc, 0u);
  EXPECT_EQ(m.hart.x[1], 0u);  // link register not written
  EXPECT_EQ(m.run_expect_trap({beq(0, 0, 6)}).cause, TrapCause::InstructionAccessFault);
}

TEST(RiscvScalarTraps, IllegalEcallEbreak) {
  Machine m;
  Trap illegal = m.run_expect_trap({0x00000000u});
  EXPECT_EQ(illegal.cause, TrapCause::IllegalInstruction);
  EXPECT_EQ(illegal.tval, 0u);
  EXPECT_EQ(illegal.detail, "illegal instruction 0x00000000: not an RV32IMF_Zve32x instruction");
  EXPECT_EQ(m.run_expect_trap({ecall()}).cause, TrapCause::EnvironmentCall);
  Trap brk = m.run_expect_trap({addi(a0, 0, 1), ebreak()});
  EXPECT_EQ(brk.cause, TrapCause::Breakpoint);
  EXPECT_EQ(m.hart.pc, 4u);
  EXPECT_STREQ(to_string(TrapCause::StoreAccessFault), "store access fault");
}

TEST(RiscvScalarTraps, MpauseHalts) {
  Machine m;
  m.load({addi(a0, 0, 1)});
  EXPECT_EQ(m.hart.run(100), 2u);  // addi + mpause
  EXPECT_TRUE(m.hart.halted);
  EXPECT_EQ(m.hart.info.insn->cls, OpClass::Halt);
  EXPECT_EQ(m.hart.run(100), 0u);  // a halted hart does not step
}

TEST(RiscvScalarTraps, StoresIntoWritableCodeInvalidateTheDecodeCache) {
  // A writable executable region (as a Linux-user ELF has): the loop patches the word at
  // 4 from "addi a2,zero,1" to "addi a2,zero,2" after executing it once.
  std::vector<uint8_t> ram(256);
  Hart h;
  h.add_region({"ram", 0, 256, ram.data(), true, true});
  const uint32_t prog[] = {
      addi(a3, 0, 2),               // 0: two passes
      addi(a2, 0, 1),               // 4: patched
      alu(AluOp::Add, a0, a0, a2),  // 8: a0 += a2
      sw(7, 0, 4),                  // 12: store x7 (the new word) at 4
      addi(a3, a3, -1),             // 16
      bne(a3, 0, -16),              // 20: back to 4
      mpause(),                     // 24
  };
  std::memcpy(ram.data(), prog, sizeof prog);
  h.x[7] = addi(a2, 0, 2);
  h.run(100);
  ASSERT_TRUE(h.halted);
  EXPECT_EQ(h.x[a0], 1u + 2u);  // the first pass adds 1, the second runs the patched word
}

TEST(RiscvScalarCsr, CountersWithoutHooks) {
  Machine m;
  m.run({
      addi(a0, 0, 5),
      csr(CSRRS, a1, 0xB02, 0),   // minstret: 1 instruction retired before it
      csr(CSRRS, a2, 0xB00, 0),   // mcycle without hooks = minstret = 2
      csr(CSRRS, a3, 0xB82, 0),   // minstreth = 0
  });
  EXPECT_EQ(m.hart.x[a1], 1u);
  EXPECT_EQ(m.hart.x[a2], 2u);
  EXPECT_EQ(m.hart.x[a3], 0u);
}

TEST(RiscvScalarCsr, CounterWrites) {
  Machine m;
  m.hart.x[a0] = 100;
  m.run({
      csr(CSRRW, 0, 0xB02, a0),   // minstret = 100 (this instruction's retirement not counted)
      csr(CSRRS, a1, 0xB02, 0),   // reads 100
      csr(CSRRW, 0, 0xB00, a0),   // mcycle = 100 (kept as an offset: raw was 3)
      csr(CSRRS, a2, 0xB00, 0),   // raw is now 104 (3 more instructions), read 100 + 1 = 101
  });
  EXPECT_EQ(m.hart.x[a1], 100u);
  EXPECT_EQ(m.hart.x[a2], 101u);
}

struct FixedCycles : HartHooks {
  uint64_t value = 0;
  uint64_t read_mcycle() override { return value; }
};

TEST(RiscvScalarCsr, McycleComesFromTheHook) {
  Machine m;
  FixedCycles cycles;
  cycles.value = 0x123456789ull;
  m.hart.hooks = &cycles;
  m.run({csr(CSRRS, a0, 0xB00, 0), csr(CSRRS, a1, 0xB80, 0)});
  EXPECT_EQ(m.hart.x[a0], 0x23456789u);
  EXPECT_EQ(m.hart.x[a1], 1u);
}

TEST(RiscvScalarCsr, FloatingPointCsrs) {
  Machine m;
  m.hart.x[a0] = 0xff;
  m.run({
      csr(CSRRW, a1, 0x003, a0),  // fcsr = 0xff: fflags = 0x1f, frm = 7; old fcsr = 0
      csr(CSRRS, a2, 0x002, 0),   // frm = 7
      csr(CSRRCI, a3, 0x001, 0x3),  // read fflags 0x1f, clear NX|UF -> 0x1c
      csr(CSRRWI, 0, 0x002, 1),   // frm = RTZ
      csr(CSRRS, 14, 0x003, 0),   // fcsr = 1 << 5 | 0x1c = 0x3c
  });
  EXPECT_EQ(m.hart.x[a1], 0u);
  EXPECT_EQ(m.hart.x[a2], 7u);
  EXPECT_EQ(m.hart.x[a3], 0x1fu);
  EXPECT_EQ(m.hart.x[14], 0x3cu);
  EXPECT_EQ(m.hart.fflags, 0x1cu);
  EXPECT_EQ(m.hart.frm, 1u);
}

TEST(RiscvScalarCsr, VectorCsrs) {
  Machine m;
  m.hart.vl = 8;
  m.hart.vtype = 0xd0;
  m.run({
      csr(CSRRS, a0, 0xC22, 0),   // vlenb = 16
      csr(CSRRS, a1, 0xC20, 0),   // vl
      csr(CSRRS, a2, 0xC21, 0),   // vtype
      csr(CSRRWI, 0, 0x00F, 7),   // vcsr = 7: vxsat = 1, vxrm = 3
      csr(CSRRS, a3, 0x00A, 0),   // vxrm = 3
      csr(CSRRSI, 14, 0x009, 0),  // vxsat = 1
      csr(CSRRWI, 0, 0x008, 5),   // vstart = 5
  });
  EXPECT_EQ(m.hart.x[a0], 16u);
  EXPECT_EQ(m.hart.x[a1], 8u);
  EXPECT_EQ(m.hart.x[a2], 0xd0u);
  EXPECT_EQ(m.hart.x[a3], 3u);
  EXPECT_EQ(m.hart.x[14], 1u);
  EXPECT_EQ(m.hart.vstart, 5u);
}

TEST(RiscvScalarCsr, MachineInformation) {
  Machine m;
  m.run({csr(CSRRS, a0, 0x300, 0), csr(CSRRS, a1, 0x301, 0), csr(CSRRS, a2, 0xF14, 0)});
  // mstatus: SD (bit 31) | FS = 3 (bits 14:13) | MPP = 3 (12:11) | VS = 3 (10:9).
  EXPECT_EQ(m.hart.x[a0], 0x80007e00u);
  // misa: MXL = 1 (bit 30) | F (bit 5) | I (bit 8) | M (bit 12).
  EXPECT_EQ(m.hart.x[a1], 0x40001120u);
  EXPECT_EQ(m.hart.x[a2], 0u);
}

TEST(RiscvScalarCsr, UnknownAndReadOnlyCsrsAreIllegal) {
  Machine m;
  Trap unknown = m.run_expect_trap({csr(CSRRS, a0, 0xC00, 0)});  // no cycle CSR on Coral
  EXPECT_EQ(unknown.cause, TrapCause::IllegalInstruction);
  EXPECT_EQ(unknown.detail, "illegal instruction 0xc0002573: unknown CSR 0xc00");
  Trap ro = m.run_expect_trap({csr(CSRRW, 0, 0xC22, a0)});
  EXPECT_EQ(ro.detail, "illegal instruction 0xc2251073: write to read-only CSR 0xc22");
  // csrrs/csrrc with x0 and the immediate forms with uimm 0 do not write: allowed.
  m.run({csr(CSRRS, a0, 0xC20, 0), csr(CSRRC, a0, 0xF14, 0), csr(CSRRSI, a0, 0xC22, 0)});
  EXPECT_EQ(m.hart.x[a0], 16u);
  EXPECT_EQ(m.run_expect_trap({csr(CSRRSI, a0, 0xC21, 1)}).cause, TrapCause::IllegalInstruction);
  // csrrw with rd = x0 still checks that the CSR exists.
  EXPECT_EQ(m.run_expect_trap({csr(CSRRWI, 0, 0x7C0, 1)}).cause, TrapCause::IllegalInstruction);
}

TEST(RiscvScalarCsr, FenceIsANoOp) {
  Machine m;
  m.run({addi(a0, 0, 3), fence(), addi(a0, a0, 1)});
  EXPECT_EQ(m.hart.x[a0], 4u);
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::test
