#include "platforms/coral/vector_divider.h"

#include <algorithm>

namespace tlmcraft::coral {

namespace rv = tlmcraft::isa::riscv;

// e8: elements 0-7 on the 8-bit lanes, 8-11 on the 16-bit, 12-15 on the 32-bit ones;
// e16: 0-3 on the 16-bit, 4-7 on the 32-bit lanes; e32: 0-3 on the 32-bit lanes.
VectorDivider::Lane& VectorDivider::lane(uint32_t sew_bytes, uint32_t k, uint32_t& width_bytes) {
  if (sew_bytes == 1 && k < 8) return width_bytes = 1, lanes8_[k];
  if (sew_bytes == 1 && k < 12) return width_bytes = 2, lanes16_[k - 8];
  if (sew_bytes == 1) return width_bytes = 4, lanes32_[(k - 12) & 3];
  if (sew_bytes == 2 && k < 4) return width_bytes = 2, lanes16_[k];
  if (sew_bytes == 2) return width_bytes = 4, lanes32_[(k - 4) & 3];
  return width_bytes = 4, lanes32_[k & 3];
}

uint32_t VectorDivider::element_bits(const rv::DivElement& e, uint32_t sew_bytes, uint32_t k) {
  uint32_t width = 0;
  Lane& l = lane(sew_bytes, k, width);
  // Only a lane as wide as the element sees MIN / -1 as an overflow (a wider one divides).
  if (e.by_zero || (e.overflow && width == sew_bytes)) {
    l = Lane{};
    return 0;
  }
  const Lane now{e.dividend, e.divisor, e.quotient_negative, e.remainder_negative};
  if (now.dividend == l.dividend && now.divisor == l.divisor && now.quotient_negative == l.quotient_negative &&
      now.remainder_negative == l.remainder_negative)
    return 0;
  l = now;
  return e.dividend ? 32 - uint32_t(__builtin_clz(e.dividend)) : 0;
}

uint32_t VectorDivider::micro_op_bits(const rv::StepInfo& s, uint32_t uop) {
  const uint32_t sew = std::clamp<uint32_t>(s.sew_bytes, 1, 4);
  const uint32_t per_uop = rv::kVlenBytes / sew;
  uint32_t bits = 0;
  for (uint32_t k = 0; k < per_uop; ++k) {
    const size_t i = size_t(uop) * per_uop + k;
    if (i >= s.div_elements.size()) break;
    bits = std::max(bits, element_bits(s.div_elements[i], sew, k));
  }
  return bits;
}

}  // namespace tlmcraft::coral
