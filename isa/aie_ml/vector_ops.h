// Internal to isa/aie_ml: the vector-unit arithmetic on register byte images (matrix and
// element-wise multiply-accumulate, vector ALU, permutes, SRS/UPS, conversions).
#pragma once
#include <array>
#include <cstdint>

#include "isa/aie_ml/op_codes.h"

namespace tlmcraft::isa::aie_ml {

struct VectorArgs {
  uint8_t* out = nullptr;                    // destination register image
  std::array<const uint8_t*, 3> in{};        // register images of operands 1..3 (nullptr if not a register)
  std::array<uint32_t, 4> scalar{};          // scalar/immediate values of operands 1..4
  uint32_t rnd = 12, sat = 1;                // crrnd, crsat before the bundle
  int out_bytes = 64;                        // width of the destination view
};

// Runs the pure vector ops (those writing a vector/accumulator from vector inputs).
// False if `c` is not one of them.
bool run_vector(Code c, const VectorArgs& a);

uint64_t compare_mask(Code c, const uint8_t* a, const uint8_t* b);
uint32_t extract_lane(Code c, const uint8_t* x, uint32_t index);
void insert_lane(Code c, uint8_t* x, uint32_t index, uint32_t value);
void select_lanes(uint8_t* out, const uint8_t* a, const uint8_t* b, uint64_t mask, int lane_bytes);
void ups(uint8_t* out, const uint8_t* in, int lanes, int in_bytes, int out_bytes, uint32_t shift);
void srs(uint8_t* out, const uint8_t* in, int lanes, int in_bytes, int out_bytes, bool out_unsigned, uint32_t shift,
         uint32_t rnd, uint32_t sat);
void conv_bf16_to_fp32(uint8_t* out, const uint8_t* in, int lanes);
void conv_fp32_to_bf16(uint8_t* out, const uint8_t* in, int lanes);

}  // namespace tlmcraft::isa::aie_ml
