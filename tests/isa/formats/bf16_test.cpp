#include "isa/formats/bf16.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

namespace f = tlmcraft::isa::formats;

namespace {
float from_bits(uint32_t u) {
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}
}  // namespace

TEST(Bf16, ExactValuesConvertBothWays) {
  EXPECT_EQ(f::float_to_bf16(1.0f), 0x3F80);
  EXPECT_EQ(f::float_to_bf16(-2.0f), 0xC000);
  EXPECT_EQ(f::float_to_bf16(0.0f), 0x0000);
  EXPECT_EQ(f::float_to_bf16(-0.0f), 0x8000);
  EXPECT_EQ(f::bf16_to_float(0x3F80), 1.0f);
  EXPECT_EQ(f::bf16_to_float(0x4049), 3.140625f);  // 0x4049 = 1.5703125 * 2
}

TEST(Bf16, RoundsToNearestTiesToEven) {
  // 1.00390625 = 1 + 2^-8 has float bits 0x3F808000: exactly half an ulp of bf16 above
  // 0x3F80, whose last kept bit is 0 (even) -> stays 0x3F80.
  EXPECT_EQ(f::float_to_bf16(1.00390625f), 0x3F80);
  // 1 + 3 * 2^-8 = 0x3F818000: tie again, but 0x3F81 is odd -> rounds up to 0x3F82.
  EXPECT_EQ(f::float_to_bf16(1.01171875f), 0x3F82);
  // Just above the tie (1 + 2^-8 + 2^-20) rounds up to 0x3F81.
  EXPECT_EQ(f::float_to_bf16(1.0f + 0.00390625f + 0x1p-20f), 0x3F81);
  // Just below the tie rounds down.
  EXPECT_EQ(f::float_to_bf16(from_bits(0x3F807FFF)), 0x3F80);
  // A carry out of the mantissa bumps the exponent: 0x3FFF8000 (1.99609375 * 2^0 + tie,
  // odd) -> 0x4000 = 2.0.
  EXPECT_EQ(f::float_to_bf16(from_bits(0x3FFF8000)), 0x4000);
}

TEST(Bf16, OverflowGoesToInfinityAndNaNStaysQuietNaN) {
  // FLT_MAX = 0x7F7FFFFF is above the tie between 0x7F7F and 0x7F80 -> infinity.
  EXPECT_EQ(f::float_to_bf16(std::numeric_limits<float>::max()), f::kBf16Inf);
  EXPECT_EQ(f::float_to_bf16(-std::numeric_limits<float>::max()), f::kBf16NegInf);
  EXPECT_EQ(f::float_to_bf16(std::numeric_limits<float>::infinity()), f::kBf16Inf);
  // The largest bf16 (0x7F7F0000 as float) is kept.
  EXPECT_EQ(f::float_to_bf16(from_bits(0x7F7F0000)), f::kBf16Max);
  // A signalling NaN whose payload is only in the low bits must not become infinity.
  EXPECT_EQ(f::float_to_bf16(from_bits(0x7F800001)), 0x7FC0);
  EXPECT_EQ(f::float_to_bf16(from_bits(0xFF800001)), 0xFFC0);
  EXPECT_TRUE(f::bf16_is_nan(f::float_to_bf16(std::nanf(""))));
  EXPECT_TRUE(std::isnan(f::bf16_to_float(0x7FC1)));
  EXPECT_TRUE(f::bf16_is_inf(f::kBf16NegInf));
}

TEST(Bf16, Subnormals) {
  // 2^-133 is the smallest bf16 subnormal: float bits 0x00010000 -> 0x0001.
  EXPECT_EQ(f::float_to_bf16(0x1p-133f), 0x0001);
  // 2^-140 is far below half of it -> +0.
  EXPECT_EQ(f::float_to_bf16(0x1p-140f), 0x0000);
  // 1.5 * 2^-133 (bits 0x00018000) is a tie between 0x0001 (odd) and 0x0002 -> 0x0002.
  EXPECT_EQ(f::float_to_bf16(0x1.8p-133f), 0x0002);
}

TEST(Bf16, DoubleRoundsOnce) {
  // 1 + 2^-8 + 2^-40 is above the tie; through float it would first become the tie
  // 1 + 2^-8 and then round down to even. Rounded once it goes up to 0x3F81.
  const double v = 1.0 + 0x1p-8 + 0x1p-40;
  EXPECT_EQ(f::float_to_bf16(float(v)), 0x3F80);
  EXPECT_EQ(f::double_to_bf16(v), 0x3F81);
  EXPECT_EQ(f::double_to_bf16(1.00390625), 0x3F80);  // exact tie -> even
  EXPECT_EQ(f::double_to_bf16(-1.01171875), 0xBF82);
  // Largest finite bf16 is 255 * 2^120; 255.5 * 2^120 is the tie with 2^128 -> even
  // mantissa 256 -> infinity; 255.4 * 2^120 -> 0x7F7F.
  EXPECT_EQ(f::double_to_bf16(255.5 * 0x1p120), f::kBf16Inf);
  EXPECT_EQ(f::double_to_bf16(255.4 * 0x1p120), f::kBf16Max);
  EXPECT_EQ(f::double_to_bf16(1e300), f::kBf16Inf);
  EXPECT_EQ(f::double_to_bf16(0x1p-133), 0x0001);
  EXPECT_EQ(f::double_to_bf16(0x1p-135), 0x0000);     // quarter of the smallest subnormal
  EXPECT_EQ(f::double_to_bf16(-0.0), f::kBf16NegZero);
  EXPECT_TRUE(f::bf16_is_nan(f::double_to_bf16(std::nan(""))));
}

TEST(Bf16, SpanHelpers) {
  const float in[3] = {1.0f, 1.01171875f, -0.5f};
  uint16_t bits[3];
  f::float_to_bf16(in, bits, 3);
  EXPECT_EQ(bits[0], 0x3F80);
  EXPECT_EQ(bits[1], 0x3F82);
  EXPECT_EQ(bits[2], 0xBF00);
  float back[3];
  f::bf16_to_float(bits, back, 3);
  EXPECT_EQ(back[1], 1.015625f);  // 0x3F82 = 1 + 2/128
  EXPECT_EQ(f::round_to_bf16(1.01171875f), 1.015625f);
}
