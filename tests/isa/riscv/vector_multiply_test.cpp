// Multiply, high-half multiply, divide/remainder (division by zero and overflow),
// multiply-add and widening multiply(-add). Expected values derived by hand below.
#include "tests/isa/riscv/vector_test_support.h"

namespace tlmcraft::isa::riscv::vtest {
namespace {

using MultiplyTest = VectorTest;

TEST_F(MultiplyTest, MultiplyLowAndHighHalves) {
  setvl(8, 0, 4);
  fill<uint8_t>(2, {3, 0x10, 0xff, 0x80});
  fill<uint8_t>(3, {5, 0x10, 0xff, 0x02});
  exec(opv(0x25, MVV, 1, 2, 3));  // vmul: 15, 0x100, 0xfe01, 0x100 -> low bytes
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{15, 0x00, 0x01, 0x00}));
  exec(opv(0x24, MVV, 1, 2, 3));  // vmulhu: high bytes 0, 1, 0xfe, 1
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0, 0x01, 0xfe, 0x01}));
  exec(opv(0x27, MVV, 1, 2, 3));  // vmulh: 15, 256, (-1)(-1) = 1, -128 * 2 = 0xff00
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0, 0x01, 0x00, 0xff}));
  exec(opv(0x26, MVV, 1, 2, 3));  // vmulhsu: -1 * 255 = 0xff01, -128 * 2 = 0xff00
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0, 0x01, 0xff, 0xff}));
  EXPECT_EQ(last.cls, OpClass::VecMul);

  setvl(32, 0, 2);
  fill<uint32_t>(2, {0x80000000u, 0xffffffffu});
  fill<uint32_t>(3, {0x80000000u, 0xffffffffu});
  exec(opv(0x27, MVV, 1, 2, 3));  // 2^62 -> 0x40000000; (-1)(-1) = 1 -> 0
  EXPECT_EQ(get<uint32_t>(1, 2), (std::vector<uint32_t>{0x40000000u, 0}));
  exec(opv(0x24, MVV, 1, 2, 3));  // (2^32-1)^2 = 2^64 - 2^33 + 1 -> 0xfffffffe
  EXPECT_EQ(get<uint32_t>(1, 2), (std::vector<uint32_t>{0x40000000u, 0xfffffffeu}));
  exec(opv(0x26, MVV, 1, 2, 3));  // -2^31 * 2^31 = -2^62; -1 * (2^32-1) -> 0xffffffff
  EXPECT_EQ(get<uint32_t>(1, 2), (std::vector<uint32_t>{0xc0000000u, 0xffffffffu}));
  h.x[7] = 3;
  exec(opv(0x25, MVX, 1, 2, 7));  // vmul.vx by 3
  EXPECT_EQ(get<uint32_t>(1, 2), (std::vector<uint32_t>{0x80000000u, 0xfffffffdu}));
}

TEST_F(MultiplyTest, DivideByZeroAndOverflow) {
  setvl(8, 0, 5);
  fill<uint8_t>(2, {7, 0x80, 7, 0xf9, 0x80});
  fill<uint8_t>(3, {2, 0xff, 0, 2, 0});
  exec(opv(0x20, MVV, 1, 2, 3));  // vdivu: 3, 128/255 = 0, x/0 = all ones, 249/2, x/0
  EXPECT_EQ(get<uint8_t>(1, 5), (std::vector<uint8_t>{3, 0, 0xff, 124, 0xff}));
  exec(opv(0x21, MVV, 1, 2, 3));  // vdiv: 3, -128/-1 = -128, -1, -7/2 = -3, -1
  EXPECT_EQ(get<uint8_t>(1, 5), (std::vector<uint8_t>{3, 0x80, 0xff, 0xfd, 0xff}));
  exec(opv(0x22, MVV, 1, 2, 3));  // vremu: 1, 128, x%0 = x, 1, 128
  EXPECT_EQ(get<uint8_t>(1, 5), (std::vector<uint8_t>{1, 0x80, 7, 1, 0x80}));
  exec(opv(0x23, MVV, 1, 2, 3));  // vrem: 1, 0, 7, -7%2 = -1, -128
  EXPECT_EQ(get<uint8_t>(1, 5), (std::vector<uint8_t>{1, 0, 7, 0xff, 0x80}));
  EXPECT_EQ(last.cls, OpClass::VecDiv);
  setvl(32, 0, 1);
  fill<uint32_t>(2, {0x80000000u});
  h.x[7] = 0xffffffffu;
  exec(opv(0x21, MVX, 1, 2, 7));  // INT_MIN / -1 = INT_MIN
  EXPECT_EQ(h.vget<uint32_t>(1, 0), 0x80000000u);
  exec(opv(0x23, MVX, 1, 2, 7));
  EXPECT_EQ(h.vget<uint32_t>(1, 0), 0u);
}

TEST_F(MultiplyTest, MultiplyAdd) {
  setvl(16, 0, 2);
  fill<uint16_t>(2, {3, 4});  // vs2
  fill<uint16_t>(3, {5, 6});  // vs1
  fill<uint16_t>(1, {10, 20});
  exec(opv(0x2d, MVV, 1, 2, 3));  // vmacc: vs1 * vs2 + vd
  EXPECT_EQ(get<uint16_t>(1, 2), (std::vector<uint16_t>{25, 44}));
  fill<uint16_t>(1, {10, 20});
  exec(opv(0x2f, MVV, 1, 2, 3));  // vnmsac: vd - vs1 * vs2 = -5, -4
  EXPECT_EQ(get<uint16_t>(1, 2), (std::vector<uint16_t>{0xfffb, 0xfffc}));
  fill<uint16_t>(1, {10, 20});
  exec(opv(0x29, MVV, 1, 2, 3));  // vmadd: vs1 * vd + vs2 = 53, 124
  EXPECT_EQ(get<uint16_t>(1, 2), (std::vector<uint16_t>{53, 124}));
  fill<uint16_t>(1, {10, 20});
  exec(opv(0x2b, MVV, 1, 2, 3));  // vnmsub: vs2 - vs1 * vd = -47, -116
  EXPECT_EQ(get<uint16_t>(1, 2), (std::vector<uint16_t>{0xffd1, 0xff8c}));
  fill<uint16_t>(1, {10, 20});
  h.x[7] = 2;
  set_mask(0, 0b10);
  exec(opv(0x2d, MVX, 1, 2, 7, kMasked));  // vmacc.vx, only element 1: 2 * 4 + 20
  EXPECT_EQ(get<uint16_t>(1, 2), (std::vector<uint16_t>{10, 28}));
  // vd is a source of the multiply-add family.
  EXPECT_EQ(last.src[0], kVecBase + 2);
  EXPECT_EQ(last.src[1], 7);
  EXPECT_EQ(last.src[2], kVecBase + 1);
  EXPECT_EQ(last.src[3], kVecBase + 0);
}

TEST_F(MultiplyTest, WideningMultiplies) {
  setvl(8, 0, 3);
  fill<uint8_t>(2, {0xff, 0x80, 3});     // vs2
  fill<uint8_t>(3, {0xff, 0x02, 0xfe});  // vs1
  exec(opv(0x38, MVV, 4, 2, 3));  // vwmulu: 65025, 256, 762
  EXPECT_EQ(get<uint16_t>(4, 3), (std::vector<uint16_t>{0xfe01, 0x0100, 0x02fa}));
  exec(opv(0x3b, MVV, 4, 2, 3));  // vwmul: 1, -256, -6
  EXPECT_EQ(get<uint16_t>(4, 3), (std::vector<uint16_t>{0x0001, 0xff00, 0xfffa}));
  exec(opv(0x3a, MVV, 4, 2, 3));  // vwmulsu: signed vs2 * unsigned vs1: -255, -256, 762
  EXPECT_EQ(get<uint16_t>(4, 3), (std::vector<uint16_t>{0xff01, 0xff00, 0x02fa}));

  fill<uint16_t>(4, {1, 1, 1});
  exec(opv(0x3c, MVV, 4, 2, 3));  // vwmaccu: 1 + 65025, 1 + 256, 1 + 762
  EXPECT_EQ(get<uint16_t>(4, 3), (std::vector<uint16_t>{0xfe02, 0x0101, 0x02fb}));
  fill<uint16_t>(4, {1, 1, 1});
  exec(opv(0x3d, MVV, 4, 2, 3));  // vwmacc: 1 + 1, 1 - 256, 1 - 6
  EXPECT_EQ(get<uint16_t>(4, 3), (std::vector<uint16_t>{2, 0xff01, 0xfffb}));
  fill<uint16_t>(4, {1, 1, 1});
  exec(opv(0x3f, MVV, 4, 2, 3));  // vwmaccsu: signed vs1 * unsigned vs2: -255, 256, -6 (+1)
  EXPECT_EQ(get<uint16_t>(4, 3), (std::vector<uint16_t>{0xff02, 0x0101, 0xfffb}));
  fill<uint16_t>(4, {1, 1, 1});
  h.x[7] = 0xfe;  // unsigned 254
  exec(opv(0x3e, MVX, 4, 2, 7));  // vwmaccus: 254 * signed vs2: -254, -32512, 762 (+1)
  EXPECT_EQ(get<uint16_t>(4, 3), (std::vector<uint16_t>{0xff03, 0x8101, 0x02fb}));
  // vwmaccus has no .vv form.
  EXPECT_EQ(trap_of(opv(0x3e, MVV, 4, 2, 3)), TrapCause::IllegalInstruction);
  // Widening destination may not overlap the low register of the source.
  EXPECT_EQ(trap_of(opv(0x3d, MVV, 2, 2, 3)), TrapCause::IllegalInstruction);
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::vtest
