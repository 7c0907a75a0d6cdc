// bfloat16: the on-chip number format of PLENA (and the float format of AIE-ML).
// Storage is the upper 16 bits of an IEEE-754 binary32. Conversions round to nearest,
// ties to even; NaNs stay NaN (quieted); overflow rounds to infinity as IEEE RNE does.
// The scalar conversions are inline: the semantics call them for every lane.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tlmcraft::isa::formats {

constexpr uint16_t kBf16Zero = 0x0000;
constexpr uint16_t kBf16NegZero = 0x8000;
constexpr uint16_t kBf16One = 0x3F80;
constexpr uint16_t kBf16Inf = 0x7F80;
constexpr uint16_t kBf16NegInf = 0xFF80;
constexpr uint16_t kBf16QuietNaN = 0x7FC0;
constexpr uint16_t kBf16Max = 0x7F7F;  // (2 - 2^-7) * 2^127

inline float bf16_to_float(uint16_t bits) {
  const uint32_t u = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline uint16_t float_to_bf16(float value) {
  uint32_t u;
  std::memcpy(&u, &value, sizeof u);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) {
    // NaN: keep sign and the top payload bits, force the quiet bit so a signalling
    // NaN whose payload sits only in the low 16 bits cannot turn into infinity.
    return uint16_t((u >> 16) | 0x0040u);
  }
  // Round to nearest even: add 0x7FFF plus the lowest kept bit, then truncate. A carry
  // out of the mantissa correctly bumps the exponent (and overflows to infinity).
  u += 0x7FFFu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}

inline bool bf16_is_nan(uint16_t bits) { return (bits & 0x7FFFu) > 0x7F80u; }
inline bool bf16_is_inf(uint16_t bits) { return (bits & 0x7FFFu) == 0x7F80u; }

// The float nearest to `value` that bf16 can hold (float -> bf16 -> float).
inline float round_to_bf16(float value) { return bf16_to_float(float_to_bf16(value)); }

// Rounds a double straight to bf16 (one rounding, ties to even), for references that
// compute in double; going through float first could round twice.
uint16_t double_to_bf16(double value);

// Whole-row helpers (n elements; in and out may not overlap partially).
void bf16_to_float(const uint16_t* in, float* out, size_t n);
void float_to_bf16(const float* in, uint16_t* out, size_t n);
void double_to_bf16(const double* in, uint16_t* out, size_t n);

}  // namespace tlmcraft::isa::formats
