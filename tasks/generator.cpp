#include "tasks/generator.h"

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
          out.data[size_t(p * dim + j)] = d.kind == K::RopeCos ? std::cos(angle) : std::sin(angle);
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

TensorSet generate_inputs(const TaskSpec& task, PlatformId p, const Params& params, uint64_t seed) {
  TensorSet out;
  for (const TensorSpec* t : task.inputs_on(p)) {
    Tensor x(t->name, task.shape_of(*t, params));
    Rng rng = Rng::for_tensor(seed, task.name, t->name);
    fill(x, distribution_for(*t, p), params, rng);
    to_memory_values(*t, p, x);
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace tlmcraft::tasks
