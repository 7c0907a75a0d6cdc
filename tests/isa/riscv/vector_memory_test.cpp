// Vector loads and stores: unit-stride, masked, EMUL rules, strided, indexed, segment,
// fault-only-first, precise traps (vstart), whole-register, mask loads/stores, StepInfo.
// DTCM byte k (k < 256) holds k, so expected values follow from addresses.
#include "tests/isa/riscv/vector_test_support.h"

namespace tlmcraft::isa::riscv::vtest {
namespace {

class MemoryTest : public VectorTest {
 protected:
  void SetUp() override {
    for (unsigned k = 0; k < 256; ++k) mem[k] = uint8_t(k);
    h.x[10] = kBase;  // a0
  }
};

TEST_F(MemoryTest, UnitStrideLoadStore) {
  setvl(8, 0, 16);
  exec(vle(8, 1, 10));
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(h.vget<uint8_t>(1, i), i);
  EXPECT_EQ(h.info.mem_addr, kBase);
  EXPECT_EQ(h.info.mem_bytes, 16u);
  EXPECT_FALSE(h.info.mem_strided);
  EXPECT_EQ(last.cls, OpClass::VecLoad);
  h.x[11] = kBase + 0x100;
  exec(vse(8, 1, 11));
  EXPECT_EQ(peek<uint32_t>(kBase + 0x10c), 0x0f0e0d0cu);
  EXPECT_EQ(last.cls, OpClass::VecStore);
  EXPECT_EQ(last.src[0], kVecBase + 1);
  EXPECT_EQ(last.src[1], 11);

  setvl(32, 1, 8);  // e32 m2: v2-v3, words from byte 16
  h.x[10] = kBase + 16;
  exec(vle(32, 2, 10));
  EXPECT_EQ(h.vget<uint32_t>(2, 0), 0x13121110u);
  EXPECT_EQ(h.vget<uint32_t>(3, 3), 0x2f2e2d2cu);  // element 7: bytes 44-47
  EXPECT_EQ(h.info.dst_group, 2);
}

TEST_F(MemoryTest, MaskedAndTailUndisturbed) {
  setvl(16, 0, 4);
  fill<uint16_t>(1, {0xeeee, 0xeeee, 0xeeee, 0xeeee, 0xeeee});
  set_mask(0, 0b1010);
  exec(vle(16, 1, 10, kMasked));
  EXPECT_EQ(get<uint16_t>(1, 5), (std::vector<uint16_t>{0xeeee, 0x0302, 0xeeee, 0x0706, 0xeeee}));
  // Masked store: only elements 1 and 3 written.
  h.x[11] = kBase + 0x200;
  exec(vse(16, 1, 11, kMasked));
  EXPECT_EQ(peek<uint16_t>(kBase + 0x200), 0);
  EXPECT_EQ(peek<uint16_t>(kBase + 0x202), 0x0302);
  EXPECT_EQ(peek<uint16_t>(kBase + 0x206), 0x0706);
  // A masked load may not write v0.
  EXPECT_EQ(trap_of(vle(16, 0, 10, kMasked)), TrapCause::IllegalInstruction);
}

TEST_F(MemoryTest, EffectiveEmulRules) {
  setvl(32, 0, 4);
  exec(vle(8, 1, 10));  // EEW 8 at SEW 32: EMUL 1/4
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0, 1, 2, 3}));
  setvl(8, 2, 4);  // LMUL 4: vle32 gives EMUL 16
  EXPECT_EQ(trap_of(vle(32, 4, 10)), TrapCause::IllegalInstruction);
  setvl(8, 1, 4);  // LMUL 2: vle16 gives EMUL 4, so vd must be a multiple of 4
  EXPECT_EQ(trap_of(vle(16, 2, 10)), TrapCause::IllegalInstruction);
  exec(vle(16, 4, 10));
  // EEW 64 is not supported (ELEN 32) and mew = 1 is reserved.
  EXPECT_EQ(trap_of(vle(64, 4, 10)), TrapCause::IllegalInstruction);
  EXPECT_EQ(trap_of(vle(8, 4, 10) | 1u << 28), TrapCause::IllegalInstruction);
}

TEST_F(MemoryTest, Strided) {
  setvl(32, 0, 3);
  h.x[10] = kBase + 0x40;
  h.x[11] = uint32_t(-8);
  exec(vlse(32, 1, 10, 11));  // addresses 0x40, 0x38, 0x30
  EXPECT_EQ(get<uint32_t>(1, 3), (std::vector<uint32_t>{0x43424140u, 0x3b3a3938u, 0x33323130u}));
  EXPECT_EQ(h.info.mem_addr, kBase + 0x30);
  EXPECT_EQ(h.info.mem_bytes, 0x14u);
  EXPECT_TRUE(h.info.mem_strided);
  EXPECT_EQ(last.src[1], 11);
  h.x[11] = 0;  // stride 0: every element from the same address
  exec(vlse(32, 1, 10, 11));
  EXPECT_EQ(get<uint32_t>(1, 3), (std::vector<uint32_t>(3, 0x43424140u)));

  setvl(16, 0, 3);
  fill<uint16_t>(2, {0x1111, 0x2222, 0x3333});
  h.x[10] = kBase + 0x200;
  h.x[11] = 6;
  exec(vsse(16, 2, 10, 11));
  EXPECT_EQ(peek<uint16_t>(kBase + 0x200), 0x1111);
  EXPECT_EQ(peek<uint16_t>(kBase + 0x206), 0x2222);
  EXPECT_EQ(peek<uint16_t>(kBase + 0x20c), 0x3333);
  EXPECT_EQ(peek<uint16_t>(kBase + 0x202), 0);
}

TEST_F(MemoryTest, Indexed) {
  setvl(32, 0, 4);
  fill<uint8_t>(8, {12, 0, 4, 40});  // EEW 8 offsets, index EMUL 1/4
  exec(vmem(false, 1, kIndexedUnordered, false, 8, 10, 8, 1));  // vluxei8.v v1, (a0), v8
  EXPECT_EQ(get<uint32_t>(1, 4),
            (std::vector<uint32_t>{0x0f0e0d0cu, 0x03020100u, 0x07060504u, 0x2b2a2928u}));
  EXPECT_EQ(h.info.mem_addr, kBase);
  EXPECT_EQ(h.info.mem_bytes, 44u);
  EXPECT_TRUE(h.info.mem_strided);
  EXPECT_EQ(last.src[1], kVecBase + 8);
  // Destination (EEW 32) overlapping the narrower index group (EMUL 1/4) is reserved.
  EXPECT_EQ(trap_of(vmem(false, 1, kIndexedUnordered, false, 8, 10, 8, 8)),
            TrapCause::IllegalInstruction);

  setvl(8, 0, 3);
  fill<uint16_t>(8, {5, 255, 3});  // EEW 16 offsets: index EMUL 2 (v8-v9)
  exec(vmem(false, 1, kIndexedOrdered, false, 8, 10, 16, 1));  // vloxei16.v
  EXPECT_EQ(get<uint8_t>(1, 3), (std::vector<uint8_t>{5, 255, 3}));
  EXPECT_EQ(trap_of(vmem(false, 1, kIndexedOrdered, false, 9, 10, 16, 1)),
            TrapCause::IllegalInstruction);  // v9 not aligned to 2
  fill<uint32_t>(8, {0x300, 0x301, 0x310});  // EEW 32 offsets: v8-v11
  fill<uint8_t>(1, {1, 2, 3});
  exec(vmem(true, 1, kIndexedUnordered, false, 8, 10, 32, 1));  // vsuxei32.v
  EXPECT_EQ(mem[0x300], 1);
  EXPECT_EQ(mem[0x301], 2);
  EXPECT_EQ(mem[0x310], 3);
}

TEST_F(MemoryTest, Segments) {
  setvl(8, 0, 4);
  exec(vle(8, 4, 10, false, 3));  // vlseg3e8.v v4: fields interleaved in memory
  EXPECT_EQ(get<uint8_t>(4, 4), (std::vector<uint8_t>{0, 3, 6, 9}));
  EXPECT_EQ(get<uint8_t>(5, 4), (std::vector<uint8_t>{1, 4, 7, 10}));
  EXPECT_EQ(get<uint8_t>(6, 4), (std::vector<uint8_t>{2, 5, 8, 11}));
  EXPECT_EQ(h.info.mem_bytes, 12u);
  EXPECT_TRUE(h.info.mem_strided);
  EXPECT_EQ(h.info.dst_group, 3);

  setvl(16, 0, 2);
  fill<uint16_t>(8, {0x1111, 0x2222});
  fill<uint16_t>(9, {0xaaaa, 0xbbbb});
  h.x[11] = kBase + 0x300;
  exec(vse(16, 8, 11, false, 2));  // vsseg2e16.v v8
  EXPECT_EQ(peek<uint32_t>(kBase + 0x300), 0xaaaa1111u);
  EXPECT_EQ(peek<uint32_t>(kBase + 0x304), 0xbbbb2222u);

  setvl(8, 0, 2);
  h.x[11] = 10;
  exec(vlse(8, 4, 10, 11, false, 2));  // vlsseg2e8.v: segments at 0 and 10
  EXPECT_EQ(get<uint8_t>(4, 2), (std::vector<uint8_t>{0, 10}));
  EXPECT_EQ(get<uint8_t>(5, 2), (std::vector<uint8_t>{1, 11}));
  fill<uint8_t>(8, {20, 6});
  exec(vmem(false, 2, kIndexedUnordered, false, 8, 10, 8, 4));  // vluxseg2ei8.v v4, (a0), v8
  EXPECT_EQ(get<uint8_t>(4, 2), (std::vector<uint8_t>{20, 6}));
  EXPECT_EQ(get<uint8_t>(5, 2), (std::vector<uint8_t>{21, 7}));
  // Segment destination groups may not overlap the index register at all.
  EXPECT_EQ(trap_of(vmem(false, 2, kIndexedUnordered, false, 5, 10, 8, 4)),
            TrapCause::IllegalInstruction);
  // NFIELDS * EMUL <= 8 and the groups must end at v31.
  setvl(8, 2, 4);
  EXPECT_EQ(trap_of(vle(8, 4, 10, false, 3)), TrapCause::IllegalInstruction);
  setvl(8, 1, 4);
  exec(vle(8, 4, 10, false, 4));
  EXPECT_EQ(trap_of(vle(8, 28, 10, false, 4)), TrapCause::IllegalInstruction);
}

TEST_F(MemoryTest, FaultOnlyFirstShrinksVl) {
  setvl(8, 0, 16);
  h.x[10] = kBase + kSize - 8;  // elements 8.. fall off the end of DTCM
  std::memset(&mem[kSize - 8], 0x77, 8);
  exec(vleff(8, 1, 10));
  EXPECT_EQ(h.vl, 8u);
  EXPECT_EQ(h.vget<uint8_t>(1, 7), 0x77);
  EXPECT_EQ(h.info.vl, 8u);
  // A fault on element 0 traps and leaves vl alone.
  h.x[10] = kBase + kSize;
  EXPECT_EQ(trap_of(vleff(8, 1, 10)), TrapCause::LoadAccessFault);
  EXPECT_EQ(h.vl, 8u);
  EXPECT_EQ(h.vstart, 0u);
  // Fully mapped: vl unchanged.
  h.x[10] = kBase;
  exec(vleff(8, 1, 10));
  EXPECT_EQ(h.vl, 8u);
}

TEST_F(MemoryTest, TrapsAreElementPrecise) {
  setvl(8, 0, 16);
  h.x[10] = kBase + kSize - 8;
  EXPECT_EQ(trap_of(vle(8, 1, 10)), TrapCause::LoadAccessFault);
  EXPECT_EQ(h.vstart, 8u);  // elements 0-7 done, element 8 faulted
  EXPECT_EQ(h.vl, 16u);
  h.vstart = 0;
  h.x[10] = kBase + 2;
  setvl(32, 0, 2);
  EXPECT_EQ(trap_of(vle(32, 1, 10)), TrapCause::LoadMisaligned);
  EXPECT_EQ(trap_of(vse(32, 1, 10)), TrapCause::StoreMisaligned);
  h.vstart = 0;
  // A read-only region (ITCM at run time) faults stores.
  std::vector<uint8_t> itcm(0x100, 0);
  MemoryRegion r;
  r.name = "itcm";
  r.base = 0;
  r.size = 0x100;
  r.data = itcm.data();
  r.writable = false;
  r.executable = true;
  h.add_region(r);
  h.x[11] = 0x40;
  EXPECT_EQ(trap_of(vse(32, 1, 11)), TrapCause::StoreAccessFault);
  EXPECT_EQ(h.vstart, 0u);
  exec(vle(32, 1, 11));  // loads from it are fine
}

TEST_F(MemoryTest, AccessSpanningTwoRegions) {
  std::vector<uint8_t> ext(0x100, 0x55);
  MemoryRegion r;
  r.name = "ext";
  r.base = kBase + kSize;  // directly after DTCM
  r.size = 0x100;
  r.data = ext.data();
  h.add_region(r);
  setvl(16, 0, 8);
  h.x[10] = kBase + kSize - 4;
  exec(vle(16, 1, 10));
  EXPECT_EQ(get<uint16_t>(1, 3), (std::vector<uint16_t>{0, 0, 0x5555}));
  fill<uint16_t>(2, {1, 2, 3, 4});
  exec(vse(16, 2, 10));
  EXPECT_EQ(ext[0], 3);
  EXPECT_EQ(ext[2], 4);
}

TEST_F(MemoryTest, WholeRegisterAndMask) {
  setvl(8, 0, 1);  // whole-register accesses ignore vl
  exec(vmem(false, 2, kUnit, false, 0x08, 10, 32, 4));  // vl2re32.v v4, (a0)
  EXPECT_EQ(h.vget<uint32_t>(5, 3), 0x1f1e1d1cu);
  EXPECT_EQ(h.info.vl, 8u);
  EXPECT_EQ(h.info.mem_bytes, 32u);
  h.x[11] = kBase + 0x400;
  exec(vmem(true, 4, kUnit, false, 0x08, 11, 8, 4));  // vs4r.v v4: 64 bytes
  EXPECT_EQ(mem[0x400 + 31], 31);
  EXPECT_EQ(h.info.mem_bytes, 64u);
  EXPECT_EQ(trap_of(vmem(false, 2, kUnit, false, 0x08, 10, 8, 3)), TrapCause::IllegalInstruction);
  EXPECT_EQ(trap_of(vmem(false, 3, kUnit, false, 0x08, 10, 8, 3)), TrapCause::IllegalInstruction);
  // Works with vill set (independent of vtype).
  h.x[6] = 0;
  h.x[7] = 0x80000000u;
  exec(vsetvl(0, 6, 7));
  ASSERT_TRUE(h.vill());
  exec(vmem(false, 1, kUnit, false, 0x08, 10, 8, 9));  // vl1re8.v v9
  EXPECT_EQ(h.v[9][15], 15);

  setvl(8, 1, 20);  // e8 m2: vl 20; vlm.v moves ceil(20 / 8) = 3 bytes
  set_mask(1, 0xffffffffu);
  h.x[10] = kBase + 0x10;
  exec(vmem(false, 1, kUnit, false, 0x0b, 10, 8, 1));
  EXPECT_EQ(mask_of(1), 0xff121110u);
  h.x[11] = kBase + 0x500;
  exec(vmem(true, 1, kUnit, false, 0x0b, 11, 8, 1));  // vsm.v
  EXPECT_EQ(peek<uint32_t>(kBase + 0x500), 0x00121110u);
  EXPECT_EQ(trap_of(vmem(false, 1, kUnit, true, 0x0b, 10, 8, 1)), TrapCause::IllegalInstruction);
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::vtest
