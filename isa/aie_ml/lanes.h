// Internal to isa/aie_ml: lane access on the little-endian byte images of vector and
// accumulator registers, and the fixed-point / float helpers the vector semantics share.
#pragma once
#include <cstdint>
#include <cstring>

namespace tlmcraft::isa::aie_ml {

template <typename T>
inline T lane(const uint8_t* base, int i) {
  T v;
  std::memcpy(&v, base + size_t(i) * sizeof(T), sizeof(T));
  return v;
}
template <typename T>
inline void set_lane(uint8_t* base, int i, T v) {
  std::memcpy(base + size_t(i) * sizeof(T), &v, sizeof(T));
}
inline float f32_lane(const uint8_t* base, int i) { return lane<float>(base, i); }

// Shift right by `shift` with one of the SRS rounding modes (crrnd), exact on int64 input.
int64_t round_shift(int64_t v, unsigned shift, uint32_t mode);
// Fits a value into `bits` signed (or unsigned) lanes according to crsat.
int64_t saturate(int64_t v, int bits, bool is_unsigned, uint32_t sat_mode);

}  // namespace tlmcraft::isa::aie_ml
