// Integer arithmetic: add/sub/min/max/logic/shifts, masks and undisturbed tails, vstart,
// vl = 0, LMUL > 1 groups, narrowing shifts, compares, carry ops, merge/move, widening
// add/sub, zero/sign extension, and the alignment/overlap rules.
#include "tests/isa/riscv/vector_test_support.h"

namespace tlmcraft::isa::riscv::vtest {
namespace {

using IntegerTest = VectorTest;

TEST_F(IntegerTest, AddForms) {
  setvl(8, 0, 16);
  std::vector<uint8_t> a(16), b(16);
  for (unsigned i = 0; i < 16; ++i) { a[i] = uint8_t(i * 17); b[i] = uint8_t(200 + i); }
  fill<uint8_t>(2, a);
  fill<uint8_t>(3, b);
  exec(opv(0x00, IVV, 1, 2, 3));  // vadd.vv v1, v2, v3
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(h.vget<uint8_t>(1, i), uint8_t(i * 17 + 200 + i)) << i;
  // vadd.vx with x7 = -1: each element decremented (mod 256).
  h.x[7] = 0xffffffffu;
  exec(opv(0x00, IVX, 4, 2, 7));
  EXPECT_EQ(h.vget<uint8_t>(4, 0), 0xff);   // 0 - 1
  EXPECT_EQ(h.vget<uint8_t>(4, 3), 50);     // 51 - 1
  // vadd.vi with imm -16 (simm5 = 10000b).
  exec(opv(0x00, IVI, 4, 2, 0x10));
  EXPECT_EQ(h.vget<uint8_t>(4, 1), 1);      // 17 - 16
  EXPECT_EQ(h.info.vl, 16u);
  EXPECT_EQ(h.info.sew_bytes, 1u);
}

TEST_F(IntegerTest, MaskTailVstartAndZeroVl) {
  setvl(16, 0, 6);  // e16: VLMAX 8, vl 6
  fill<uint16_t>(2, {1, 2, 3, 4, 5, 6, 7, 8});
  fill<uint16_t>(3, {10, 20, 30, 40, 50, 60, 70, 80});
  fill<uint16_t>(1, {9, 9, 9, 9, 9, 9, 9, 9});
  set_mask(0, 0b101101);  // elements 0, 2, 3, 5 active
  exec(opv(0x00, IVV, 1, 2, 3, kMasked));
  // Active: sums; masked-off (1, 4) and tail (6, 7): undisturbed 9.
  EXPECT_EQ(get<uint16_t>(1, 8), (std::vector<uint16_t>{11, 9, 33, 44, 9, 66, 9, 9}));
  // vstart = 4: elements 0..3 untouched, vstart reset.
  fill<uint16_t>(1, {9, 9, 9, 9, 9, 9, 9, 9});
  h.vstart = 4;
  exec(opv(0x00, IVV, 1, 2, 3));
  EXPECT_EQ(get<uint16_t>(1, 8), (std::vector<uint16_t>{9, 9, 9, 9, 55, 66, 9, 9}));
  EXPECT_EQ(h.vstart, 0u);
  EXPECT_EQ(h.info.vl, 2u);  // elements 4 and 5 processed
  // vl = 0: nothing written.
  setvl(16, 0, 0);
  exec(opv(0x00, IVV, 1, 2, 3));
  EXPECT_EQ(h.vget<uint16_t>(1, 4), 55);
}

TEST_F(IntegerTest, RegisterGroupsLmul2) {
  setvl(32, 1, 8);  // e32 m2: VLMAX 8, groups of two registers
  fill<uint32_t>(2, {1, 2, 3, 4, 5, 6, 7, 8});      // v2-v3
  fill<uint32_t>(4, {100, 200, 300, 400, 500, 600, 700, 800});
  exec(opv(0x02, IVV, 6, 4, 2));  // vsub.vv v6, v4, v2
  EXPECT_EQ(get<uint32_t>(6, 8), (std::vector<uint32_t>{99, 198, 297, 396, 495, 594, 693, 792}));
  EXPECT_EQ(h.vget<uint32_t>(7, 0), 495u);  // element 4 lives in v7
  EXPECT_EQ(h.info.dst_group, 2);
  // Misaligned groups are illegal (v3 is not a multiple of 2).
  EXPECT_EQ(trap_of(opv(0x02, IVV, 3, 4, 2)), TrapCause::IllegalInstruction);
  EXPECT_EQ(trap_text(opv(0x02, IVV, 6, 5, 2)),
            "vsub.vv v6,v5,v2: vs2 = v5 is not a multiple of the register group size 2");
  // A masked instruction may not write v0.
  EXPECT_EQ(trap_of(opv(0x02, IVV, 0, 4, 2, kMasked)), TrapCause::IllegalInstruction);
}

TEST_F(IntegerTest, ReverseSubMinMaxLogic) {
  setvl(8, 0, 4);
  fill<uint8_t>(2, {5, 0x80, 0x7f, 0xff});
  fill<uint8_t>(3, {7, 0x01, 0x80, 0x00});
  h.x[7] = 10;
  exec(opv(0x03, IVX, 1, 2, 7));  // vrsub.vx: 10 - vs2
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{5, 0x8a, 0x8b, 11}));
  exec(opv(0x04, IVV, 1, 2, 3));  // vminu
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{5, 0x01, 0x7f, 0x00}));
  exec(opv(0x05, IVV, 1, 2, 3));  // vmin (signed: 0x80 = -128, 0xff = -1)
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{5, 0x80, 0x80, 0xff}));
  exec(opv(0x06, IVV, 1, 2, 3));  // vmaxu
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{7, 0x80, 0x80, 0xff}));
  exec(opv(0x07, IVV, 1, 2, 3));  // vmax
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{7, 0x01, 0x7f, 0x00}));
  exec(opv(0x09, IVI, 1, 2, 0x0f));  // vand.vi 15
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{5, 0, 0x0f, 0x0f}));
  exec(opv(0x0a, IVV, 1, 2, 3));  // vor
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{7, 0x81, 0xff, 0xff}));
  exec(opv(0x0b, IVI, 1, 2, 0x1f));  // vxor.vi -1
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0xfa, 0x7f, 0x80, 0x00}));
}

TEST_F(IntegerTest, ShiftsUseLowBitsOfTheAmount) {
  setvl(16, 0, 3);
  fill<uint16_t>(2, {0x8001, 0x00f0, 0xff00});
  exec(opv(0x25, IVI, 1, 2, 4));  // vsll.vi 4
  EXPECT_EQ(get<uint16_t>(1, 3), (std::vector<uint16_t>{0x0010, 0x0f00, 0xf000}));
  h.x[7] = 16 + 4;  // only the low 4 bits (4) count at SEW 16
  exec(opv(0x28, IVX, 1, 2, 7));  // vsrl.vx
  EXPECT_EQ(get<uint16_t>(1, 3), (std::vector<uint16_t>{0x0800, 0x000f, 0x0ff0}));
  exec(opv(0x29, IVX, 1, 2, 7));  // vsra.vx
  EXPECT_EQ(get<uint16_t>(1, 3), (std::vector<uint16_t>{0xf800, 0x000f, 0xfff0}));
  fill<uint16_t>(3, {1, 15, 17});
  exec(opv(0x28, IVV, 1, 2, 3));  // vsrl.vv: 1, 15, 17 & 15 = 1
  EXPECT_EQ(get<uint16_t>(1, 3), (std::vector<uint16_t>{0x4000, 0x0000, 0x7f80}));
}

TEST_F(IntegerTest, NarrowingShifts) {
  setvl(8, 0, 4);  // vd e8 m1; vs2 is e16 m2 (v2-v3)
  fill<uint16_t>(2, {0x1234, 0x8000, 0xfff0, 0x00ff});
  exec(opv(0x2c, IVI, 1, 2, 4));  // vnsrl.wi v1, v2, 4
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0x23, 0x00, 0xff, 0x0f}));
  h.x[7] = 8;
  exec(opv(0x2d, IVX, 1, 2, 7));  // vnsra.wx by 8
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0x12, 0x80, 0xff, 0x00}));
  // Destination in the lowest part of the source group is legal; v3 (highest) is not.
  exec(opv(0x2c, IVI, 2, 2, 0));
  EXPECT_EQ(h.vget<uint8_t>(2, 0), 0x34);
  EXPECT_EQ(trap_of(opv(0x2c, IVI, 3, 2, 0)), TrapCause::IllegalInstruction);
  // vs2 must be aligned to the 2-register wide group.
  EXPECT_EQ(trap_of(opv(0x2c, IVI, 1, 3, 0)), TrapCause::IllegalInstruction);
  // SEW 32 cannot narrow from 64.
  setvl(32, 0, 4);
  EXPECT_EQ(trap_of(opv(0x2c, IVI, 1, 2, 0)), TrapCause::IllegalInstruction);
}

TEST_F(IntegerTest, ComparesWriteMaskBits) {
  setvl(8, 0, 6);
  fill<uint8_t>(2, {1, 0xff, 5, 7, 0x80, 3});
  fill<uint8_t>(3, {1, 0x01, 6, 7, 0x7f, 2});
  set_mask(1, 0xffffffc0u);  // tail bits (>= 6) must stay 1, body bits 0-5 start at 0
  exec(opv(0x18, IVV, 1, 2, 3));  // vmseq: elements 0, 3
  EXPECT_EQ(mask_of(1) & 0xff, 0b001001u | 0xc0u);
  EXPECT_EQ(mask_of(1) >> 8, 0xffffffu);
  exec(opv(0x1a, IVV, 1, 2, 3));  // vmsltu: 5 < 6 only
  EXPECT_EQ(mask_of(1) & 0x3f, 0b000100u);
  exec(opv(0x1b, IVV, 1, 2, 3));  // vmslt: -1 < 1, 5 < 6, -128 < 127
  EXPECT_EQ(mask_of(1) & 0x3f, 0b010110u);
  exec(opv(0x1f, IVI, 1, 2, 0x02));  // vmsgt.vi 2: 5, 7, 3
  EXPECT_EQ(mask_of(1) & 0x3f, 0b101100u);
  exec(opv(0x1c, IVI, 1, 2, 0x1f));  // vmsleu.vi -1 (= 0xff unsigned): all
  EXPECT_EQ(mask_of(1) & 0x3f, 0b111111u);
  h.x[7] = 5;
  exec(opv(0x1e, IVX, 1, 2, 7));  // vmsgtu.vx 5: 0xff, 7, 0x80
  EXPECT_EQ(mask_of(1) & 0x3f, 0b011010u);
  exec(opv(0x1d, IVX, 1, 2, 7));  // vmsle.vx 5: 1, -1, 5, -128, 3
  EXPECT_EQ(mask_of(1) & 0x3f, 0b110111u);
  exec(opv(0x19, IVV, 1, 2, 3));  // vmsne: 1, 2, 4, 5
  EXPECT_EQ(mask_of(1) & 0x3f, 0b110110u);
  // Masked compare into v0 itself: inactive bits keep their value.
  set_mask(0, 0b000011);
  exec(opv(0x18, IVV, 0, 2, 3, kMasked));  // vmseq: element 0 equal, element 1 not
  EXPECT_EQ(mask_of(0) & 0x3f, 0b000001u);
  EXPECT_EQ(h.info.dst_group, 1);
}

TEST_F(IntegerTest, CompareOverlapRulesWithGroups) {
  setvl(8, 1, 32);  // LMUL 2: sources are v2-v3
  exec(opv(0x18, IVV, 2, 2, 4));  // destination = lowest register of vs2: legal
  EXPECT_EQ(trap_of(opv(0x18, IVV, 3, 2, 4)), TrapCause::IllegalInstruction);
  EXPECT_EQ(trap_of(opv(0x18, IVV, 5, 2, 4)), TrapCause::IllegalInstruction);
  exec(opv(0x18, IVV, 6, 2, 4));  // disjoint
}

TEST_F(IntegerTest, CarryAndBorrow) {
  setvl(8, 0, 4);
  fill<uint8_t>(2, {0xff, 0x10, 0x00, 0x80});
  fill<uint8_t>(3, {0x01, 0x20, 0x00, 0x80});
  set_mask(0, 0b0110);  // carry in for elements 1 and 2
  exec(opv(0x10, IVV, 1, 2, 3, kMasked));  // vadc.vvm
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0x00, 0x31, 0x01, 0x00}));
  exec(opv(0x11, IVV, 4, 2, 3, kMasked));  // vmadc.vvm: carries out of 0 and 3
  EXPECT_EQ(mask_of(4) & 0xf, 0b1001u);
  exec(opv(0x11, IVI, 4, 2, 0x01));  // vmadc.vi 1 without carry in: only 0xff + 1
  EXPECT_EQ(mask_of(4) & 0xf, 0b0001u);
  exec(opv(0x12, IVV, 1, 2, 3, kMasked));  // vsbc.vvm
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0xfe, 0xef, 0xff, 0x00}));
  exec(opv(0x13, IVV, 4, 2, 3, kMasked));  // vmsbc.vvm: borrows in 1 (0x10 < 0x21) and 2
  EXPECT_EQ(mask_of(4) & 0xf, 0b0110u);
  // vadc needs vm = 0 and a destination other than v0.
  EXPECT_THROW(exec(opv(0x10, IVV, 1, 2, 3)), Trap);
  EXPECT_EQ(trap_of(opv(0x10, IVV, 0, 2, 3, kMasked)), TrapCause::IllegalInstruction);
}

TEST_F(IntegerTest, MergeAndMoves) {
  setvl(32, 0, 4);
  fill<uint32_t>(2, {1, 2, 3, 4});
  fill<uint32_t>(3, {10, 20, 30, 40});
  set_mask(0, 0b1010);
  exec(opv(0x17, IVV, 1, 2, 3, kMasked));  // vmerge.vvm: mask ? vs1 : vs2
  EXPECT_EQ(get<uint32_t>(1, 4), (std::vector<uint32_t>{1, 20, 3, 40}));
  exec(opv(0x17, IVI, 1, 2, 0x1e, kMasked));  // vmerge.vim -2
  EXPECT_EQ(get<uint32_t>(1, 4), (std::vector<uint32_t>{1, 0xfffffffe, 3, 0xfffffffe}));
  h.x[7] = 0x12345678;
  exec(opv(0x17, IVX, 1, 0, 7));  // vmv.v.x
  EXPECT_EQ(get<uint32_t>(1, 4), (std::vector<uint32_t>(4, 0x12345678)));
  exec(opv(0x17, IVI, 1, 0, 5));  // vmv.v.i 5
  EXPECT_EQ(get<uint32_t>(1, 4), (std::vector<uint32_t>(4, 5)));
  exec(opv(0x17, IVV, 1, 0, 3));  // vmv.v.v
  EXPECT_EQ(get<uint32_t>(1, 4), (std::vector<uint32_t>{10, 20, 30, 40}));
  EXPECT_EQ(last.src[0], kVecBase + 3);
  // vmv.v.v with vs2 != 0 is reserved.
  EXPECT_EQ(trap_of(opv(0x17, IVV, 1, 2, 3)), TrapCause::IllegalInstruction);
}

TEST_F(IntegerTest, WideningAddSub) {
  setvl(8, 0, 4);  // SEW 8 -> 16-bit results in v4-v5
  fill<uint8_t>(2, {0xff, 0x80, 0x01, 0x7f});
  fill<uint8_t>(3, {0xff, 0x80, 0x02, 0x01});
  exec(opv(0x30, MVV, 4, 2, 3));  // vwaddu.vv
  EXPECT_EQ(get<uint16_t>(4, 4), (std::vector<uint16_t>{0x1fe, 0x100, 0x003, 0x080}));
  exec(opv(0x31, MVV, 4, 2, 3));  // vwadd.vv: -1 + -1, -128 + -128, 1 + 2, 127 + 1
  EXPECT_EQ(get<uint16_t>(4, 4), (std::vector<uint16_t>{0xfffe, 0xff00, 0x0003, 0x0080}));
  exec(opv(0x32, MVV, 4, 2, 3));  // vwsubu.vv: 1 - 2 = -1
  EXPECT_EQ(get<uint16_t>(4, 4), (std::vector<uint16_t>{0, 0, 0xffff, 0x7e}));
  h.x[7] = 0xfffffffeu;           // -2
  exec(opv(0x33, MVX, 4, 2, 7));  // vwsub.vx: -1 - -2 = 1, -128 + 2, 1 + 2, 127 + 2
  EXPECT_EQ(get<uint16_t>(4, 4), (std::vector<uint16_t>{1, 0xff82, 3, 129}));
  fill<uint16_t>(6, {1000, 2000, 3000, 4000});
  exec(opv(0x35, MVV, 4, 6, 3));  // vwadd.wv: wide vs2 + sext(vs1)
  EXPECT_EQ(get<uint16_t>(4, 4), (std::vector<uint16_t>{999, 1872, 3002, 4001}));
  exec(opv(0x36, MVX, 4, 6, 7));  // vwsubu.wx: 1000 - 0xfe
  EXPECT_EQ(h.vget<uint16_t>(4, 0), 1000 - 0xfe);
  EXPECT_EQ(h.info.dst_group, 2);
  EXPECT_EQ(h.info.src_group, 1);
  // Overlap: source in the highest register of the destination group is legal, lowest not.
  exec(opv(0x30, MVV, 4, 5, 3));
  EXPECT_EQ(trap_of(opv(0x30, MVV, 4, 4, 3)), TrapCause::IllegalInstruction);
  EXPECT_EQ(trap_of(opv(0x30, MVV, 5, 2, 3)), TrapCause::IllegalInstruction);  // vd alignment
  // Widening needs SEW <= 16 and LMUL <= 4.
  setvl(32, 0, 4);
  EXPECT_EQ(trap_of(opv(0x30, MVV, 4, 2, 3)), TrapCause::IllegalInstruction);
  setvl(8, 3, 4);
  EXPECT_EQ(trap_of(opv(0x30, MVV, 8, 16, 24)), TrapCause::IllegalInstruction);
}

TEST_F(IntegerTest, ZeroAndSignExtension) {
  setvl(32, 0, 4);
  fill<uint8_t>(2, {0x80, 0x7f, 0xff, 0x01});
  exec(opv(0x12, MVV, 1, 2, 0x04));  // vzext.vf4
  EXPECT_EQ(get<uint32_t>(1, 4), (std::vector<uint32_t>{0x80, 0x7f, 0xff, 0x01}));
  exec(opv(0x12, MVV, 1, 2, 0x05));  // vsext.vf4
  EXPECT_EQ(get<uint32_t>(1, 4), (std::vector<uint32_t>{0xffffff80u, 0x7f, 0xffffffffu, 0x01}));
  fill<uint16_t>(2, {0x8000, 0x1234, 0, 0});
  exec(opv(0x12, MVV, 1, 2, 0x07));  // vsext.vf2
  EXPECT_EQ(h.vget<uint32_t>(1, 0), 0xffff8000u);
  EXPECT_EQ(h.vget<uint32_t>(1, 1), 0x1234u);
  // vf2 at SEW 8 would need a 4-bit source; vf8 never fits ELEN 32.
  setvl(8, 0, 4);
  EXPECT_EQ(trap_of(opv(0x12, MVV, 1, 2, 0x06)), TrapCause::IllegalInstruction);
  EXPECT_EQ(trap_of(opv(0x12, MVV, 1, 2, 0x02)), TrapCause::IllegalInstruction);
  // LMUL 4, vf4: source EMUL 1 may sit in the highest register of the destination only.
  setvl(32, 2, 16);
  exec(opv(0x12, MVV, 4, 7, 0x04));
  EXPECT_EQ(trap_of(opv(0x12, MVV, 4, 4, 0x04)), TrapCause::IllegalInstruction);
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::vtest
