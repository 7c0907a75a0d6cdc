// Integer quantisation helpers for the int8 tasks (Coral NPU, AIE-ML int8 paths):
// saturation, rounding right shifts in the rounding modes hardware offers, and
// requantisation of wide accumulators with a fixed-point multiplier and shift.
#pragma once
#include <cstdint>

namespace tlmcraft::isa::formats {

enum class Rounding {
  NearestUp,       // round half toward +infinity: (v + 2^(s-1)) >> s   (RVV vxrm = rnu)
  NearestEven,     // round half to even                                 (RVV vxrm = rne)
  Down,            // truncate toward -infinity: v >> s                  (RVV vxrm = rdn)
  ToOdd,           // jam: set the lowest bit if any shifted-out bit is 1 (RVV vxrm = rod)
  NearestAwayFromZero,  // round half away from zero (TFLite/gemmlowp style)
};

int8_t saturate_int8(int64_t v);
uint8_t saturate_uint8(int64_t v);
int16_t saturate_int16(int64_t v);
int32_t saturate_int32(int64_t v);

// v / 2^shift rounded with `mode`. shift is clamped to [0, 62]; shift 0 returns v.
int64_t rounding_shift_right(int64_t v, int shift, Rounding mode);

// round(acc * multiplier / 2^shift) with `mode`, saturated to int32. The product is
// formed exactly in 64 bits.
int32_t requantize(int32_t acc, int32_t multiplier, int shift, Rounding mode);

// saturate_int8(requantize(acc, multiplier, shift, mode) + zero_point).
int8_t requantize_int8(int32_t acc, int32_t multiplier, int shift, int32_t zero_point,
                       Rounding mode);

// A real multiplier as multiplier * 2^-shift with multiplier in [2^30, 2^31) (Q31
// mantissa) and shift >= 0, the form integer kernels apply with requantize(). Real
// multipliers must lie in (0, 2^31); others give {0, 0}. The mantissa is rounded to
// nearest (half away from zero); if that reaches 2^31 it is halved and shift reduced.
struct FixedPointMultiplier {
  int32_t multiplier = 0;
  int shift = 0;
};
FixedPointMultiplier quantize_multiplier(double real_multiplier);

// saturate_int8(round(x / scale) + zero_point), rounding half to even (as numpy/torch).
int8_t quantize_int8(double x, double scale, int32_t zero_point);
double dequantize_int8(int8_t q, double scale, int32_t zero_point);

}  // namespace tlmcraft::isa::formats
