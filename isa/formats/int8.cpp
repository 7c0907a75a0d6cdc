#include "isa/formats/int8.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tlmcraft::isa::formats {

int8_t saturate_int8(int64_t v) { return int8_t(std::clamp<int64_t>(v, -128, 127)); }
uint8_t saturate_uint8(int64_t v) { return uint8_t(std::clamp<int64_t>(v, 0, 255)); }
int16_t saturate_int16(int64_t v) { return int16_t(std::clamp<int64_t>(v, -32768, 32767)); }
int32_t saturate_int32(int64_t v) {
  return int32_t(std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                     std::numeric_limits<int32_t>::max()));
}

int64_t rounding_shift_right(int64_t v, int shift, Rounding mode) {
  shift = std::clamp(shift, 0, 62);
  if (shift == 0) return v;
  // Arithmetic shift = floor division; `rest` is the discarded fraction in [0, 2^shift).
  const int64_t floor_q = v >> shift;
  const int64_t rest = v & ((int64_t(1) << shift) - 1);
  const int64_t half = int64_t(1) << (shift - 1);
  switch (mode) {
    case Rounding::Down:
      return floor_q;
    case Rounding::NearestUp:
      return floor_q + (rest >= half ? 1 : 0);
    case Rounding::NearestEven:
      if (rest > half) return floor_q + 1;
      if (rest < half) return floor_q;
      return floor_q + (floor_q & 1);
    case Rounding::ToOdd:
      return rest != 0 ? (floor_q | 1) : floor_q;
    case Rounding::NearestAwayFromZero:
      if (rest > half) return floor_q + 1;
      if (rest < half) return floor_q;
      return v >= 0 ? floor_q + 1 : floor_q;  // tie: away from zero
  }
  return floor_q;
}

int32_t requantize(int32_t acc, int32_t multiplier, int shift, Rounding mode) {
  const int64_t product = int64_t(acc) * int64_t(multiplier);  // exact: |product| < 2^62
  return saturate_int32(rounding_shift_right(product, shift, mode));
}

int8_t requantize_int8(int32_t acc, int32_t multiplier, int shift, int32_t zero_point,
                       Rounding mode) {
  return saturate_int8(int64_t(requantize(acc, multiplier, shift, mode)) + zero_point);
}

FixedPointMultiplier quantize_multiplier(double real_multiplier) {
  if (!(real_multiplier > 0.0) || !std::isfinite(real_multiplier) || real_multiplier >= 2147483648.0)
    return {};
  int exponent = 0;
  const double fraction = std::frexp(real_multiplier, &exponent);  // in [0.5, 1)
  int64_t mantissa = std::llround(std::ldexp(fraction, 31));     // in [2^30, 2^31]
  int shift = 31 - exponent;
  if (mantissa == (int64_t(1) << 31)) {
    mantissa >>= 1;
    --shift;
  }
  if (shift < 0) return {};  // not representable with a right shift
  if (shift > 62) return {};  // underflows the 64-bit product
  return {int32_t(mantissa), shift};
}

int8_t quantize_int8(double x, double scale, int32_t zero_point) {
  if (!(scale > 0.0) || std::isnan(x)) return saturate_int8(zero_point);
  const double q = std::nearbyint(x / scale);  // default rounding mode: half to even
  if (q > 1e6) return 127;
  if (q < -1e6) return -128;
  return saturate_int8(int64_t(q) + zero_point);
}

double dequantize_int8(int8_t q, double scale, int32_t zero_point) {
  return (double(q) - zero_point) * scale;
}

}  // namespace tlmcraft::isa::formats
