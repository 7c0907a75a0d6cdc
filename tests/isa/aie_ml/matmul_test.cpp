// Matrix multiply-accumulate tiles (int8 4x8x8, int16 4x4x4, bf16 4x8x4) with values
// derived by hand, loaded from memory and stored back through SRS / conversion.
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

TEST(AieMatmul, Int8Tile4x8x8) {
  // A[i][k] = i - 1 (rows -1, 0, 1, 2); B[k][j] = j - k.
  // C[i][j] = (i - 1) * sum_k (j - k) = (i - 1) * (8j - 28).
  CoreState s;
  FlatMemory m;
  std::vector<int8_t> A(32), B(64);
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 8; ++k) A[size_t(i * 8 + k)] = int8_t(i - 1);
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < 8; ++j) B[size_t(k * 8 + j)] = int8_t(j - k);
  m.put<int8_t>(0, A);
  m.put<int8_t>(64, B);
  run_text(
      "MOVX p1, 64\n"
      "MOVX p2, 256\n"
      "{ VLDA w0, [p0] ;; VLDB w2, [p1], #32 }\n"
      "VLDB w3, [p1]\n"
      "VMUL.I8 cm0, w0, x1\n"
      "MOV s0, 0\n"
      "VST.SRS.S8.S32 cm0, [p2], s0\n"
      "DONE\n",
      s, m);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      const int expect = (i - 1) * (8 * j - 28);
      EXPECT_EQ(lane_of<int32_t>(s, RegClass::CM, 0, i * 8 + j), expect) << i << "," << j;
      EXPECT_EQ(m.get<int8_t>(256 + uint32_t(i * 8 + j)), int8_t(expect)) << i << "," << j;
    }
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::CM, 0, 0), 28);
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::CM, 0, 31), 56);
}

TEST(AieMatmul, Int8AccumulateWideAndSubtract) {
  // All A and B = -128: each product 16384, 8 per lane = 131072 (needs the 32-bit lane).
  // VMAC twice from zero gives 262144, VMSC once brings it back to 131072.
  CoreState s;
  FlatMemory m;
  std::memset(s.vreg(RegClass::W, 0), 0x80, 32);
  std::memset(s.vreg(RegClass::X, 1), 0x80, 64);
  run_text("VCLR cm1\nVMAC.I8 cm1, cm1, w0, x1\nVMAC.I8 cm1, cm1, w0, x1\nVMSC.I8 cm2, cm1, w0, x1\nDONE\n", s, m);
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::CM, 1, 5), 262144);
  EXPECT_EQ(lane_of<int32_t>(s, RegClass::CM, 2, 31), 131072);
}

TEST(AieMatmul, Int16Tile4x4x4Into64BitLanes) {
  // A = 30000 * identity, B[k][j] = 20000 + k. C[i][j] = 30000 * B[i][j] = 30000 * (20000 + i),
  // 6.0e8 .. 6.0009e8 plus an accumulator of 2^40 added by VMAC: needs the 64-bit lanes.
  CoreState s;
  FlatMemory m;
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 4; ++k) {
      const int16_t a = i == k ? 30000 : 0, b = int16_t(20000 + i);  // B row i
      std::memcpy(s.vreg(RegClass::W, 0) + 2 * (i * 4 + k), &a, 2);
      std::memcpy(s.vreg(RegClass::W, 1) + 2 * (i * 4 + k), &b, 2);
    }
  for (int l = 0; l < 16; ++l) {
    const int64_t big = int64_t(1) << 40;
    std::memcpy(s.vreg(RegClass::CM, 2) + 8 * l, &big, 8);
  }
  run_text("VMUL.I16 cm3, w0, w1\nVMAC.I16 cm4, cm2, w0, w1\nDONE\n", s, m);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(lane_of<int64_t>(s, RegClass::CM, 3, i * 4 + j), 30000LL * (20000 + i));
      EXPECT_EQ(lane_of<int64_t>(s, RegClass::CM, 4, i * 4 + j), (1LL << 40) + 30000LL * (20000 + i));
    }
}

TEST(AieMatmul, Bf16Tile4x8x4) {
  // A[i][k] = 1.0; B[k][j] = 0.5 * (k + 1) (exact in bf16). C[i][j] = 0.5 * 36 = 18.
  CoreState s;
  FlatMemory m;
  std::vector<uint16_t> A(32, float_to_bf16(1.0f)), B(32);
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < 4; ++j) B[size_t(k * 4 + j)] = float_to_bf16(0.5f * float(k + 1));
  m.put<uint16_t>(0, A);
  m.put<uint16_t>(64, B);
  run_text(
      "MOVX p1, 64\n"
      "{ VLDA wl0, [p0], #32 ;; VLDB wl1, [p1], #32 }\n"
      "{ VLDA wh0, [p0] ;; VLDB wh1, [p1] }\n"
      "VMUL.BF16 bm0, x0, x1\n"
      "MOVX p2, 512\n"
      "VST.CONV.BF16.FP32 bm0, [p2]\n"
      "DONE\n",
      s, m);
  for (int l = 0; l < 16; ++l) {
    EXPECT_EQ(lane_of<float>(s, RegClass::BM, 0, l), 18.0f);
    EXPECT_EQ(m.get<uint16_t>(512 + 2 * uint32_t(l)), 0x4190);  // 18.0 = 1.125 * 2^4
  }
}

TEST(AieMatmul, Bf16AccumulatesInFp32WithRoundingAfterEachAdd) {
  // All A, B = 1.0: eight products of 1.0 are added one by one in fp32.
  // Lane 0 starts at 2^24: each 2^24 + 1 is a tie and rounds to even 2^24, so it stays 2^24.
  // Lane 1 starts at 2^24 + 2 (odd significand): +1 ties to 2^24 + 4, then +1 ties back to
  // 2^24 + 4 every time. Lane 2 starts at 0.5 (exact): 8.5.
  CoreState s;
  FlatMemory m;
  for (int i = 0; i < 32; ++i) {
    const uint16_t one = float_to_bf16(1.0f);
    std::memcpy(s.vreg(RegClass::X, 0) + 2 * i, &one, 2);
    std::memcpy(s.vreg(RegClass::X, 1) + 2 * i, &one, 2);
  }
  const float init[3] = {16777216.0f, 16777218.0f, 0.5f};
  std::memcpy(s.vreg(RegClass::BM, 4), init, sizeof init);
  run_text("VMAC.BF16 bm5, bm4, x0, x1\nDONE\n", s, m);
  EXPECT_EQ(lane_of<float>(s, RegClass::BM, 5, 0), 16777216.0f);
  EXPECT_EQ(lane_of<float>(s, RegClass::BM, 5, 1), 16777220.0f);
  EXPECT_EQ(lane_of<float>(s, RegClass::BM, 5, 2), 8.5f);
  EXPECT_EQ(lane_of<float>(s, RegClass::BM, 5, 3), 8.0f);
}

}  // namespace
}  // namespace aie_test
