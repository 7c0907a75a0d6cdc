// vsetvli / vsetivli / vsetvl: vl = min(AVL, VLMAX), the rs1 = x0 forms, vill for
// unsupported vtype values, vstart reset, and vill making vector instructions illegal.
#include "tests/isa/riscv/vector_test_support.h"

namespace tlmcraft::isa::riscv::vtest {
namespace {

using ConfigTest = VectorTest;

TEST_F(ConfigTest, VlIsAvlClampedToVlmax) {
  // VLMAX = VLEN / SEW * LMUL = 128 / 8 * 1 = 16.
  EXPECT_EQ(setvl(8, 0, 10), 10u);
  EXPECT_EQ(h.vl, 10u);
  EXPECT_EQ(setvl(8, 0, 100), 16u);
  // e32, m8: 128 / 32 * 8 = 32.
  EXPECT_EQ(setvl(32, 3, 1000), 32u);
  // e16, mf2: 128 / 16 / 2 = 4.
  EXPECT_EQ(setvl(16, -1, 1000), 4u);
  // e8, mf4: 128 / 8 / 4 = 4.
  EXPECT_EQ(setvl(8, -2, 3), 3u);
  EXPECT_EQ(h.vtype, vtypei(8, -2));
  EXPECT_FALSE(h.vill());
  EXPECT_EQ(h.info.vl, 3u);
}

TEST_F(ConfigTest, UnsupportedSettingsSetVill) {
  // Fractional LMUL needs LMUL * ELEN >= SEW (ELEN = 32): e16/mf4, e32/mf2, any mf8.
  for (uint32_t vtype : {vtypei(16, -2), vtypei(32, -1), vtypei(8, -3), vtypei(64, 0),
                         vtypei(8, 0) | 0x100u, uint32_t(4) /* vlmul = 100 */}) {
    setvl(8, 0, 5);
    h.x[6] = 7;
    exec(vsetvli(5, 6, vtype));
    EXPECT_TRUE(h.vill()) << vtype;
    EXPECT_EQ(h.vtype, 0x80000000u);
    EXPECT_EQ(h.vl, 0u);
    EXPECT_EQ(h.x[5], 0u);
  }
  // vsetvl takes vtype from a register: bit 31 (vill) set there is unsupported too.
  h.x[7] = 0x80000000u | vtypei(8, 0);
  exec(vsetvl(5, 6, 7));
  EXPECT_TRUE(h.vill());
}

TEST_F(ConfigTest, RegisterZeroForms) {
  // rs1 = x0, rd != x0: AVL = ~0, so vl = VLMAX (e16, m2: 16).
  exec(vsetvli(5, 0, vtypei(16, 1)));
  EXPECT_EQ(h.vl, 16u);
  EXPECT_EQ(h.x[5], 16u);
  // rs1 = rd = x0: keep vl (5), change vtype only.
  setvl(8, 0, 5);
  exec(vsetvli(0, 0, vtypei(16, 0)));
  EXPECT_EQ(h.vl, 5u);
  EXPECT_EQ(h.vsew_bytes(), 2u);
  // ... clamped when the new VLMAX is smaller (16 -> e32, m1: VLMAX 4).
  setvl(8, 0, 16);
  exec(vsetvli(0, 0, vtypei(32, 0)));
  EXPECT_EQ(h.vl, 4u);
}

TEST_F(ConfigTest, ImmediateAndRegisterForms) {
  exec(vsetivli(5, 7, vtypei(8, 0, false, false)));
  EXPECT_EQ(h.vl, 7u);
  EXPECT_EQ(h.x[5], 7u);
  EXPECT_EQ(h.vtype, vtypei(8, 0, false, false));
  // vsetivli AVL 31 with e32 m1 -> VLMAX 4.
  exec(vsetivli(5, 31, vtypei(32, 0)));
  EXPECT_EQ(h.vl, 4u);
  h.x[6] = 9;
  h.x[7] = vtypei(16, 1);
  exec(vsetvl(8, 6, 7));
  EXPECT_EQ(h.vl, 9u);
  EXPECT_EQ(h.x[8], 9u);
  EXPECT_EQ(h.vtype, vtypei(16, 1));
  EXPECT_EQ(last.cls, OpClass::VecConfig);
  EXPECT_EQ(last.dst[0], 8);
  EXPECT_EQ(last.src[0], 6);
  EXPECT_EQ(last.src[1], 7);
}

TEST_F(ConfigTest, ResetsVstartAndKeepsX0) {
  h.vstart = 3;
  h.x[6] = 4;
  exec(vsetvli(0, 6, vtypei(8, 0)));
  EXPECT_EQ(h.vstart, 0u);
  EXPECT_EQ(h.x[0], 0u);
  EXPECT_EQ(h.vl, 4u);
}

TEST_F(ConfigTest, VillMakesVectorInstructionsIllegal) {
  ASSERT_TRUE(h.vill());  // reset state
  const uint32_t vadd = opv(0x00, IVV, 1, 2, 3);
  EXPECT_EQ(trap_of(vadd), TrapCause::IllegalInstruction);
  EXPECT_EQ(trap_text(vadd), "vadd.vv v1,v2,v3: vtype.vill is set");
  EXPECT_EQ(trap_of(vle(8, 1, 10)), TrapCause::IllegalInstruction);
  // Whole-register moves do not depend on vtype.
  h.v[2][0] = 42;
  exec(opv(0x27, IVI, 1, 2, 0));  // vmv1r.v v1, v2
  EXPECT_EQ(h.v[1][0], 42);
}

TEST_F(ConfigTest, Disassembly) {
  EXPECT_EQ(disassemble_vector(vsetvli(5, 10, vtypei(8, 0))), "vsetvli t0,a0,e8,m1,ta,ma");
  EXPECT_EQ(disassemble_vector(vsetivli(5, 4, vtypei(16, -1, false, false))),
            "vsetivli t0,4,e16,mf2,tu,mu");
  EXPECT_EQ(disassemble_vector(vsetvl(5, 10, 11)), "vsetvl t0,a0,a1");
  EXPECT_EQ(disassemble_vector(vsetvli(0, 0, vtypei(32, 3, true, false))),
            "vsetvli zero,zero,e32,m8,ta,mu");
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::vtest
