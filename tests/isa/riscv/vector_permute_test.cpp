// Permutations: scalar moves, slides, gathers, compress and whole-register moves.
#include "tests/isa/riscv/vector_test_support.h"

namespace tlmcraft::isa::riscv::vtest {
namespace {

class PermuteTest : public VectorTest {
 protected:
  void SetUp() override {
    for (unsigned i = 0; i < 16; ++i) h.vset<uint8_t>(2, i, uint8_t(10 + i));  // v2 = 10..25
    for (unsigned i = 0; i < 16; ++i) h.vset<uint8_t>(1, i, 0xaa);
  }
};

TEST_F(PermuteTest, ScalarMoves) {
  setvl(8, 0, 4);
  h.vset<uint8_t>(3, 0, 0x80);
  exec(opv(0x10, MVV, 5, 3, 0));  // vmv.x.s t0, v3: sign-extended
  EXPECT_EQ(h.x[5], 0xffffff80u);
  EXPECT_EQ(last.cls, OpClass::VecToScalar);
  setvl(16, 0, 0);  // works with vl = 0
  h.vset<uint16_t>(3, 0, 0x7fff);
  exec(opv(0x10, MVV, 5, 3, 0));
  EXPECT_EQ(h.x[5], 0x7fffu);
  h.x[7] = 0x12345;
  exec(opv(0x10, MVX, 1, 0, 7));  // vmv.s.x with vl = 0: no write
  EXPECT_EQ(h.vget<uint16_t>(1, 0), 0xaaaa);
  setvl(16, 0, 3);
  exec(opv(0x10, MVX, 1, 0, 7));  // element 0 = low 16 bits, the rest undisturbed
  EXPECT_EQ(get<uint16_t>(1, 2), (std::vector<uint16_t>{0x2345, 0xaaaa}));
  EXPECT_EQ(last.cls, OpClass::VecPermute);
}

TEST_F(PermuteTest, SlideUpAndDown) {
  setvl(8, 0, 8);
  h.x[7] = 3;
  exec(opv(0x0e, IVX, 1, 2, 7));  // vslideup.vx: elements below 3 undisturbed
  EXPECT_EQ(get<uint8_t>(1, 9), (std::vector<uint8_t>{0xaa, 0xaa, 0xaa, 10, 11, 12, 13, 14, 0xaa}));
  exec(opv(0x0e, IVI, 4, 2, 10));  // offset 10 >= vl: nothing written
  EXPECT_EQ(h.vget<uint8_t>(4, 9), 0);
  EXPECT_EQ(trap_of(opv(0x0e, IVI, 2, 2, 1)), TrapCause::IllegalInstruction);  // vd = vs2
  exec(opv(0x0f, IVI, 1, 2, 3));  // vslidedown.vi 3
  EXPECT_EQ(get<uint8_t>(1, 8), (std::vector<uint8_t>{13, 14, 15, 16, 17, 18, 19, 20}));
  setvl(8, 0, 4);
  h.x[7] = 14;  // sources 14, 15 exist (VLMAX 16); 16, 17 read as 0
  exec(opv(0x0f, IVX, 1, 2, 7));
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{24, 25, 0, 0}));
  h.x[7] = 0xffffffffu;  // huge offset: all zero, no wrap-around
  exec(opv(0x0f, IVX, 1, 2, 7));
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0, 0, 0, 0}));
  h.x[7] = 99;
  exec(opv(0x0e, MVX, 1, 2, 7));  // vslide1up
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{99, 10, 11, 12}));
  exec(opv(0x0f, MVX, 1, 2, 7));  // vslide1down; element 4 (tail) keeps 17 from vslidedown.vi
  EXPECT_EQ(get<uint8_t>(1, 5), (std::vector<uint8_t>{11, 12, 13, 99, 17}));
}

TEST_F(PermuteTest, Gathers) {
  setvl(8, 0, 4);
  fill<uint8_t>(3, {3, 0, 15, 200});
  exec(opv(0x0c, IVV, 1, 2, 3));  // vrgather.vv: index >= VLMAX gives 0
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{13, 10, 25, 0}));
  h.x[7] = 5;
  exec(opv(0x0c, IVX, 1, 2, 7));
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>(4, 15)));
  exec(opv(0x0c, IVI, 1, 2, 20));
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>(4, 0)));
  EXPECT_EQ(trap_of(opv(0x0c, IVV, 3, 2, 3)), TrapCause::IllegalInstruction);  // vd = vs1
  // vrgatherei16 at e8 m1: 16-bit indices in a 2-register group (v4-v5).
  fill<uint16_t>(4, {1, 300, 15, 2});
  exec(opv(0x0e, IVV, 1, 2, 4));
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{11, 0, 25, 12}));
  EXPECT_EQ(trap_of(opv(0x0e, IVV, 1, 2, 5)), TrapCause::IllegalInstruction);
}

TEST_F(PermuteTest, Compress) {
  setvl(8, 0, 8);
  set_mask(3, 0b10100110);  // elements 1, 2, 5, 7
  exec(opv(0x17, MVV, 1, 2, 3));
  EXPECT_EQ(get<uint8_t>(1, 6), (std::vector<uint8_t>{11, 12, 15, 17, 0xaa, 0xaa}));
  EXPECT_EQ(trap_of(opv(0x17, MVV, 2, 2, 3)), TrapCause::IllegalInstruction);
  EXPECT_EQ(trap_of(opv(0x17, MVV, 3, 2, 3)), TrapCause::IllegalInstruction);
  EXPECT_EQ(trap_of(opv(0x17, MVV, 1, 2, 3, kMasked)), TrapCause::IllegalInstruction);
}

TEST_F(PermuteTest, WholeRegisterMoves) {
  setvl(8, 0, 1);  // vl does not limit whole-register moves
  h.v[3][15] = 0x5a;
  exec(opv(0x27, IVI, 4, 2, 1));  // vmv2r.v v4, v2
  EXPECT_EQ(h.vget<uint8_t>(4, 15), 25);
  EXPECT_EQ(h.v[5][15], 0x5a);
  EXPECT_EQ(h.info.dst_group, 2);
  EXPECT_EQ(trap_of(opv(0x27, IVI, 4, 3, 1)), TrapCause::IllegalInstruction);  // v3 unaligned
  EXPECT_EQ(trap_of(opv(0x27, IVI, 4, 2, 2)), TrapCause::IllegalInstruction);  // nr = 3
  exec(opv(0x27, IVI, 8, 0, 7));  // vmv8r.v v8, v0
  EXPECT_EQ(h.v[13][15], 0x5a);
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::vtest
