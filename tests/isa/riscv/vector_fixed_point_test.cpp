// Fixed point: saturating add/sub and vxsat, averaging add/sub, vsmul, scaling shifts and
// narrowing clips under every vxrm rounding mode (rnu 0, rne 1, rdn 2, rod 3). Each
// expected value is derived from the spec's r = rounding increment (see comments).
#include "tests/isa/riscv/vector_test_support.h"

namespace tlmcraft::isa::riscv::vtest {
namespace {

using FixedPointTest = VectorTest;

TEST_F(FixedPointTest, SaturatingAddSub) {
  setvl(8, 0, 2);
  fill<uint8_t>(2, {1, 10});
  fill<uint8_t>(3, {2, 20});
  exec(opv(0x20, IVV, 1, 2, 3));  // vsaddu without overflow: vxsat stays 0
  EXPECT_EQ(get<uint8_t>(1, 2), (std::vector<uint8_t>{3, 30}));
  EXPECT_EQ(h.vxsat, 0u);
  fill<uint8_t>(2, {250, 10});
  fill<uint8_t>(3, {10, 20});
  exec(opv(0x20, IVV, 1, 2, 3));  // 260 -> 255
  EXPECT_EQ(get<uint8_t>(1, 2), (std::vector<uint8_t>{255, 30}));
  EXPECT_EQ(h.vxsat, 1u);
  h.vxsat = 0;
  exec(opv(0x20, IVI, 1, 2, 0x1f));  // vsaddu.vi -1 = 0xff: both saturate
  EXPECT_EQ(get<uint8_t>(1, 2), (std::vector<uint8_t>{255, 255}));
  EXPECT_EQ(h.vxsat, 1u);

  setvl(8, 0, 3);
  h.vxsat = 0;
  fill<uint8_t>(2, {100, 0x80, 5});
  fill<uint8_t>(3, {100, 0xff, 3});
  exec(opv(0x21, IVV, 1, 2, 3));  // vsadd: 200 -> 127, -129 -> -128, 8
  EXPECT_EQ(get<uint8_t>(1, 3), (std::vector<uint8_t>{0x7f, 0x80, 8}));
  EXPECT_EQ(h.vxsat, 1u);
  fill<uint8_t>(2, {5, 20, 0});
  fill<uint8_t>(3, {10, 5, 0});
  exec(opv(0x22, IVV, 1, 2, 3));  // vssubu: 5 - 10 -> 0, 15, 0
  EXPECT_EQ(get<uint8_t>(1, 3), (std::vector<uint8_t>{0, 15, 0}));
  fill<uint8_t>(2, {0x80, 100, 0});
  fill<uint8_t>(3, {1, 0x9c, 0});
  h.vxsat = 0;
  exec(opv(0x23, IVV, 1, 2, 3));  // vssub: -129 -> -128, 200 -> 127
  EXPECT_EQ(get<uint8_t>(1, 3), (std::vector<uint8_t>{0x80, 0x7f, 0}));
  EXPECT_EQ(h.vxsat, 1u);
  EXPECT_EQ(last.cls, OpClass::VecFixedPoint);
}

TEST_F(FixedPointTest, AveragingAddUnsignedAllRoundingModes) {
  setvl(8, 0, 4);
  // Sums 5 (101b), 7 (111b), 300, 510; shift right by 1.
  // 5: 2 + r, half = 1, lsb = 0 -> rnu 3, rne 2, rdn 2, rod 3.
  // 7: 3 + r, half = 1, lsb = 1 -> rnu 4, rne 4, rdn 3, rod 3.
  // 300 and 510 are even: 150 and 255 in every mode.
  fill<uint8_t>(2, {3, 5, 200, 255});
  fill<uint8_t>(3, {2, 2, 100, 255});
  const std::vector<std::vector<uint8_t>> expected = {
      {3, 4, 150, 255}, {2, 4, 150, 255}, {2, 3, 150, 255}, {3, 3, 150, 255}};
  for (uint32_t mode = 0; mode < 4; ++mode) {
    h.vxrm = mode;
    exec(opv(0x08, MVV, 1, 2, 3));  // vaaddu.vv
    EXPECT_EQ(get<uint8_t>(1, 4), expected[mode]) << "vxrm " << mode;
  }
}

TEST_F(FixedPointTest, AveragingAddSignedAllRoundingModes) {
  setvl(8, 0, 3);
  // Sums -129, 254, -3 shifted right by 1 (floor):
  // -129: -65, half = 1, lsb = 1 -> rnu -64, rne -64, rdn -65, rod -65.
  // 254: 127 exactly. -3: -2, half = 1, lsb = 0 -> rnu -1, rne -2, rdn -2, rod -1.
  fill<uint8_t>(2, {0x80, 0x7f, 0xff});
  fill<uint8_t>(3, {0xff, 0x7f, 0xfe});
  const std::vector<std::vector<uint8_t>> expected = {
      {0xc0, 0x7f, 0xff}, {0xc0, 0x7f, 0xfe}, {0xbf, 0x7f, 0xfe}, {0xbf, 0x7f, 0xff}};
  for (uint32_t mode = 0; mode < 4; ++mode) {
    h.vxrm = mode;
    exec(opv(0x09, MVV, 1, 2, 3));  // vaadd.vv
    EXPECT_EQ(get<uint8_t>(1, 3), expected[mode]) << "vxrm " << mode;
  }
}

TEST_F(FixedPointTest, AveragingSubtract) {
  setvl(8, 0, 2);
  fill<uint8_t>(2, {5, 10});
  fill<uint8_t>(3, {10, 5});
  h.vxrm = 2;                      // rdn: -5 >> 1 = -3, 5 >> 1 = 2
  exec(opv(0x0a, MVV, 1, 2, 3));   // vasubu.vv
  EXPECT_EQ(get<uint8_t>(1, 2), (std::vector<uint8_t>{0xfd, 2}));
  h.vxrm = 0;                      // rnu: -3 + 1, 2 + 1
  exec(opv(0x0a, MVV, 1, 2, 3));
  EXPECT_EQ(get<uint8_t>(1, 2), (std::vector<uint8_t>{0xfe, 3}));
  fill<uint8_t>(2, {0x80, 0});
  h.x[7] = 0x7f;
  exec(opv(0x0b, MVX, 1, 2, 7));  // vasub.vx: (-128 - 127) = -255 -> -128 + 1 (rnu)
  EXPECT_EQ(h.vget<uint8_t>(1, 0), 0x81);
  EXPECT_EQ(h.vxsat, 0u);  // averaging never saturates
}

TEST_F(FixedPointTest, FractionalMultiplyAllRoundingModes) {
  setvl(8, 0, 5);
  // (a * b) >> 7 with rounding:
  // -128 * -128 = 16384 -> 128: saturates to 127 (vxsat) in every mode.
  // 64 * 64 = 4096 -> 32 exactly.
  // 3 * 80 = 240 = 11110000b -> 1, half = 1, rest != 0, lsb 1: rnu 2, rne 2, rdn 1, rod 1.
  // -1 * 64 = -64 -> -1, half = 1, rest 0, lsb 1: rnu 0, rne 0, rdn -1, rod -1.
  // 1 * 64 = 64 -> 0, half = 1, rest 0, lsb 0: rnu 1, rne 0, rdn 0, rod 1.
  fill<uint8_t>(2, {0x80, 0x40, 0x03, 0xff, 0x01});
  fill<uint8_t>(3, {0x80, 0x40, 0x50, 0x40, 0x40});
  const std::vector<std::vector<uint8_t>> expected = {{0x7f, 0x20, 2, 0, 1},
                                                      {0x7f, 0x20, 2, 0, 0},
                                                      {0x7f, 0x20, 1, 0xff, 0},
                                                      {0x7f, 0x20, 1, 0xff, 1}};
  for (uint32_t mode = 0; mode < 4; ++mode) {
    h.vxrm = mode;
    h.vxsat = 0;
    exec(opv(0x27, IVV, 1, 2, 3));  // vsmul.vv
    EXPECT_EQ(get<uint8_t>(1, 5), expected[mode]) << "vxrm " << mode;
    EXPECT_EQ(h.vxsat, 1u);
  }
}

TEST_F(FixedPointTest, ScalingShiftsAllRoundingModes) {
  setvl(8, 0, 4);
  // >> 2: 1011b -> 2 (half 1, rest 1, lsb 0), 1010b -> 2 (half 1, rest 0, lsb 0),
  // 0110b -> 1 (half 1, rest 0, lsb 1), 1111b -> 3 (half 1, rest 1, lsb 1).
  fill<uint8_t>(2, {0x0b, 0x0a, 0x06, 0x0f});
  const std::vector<std::vector<uint8_t>> expected = {
      {3, 3, 2, 4}, {3, 2, 2, 4}, {2, 2, 1, 3}, {3, 3, 1, 3}};
  for (uint32_t mode = 0; mode < 4; ++mode) {
    h.vxrm = mode;
    exec(opv(0x2a, IVI, 1, 2, 2));  // vssrl.vi 2
    EXPECT_EQ(get<uint8_t>(1, 4), expected[mode]) << "vxrm " << mode;
  }
  // vssra: -10 = 11110110b >> 2 = -3, half 1, rest 0, lsb 1: rnu -2, rne -2, rdn -3, rod -3.
  setvl(8, 0, 1);
  fill<uint8_t>(2, {0xf6});
  const uint8_t sra[4] = {0xfe, 0xfe, 0xfd, 0xfd};
  for (uint32_t mode = 0; mode < 4; ++mode) {
    h.vxrm = mode;
    h.x[7] = 8 + 2;  // low 3 bits (2) count at SEW 8
    exec(opv(0x2b, IVX, 1, 2, 7));
    EXPECT_EQ(h.vget<uint8_t>(1, 0), sra[mode]) << "vxrm " << mode;
  }
}

TEST_F(FixedPointTest, NarrowingClips) {
  setvl(8, 0, 3);
  // vnclipu.wi 4: 0x0ff8 -> 0xff + half(1), lsb 1: rnu 0x100 saturates, rdn 0xff;
  // 0x1234 -> 0x123 saturates; 0x0018 -> 1, half 1, lsb 1: rnu 2, rdn 1.
  fill<uint16_t>(2, {0x0ff8, 0x1234, 0x0018});
  h.vxrm = 0;
  exec(opv(0x2e, IVI, 1, 2, 4));
  EXPECT_EQ(get<uint8_t>(1, 3), (std::vector<uint8_t>{0xff, 0xff, 2}));
  EXPECT_EQ(h.vxsat, 1u);
  h.vxrm = 2;
  exec(opv(0x2e, IVI, 1, 2, 4));
  EXPECT_EQ(get<uint8_t>(1, 3), (std::vector<uint8_t>{0xff, 0xff, 1}));
  // Only element 2 (no saturation): vxsat unchanged at 0.
  h.vxsat = 0;
  set_mask(0, 0b100);
  exec(opv(0x2e, IVI, 1, 2, 4, kMasked));
  EXPECT_EQ(h.vxsat, 0u);

  setvl(8, 0, 4);
  // vnclip.wi 4: -32768 -> -2048 saturates to -128; -8 -> -1, half 1, lsb 1: rnu 0, rdn -1;
  // 0x07f0 -> 127; 0x07f8 -> 127 + half: rnu 128 saturates to 127, rdn 127.
  fill<uint16_t>(2, {0x8000, 0xfff8, 0x07f0, 0x07f8});
  h.vxrm = 0;
  h.vxsat = 0;
  exec(opv(0x2f, IVI, 1, 2, 4));
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0x80, 0x00, 0x7f, 0x7f}));
  EXPECT_EQ(h.vxsat, 1u);
  h.vxrm = 2;
  exec(opv(0x2f, IVI, 1, 2, 4));
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0x80, 0xff, 0x7f, 0x7f}));
  // The shift amount of .wv uses log2(2 * SEW) = 4 bits: 20 & 15 = 4.
  fill<uint8_t>(3, {20, 20, 20, 20});
  exec(opv(0x2f, IVV, 1, 2, 3));
  EXPECT_EQ(get<uint8_t>(1, 4), (std::vector<uint8_t>{0x80, 0xff, 0x7f, 0x7f}));
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::vtest
