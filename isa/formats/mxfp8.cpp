#include "isa/formats/mxfp8.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "isa/formats/bf16.h"

namespace tlmcraft::isa::formats {
namespace {

double e4m3_magnitude(uint8_t code) {
  const int exponent = (code >> 3) & 0xF;
  const int mantissa = code & 0x7;
  if (exponent == 0) return std::ldexp(double(mantissa), -9);  // m/8 * 2^-6
  return std::ldexp(double(8 + mantissa), exponent - kE4M3Bias - 3);
}

// Dequantisation runs for every HBM byte a prefetch moves, so decode through a table.
struct E4M3Table {
  std::array<float, 256> value{};
  E4M3Table() {
    for (int c = 0; c < 256; ++c) {
      const uint8_t code = uint8_t(c);
      if ((code & 0x7F) == kE4M3NaN) {
        value[c] = std::numeric_limits<float>::quiet_NaN();
      } else {
        const double mag = e4m3_magnitude(code);
        value[c] = float((code & 0x80) ? -mag : mag);
      }
    }
  }
};
const E4M3Table& e4m3_table() {
  static const E4M3Table table;
  return table;
}

template <class T>
double to_double(T v);
template <>
double to_double<float>(float v) { return v; }
template <>
double to_double<uint16_t>(uint16_t v) { return bf16_to_float(v); }

template <class T>
void quantize_block(const T* x, size_t n, uint8_t* elements, uint8_t* scale) {
  double max_abs = 0.0;
  bool special = false;
  for (size_t i = 0; i < n; ++i) {
    const double v = to_double(x[i]);
    if (!std::isfinite(v)) special = true;
    else max_abs = std::max(max_abs, std::fabs(v));
  }
  if (special) {
    *scale = kE8M0NaN;
    for (size_t i = 0; i < n; ++i) elements[i] = kE4M3NaN;
    return;
  }
  *scale = mx_scale_for(max_abs);
  const int shared = int(*scale) - kE8M0Bias;
  for (size_t i = 0; i < n; ++i) elements[i] = double_to_e4m3(std::ldexp(to_double(x[i]), -shared));
}

template <class Out>
void dequantize_block(const uint8_t* elements, size_t n, uint8_t scale, Out* out);

template <>
void dequantize_block<uint16_t>(const uint8_t* elements, size_t n, uint8_t scale, uint16_t* out) {
  const auto& table = e4m3_table().value;
  if (scale == kE8M0NaN) {
    for (size_t i = 0; i < n; ++i) out[i] = kBf16QuietNaN;
    return;
  }
  const double factor = e8m0_to_double(scale);
  for (size_t i = 0; i < n; ++i) out[i] = double_to_bf16(double(table[elements[i]]) * factor);
}

template <>
void dequantize_block<float>(const uint8_t* elements, size_t n, uint8_t scale, float* out) {
  const auto& table = e4m3_table().value;
  if (scale == kE8M0NaN) {
    for (size_t i = 0; i < n; ++i) out[i] = std::numeric_limits<float>::quiet_NaN();
    return;
  }
  const double factor = e8m0_to_double(scale);
  for (size_t i = 0; i < n; ++i) out[i] = float(double(table[elements[i]]) * factor);
}

template <class T>
void quantize_span(const T* x, size_t n, uint8_t* elements, uint8_t* scales) {
  for (size_t b = 0; b * kMxBlockSize < n; ++b) {
    const size_t first = b * kMxBlockSize;
    quantize_block(x + first, std::min<size_t>(kMxBlockSize, n - first), elements + first, scales + b);
  }
}

template <class Out>
void dequantize_span(const uint8_t* elements, const uint8_t* scales, size_t n, Out* out) {
  for (size_t b = 0; b * kMxBlockSize < n; ++b) {
    const size_t first = b * kMxBlockSize;
    dequantize_block(elements + first, std::min<size_t>(kMxBlockSize, n - first), scales[b], out + first);
  }
}

}  // namespace

float e4m3_to_float(uint8_t code) { return e4m3_table().value[code]; }

uint8_t double_to_e4m3(double value) {
  const uint8_t sign = std::signbit(value) ? 0x80 : 0x00;
  if (std::isnan(value)) return uint8_t(sign | kE4M3NaN);
  const double mag = std::fabs(value);
  if (mag >= kE4M3MaxNormal) return uint8_t(sign | 0x7E);  // saturate (also infinities)
  if (mag == 0.0) return sign;
  // Spacing of representable values: 2^(e-3) in binade e >= -6, 2^-9 below (subnormals).
  const int exponent = std::ilogb(mag);
  const int quantum_exp = exponent >= -6 ? exponent - 3 : -9;
  const double rounded = std::ldexp(std::nearbyint(std::ldexp(mag, -quantum_exp)), quantum_exp);
  if (rounded >= kE4M3MaxNormal) return uint8_t(sign | 0x7E);  // 464..480 would round to NaN's slot
  if (rounded == 0.0) return sign;
  // `rounded` is representable; it may have moved up one binade, so re-derive the fields.
  const int e = std::ilogb(rounded);
  if (e < -6) return uint8_t(sign | int(std::ldexp(rounded, 9)));  // subnormal: m * 2^-9
  const int mantissa = int(std::ldexp(rounded, 3 - e)) - 8;
  return uint8_t(sign | ((e + kE4M3Bias) << 3) | mantissa);
}

double e8m0_to_double(uint8_t code) {
  if (code == kE8M0NaN) return std::numeric_limits<double>::quiet_NaN();
  return std::ldexp(1.0, int(code) - kE8M0Bias);
}

uint8_t mx_scale_for(double max_abs) {
  if (std::isnan(max_abs) || std::isinf(max_abs)) return kE8M0NaN;
  if (max_abs == 0.0) return uint8_t(kE8M0Bias);
  const int shared = std::clamp(std::ilogb(max_abs) - kE4M3EmaxElem, -kE8M0Bias, kE8M0Bias);
  return uint8_t(shared + kE8M0Bias);
}

void quantize_mx_block(const float* x, size_t n, uint8_t* elements, uint8_t* scale) {
  quantize_block(x, std::min<size_t>(n, kMxBlockSize), elements, scale);
}
void quantize_mx_block_bf16(const uint16_t* x, size_t n, uint8_t* elements, uint8_t* scale) {
  quantize_block(x, std::min<size_t>(n, kMxBlockSize), elements, scale);
}
void dequantize_mx_block(const uint8_t* elements, size_t n, uint8_t scale, uint16_t* out_bf16) {
  dequantize_block(elements, std::min<size_t>(n, kMxBlockSize), scale, out_bf16);
}
void dequantize_mx_block(const uint8_t* elements, size_t n, uint8_t scale, float* out) {
  dequantize_block(elements, std::min<size_t>(n, kMxBlockSize), scale, out);
}

void quantize_mx(const float* x, size_t n, uint8_t* elements, uint8_t* scales) {
  quantize_span(x, n, elements, scales);
}
void quantize_mx_bf16(const uint16_t* x, size_t n, uint8_t* elements, uint8_t* scales) {
  quantize_span(x, n, elements, scales);
}
void dequantize_mx(const uint8_t* elements, const uint8_t* scales, size_t n, uint16_t* out_bf16) {
  dequantize_span(elements, scales, n, out_bf16);
}
void dequantize_mx(const uint8_t* elements, const uint8_t* scales, size_t n, float* out) {
  dequantize_span(elements, scales, n, out);
}

std::vector<uint8_t> encode_mx_tensor(const float* x, size_t n) {
  std::vector<uint8_t> bytes(n + mx_scale_count(n));
  quantize_mx(x, n, bytes.data(), bytes.data() + n);
  return bytes;
}

std::vector<uint8_t> encode_mx_tensor_bf16(const uint16_t* x, size_t n) {
  std::vector<uint8_t> bytes(n + mx_scale_count(n));
  quantize_mx_bf16(x, n, bytes.data(), bytes.data() + n);
  return bytes;
}

std::vector<float> mx_round_trip(const float* x, size_t n) {
  const std::vector<uint8_t> bytes = encode_mx_tensor(x, n);
  std::vector<uint16_t> bits(n);
  dequantize_mx(bytes.data(), bytes.data() + n, n, bits.data());
  std::vector<float> out(n);
  bf16_to_float(bits.data(), out.data(), n);
  return out;
}

}  // namespace tlmcraft::isa::formats
