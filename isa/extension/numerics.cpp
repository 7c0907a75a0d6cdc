#include "isa/extension/numerics.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "isa/formats/bf16.h"

namespace tlmcraft::isa::extension::detail {

int64_t wrap(ElemFormat f, int64_t v) {
  if (f == ElemFormat::Bool) return v & 1;
  const int bits = bit_width(f);
  if (bits >= 64) return v;
  const uint64_t mask = (uint64_t(1) << bits) - 1;
  const uint64_t low = uint64_t(v) & mask;
  if (is_signed(f) && (low >> (bits - 1)) != 0) return int64_t(low | ~mask);
  return int64_t(low);
}

__int128 int_value(ElemFormat f, int64_t lane) {
  if (f == ElemFormat::U64) return __int128(uint64_t(lane));
  return __int128(lane);
}

namespace {
__int128 min_of(ElemFormat f) {
  if (f == ElemFormat::Bool || !is_signed(f)) return 0;
  return -(__int128(1) << (bit_width(f) - 1));
}
__int128 max_of(ElemFormat f) {
  if (f == ElemFormat::Bool) return 1;
  return is_signed(f) ? (__int128(1) << (bit_width(f) - 1)) - 1 : (__int128(1) << bit_width(f)) - 1;
}
}  // namespace

int64_t saturate(ElemFormat f, __int128 v) {
  const __int128 clamped = std::clamp(v, min_of(f), max_of(f));
  return int64_t(uint64_t(clamped));  // u64 keeps its bit pattern
}

int64_t shift_round_saturate(ElemFormat f, __int128 v, int64_t shift, bool ties_to_even) {
  const int s = int(std::clamp<int64_t>(shift, 0, 64));
  if (s == 0) return saturate(f, v);
  const __int128 floor_q = v >> s;  // arithmetic: floor division by 2^s
  const __int128 rest = v - floor_q * (__int128(1) << s);  // (a left shift of a negative value is UB)
  const __int128 half = __int128(1) << (s - 1);
  __int128 q = floor_q;
  if (rest > half) q = floor_q + 1;
  else if (rest == half) q = ties_to_even ? floor_q + (floor_q & 1) : (v >= 0 ? floor_q + 1 : floor_q);
  return saturate(f, q);
}

int64_t float_to_int(ElemFormat to, float v) {
  if (to == ElemFormat::Bool) return v != 0.0f ? 1 : 0;
  if (std::isnan(v)) return 0;
  const double r = std::nearbyint(double(v));  // default rounding mode: ties to even
  // Outside +-2^64 the value saturates either way; inside, the double is an exact integer.
  if (r >= 18446744073709551616.0) return saturate(to, max_of(ElemFormat::U64));
  if (r <= -18446744073709551616.0) return saturate(to, min_of(ElemFormat::I64));
  const __int128 exact = r < 0 ? -__int128(uint64_t(-r)) : __int128(uint64_t(r));
  return saturate(to, exact);
}

float int_to_float(ElemFormat to, ElemFormat from, int64_t lane) {
  const __int128 v = int_value(from, lane);
  const bool negative = v < 0;
  uint64_t mag = uint64_t(negative ? -v : v);
  if (mag == 0) return 0.0f;
  // Keep `precision` significant bits, rounding the rest to nearest even once.
  const int precision = to == ElemFormat::BF16 ? 8 : 24;
  const int top = 63 - __builtin_clzll(mag);
  int shift = 0;
  if (top >= precision) {
    shift = top + 1 - precision;
    const uint64_t rest = mag & ((uint64_t(1) << shift) - 1);
    const uint64_t half = uint64_t(1) << (shift - 1);
    mag >>= shift;
    if (rest > half || (rest == half && (mag & 1))) ++mag;
  }
  const float result = std::ldexp(float(mag), shift);  // exact: mag <= 2^precision
  return negative ? -result : result;
}

float round_float(ElemFormat to, float v) { return to == ElemFormat::BF16 ? formats::round_to_bf16(v) : v; }

float max_nan(float a, float b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return a > b ? a : b;
}
float min_nan(float a, float b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return a < b ? a : b;
}

float f32_function(Op op, float x) {
  switch (op) {
    case Op::Exp: return std::exp(x);
    case Op::Log: return std::log(x);
    case Op::Sqrt: return std::sqrt(x);
    case Op::Rsqrt: return 1.0f / std::sqrt(x);
    case Op::Recip: return 1.0f / x;
    case Op::Tanh: return std::tanh(x);
    case Op::Sigmoid: return 1.0f / (1.0f + std::exp(-x));
    case Op::Silu: return x * (1.0f / (1.0f + std::exp(-x)));
    case Op::Gelu: {
      // tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), each step in f32.
      const float inner = 0.7978845608f * (x + 0.044715f * x * x * x);
      return 0.5f * x * (1.0f + std::tanh(inner));
    }
    case Op::Abs: return std::fabs(x);
    case Op::Relu: return std::isnan(x) ? x : (x > 0.0f ? x : 0.0f);
    case Op::Neg: return -x;
    default: return x;
  }
}

float fused_multiply_add(ElemFormat to, float a, float b, float c) {
  if (to == ElemFormat::F32) return std::fma(a, b, c);
  // bf16: a*b is exact in double (8 + 8 significant bits); the sum is rounded to double
  // with round-to-odd (the error term decides the last bit), which makes the following
  // rounding to bf16 (8 bits << 53 - 2) the only one that counts.
  const double p = double(a) * double(b);
  const double s = p + double(c);
  if (std::isfinite(s)) {
    const double big = std::fabs(p) >= std::fabs(double(c)) ? p : double(c);
    const double small = big == p ? double(c) : p;
    const double err = small - (s - big);  // exact (Fast2Sum), the part of p + c lost in s
    if (err != 0.0) {
      uint64_t bits;
      std::memcpy(&bits, &s, sizeof bits);
      if ((bits & 1) == 0) {
        const double toward = err > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
        const double odd = std::nextafter(s, toward);
        return formats::bf16_to_float(formats::double_to_bf16(odd));
      }
    }
  }
  return formats::bf16_to_float(formats::double_to_bf16(s));
}

}  // namespace tlmcraft::isa::extension::detail
