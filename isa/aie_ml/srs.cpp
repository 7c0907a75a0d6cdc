// Shift-round-saturate: the rounding modes (crrnd) and saturation modes (crsat) of the
// AIE-ML SRS path. Mode numbers follow the AIE API rounding_mode list (docs/isa/aie-ml.md).
#include <cstdint>

#include "isa/aie_ml/lanes.h"

namespace tlmcraft::isa::aie_ml {

int64_t round_shift(int64_t v, unsigned shift, uint32_t mode) {
  if (shift == 0) return v;
  if (shift > 62) shift = 62;
  // Work in 128 bits so adding the rounding constant can never overflow.
  const __int128 x = v;
  const __int128 one = 1;
  const __int128 half = one << (shift - 1);
  const __int128 mask = (one << shift) - 1;
  const __int128 floor_q = x >> shift;              // arithmetic: rounds toward -inf
  const __int128 frac = x & mask;                   // remainder in [0, 2^shift)
  const bool exact = frac == 0;
  const bool neg = v < 0;
  __int128 q = floor_q;
  switch (mode) {
    case 0: q = floor_q; break;                                  // floor
    case 1: q = floor_q + (exact ? 0 : 1); break;                // ceil
    case 2: q = neg ? floor_q + (exact ? 0 : 1) : floor_q; break;  // symmetric floor: toward zero
    case 3: q = neg ? floor_q : floor_q + (exact ? 0 : 1); break;  // symmetric ceil: away from zero
    case 8: q = floor_q + (frac > half ? 1 : 0); break;          // nearest, ties toward -inf
    case 9: q = floor_q + (frac >= half ? 1 : 0); break;         // nearest, ties toward +inf
    case 10:                                                     // nearest, ties toward zero
      q = floor_q + ((frac > half || (frac == half && neg)) ? 1 : 0);
      break;
    case 11:                                                     // nearest, ties away from zero
      q = floor_q + ((frac > half || (frac == half && !neg)) ? 1 : 0);
      break;
    case 12:                                                     // nearest, ties to even
      q = floor_q + ((frac > half || (frac == half && (floor_q & 1))) ? 1 : 0);
      break;
    case 13:                                                     // nearest, ties to odd
      q = floor_q + ((frac > half || (frac == half && !(floor_q & 1))) ? 1 : 0);
      break;
    default: q = floor_q; break;  // undefined mode numbers truncate (documented)
  }
  return int64_t(q);
}

int64_t saturate(int64_t v, int bits, bool is_unsigned, uint32_t sat_mode) {
  const int64_t maxv = is_unsigned ? (int64_t(1) << bits) - 1 : (int64_t(1) << (bits - 1)) - 1;
  const int64_t minv = is_unsigned ? 0 : -(int64_t(1) << (bits - 1));
  if (sat_mode == 0) {  // wrap: keep the low `bits` bits
    const uint64_t m = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    uint64_t u = uint64_t(v) & m;
    if (!is_unsigned && bits < 64 && (u >> (bits - 1)) & 1) u |= ~m;
    return int64_t(u);
  }
  const int64_t lo = (sat_mode == 3 && !is_unsigned) ? -maxv : minv;
  return v < lo ? lo : v > maxv ? maxv : v;
}

}  // namespace tlmcraft::isa::aie_ml
