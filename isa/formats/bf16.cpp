#include "isa/formats/bf16.h"

#include <cmath>

namespace tlmcraft::isa::formats {

uint16_t double_to_bf16(double value) {
  if (std::isnan(value)) return std::signbit(value) ? uint16_t(0xFFC0) : kBf16QuietNaN;
  if (std::isinf(value)) return std::signbit(value) ? kBf16NegInf : kBf16Inf;
  if (value == 0.0) return std::signbit(value) ? kBf16NegZero : kBf16Zero;
  // bf16 keeps 8 significant bits; below the smallest normal (2^-126) the spacing is
  // fixed at 2^-133. Scale so the kept bits are the integer part, round half to even
  // with nearbyint (default rounding mode), scale back: every step is exact in double.
  const double mag = std::fabs(value);
  const int exponent = std::ilogb(mag);
  const int quantum_exp = exponent >= -126 ? exponent - 7 : -133;
  const double rounded = std::ldexp(std::nearbyint(std::ldexp(mag, -quantum_exp)), quantum_exp);
  const double max_finite = std::ldexp(255.0, 120);  // 0x7F7F = 1.9921875 * 2^127
  uint16_t bits;
  if (rounded > max_finite) {
    bits = kBf16Inf;
  } else {
    bits = float_to_bf16(static_cast<float>(rounded));  // exact: rounded fits bf16
  }
  return std::signbit(value) ? uint16_t(bits | 0x8000u) : bits;
}

void bf16_to_float(const uint16_t* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = bf16_to_float(in[i]);
}

void float_to_bf16(const float* in, uint16_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = float_to_bf16(in[i]);
}

void double_to_bf16(const double* in, uint16_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = double_to_bf16(in[i]);
}

}  // namespace tlmcraft::isa::formats
