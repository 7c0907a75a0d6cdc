#include "isa/formats/mxfp8.h"

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "isa/formats/bf16.h"

namespace f = tlmcraft::isa::formats;

TEST(E4M3, DecodesNormalsSubnormalsAndNaN) {
  EXPECT_EQ(f::e4m3_to_float(0x00), 0.0f);
  EXPECT_EQ(f::e4m3_to_float(0x01), 0x1p-9f);       // smallest subnormal: 1/8 * 2^-6
  EXPECT_EQ(f::e4m3_to_float(0x07), 7 * 0x1p-9f);   // largest subnormal
  EXPECT_EQ(f::e4m3_to_float(0x08), 0x1p-6f);       // smallest normal: e=1 -> 2^(1-7)
  EXPECT_EQ(f::e4m3_to_float(0x38), 1.0f);          // e=7
  EXPECT_EQ(f::e4m3_to_float(0x3A), 1.25f);         // e=7, m=2
  EXPECT_EQ(f::e4m3_to_float(0xB8), -1.0f);
  EXPECT_EQ(f::e4m3_to_float(0x7E), 448.0f);        // e=15, m=6: 1.75 * 2^8
  EXPECT_EQ(f::e4m3_to_float(0x78), 256.0f);        // e=15, m=0 (no infinity encoding)
  EXPECT_TRUE(std::isnan(f::e4m3_to_float(0x7F)));  // S.1111.111
  EXPECT_TRUE(std::isnan(f::e4m3_to_float(0xFF)));
}

TEST(E4M3, EncodesWithRoundToNearestEvenAndSaturation) {
  EXPECT_EQ(f::double_to_e4m3(1.0), 0x38);
  EXPECT_EQ(f::double_to_e4m3(448.0), 0x7E);
  EXPECT_EQ(f::double_to_e4m3(500.0), 0x7E);    // saturates, never NaN
  EXPECT_EQ(f::double_to_e4m3(1e9), 0x7E);
  EXPECT_EQ(f::double_to_e4m3(-1e9), 0xFE);
  EXPECT_EQ(f::double_to_e4m3(INFINITY), 0x7E);
  EXPECT_EQ(f::double_to_e4m3(-INFINITY), 0xFE);
  // 464 is the tie between 448 (14 * 32, even) and 480 (15 * 32, which would be the NaN
  // code) -> 448; 470 rounds towards 480 and saturates to 448.
  EXPECT_EQ(f::double_to_e4m3(464.0), 0x7E);
  EXPECT_EQ(f::double_to_e4m3(470.0), 0x7E);
  // In [1, 2) the spacing is 1/8: 1.0625 ties between m=0 and m=1 -> even m=0;
  // 1.1875 ties between m=1 and m=2 -> m=2 (1.25).
  EXPECT_EQ(f::double_to_e4m3(1.0625), 0x38);
  EXPECT_EQ(f::double_to_e4m3(1.1875), 0x3A);
  // 15.5 * 2^-7 lies in [2^-4, 2^-3) with spacing 2^-7: tie between 15 and 16 -> 16,
  // i.e. 2^-3 = the next binade: e = -3 + 7 = 4, m = 0 -> 0x20.
  EXPECT_EQ(f::double_to_e4m3(15.5 * 0x1p-7), 0x20);
  EXPECT_TRUE(std::isnan(f::e4m3_to_float(f::double_to_e4m3(NAN))));
  EXPECT_EQ(f::double_to_e4m3(-0.0), 0x80);
}

TEST(E4M3, Subnormals) {
  EXPECT_EQ(f::double_to_e4m3(3 * 0x1p-9), 0x03);
  EXPECT_EQ(f::double_to_e4m3(2.5 * 0x1p-9), 0x02);  // tie -> even 2
  EXPECT_EQ(f::double_to_e4m3(0x1p-10), 0x00);       // half the smallest: tie -> 0
  EXPECT_EQ(f::double_to_e4m3(1.5 * 0x1p-10), 0x01);
  EXPECT_EQ(f::double_to_e4m3(7.5 * 0x1p-9), 0x08);  // tie 7|8 -> 8 = 2^-6, normal
  EXPECT_EQ(f::double_to_e4m3(-5 * 0x1p-9), 0x85);
}

TEST(E4M3, EveryCodeRoundTrips) {
  for (int c = 0; c < 256; ++c) {
    if ((c & 0x7F) == 0x7F) continue;
    EXPECT_EQ(f::double_to_e4m3(f::e4m3_to_float(uint8_t(c))), uint8_t(c)) << "code " << c;
  }
}

TEST(E8M0, Values) {
  EXPECT_EQ(f::e8m0_to_double(127), 1.0);
  EXPECT_EQ(f::e8m0_to_double(120), 0x1p-7);
  EXPECT_EQ(f::e8m0_to_double(0), 0x1p-127);
  EXPECT_EQ(f::e8m0_to_double(254), 0x1p127);
  EXPECT_TRUE(std::isnan(f::e8m0_to_double(0xFF)));
}

TEST(MxBlock, QuantisesAHandComputedBlock) {
  // max |x| = 3.0: floor(log2 3) = 1, shared exponent 1 - 8 = -7, scale byte 127 - 7 = 120.
  // Elements are x * 2^7:
  //   3.0  -> 384 = 1.5 * 2^8        -> e=15, m=4 -> 0x7C
  //   1.0  -> 128 = 2^7              -> e=14      -> 0x70
  //  -0.5  -> -64 = -2^6             -> e=13      -> 0xE8
  //   0.1f -> 12.8 (spacing 1 in [8,16)) -> 13 = 1.625 * 8 -> e=10, m=5 -> 0x55
  //   2.9  -> 371.2 (spacing 32 in [256,512)) -> 11.6 -> 12 * 32 = 384 -> 0x7C
  //   0.01f-> 1.28 (spacing 1/8) -> 10.24/8 -> 10/8 = 1.25 -> e=7, m=2 -> 0x3A
  const float x[8] = {3.0f, 1.0f, -0.5f, 0.0f, 0.1f, 2.9f, 0.01f, -3.0f};
  uint8_t e[8], scale = 0;
  f::quantize_mx_block(x, 8, e, &scale);
  EXPECT_EQ(scale, 120);
  const uint8_t want[8] = {0x7C, 0x70, 0xE8, 0x00, 0x55, 0x7C, 0x3A, 0xFC};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(e[i], want[i]) << "element " << i;

  // Dequantised exactly: code value * 2^-7.
  float back[8];
  f::dequantize_mx_block(e, 8, scale, back);
  const float want_back[8] = {3.0f, 1.0f, -0.5f, 0.0f, 0.1015625f, 3.0f, 0.009765625f, -3.0f};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(back[i], want_back[i]) << "element " << i;
  uint16_t bits[8];
  f::dequantize_mx_block(e, 8, scale, bits);
  EXPECT_EQ(bits[0], 0x4040);  // 3.0
  EXPECT_EQ(bits[4], f::float_to_bf16(0.1015625f));
}

TEST(MxBlock, LargestElementCanSaturate) {
  // max 1000: floor(log2 1000) = 9 -> shared exponent 1 -> 1000 / 2 = 500 > 448 ->
  // saturates to 448, dequantised 896. 3.0 / 2 = 1.5 -> exact.
  const float x[2] = {1000.0f, 3.0f};
  uint8_t e[2], scale = 0;
  f::quantize_mx_block(x, 2, e, &scale);
  EXPECT_EQ(scale, 128);
  EXPECT_EQ(e[0], 0x7E);
  float back[2];
  f::dequantize_mx_block(e, 2, scale, back);
  EXPECT_EQ(back[0], 896.0f);
  EXPECT_EQ(back[1], 3.0f);
}

TEST(MxBlock, AllZeroAndSpecialBlocks) {
  const float zeros[8] = {};
  uint8_t e[8], scale = 0;
  f::quantize_mx_block(zeros, 8, e, &scale);
  EXPECT_EQ(scale, 127);  // documented choice: 2^0
  for (uint8_t c : e) EXPECT_EQ(c, 0);

  const float with_nan[3] = {1.0f, NAN, 2.0f};
  f::quantize_mx_block(with_nan, 3, e, &scale);
  EXPECT_EQ(scale, f::kE8M0NaN);
  uint16_t bits[3];
  f::dequantize_mx_block(e, 3, scale, bits);
  for (uint16_t b : bits) EXPECT_TRUE(f::bf16_is_nan(b));

  const float with_inf[2] = {1.0f, INFINITY};
  f::quantize_mx_block(with_inf, 2, e, &scale);
  EXPECT_EQ(scale, f::kE8M0NaN);

  // Tiny block: floor(log2 2^-140) - 8 = -148 is clamped to -127 (byte 0); 2^-140 *
  // 2^127 = 2^-13 is below half the smallest E4M3 subnormal (2^-10) -> 0.
  const float tiny[1] = {0x1p-140f};
  f::quantize_mx_block(tiny, 1, e, &scale);
  EXPECT_EQ(scale, 0);
  EXPECT_EQ(e[0], 0);
}

TEST(MxRow, TensorImageAndRoundTrip) {
  // 10 elements: two blocks (8 + 2), image = 10 element bytes then 2 scale bytes.
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 0.5f, -0.25f};
  const std::vector<uint8_t> image = f::encode_mx_tensor(x.data(), x.size());
  ASSERT_EQ(image.size(), 12u);
  // Block 0 max 8: floor(log2 8) - 8 = -5 -> byte 122. Block 1 max 0.5: -1 - 8 = -9 -> 118.
  EXPECT_EQ(image[10], 122);
  EXPECT_EQ(image[11], 118);
  // 7 * 2^5 = 224 = 1.75 * 2^7 -> e=14, m=6 -> 0x76.
  EXPECT_EQ(image[6], 0x76);
  std::vector<uint16_t> bits(10);
  f::dequantize_mx(image.data(), image.data() + 10, 10, bits.data());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(f::bf16_to_float(bits[i]), x[i]) << i;

  // bf16 input gives the same image.
  std::vector<uint16_t> xb(x.size());
  f::float_to_bf16(x.data(), xb.data(), x.size());
  EXPECT_EQ(f::encode_mx_tensor_bf16(xb.data(), xb.size()), image);

  // Round trip of a value that is not representable: block {2.9, 3.0} -> 3.0, 3.0.
  const float y[2] = {2.9f, 3.0f};
  const std::vector<float> r = f::mx_round_trip(y, 2);
  EXPECT_EQ(r[0], 3.0f);
  EXPECT_EQ(r[1], 3.0f);
  EXPECT_EQ(f::mx_scale_count(16), 2u);
  EXPECT_EQ(f::mx_scale_count(17), 3u);
}
