#include "isa/formats/int8.h"

#include <gtest/gtest.h>

namespace f = tlmcraft::isa::formats;
using f::Rounding;

TEST(Int8, Saturation) {
  EXPECT_EQ(f::saturate_int8(200), 127);
  EXPECT_EQ(f::saturate_int8(-200), -128);
  EXPECT_EQ(f::saturate_int8(-5), -5);
  EXPECT_EQ(f::saturate_uint8(-1), 0);
  EXPECT_EQ(f::saturate_uint8(300), 255);
  EXPECT_EQ(f::saturate_int16(40000), 32767);
  EXPECT_EQ(f::saturate_int32(int64_t(1) << 40), 2147483647);
}

TEST(Int8, RoundingShiftRightTies) {
  // 5 >> 1 = 2.5
  EXPECT_EQ(f::rounding_shift_right(5, 1, Rounding::NearestUp), 3);
  EXPECT_EQ(f::rounding_shift_right(5, 1, Rounding::NearestEven), 2);
  EXPECT_EQ(f::rounding_shift_right(5, 1, Rounding::Down), 2);
  EXPECT_EQ(f::rounding_shift_right(5, 1, Rounding::ToOdd), 3);   // 2 with a lost bit -> 3
  EXPECT_EQ(f::rounding_shift_right(5, 1, Rounding::NearestAwayFromZero), 3);
  // -5 >> 1 = -2.5: floor -3 with remainder 1 (= half).
  EXPECT_EQ(f::rounding_shift_right(-5, 1, Rounding::NearestUp), -2);
  EXPECT_EQ(f::rounding_shift_right(-5, 1, Rounding::NearestEven), -2);
  EXPECT_EQ(f::rounding_shift_right(-5, 1, Rounding::Down), -3);
  EXPECT_EQ(f::rounding_shift_right(-5, 1, Rounding::ToOdd), -3);
  EXPECT_EQ(f::rounding_shift_right(-5, 1, Rounding::NearestAwayFromZero), -3);
  // 7 / 2 = 3.5 -> even 4; 10 / 4 = 2.5 -> even 2, up 3; -6 / 4 = -1.5 -> even -2, up -1.
  EXPECT_EQ(f::rounding_shift_right(7, 1, Rounding::NearestEven), 4);
  EXPECT_EQ(f::rounding_shift_right(10, 2, Rounding::NearestEven), 2);
  EXPECT_EQ(f::rounding_shift_right(10, 2, Rounding::NearestUp), 3);
  EXPECT_EQ(f::rounding_shift_right(-6, 2, Rounding::NearestEven), -2);
  EXPECT_EQ(f::rounding_shift_right(-6, 2, Rounding::NearestUp), -1);
  EXPECT_EQ(f::rounding_shift_right(-6, 2, Rounding::NearestAwayFromZero), -2);
  // Not a tie: 11 / 4 = 2.75 -> 3 in every nearest mode, 2 when truncating.
  EXPECT_EQ(f::rounding_shift_right(11, 2, Rounding::NearestEven), 3);
  EXPECT_EQ(f::rounding_shift_right(11, 2, Rounding::Down), 2);
  EXPECT_EQ(f::rounding_shift_right(9, 0, Rounding::NearestEven), 9);
}

TEST(Int8, RequantizeWithMultiplierAndShift) {
  // 1000 * 2^30 / 2^31 = 500 exactly.
  EXPECT_EQ(f::requantize(1000, 1 << 30, 31, Rounding::NearestEven), 500);
  // 1001 * 2^30 / 2^31 = 500.5: half-even 500, half-up 501, away 501.
  EXPECT_EQ(f::requantize(1001, 1 << 30, 31, Rounding::NearestEven), 500);
  EXPECT_EQ(f::requantize(1001, 1 << 30, 31, Rounding::NearestUp), 501);
  EXPECT_EQ(f::requantize(1001, 1 << 30, 31, Rounding::NearestAwayFromZero), 501);
  // -1001 / 2 = -500.5: away -501, half-up -500.
  EXPECT_EQ(f::requantize(-1001, 1 << 30, 31, Rounding::NearestAwayFromZero), -501);
  EXPECT_EQ(f::requantize(-1001, 1 << 30, 31, Rounding::NearestUp), -500);
  // int8 with zero point and saturation: 500 + 10 -> 127; -150 -> -128; 21/2=10.5 -> 10 (+3).
  EXPECT_EQ(f::requantize_int8(1000, 1 << 30, 31, 10, Rounding::NearestEven), 127);
  EXPECT_EQ(f::requantize_int8(-300, 1 << 30, 31, 0, Rounding::NearestEven), -128);
  EXPECT_EQ(f::requantize_int8(21, 1 << 30, 31, 3, Rounding::NearestEven), 13);
  EXPECT_EQ(f::requantize_int8(21, 1 << 30, 31, 3, Rounding::NearestAwayFromZero), 14);
}

TEST(Int8, QuantizeMultiplier) {
  // 0.5 = 0.5 * 2^0 -> mantissa 0.5 * 2^31 = 2^30, shift 31.
  auto m = f::quantize_multiplier(0.5);
  EXPECT_EQ(m.multiplier, 1 << 30);
  EXPECT_EQ(m.shift, 31);
  // 3.0 = 0.75 * 2^2 -> mantissa 0.75 * 2^31 = 1610612736, shift 29.
  m = f::quantize_multiplier(3.0);
  EXPECT_EQ(m.multiplier, 1610612736);
  EXPECT_EQ(m.shift, 29);
  EXPECT_EQ(f::requantize(100, m.multiplier, m.shift, Rounding::NearestEven), 300);
  // 1 - 2^-40: the mantissa rounds up to 2^31, is halved to 2^30 and the shift drops to 30.
  m = f::quantize_multiplier(1.0 - 0x1p-40);
  EXPECT_EQ(m.multiplier, 1 << 30);
  EXPECT_EQ(m.shift, 30);
  // Out of range multipliers give {0, 0}.
  EXPECT_EQ(f::quantize_multiplier(0.0).multiplier, 0);
  EXPECT_EQ(f::quantize_multiplier(-1.0).multiplier, 0);
}

TEST(Int8, QuantizeAndDequantizeReal) {
  EXPECT_EQ(f::quantize_int8(2.5, 1.0, 0), 2);    // half to even
  EXPECT_EQ(f::quantize_int8(3.5, 1.0, 0), 4);
  EXPECT_EQ(f::quantize_int8(1000.0, 1.0, 0), 127);
  EXPECT_EQ(f::quantize_int8(-0.6, 0.5, 3), 2);   // round(-1.2) = -1, + 3
  EXPECT_EQ(f::dequantize_int8(2, 0.5, 3), -0.5);
}
