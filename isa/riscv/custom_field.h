// The register number or immediate an added instruction's operand field holds in a decoded
// word: what the composition (custom_ext.cpp) and the semantics (custom_ext_semantics.cpp)
// both read an operand through.
#pragma once
#include <cstdint>

#include "isa/riscv/custom_ext.h"

namespace tlmcraft::isa::riscv {

inline uint32_t custom_field_value(const DecodedInsn& d, Field f) {
  switch (f) {
    case Field::Rd:
      return d.rd;
    case Field::Rs1:
      return d.rs1;
    case Field::Rs2:
      return d.rs2;
    case Field::Rs3:
      return d.rs3;
    case Field::Imm:
      return uint32_t(d.imm);
  }
  return 0;
}

}  // namespace tlmcraft::isa::riscv
