// OCP Microscaling (MX) FP8: blocks of 8 E4M3 elements sharing one E8M0 scale byte.
// This is how PLENA keeps weights, activations and the KV cache in HBM.
//
// E4M3 (OCP MX v1.0): sign, 4 exponent bits (bias 7), 3 mantissa bits; no infinities;
// S.1111.111 is NaN, so the largest finite magnitude is 1.75 * 2^8 = 448. Exponent field
// 0 encodes subnormals m/8 * 2^-6 (smallest 2^-9).
// E8M0: unsigned exponent byte, value 2^(e - 127); 0xFF is NaN.
//
// Quantisation of a block (OCP MX v1.0, section 6.3): shared exponent
//   X = floor(log2(max_i |x_i|)) - emax_elem,  emax_elem = 8 for E4M3,
// clamped to the E8M0 range [-127, 127]; elements are x_i / 2^X rounded to nearest even
// and saturated to +-448. Choices where the spec leaves room (documented here, tested):
// - an all-zero block gets scale byte 127 (2^0) and zero elements;
// - a block holding a NaN or an infinity gets the NaN scale 0xFF (and NaN elements), so
//   every element of it dequantises to NaN;
// - a NaN element code dequantises to NaN whatever the scale.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tlmcraft::isa::formats {

constexpr int kMxBlockSize = 8;
constexpr int kE4M3Bias = 7;
constexpr int kE4M3EmaxElem = 8;      // exponent of the largest normal (448 = 1.75 * 2^8)
constexpr double kE4M3MaxNormal = 448.0;
constexpr uint8_t kE4M3NaN = 0x7F;    // S.1111.111 (0xFF with the sign bit)
constexpr uint8_t kE8M0NaN = 0xFF;
constexpr int kE8M0Bias = 127;

// E4M3 element <-> value.
float e4m3_to_float(uint8_t code);           // exact; NaN for S.1111.111
uint8_t double_to_e4m3(double value);        // RNE, saturates to +-448, NaN -> 0x7F|sign
inline uint8_t float_to_e4m3(float value) { return double_to_e4m3(value); }

// E8M0 scale <-> value.
double e8m0_to_double(uint8_t code);         // 2^(code-127); NaN for 0xFF
// Scale byte for a block whose largest magnitude is `max_abs` (see rules above).
uint8_t mx_scale_for(double max_abs);

// One block of n <= 8 values (a tensor's last block may be short).
void quantize_mx_block(const float* x, size_t n, uint8_t* elements, uint8_t* scale);
void quantize_mx_block_bf16(const uint16_t* x, size_t n, uint8_t* elements, uint8_t* scale);
// Dequantises to bf16 bits: element value times 2^(scale-127), one RNE rounding (exact
// unless the product leaves bf16's range).
void dequantize_mx_block(const uint8_t* elements, size_t n, uint8_t scale, uint16_t* out_bf16);
void dequantize_mx_block(const uint8_t* elements, size_t n, uint8_t scale, float* out);

// Whole rows / tensors of n values: element i is elements[i]; its scale is
// scales[i / 8] (so `scales` holds ceil(n / 8) bytes). Blocks start at element 0 of
// the span, i.e. the span must begin on a block boundary of the tensor.
void quantize_mx(const float* x, size_t n, uint8_t* elements, uint8_t* scales);
void quantize_mx_bf16(const uint16_t* x, size_t n, uint8_t* elements, uint8_t* scales);
void dequantize_mx(const uint8_t* elements, const uint8_t* scales, size_t n, uint16_t* out_bf16);
void dequantize_mx(const uint8_t* elements, const uint8_t* scales, size_t n, float* out);

inline size_t mx_scale_count(size_t n) { return (n + kMxBlockSize - 1) / kMxBlockSize; }

// The byte image PLENA's HBM holds for a tensor of n elements: n element bytes followed
// by ceil(n/8) scale bytes (the scale stream starts at offset SCALE = n).
std::vector<uint8_t> encode_mx_tensor(const float* x, size_t n);
std::vector<uint8_t> encode_mx_tensor_bf16(const uint16_t* x, size_t n);

// The value a float takes after the HBM round trip (quantise its block, dequantise to bf16).
std::vector<float> mx_round_trip(const float* x, size_t n);

}  // namespace tlmcraft::isa::formats
