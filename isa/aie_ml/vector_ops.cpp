// Vector-unit arithmetic of the AIE-ML model. Matrix layouts follow the AIE API mmul
// shapes: A (M x K), B (K x N) and C (M x N) are row-major blocks in their registers.
// Floats: bf16 products are exact in fp32; every fp32 add rounds to nearest even (the
// library is built with -ffp-contract=off so no fused multiply-add changes the result).
#include <cmath>
#include <cstring>
#include <limits>

#include "isa/aie_ml/lanes.h"
#include "isa/aie_ml/vector_ops.h"
#include "isa/formats/bf16.h"

namespace tlmcraft::isa::aie_ml {

using formats::bf16_to_float;
using formats::float_to_bf16;

namespace {

// C[M x N] (+)= A[M x K] * B[K x N] on integer lanes; lanes of C are Acc-typed.
template <typename In, typename Acc>
void int_matmul(uint8_t* out, const uint8_t* acc, const uint8_t* A, const uint8_t* B, int M, int K, int N, int sign) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int64_t sum = 0;
      for (int k = 0; k < K; ++k) sum += int64_t(lane<In>(A, i * K + k)) * int64_t(lane<In>(B, k * N + j));
      // Two's-complement wrap into the lane width (the accumulator is not saturating).
      const uint64_t base = acc ? uint64_t(int64_t(lane<Acc>(acc, i * N + j))) : 0;
      const uint64_t r = sign > 0 ? base + uint64_t(sum) : base - uint64_t(sum);
      set_lane<Acc>(out, i * N + j, Acc(r));
    }
}

void bf16_matmul(uint8_t* out, const uint8_t* acc, const uint8_t* A, const uint8_t* B, int M, int K, int N, int sign) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float c = acc ? f32_lane(acc, i * N + j) : 0.0f;
      for (int k = 0; k < K; ++k) {
        const float p = bf16_to_float(lane<uint16_t>(A, i * K + k)) * bf16_to_float(lane<uint16_t>(B, k * N + j));
        if (!acc && k == 0) c = sign > 0 ? p : -p;  // VMUL starts from the first product (keeps -0)
        else c = sign > 0 ? c + p : c - p;
      }
      set_lane<float>(out, i * N + j, c);
    }
}

template <typename In, typename Acc>
void int_elementwise(uint8_t* out, const uint8_t* acc, const uint8_t* a, const uint8_t* b, int lanes) {
  for (int i = 0; i < lanes; ++i) {
    const int64_t p = int64_t(lane<In>(a, i)) * int64_t(lane<In>(b, i));
    const uint64_t base = acc ? uint64_t(int64_t(lane<Acc>(acc, i))) : 0;
    set_lane<Acc>(out, i, Acc(base + uint64_t(p)));
  }
}

template <typename T>
void lanewise_int(uint8_t* out, const uint8_t* a, const uint8_t* b, int bytes, int op) {
  using U = std::make_unsigned_t<T>;
  for (int i = 0; i < bytes / int(sizeof(T)); ++i) {
    const T x = lane<T>(a, i), y = lane<T>(b, i);
    T r;
    switch (op) {
      case 0: r = T(U(x) + U(y)); break;
      case 1: r = T(U(x) - U(y)); break;
      case 2: r = x > y ? x : y; break;
      default: r = x < y ? x : y; break;
    }
    set_lane<T>(out, i, r);
  }
}

void lanewise_bf16_minmax(uint8_t* out, const uint8_t* a, const uint8_t* b, bool is_max) {
  for (int i = 0; i < 32; ++i) {
    const uint16_t xa = lane<uint16_t>(a, i), xb = lane<uint16_t>(b, i);
    const float fa = bf16_to_float(xa), fb = bf16_to_float(xb);
    uint16_t r;
    if (std::isnan(fa)) r = xb;
    else if (std::isnan(fb)) r = xa;
    else r = is_max ? (fa >= fb ? xa : xb) : (fa <= fb ? xa : xb);
    set_lane<uint16_t>(out, i, r);
  }
}

void shuffle(uint8_t* out, const uint8_t* a, const uint8_t* b, uint32_t mode) {
  const int esize = 1 << std::min<uint32_t>(mode / 4, 2);
  const int kind = int(mode % 4);
  const int E = 64 / esize;
  uint8_t cat[128];
  std::memcpy(cat, a, 64);
  std::memcpy(cat + 64, b, 64);
  for (int i = 0; i < E; ++i) {
    int src;  // element index into cat
    switch (kind) {
      case 0: src = (i % 2 ? E : 0) + i / 2; break;          // a0 b0 a1 b1 ... (low halves)
      case 1: src = (i % 2 ? E : 0) + E / 2 + i / 2; break;  // high halves
      case 2: src = 2 * i; break;                            // even elements of a:b
      default: src = 2 * i + 1; break;                       // odd elements of a:b
    }
    std::memcpy(out + i * esize, cat + src * esize, size_t(esize));
  }
}

}  // namespace

void ups(uint8_t* out, const uint8_t* in, int lanes, int in_bytes, int out_bytes, uint32_t shift) {
  for (int i = 0; i < lanes; ++i) {
    int64_t v = in_bytes == 1 ? lane<int8_t>(in, i) : in_bytes == 2 ? lane<int16_t>(in, i) : lane<int32_t>(in, i);
    const uint64_t r = shift >= 64 ? 0 : uint64_t(v) << shift;
    if (out_bytes == 4) set_lane<int32_t>(out, i, int32_t(uint32_t(r)));
    else set_lane<int64_t>(out, i, int64_t(r));
  }
}

void srs(uint8_t* out, const uint8_t* in, int lanes, int in_bytes, int out_bytes, bool out_unsigned, uint32_t shift,
         uint32_t rnd, uint32_t sat) {
  for (int i = 0; i < lanes; ++i) {
    const int64_t v = in_bytes == 4 ? int64_t(lane<int32_t>(in, i)) : lane<int64_t>(in, i);
    const int64_t r = saturate(round_shift(v, shift, rnd), out_bytes * 8, out_unsigned, sat);
    switch (out_bytes) {
      case 1: set_lane<uint8_t>(out, i, uint8_t(r)); break;
      case 2: set_lane<int16_t>(out, i, int16_t(r)); break;
      default: set_lane<int32_t>(out, i, int32_t(r)); break;
    }
  }
}

void conv_bf16_to_fp32(uint8_t* out, const uint8_t* in, int lanes) {
  for (int i = 0; i < lanes; ++i) set_lane<float>(out, i, bf16_to_float(lane<uint16_t>(in, i)));
}

void conv_fp32_to_bf16(uint8_t* out, const uint8_t* in, int lanes) {
  for (int i = 0; i < lanes; ++i) set_lane<uint16_t>(out, i, float_to_bf16(f32_lane(in, i)));
}

uint64_t compare_mask(Code c, const uint8_t* a, const uint8_t* b) {
  uint64_t m = 0;
  auto put = [&](int i, bool v) { m |= uint64_t(v) << i; };
  switch (c) {
    case Code::VLT_S8: for (int i = 0; i < 64; ++i) put(i, lane<int8_t>(a, i) < lane<int8_t>(b, i)); break;
    case Code::VLT_S16: for (int i = 0; i < 32; ++i) put(i, lane<int16_t>(a, i) < lane<int16_t>(b, i)); break;
    case Code::VLT_S32: for (int i = 0; i < 16; ++i) put(i, lane<int32_t>(a, i) < lane<int32_t>(b, i)); break;
    case Code::VGE_S16: for (int i = 0; i < 32; ++i) put(i, lane<int16_t>(a, i) >= lane<int16_t>(b, i)); break;
    case Code::VEQ_16: for (int i = 0; i < 32; ++i) put(i, lane<uint16_t>(a, i) == lane<uint16_t>(b, i)); break;
    case Code::VLT_BF16:
      for (int i = 0; i < 32; ++i) put(i, bf16_to_float(lane<uint16_t>(a, i)) < bf16_to_float(lane<uint16_t>(b, i)));
      break;
    case Code::VGE_BF16:
      for (int i = 0; i < 32; ++i) put(i, bf16_to_float(lane<uint16_t>(a, i)) >= bf16_to_float(lane<uint16_t>(b, i)));
      break;
    default: break;
  }
  return m;
}

uint32_t extract_lane(Code c, const uint8_t* x, uint32_t index) {
  switch (c) {
    case Code::VEXTRACT_S8: return uint32_t(int32_t(lane<int8_t>(x, int(index % 64))));
    case Code::VEXTRACT_S16: return uint32_t(int32_t(lane<int16_t>(x, int(index % 32))));
    case Code::VEXTRACT_U16: return lane<uint16_t>(x, int(index % 32));
    default: return lane<uint32_t>(x, int(index % 16));
  }
}

void insert_lane(Code c, uint8_t* x, uint32_t index, uint32_t value) {
  switch (c) {
    case Code::VINSERT_8: set_lane<uint8_t>(x, int(index % 64), uint8_t(value)); break;
    case Code::VINSERT_16: set_lane<uint16_t>(x, int(index % 32), uint16_t(value)); break;
    default: set_lane<uint32_t>(x, int(index % 16), value); break;
  }
}

void select_lanes(uint8_t* out, const uint8_t* a, const uint8_t* b, uint64_t mask, int lane_bytes) {
  const int lanes = 64 / lane_bytes;
  uint8_t tmp[64];
  for (int i = 0; i < lanes; ++i)
    std::memcpy(tmp + i * lane_bytes, ((mask >> i) & 1) ? b + i * lane_bytes : a + i * lane_bytes, size_t(lane_bytes));
  std::memcpy(out, tmp, 64);
}

bool run_vector(Code c, const VectorArgs& a) {
  const auto& in = a.in;
  uint8_t tmp[128];  // results go through tmp so an output may alias an input
  switch (c) {
    case Code::VMUL_I8: int_matmul<int8_t, int32_t>(tmp, nullptr, in[0], in[1], 4, 8, 8, 1); break;
    case Code::VMAC_I8: int_matmul<int8_t, int32_t>(tmp, in[0], in[1], in[2], 4, 8, 8, 1); break;
    case Code::VMSC_I8: int_matmul<int8_t, int32_t>(tmp, in[0], in[1], in[2], 4, 8, 8, -1); break;
    case Code::VMUL_I16: int_matmul<int16_t, int64_t>(tmp, nullptr, in[0], in[1], 4, 4, 4, 1); break;
    case Code::VMAC_I16: int_matmul<int16_t, int64_t>(tmp, in[0], in[1], in[2], 4, 4, 4, 1); break;
    case Code::VMUL_BF16: bf16_matmul(tmp, nullptr, in[0], in[1], 4, 8, 4, 1); break;
    case Code::VMAC_BF16: bf16_matmul(tmp, in[0], in[1], in[2], 4, 8, 4, 1); break;
    case Code::VMSC_BF16: bf16_matmul(tmp, in[0], in[1], in[2], 4, 8, 4, -1); break;
    case Code::VMUL_E_S8: int_elementwise<int8_t, int32_t>(tmp, nullptr, in[0], in[1], 32); break;
    case Code::VMAC_E_S8: int_elementwise<int8_t, int32_t>(tmp, in[0], in[1], in[2], 32); break;
    case Code::VMUL_E_S16: int_elementwise<int16_t, int32_t>(tmp, nullptr, in[0], in[1], 32); break;
    case Code::VMAC_E_S16: int_elementwise<int16_t, int32_t>(tmp, in[0], in[1], in[2], 32); break;
    case Code::VMUL_E_BF16: case Code::VMAC_E_BF16:
      for (int i = 0; i < 16; ++i) {
        const uint8_t* x = c == Code::VMUL_E_BF16 ? in[0] : in[1];
        const uint8_t* y = c == Code::VMUL_E_BF16 ? in[1] : in[2];
        const float p = bf16_to_float(lane<uint16_t>(x, i)) * bf16_to_float(lane<uint16_t>(y, i));
        set_lane<float>(tmp, i, c == Code::VMUL_E_BF16 ? p : f32_lane(in[0], i) + p);
      }
      break;
    case Code::VADD_ACC32: lanewise_int<int32_t>(tmp, in[0], in[1], a.out_bytes, 0); break;
    case Code::VSUB_ACC32: lanewise_int<int32_t>(tmp, in[0], in[1], a.out_bytes, 1); break;
    case Code::VADD_ACC64: lanewise_int<int64_t>(tmp, in[0], in[1], a.out_bytes, 0); break;
    case Code::VADD_F: case Code::VSUB_F:
      for (int i = 0; i < 16; ++i)
        set_lane<float>(tmp, i, c == Code::VADD_F ? f32_lane(in[0], i) + f32_lane(in[1], i) : f32_lane(in[0], i) - f32_lane(in[1], i));
      break;
    case Code::VADD_8: lanewise_int<int8_t>(tmp, in[0], in[1], 64, 0); break;
    case Code::VADD_16: lanewise_int<int16_t>(tmp, in[0], in[1], 64, 0); break;
    case Code::VADD_32: lanewise_int<int32_t>(tmp, in[0], in[1], 64, 0); break;
    case Code::VSUB_8: lanewise_int<int8_t>(tmp, in[0], in[1], 64, 1); break;
    case Code::VSUB_16: lanewise_int<int16_t>(tmp, in[0], in[1], 64, 1); break;
    case Code::VSUB_32: lanewise_int<int32_t>(tmp, in[0], in[1], 64, 1); break;
    case Code::VMAX_S8: lanewise_int<int8_t>(tmp, in[0], in[1], 64, 2); break;
    case Code::VMAX_S16: lanewise_int<int16_t>(tmp, in[0], in[1], 64, 2); break;
    case Code::VMAX_S32: lanewise_int<int32_t>(tmp, in[0], in[1], 64, 2); break;
    case Code::VMIN_S8: lanewise_int<int8_t>(tmp, in[0], in[1], 64, 3); break;
    case Code::VMIN_S16: lanewise_int<int16_t>(tmp, in[0], in[1], 64, 3); break;
    case Code::VMIN_S32: lanewise_int<int32_t>(tmp, in[0], in[1], 64, 3); break;
    case Code::VMAX_BF16: lanewise_bf16_minmax(tmp, in[0], in[1], true); break;
    case Code::VMIN_BF16: lanewise_bf16_minmax(tmp, in[0], in[1], false); break;
    case Code::VSEL_16: select_lanes(tmp, in[0], in[1], a.scalar[2], 2); break;
    case Code::VSEL_32: select_lanes(tmp, in[0], in[1], a.scalar[2], 4); break;
    case Code::VBCST_8: for (int i = 0; i < 64; ++i) set_lane<uint8_t>(tmp, i, uint8_t(a.scalar[0])); break;
    case Code::VBCST_16: for (int i = 0; i < 32; ++i) set_lane<uint16_t>(tmp, i, uint16_t(a.scalar[0])); break;
    case Code::VBCST_32: for (int i = 0; i < 16; ++i) set_lane<uint32_t>(tmp, i, a.scalar[0]); break;
    case Code::VSHIFT: {
      uint8_t cat[128];
      std::memcpy(cat, in[0], 64);
      std::memcpy(cat + 64, in[1], 64);
      const uint32_t sh = a.scalar[2] & 63;
      std::memcpy(tmp, cat + sh, 64);
      break;
    }
    case Code::VSHUFFLE: shuffle(tmp, in[0], in[1], a.scalar[2] % 12); break;
    case Code::VSRS_S8_S32: srs(tmp, in[0], 32, 4, 1, false, a.scalar[1], a.rnd, a.sat); break;
    case Code::VSRS_U8_S32: srs(tmp, in[0], 32, 4, 1, true, a.scalar[1], a.rnd, a.sat); break;
    case Code::VSRS_S16_S32: srs(tmp, in[0], 16, 4, 2, false, a.scalar[1], a.rnd, a.sat); break;
    case Code::VSRS_S16_S64: srs(tmp, in[0], 16, 8, 2, false, a.scalar[1], a.rnd, a.sat); break;
    case Code::VSRS_S32_S64: srs(tmp, in[0], 16, 8, 4, false, a.scalar[1], a.rnd, a.sat); break;
    case Code::VUPS_S32_S8: ups(tmp, in[0], 32, 1, 4, a.scalar[1]); break;
    case Code::VUPS_S32_S16: ups(tmp, in[0], 16, 2, 4, a.scalar[1]); break;
    case Code::VUPS_S64_S16: ups(tmp, in[0], 16, 2, 8, a.scalar[1]); break;
    case Code::VUPS_S64_S32: ups(tmp, in[0], 16, 4, 8, a.scalar[1]); break;
    case Code::VCONV_FP32_BF16: conv_bf16_to_fp32(tmp, in[0], 16); break;
    case Code::VCONV_BF16_FP32: conv_fp32_to_bf16(tmp, in[0], 16); break;
    case Code::VCONV_FP32_S32:
      for (int i = 0; i < 16; ++i) set_lane<float>(tmp, i, float(lane<int32_t>(in[0], i)));
      break;
    case Code::VCONV_S32_FP32:
      for (int i = 0; i < 16; ++i) {
        const double v = std::ldexp(double(f32_lane(in[0], i)), int(a.scalar[1]));
        int32_t r;
        if (std::isnan(v)) r = 0;
        else if (v >= 2147483647.0) r = std::numeric_limits<int32_t>::max();
        else if (v <= -2147483648.0) r = std::numeric_limits<int32_t>::min();
        else r = int32_t(std::nearbyint(v));  // default FP environment: nearest, ties to even
        set_lane<int32_t>(tmp, i, r);
      }
      break;
    default: return false;
  }
  std::memcpy(a.out, tmp, size_t(a.out_bytes));
  return true;
}

}  // namespace tlmcraft::isa::aie_ml
