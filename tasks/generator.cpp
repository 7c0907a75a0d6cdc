#include "tasks/generator.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "tasks/integer_formulation.h"
#include "tasks/numerics.h"

namespace tlmcraft::tasks {

const Distribution& distribution_for(const TensorSpec& t, PlatformId p) {
  const auto it = t.init_for.find(p);
  return it != t.init_for.end() ? it->second : t.init;
}

void fill(Tensor& out, const Distribution& d, const Params& params, Rng& rng) {
  using K = Distribution::Kind;
  const size_t n = out.size();
  double spread = 1.0;
  if (!d.fan_in.empty()) spread = 1.0 / std::sqrt(double(eval_expr(d.fan_in, params)));
  const bool integer = d.kind == K::IntUniform || d.kind == K::IntNormal;
  switch (d.kind) {
    case K::None:
      throw std::logic_error("tensor '" + out.name + "' has no generator");
    case K::Uniform:
      for (double& v : out.data) v = rng.uniform(d.lo * spread, d.hi * spread);
      break;
    case K::Normal:
      for (double& v : out.data) v = rng.normal(d.mean, d.std * spread);
      break;
    case K::IntUniform:
      for (double& v : out.data) v = double(rng.integer(int64_t(d.lo), int64_t(d.hi)));
      break;
    case K::IntNormal:
      for (double& v : out.data)
        v = std::min(d.hi, std::max(d.lo, double(round_half_away(rng.normal(d.mean, d.std * spread)))));
      break;
    case K::RopeCos:
    case K::RopeSin: {
      if (out.shape.size() != 2 || out.shape[1] % 2 != 0)
        throw std::logic_error("rope table '" + out.name + "' needs shape [s, d] with even d");
      const int64_t s = out.shape[0], dim = out.shape[1], half = dim / 2;
      for (int64_t p = 0; p < s; ++p)
        for (int64_t j = 0; j < dim; ++j) {
          const double theta = std::pow(10000.0, -2.0 * double(j % half) / double(dim));
          const double angle = double(p) * theta;
          const double v = d.kind == K::RopeCos ? std::cos(angle) : std::sin(angle);
          out.data[size_t(p * dim + j)] = d.scale > 0 ? double(round_half_away(double(d.scale) * v)) : v;
        }
      break;
    }
    case K::Table: {
      const std::vector<int64_t> t = lookup_table(d.table);
      if (n != t.size())
        throw std::logic_error("table '" + d.table + "' has " + std::to_string(t.size()) + " entries, tensor '" +
                               out.name + "' has " + std::to_string(n));
      for (size_t i = 0; i < n; ++i) out.data[i] = double(t[i]);
      break;
    }
  }
  // Peaks: distinct positions overwritten with large values, so softmax-like outputs
  // have entries far from zero whatever the size.
  const size_t peaks = std::min(size_t(d.peaks), n);
  std::set<int64_t> used;
  while (used.size() < peaks) {
    const int64_t i = rng.integer(0, int64_t(n) - 1);
    if (!used.insert(i).second) continue;
    const double v = rng.uniform(d.peak_lo, d.peak_hi);
    out.data[size_t(i)] = integer ? double(round_half_away(v)) : v;
  }
}

namespace {

// The platform's own ranges; a platform that overrides the init without giving ranges has
// none (the default ranges are drawn for the default init's number format).
const std::vector<NamedRange>& ranges_for(const TensorSpec& t, PlatformId p) {
  static const std::vector<NamedRange> kNone;
  const auto it = t.adversarial_for.find(p);
  if (it != t.adversarial_for.end()) return it->second;
  return t.init_for.count(p) ? kNone : t.adversarial;
}

// The distribution tensor t draws from in `range` on p.
const Distribution& distribution_in(const TensorSpec& t, PlatformId p, const std::string& range) {
  for (const NamedRange& r : ranges_for(t, p))
    if (r.name == range) return r.dist;
  return distribution_for(t, p);
}

}  // namespace

std::vector<std::string> adversarial_ranges(const TaskSpec& task, PlatformId p) {
  std::vector<std::string> names;
  for (const TensorSpec* t : task.inputs_on(p))
    for (const NamedRange& r : ranges_for(*t, p))
      if (std::find(names.begin(), names.end(), r.name) == names.end()) names.push_back(r.name);
  return names;
}

std::string range_for_trial(const TaskSpec& task, PlatformId p, uint64_t seed, size_t trial) {
  const std::vector<std::string> names = adversarial_ranges(task, p);
  if (trial == 0 || names.empty()) return kOrdinaryRange;
  return names[size_t(seed % names.size())];
}

TensorSet generate_inputs(const TaskSpec& task, PlatformId p, const Params& params, uint64_t seed,
                          const std::string& range) {
  if (range != kOrdinaryRange) {
    const std::vector<std::string> names = adversarial_ranges(task, p);
    if (std::find(names.begin(), names.end(), range) == names.end())
      throw std::invalid_argument("task '" + task.name + "' has no input range '" + range + "' on " + platform_name(p));
  }
  TensorSet out;
  for (const TensorSpec* t : task.inputs_on(p)) {
    Tensor x(t->name, task.shape_of(*t, params));
    Rng rng = Rng::for_tensor(seed, task.name, t->name);
    fill(x, distribution_in(*t, p, range), params, rng);
    to_memory_values(*t, p, x);
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace tlmcraft::tasks
