// The vector divider's element lanes (rvv_backend_div_unit): 8 8-bit, 4 16-bit and 4 32-bit
// sign-magnitude dividers that together take one 16-byte micro-op at a time, each element
// of the register (tail and inactive ones too) on its own lane. A lane iterates over its
// dividend's significant bits, a few per cycle, and remembers its last operands: an
// element whose operands equal them, a division by zero and a signed overflow take no
// iterations (rvv_backend_div_unit_divider: count 1).
#pragma once
#include <array>
#include <cstdint>

#include "isa/riscv/hart.h"

namespace tlmcraft::coral {

class VectorDivider {
 public:
  // The dividend bits the slowest lane of micro-op `uop` of divide `s` iterates over
  // (0: every lane answers at once). Updates the lanes' remembered operands.
  uint32_t micro_op_bits(const isa::riscv::StepInfo& s, uint32_t uop);

 private:
  struct Lane {
    uint32_t dividend = 0, divisor = 0;
    bool quotient_negative = false, remainder_negative = false;
  };
  // The lane element k (0..15 / sew_bytes - 1) of a micro-op goes to, and its width in bytes.
  Lane& lane(uint32_t sew_bytes, uint32_t k, uint32_t& width_bytes);
  uint32_t element_bits(const isa::riscv::DivElement& e, uint32_t sew_bytes, uint32_t k);

  std::array<Lane, 8> lanes8_{};
  std::array<Lane, 4> lanes16_{}, lanes32_{};
};

}  // namespace tlmcraft::coral
