// Reductions (single-width and widening, masks, vl = 0, vstart rule) and mask
// instructions (mask logic, vcpop, vfirst, vmsbf/vmsif/vmsof, viota, vid).
#include "tests/isa/riscv/vector_test_support.h"

namespace tlmcraft::isa::riscv::vtest {
namespace {

using ReductionTest = VectorTest;
using MaskTest = VectorTest;

TEST_F(ReductionTest, SingleWidth) {
  setvl(8, 0, 4);
  fill<uint8_t>(2, {1, 2, 3, 250});
  fill<uint8_t>(3, {10, 77});
  fill<uint8_t>(1, {0, 55, 66});
  exec(opv(0x00, MVV, 1, 2, 3));  // vredsum: 10 + 1 + 2 + 3 + 250 = 266 -> 10
  EXPECT_EQ(get<uint8_t>(1, 3), (std::vector<uint8_t>{10, 55, 66}));  // rest undisturbed
  set_mask(0, 0b0101);
  exec(opv(0x00, MVV, 1, 2, 3, kMasked));  // 10 + 1 + 3
  EXPECT_EQ(h.vget<uint8_t>(1, 0), 14);
  exec(opv(0x06, MVV, 1, 2, 3));  // vredmaxu
  EXPECT_EQ(h.vget<uint8_t>(1, 0), 250);
  exec(opv(0x07, MVV, 1, 2, 3));  // vredmax: 250 is -6
  EXPECT_EQ(h.vget<uint8_t>(1, 0), 10);
  exec(opv(0x04, MVV, 1, 2, 3));  // vredminu
  EXPECT_EQ(h.vget<uint8_t>(1, 0), 1);
  exec(opv(0x05, MVV, 1, 2, 3));  // vredmin
  EXPECT_EQ(h.vget<uint8_t>(1, 0), 0xfa);
  exec(opv(0x01, MVV, 1, 2, 3));  // vredand
  EXPECT_EQ(h.vget<uint8_t>(1, 0), 0);
  exec(opv(0x02, MVV, 1, 2, 3));  // vredor: 0x0a | 1 | 2 | 3 | 0xfa
  EXPECT_EQ(h.vget<uint8_t>(1, 0), 0xfb);
  exec(opv(0x03, MVV, 1, 2, 3));  // vredxor: 1 ^ 2 ^ 3 = 0, 0x0a ^ 0xfa = 0xf0
  EXPECT_EQ(h.vget<uint8_t>(1, 0), 0xf0);
  EXPECT_EQ(last.cls, OpClass::VecReduction);
  // vl = 0: vd untouched.
  setvl(8, 0, 0);
  fill<uint8_t>(1, {123});
  exec(opv(0x00, MVV, 1, 2, 3));
  EXPECT_EQ(h.vget<uint8_t>(1, 0), 123);
  // vstart != 0 is illegal for reductions.
  setvl(8, 0, 4);
  h.vstart = 1;
  EXPECT_EQ(trap_of(opv(0x00, MVV, 1, 2, 3)), TrapCause::IllegalInstruction);
}

TEST_F(ReductionTest, GroupsAndWidening) {
  setvl(8, 1, 20);  // e8 m2: vs2 = v2-v3
  for (unsigned i = 0; i < 32; ++i) h.vset<uint8_t>(2, i, 1);
  fill<uint8_t>(4, {100});
  exec(opv(0x00, MVV, 1, 2, 4));  // 100 + 20 ones
  EXPECT_EQ(h.vget<uint8_t>(1, 0), 120);
  EXPECT_EQ(h.info.src_group, 2);

  setvl(8, 0, 4);
  fill<uint8_t>(2, {255, 255, 255, 255});
  fill<uint16_t>(3, {1000});
  exec(opv(0x30, IVV, 1, 2, 3));  // vwredsumu: 1000 + 4 * 255
  EXPECT_EQ(h.vget<uint16_t>(1, 0), 2020);
  exec(opv(0x31, IVV, 1, 2, 3));  // vwredsum: 1000 + 4 * -1
  EXPECT_EQ(h.vget<uint16_t>(1, 0), 996);
  setvl(32, 0, 4);
  EXPECT_EQ(trap_of(opv(0x31, IVV, 1, 2, 3)), TrapCause::IllegalInstruction);
}

TEST_F(MaskTest, MaskLogicKeepsTail) {
  setvl(8, 0, 10);
  const uint32_t a = 0x333, b = 0x2aa;
  const struct { unsigned f6; uint32_t body; } cases[] = {
      {0x19, 0x222},  // vmand
      {0x1d, 0x1dd},  // vmnand
      {0x18, 0x111},  // vmandn: a & ~b
      {0x1b, 0x199},  // vmxor
      {0x1a, 0x3bb},  // vmor
      {0x1e, 0x044},  // vmnor
      {0x1c, 0x377},  // vmorn: a | ~b
      {0x1f, 0x266},  // vmxnor
  };
  for (const auto& c : cases) {
    set_mask(2, a);
    set_mask(3, b);
    set_mask(1, 0xffffffffu);
    exec(opv(c.f6, MVV, 1, 2, 3));
    EXPECT_EQ(mask_of(1), 0xfffffc00u | c.body) << disassemble_vector(last.raw);
  }
  // In place (vd = vs2) works bit by bit.
  set_mask(2, a);
  exec(opv(0x19, MVV, 2, 2, 3));
  EXPECT_EQ(mask_of(2), 0x222u);
  EXPECT_EQ(last.cls, OpClass::VecMask);
  // Mask logic is unmasked only.
  EXPECT_EQ(trap_of(opv(0x19, MVV, 1, 2, 3, kMasked)), TrapCause::IllegalInstruction);
}

TEST_F(MaskTest, PopulationCountAndFindFirst) {
  setvl(8, 0, 10);
  set_mask(2, 0xfffff333u);  // body bits 0-9: 11 0011 0011 -> 6 set
  exec(opv(0x10, MVV, 5, 2, 0x10));  // vcpop.m t0, v2
  EXPECT_EQ(h.x[5], 6u);
  EXPECT_EQ(last.cls, OpClass::VecToScalar);
  EXPECT_EQ(last.dst[0], 5);
  set_mask(0, 0x0ff);
  exec(opv(0x10, MVV, 5, 2, 0x10, kMasked));  // elements 0-7 only: 0x33 -> 4
  EXPECT_EQ(h.x[5], 4u);
  set_mask(2, 0x330);
  exec(opv(0x10, MVV, 5, 2, 0x11));  // vfirst.m: bit 4
  EXPECT_EQ(h.x[5], 4u);
  set_mask(0, 0x3e0);
  exec(opv(0x10, MVV, 5, 2, 0x11, kMasked));  // active 5-9: bit 5
  EXPECT_EQ(h.x[5], 5u);
  set_mask(2, 0xfffffc00u);  // set bits only beyond vl
  exec(opv(0x10, MVV, 5, 2, 0x11));
  EXPECT_EQ(h.x[5], 0xffffffffu);
  h.vstart = 2;
  EXPECT_EQ(trap_of(opv(0x10, MVV, 5, 2, 0x10)), TrapCause::IllegalInstruction);
}

TEST_F(MaskTest, SetBeforeIncludingOnlyFirst) {
  setvl(8, 0, 8);
  set_mask(2, 0b00010100);  // first set bit: 2
  set_mask(1, 0);
  exec(opv(0x14, MVV, 1, 2, 0x01));  // vmsbf
  EXPECT_EQ(mask_of(1), 0b011u);
  exec(opv(0x14, MVV, 1, 2, 0x03));  // vmsif
  EXPECT_EQ(mask_of(1), 0b111u);
  exec(opv(0x14, MVV, 1, 2, 0x02));  // vmsof
  EXPECT_EQ(mask_of(1), 0b100u);
  set_mask(2, 0);
  exec(opv(0x14, MVV, 1, 2, 0x01));  // no set bit: vmsbf sets every body bit
  EXPECT_EQ(mask_of(1), 0xffu);
  exec(opv(0x14, MVV, 1, 2, 0x02));
  EXPECT_EQ(mask_of(1), 0x00u);
  // Masked: element 2 inactive, so the first active set bit is element 4; inactive
  // elements 0 and 2 keep their old bits (1).
  set_mask(2, 0b00010100);
  set_mask(0, 0b11111010);
  set_mask(1, 0b00000101);
  exec(opv(0x14, MVV, 1, 2, 0x01, kMasked));
  EXPECT_EQ(mask_of(1), 0b00001111u);
  // vd = vs2 and (masked) vd = v0 are reserved.
  EXPECT_EQ(trap_of(opv(0x14, MVV, 2, 2, 0x01)), TrapCause::IllegalInstruction);
  EXPECT_EQ(trap_of(opv(0x14, MVV, 0, 2, 0x01, kMasked)), TrapCause::IllegalInstruction);
}

TEST_F(MaskTest, IotaAndId) {
  setvl(8, 0, 8);
  // The spec's example: v2 = 1 0 0 1 0 0 0 1 (element 7 first) -> 2 2 2 1 1 1 1 0.
  set_mask(2, 0x91);
  exec(opv(0x14, MVV, 4, 2, 0x10));  // viota.m v4, v2
  EXPECT_EQ(get<uint8_t>(4, 8), (std::vector<uint8_t>{0, 1, 1, 1, 1, 2, 2, 2}));
  // Masked: v0 = 1 1 1 0 1 0 1 1, v4 = 2 3 4 5 6 7 8 9 -> 1 1 1 5 1 7 1 0.
  set_mask(0, 0xeb);
  fill<uint8_t>(4, {9, 8, 7, 6, 5, 4, 3, 2});
  exec(opv(0x14, MVV, 4, 2, 0x10, kMasked));
  EXPECT_EQ(get<uint8_t>(4, 8), (std::vector<uint8_t>{0, 1, 7, 1, 5, 1, 1, 1}));
  EXPECT_EQ(trap_of(opv(0x14, MVV, 2, 2, 0x10)), TrapCause::IllegalInstruction);

  setvl(16, 0, 5);
  fill<uint16_t>(3, {70, 71, 72, 73, 74, 75});
  set_mask(0, 0b10110);
  exec(opv(0x14, MVV, 3, 0, 0x11, kMasked));  // vid.v v3, v0.t
  EXPECT_EQ(get<uint16_t>(3, 6), (std::vector<uint16_t>{70, 1, 2, 73, 4, 75}));
  setvl(32, 1, 8);
  exec(opv(0x14, MVV, 4, 0, 0x11));  // LMUL 2: 0..7 across v4-v5
  EXPECT_EQ(h.vget<uint32_t>(5, 3), 7u);
  EXPECT_EQ(trap_of(opv(0x14, MVV, 4, 2, 0x11)), TrapCause::IllegalInstruction);  // vs2 != 0
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::vtest
