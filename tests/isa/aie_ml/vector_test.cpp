// Vector ALU, compare/select, permutes, SRS rounding and saturation, up-shift and
// bf16/fp32/int conversions, with hand-derived lane values.
#include "tests/isa/aie_ml/core_fixture.h"

#include "isa/formats/bf16.h"

namespace aie_test {
namespace {

using tlmcraft::isa::formats::float_to_bf16;

template <typename T>
T lane_of(const CoreState& s, RegClass c, int reg, int i) {
  T v;
  std::memcpy(&v, s.vreg(c, reg) + i * int(sizeof(T)), sizeof v);
  return v;
}
template <typename T>
void set(CoreState& s, RegClass c, int reg, int i, T v) {
  std::memcpy(s.vreg(c, reg) + i * int(sizeof(T)), &v, sizeof v);
}

TEST(AieVector, AddSubMaxMinWrapAndSign) {
  CoreState s;
  FlatMemory m;
  for (int i = 0; i < 32; ++i) {
    set<int16_t>(s, RegClass::X, 0, i, int16_t(32767 - i));
    set<int16_t>(s, RegClass::X, 1, i, int16_t(i - 16));
  }
  run_text("VADD.16 x2, x0, x1\nVMAX.S16 x3, x0, x1\nVMIN.S8 x4, x0, x1\nVSUB.32 x5, x1, x0\nDONE\n", s, m);
  // Lane 0: 32767 + (-16) = 32751; lane 20: (32747) + 4 = 32751; lane 31: 32736 + 15 = 32751.
  EXPECT_EQ(lane_of<int16_t>(s, RegClass::X, 2, 0), 32751);
  EXPECT_EQ(lane_of<int16_t>(s, RegClass::X, 2, 31), 32751);
  EXPECT_EQ(lane_of<int16_t>(s, RegClass::X, 3, 5), 32762);
  // Bytes of lane 0 of x0: 0xFF, 0x7F (= -1, 127); of x1 (-16 = 0xFFF0): 0xF0, 0xFF (-16, -1).
  EXPECT_EQ(lane_of<int8_t>(s, RegClass::X, 4, 0), -16);
  EXPECT_EQ(lane_of<int8_t>(s, RegClass::X, 4, 1), -1);
  // 32-bit lane 0 of x1 = 0xFFF1FFF0, of x0 = 0x7FFE7FFF: difference 0x7FF38000 - wraps as uint32.
  EXPECT_EQ(lane_of<uint32_t>(s, RegClass::X, 5, 0), 0xFFF1FFF0u - 0x7FFE7FFFu);
}

TEST(AieVector, Bf16MaxMinAndNaN) {
  CoreState s;
  FlatMemory m;
  set<uint16_t>(s, RegClass::X, 0, 0, float_to_bf16(-2.0f));
  set<uint16_t>(s, RegClass::X, 1, 0, float_to_bf16(1.5f));
  set<uint16_t>(s, RegClass::X, 0, 1, 0x7FC0);  // NaN
  set<uint16_t>(s, RegClass::X, 1, 1, float_to_bf16(3.0f));
  run_text("VMAX.BF16 x2, x0, x1\nVMIN.BF16 x3, x0, x1\nDONE\n", s, m);
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::X, 2, 0), float_to_bf16(1.5f));
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::X, 3, 0), float_to_bf16(-2.0f));
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::X, 2, 1), float_to_bf16(3.0f));
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::X, 3, 1), float_to_bf16(3.0f));
}

TEST(AieVector, CompareMasksAndSelect) {
  // a[i] = i, b[i] = 40 for 64 int8 lanes: a < b for lanes 0..39 ->
  // r2 = 0xFFFFFFFF (lanes 0-31), r3 = 0xFF (lanes 32-39).
  CoreState s;
  FlatMemory m;
  for (int i = 0; i < 64; ++i) {
    set<int8_t>(s, RegClass::X, 0, i, int8_t(i));
    set<int8_t>(s, RegClass::X, 1, i, 40);
  }
  run_text("VLT.S8 r2, x0, x1\nVSEL.8 x2, x1, x0, r2\nMOVXM r5, 0xAAAA\nVSEL.16 x3, x0, x1, r5\nDONE\n", s, m);
  EXPECT_EQ(s.r[2], 0xFFFFFFFFu);
  EXPECT_EQ(s.r[3], 0xFFu);
  // min(a, b) through select: lanes 0..39 take x0 (= i), the rest 40.
  EXPECT_EQ(lane_of<int8_t>(s, RegClass::X, 2, 39), 39);
  EXPECT_EQ(lane_of<int8_t>(s, RegClass::X, 2, 40), 40);
  // 0xAAAA selects b (x1) in odd 16-bit lanes 1..15, a (x0) elsewhere.
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::X, 3, 0), 0x0100);  // bytes 0, 1 of x0
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::X, 3, 1), 0x2828);
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::X, 3, 16), 0x2120);  // bytes 32, 33 of x0
}

TEST(AieVector, BroadcastExtractInsertShiftShuffle) {
  CoreState s;
  FlatMemory m;
  for (int i = 0; i < 64; ++i) {
    set<uint8_t>(s, RegClass::X, 0, i, uint8_t(i));
    set<uint8_t>(s, RegClass::X, 1, i, uint8_t(100 + i));
  }
  run_text(
      "MOVXM r1, 0x12345678\n"
      "VBCST.32 x2, r1\n"
      "VEXTRACT.S16 r2, x1, 3\n"      // bytes 106, 107 -> 0x6B6A
      "MOV r3, 5\n"
      "VINSERT.16 x0, r3, r1\n"       // lane 5 = 0x5678, others unchanged
      "VSHIFT x3, x0, x1, 62\n"       // bytes 62, 63 of x0 then 100.. of x1
      "VSHUFFLE x4, x0, x1, 4\n"      // 16-bit interleave of low halves: a0 b0 a1 b1 ...
      "VSHUFFLE x5, x0, x1, 2\n"      // even bytes of a:b
      "DONE\n",
      s, m);
  EXPECT_EQ(lane_of<uint32_t>(s, RegClass::X, 2, 15), 0x12345678u);
  EXPECT_EQ(s.r[2], 0x6B6Au);
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::X, 0, 5), 0x5678);
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::X, 0, 4), 0x0908);
  EXPECT_EQ(lane_of<uint8_t>(s, RegClass::X, 3, 0), 62);
  EXPECT_EQ(lane_of<uint8_t>(s, RegClass::X, 3, 2), 100);
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::X, 4, 0), 0x0100);  // a0
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::X, 4, 1), 0x6564);  // b0 = bytes 100, 101
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::X, 4, 2), 0x0302);  // a1
  EXPECT_EQ(lane_of<uint8_t>(s, RegClass::X, 5, 31), 62);      // even byte 62 of a
  EXPECT_EQ(lane_of<uint8_t>(s, RegClass::X, 5, 32), 100);     // even byte 0 of b
}

// SRS of one accumulator lane under each rounding mode, shift 2 (divide by 4).
int32_t srs_lane(int32_t v, uint32_t mode, uint32_t sat = 1, uint32_t shift = 2) {
  CoreState s;
  FlatMemory m;
  set<int32_t>(s, RegClass::CM, 0, 0, v);
  run_text("MOV crrnd, " + std::to_string(mode) + "\nMOV crsat, " + std::to_string(sat) + "\nMOV s1, " +
               std::to_string(shift) + "\nVSRS.S8.S32 w0, cm0, s1\nDONE\n",
           s, m);
  return lane_of<int8_t>(s, RegClass::W, 0, 0);
}

TEST(AieSrs, RoundingModes) {
  // 6/4 = 1.5, 10/4 = 2.5, -6/4 = -1.5, 7/4 = 1.75, -5/4 = -1.25.
  EXPECT_EQ(srs_lane(6, 12), 2);    // ties to even
  EXPECT_EQ(srs_lane(10, 12), 2);
  EXPECT_EQ(srs_lane(-6, 12), -2);
  EXPECT_EQ(srs_lane(10, 13), 3);   // ties to odd
  EXPECT_EQ(srs_lane(7, 0), 1);     // floor
  EXPECT_EQ(srs_lane(-5, 0), -2);
  EXPECT_EQ(srs_lane(-5, 1), -1);   // ceil
  EXPECT_EQ(srs_lane(-5, 2), -1);   // toward zero
  EXPECT_EQ(srs_lane(-5, 3), -2);   // away from zero
  EXPECT_EQ(srs_lane(-6, 8), -2);   // ties toward -inf
  EXPECT_EQ(srs_lane(-6, 9), -1);   // ties toward +inf
  EXPECT_EQ(srs_lane(-6, 10), -1);  // ties toward zero
  EXPECT_EQ(srs_lane(10, 10), 2);
  EXPECT_EQ(srs_lane(-6, 11), -2);  // ties away from zero
  EXPECT_EQ(srs_lane(10, 11), 3);
  EXPECT_EQ(srs_lane(7, 12), 2);    // not a tie: nearest
}

TEST(AieSrs, SaturationModes) {
  EXPECT_EQ(srs_lane(1000, 12, 1, 0), 127);
  EXPECT_EQ(srs_lane(-1000, 12, 1, 0), -128);
  EXPECT_EQ(srs_lane(-1000, 12, 3, 0), -127);  // symmetric
  EXPECT_EQ(srs_lane(1000, 12, 0, 0), -24);    // wrap: 1000 = 0x3E8, low byte 0xE8
  EXPECT_EQ(srs_lane(510, 12, 1, 2), 127);     // 127.5 rounds to 128, then saturates
}

TEST(AieSrs, UnsignedAnd64BitLanes) {
  CoreState s;
  FlatMemory m;
  set<int32_t>(s, RegClass::CM, 0, 0, -7);
  set<int32_t>(s, RegClass::CM, 0, 1, 600);
  set<int64_t>(s, RegClass::CM, 1, 0, (int64_t(1) << 40) + 3);
  run_text("VSRS.U8.S32 w0, cm0, 1\nVSRS.S32.S64 x1, cm1, 8\nVSRS.S16.S64 w4, cm1, 30\nDONE\n", s, m);
  EXPECT_EQ(lane_of<uint8_t>(s, RegClass::W, 0, 0), 0);    // -3.5 saturates to 0
  EXPECT_EQ(lane_of<uint8_t>(s, RegClass::W, 0, 1), 255);  // 300 saturates to 255
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::X, 1, 0), INT32_MAX);  // (2^40 + 3) / 2^8 ~ 2^32 saturates
  EXPECT_EQ(lane_of<int16_t>(s, RegClass::W, 4, 0), 1024);  // 2^40 / 2^30 = 1024 (+tiny)
}

TEST(AieConvert, UpShiftAndFloatConversions) {
  CoreState s;
  FlatMemory m;
  set<int8_t>(s, RegClass::W, 0, 3, -3);
  set<uint16_t>(s, RegClass::W, 1, 0, float_to_bf16(-2.5f));
  // fp32 -> bf16 ties: 1 + 2^-8 is halfway between 1 (0x3F80) and 1 + 2^-7 (0x3F81): to even 0x3F80;
  // 1 + 3 * 2^-8 is halfway between 0x3F81 and 0x3F82: to even 0x3F82.
  set<float>(s, RegClass::BM, 2, 0, 1.0f + 1.0f / 256.0f);
  set<float>(s, RegClass::BM, 2, 1, 1.0f + 3.0f / 256.0f);
  set<float>(s, RegClass::BM, 2, 2, 2.5f);
  set<float>(s, RegClass::BM, 2, 3, -3.5f);
  set<int32_t>(s, RegClass::BM, 4, 0, 16777217);  // 2^24 + 1: to fp32 ties to even 2^24
  run_text(
      "VUPS.S32.S8 cm0, w0, 4\n"
      "VCONV.FP32.BF16 bm6, w1\n"
      "VCONV.BF16.FP32 w10, bm2\n"
      "VCONV.S32.FP32 bm7, bm2, 0\n"
      "VCONV.FP32.S32 bm8, bm4\n"
      "VADD.F bm9, bm2, bm2\n"
      "DONE\n",
      s, m);
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::CM, 0, 3), -48);
  EXPECT_EQ(lane_of<float>(s, RegClass::BM, 6, 0), -2.5f);
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::W, 10, 0), 0x3F80);
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::W, 10, 1), 0x3F82);
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::BM, 7, 2), 2);   // 2.5 -> 2 (ties to even)
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::BM, 7, 3), -4);  // -3.5 -> -4
  EXPECT_EQ(lane_of<float>(s, RegClass::BM, 8, 0), 16777216.0f);
  EXPECT_EQ(lane_of<float>(s, RegClass::BM, 9, 2), 5.0f);
}

TEST(AieVector, ElementwiseMultiply) {
  CoreState s;
  FlatMemory m;
  for (int i = 0; i < 16; ++i) {
    set<uint16_t>(s, RegClass::W, 2, i, float_to_bf16(1.5f));
    set<uint16_t>(s, RegClass::W, 3, i, float_to_bf16(float(i)));
  }
  run_text("VMUL.E.BF16 bm1, w2, w3\nVMAC.E.BF16 bm1, bm1, w2, w3\nDONE\n", s, m);
  EXPECT_EQ(lane_of<float>(s, RegClass::BM, 1, 7), 21.0f);  // 2 * 1.5 * 7
}

// int16 element-wise multiplies use all 32 lanes of a 512-bit x register and write 32 x
// 32-bit lanes of a 1024-bit cm (the hardware's acc32 element-wise mode).
TEST(AieVector, Int16ElementwiseMultiplyHas32Lanes) {
  CoreState s;
  FlatMemory m;
  for (int i = 0; i < 32; ++i) {
    set<int16_t>(s, RegClass::X, 4, i, int16_t(-300 * i));
    set<int16_t>(s, RegClass::X, 5, i, int16_t(200 + i));
    set<int32_t>(s, RegClass::CM, 3, i, 1000 * i);
  }
  run_text("VMUL.E.S16 cm1, x4, x5\nVMAC.E.S16 cm3, cm3, x4, x5\nDONE\n", s, m);
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::CM, 1, 0), 0);
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::CM, 1, 15), -967500);   // -4500 * 215 (the 256-bit model's last lane)
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::CM, 1, 16), -1036800);  // -4800 * 216: lanes 16..31 exist
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::CM, 1, 31), -2148300);  // -9300 * 231
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::CM, 3, 31), -2117300);  // 31000 - 9300 * 231
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::CM, 3, 16), -1020800);  // 16000 - 4800 * 216
}

// The former 16-lane form (bm, w, w) does not exist on the hardware. Column 23: two spaces
// + "VMUL.E.S16 cm0, x0, " (20) + 1.
TEST(AieVector, Int16ElementwiseMultiplyRefusesTheHalfWidthForm) {
  const auto d = assemble_errors("  VMUL.E.S16 cm0, x0, w1\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].format(),
            "k.s:1:23: error: wrong register class for operand 3 of VMUL.E.S16: expected a 512-bit vector register "
            "(x0-x11), got 'w1' (a 256-bit vector register (w0-w23 or wl0-wl11/wh0-wh11)) (hint: syntax: VMUL.E.S16 "
            "cm, x, x)");
  EXPECT_EQ(assemble_errors("  VMAC.E.S16 bm0, bm0, w0, w1\n").size(), 4u);  // all four operands
}

}  // namespace
}  // namespace aie_test
