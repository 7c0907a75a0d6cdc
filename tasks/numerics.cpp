#include "tasks/numerics.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "isa/formats/bf16.h"
#include "isa/formats/mxfp8.h"

namespace tlmcraft::tasks {

namespace fmt = tlmcraft::isa::formats;

double bf16(double v) { return fmt::bf16_to_float(fmt::double_to_bf16(v)); }

double bf16_stochastic(double v, std::mt19937_64& rng) {
  const double nearest = bf16(v);
  if (nearest == v || nearest == 0 || !std::isfinite(nearest)) return nearest;
  // The other neighbour: one BF16 step (bit 16 of the float) away from `nearest`, towards v.
  const float f = float(nearest);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  const bool away_from_zero = (v > nearest) == (f > 0);
  bits = away_from_zero ? bits + 0x10000u : bits - 0x10000u;
  float other_f;
  std::memcpy(&other_f, &bits, sizeof other_f);
  const double other = other_f;
  const double p_other = std::fabs(v - nearest) / std::fabs(other - nearest);
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng) < p_other ? other : nearest;
}

std::string element_type(const TensorSpec& t, PlatformId p) {
  const auto it = t.dtype_for.find(p);
  if (it != t.dtype_for.end()) return it->second;
  switch (p) {
    case PlatformId::Plena: return t.role == Role::Output ? "bf16" : "mxfp8";
    case PlatformId::AieMl: return "bf16";
    case PlatformId::Coral: return "int8";
  }
  return "?";
}

void to_memory_values(const TensorSpec& t, PlatformId p, Tensor& tensor) {
  const std::string type = element_type(t, p);
  if (type == "mxfp8") {
    std::vector<float> f(tensor.data.begin(), tensor.data.end());
    const std::vector<float> q = fmt::mx_round_trip(f.data(), f.size());
    for (size_t i = 0; i < q.size(); ++i) tensor.data[i] = q[i];
  } else if (type == "bf16") {
    for (double& v : tensor.data) v = bf16(v);
  } else if (type == "int8" || type == "int32") {
    const double lo = type == "int8" ? -128.0 : -2147483648.0;
    const double hi = type == "int8" ? 127.0 : 2147483647.0;
    for (double& v : tensor.data) {
      if (v != std::floor(v)) throw std::logic_error("tensor '" + t.name + "': non-integer value for an " + type + " tensor");
      v = std::min(hi, std::max(lo, v));
    }
  } else {
    throw std::logic_error("tensor '" + t.name + "': unknown element type '" + type + "'");
  }
}

}  // namespace tlmcraft::tasks
