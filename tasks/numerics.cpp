#include "tasks/numerics.h"

#include <map>
#include <stdexcept>

#include "tasks/platform_packs.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "isa/formats/bf16.h"
#include "isa/formats/mxfp8.h"

namespace tlmcraft::tasks {

namespace fmt = tlmcraft::isa::formats;

int64_t round_half_away(double v) { return int64_t(v < 0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5)); }

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

namespace {

std::map<PlatformId, NumericsRegistration>& numerics_registry() {
  static std::map<PlatformId, NumericsRegistration> r;
  return r;
}

}  // namespace

void register_numerics(const PlatformId& p, NumericsRegistration numerics) {
  if (!numerics_registry().emplace(p, std::move(numerics)).second)
    throw std::invalid_argument("platform '" + p.name() + "' registers its numerics twice");
}

const NumericsRegistration& platform_numerics(const PlatformId& p) {
  ensure_platform_packs();
  const auto it = numerics_registry().find(p);
  if (it == numerics_registry().end())
    throw std::invalid_argument("platform '" + p.name() + "' registered no numerics policy (tasks::register_numerics)");
  return it->second;
}

FloatNumerics FloatNumerics::for_platform(const PlatformId& p) { return FloatNumerics{platform_numerics(p).stage_bf16}; }

std::string element_type(const TensorSpec& t, PlatformId p) {
  const auto it = t.dtype_for.find(p);
  if (it != t.dtype_for.end()) return it->second;
  const NumericsRegistration& n = platform_numerics(p);
  return t.role == Role::Output ? n.output_type : n.input_type;
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
