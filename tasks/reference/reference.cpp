#include "tasks/reference/reference.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "tasks/integer_formulation.h"
#include "tasks/numerics.h"
#include "tasks/reference/reference_internal.h"

namespace tlmcraft::tasks {

namespace ref {
TensorSet Ctx::output(Vec data) const {
  const auto outs = spec.outputs_on(platform);
  Tensor t(outs.at(0)->name, spec.shape_of(*outs.at(0), params));
  if (t.data.size() != data.size())
    throw std::logic_error("reference of " + spec.name + " produced " + std::to_string(data.size()) +
                           " values for output '" + t.name + "' of " + std::to_string(t.data.size()));
  t.data = std::move(data);
  return {t};
}
}  // namespace ref

bool has_reference(const std::string& task, PlatformId p) {
  if (const IntegerFormulation* f = platform_integer_formulation(p)) return f->references.count(task) > 0;
  return ref::float_tasks().count(task) > 0;
}

TensorSet reference(const TaskSpec& task, PlatformId p, const Params& params, const TensorSet& inputs) {
  if (!has_reference(task.name, p))
    throw std::invalid_argument("task '" + task.name + "' has no reference on platform " + platform_name(p));
  for (const TensorSpec* t : task.inputs_on(p)) {
    const Tensor* got = nullptr;
    for (const auto& x : inputs)
      if (x.name == t->name) got = &x;
    if (!got) throw std::invalid_argument("reference of " + task.name + ": input '" + t->name + "' is missing");
    const auto shape = task.shape_of(*t, params);
    if (got->shape != shape || int64_t(got->data.size()) != element_count(shape))
      throw std::invalid_argument("reference of " + task.name + ": input '" + t->name + "' has shape " +
                                  shape_text(got->shape) + ", the spec says " + shape_text(shape));
  }
  const ref::Ctx ctx{task, p, params, inputs};
  if (const IntegerFormulation* f = platform_integer_formulation(p)) return f->references.at(task.name)(ctx);
  return ref::float_tasks().at(task.name)(ctx, FloatNumerics::for_platform(p));
}

namespace {
bool all_zero(const std::vector<std::vector<double>>& v) {
  for (const auto& t : v)
    for (double x : t)
      if (x != 0) return false;
  return true;
}
bool same_values(const TensorSet& a, const TensorSet& b) {
  if (a.size() != b.size()) return false;
  for (size_t t = 0; t < a.size(); ++t)
    if (a[t].data != b[t].data) return false;
  return true;
}
}  // namespace

std::vector<std::vector<double>> rounding_slack(const TaskSpec& task, PlatformId p, const Params& params,
                                                const TensorSet& inputs, const TensorSet& exact) {
  FloatNumerics N = FloatNumerics::for_platform(p);
  if (platform_integer_formulation(p) || !has_reference(task.name, p)) return {};
  const ref::Ctx ctx{task, p, params, inputs};
  const auto run = [&](const FloatNumerics& numerics) { return ref::float_tasks().at(task.name)(ctx, numerics); };
  // A staged platform's deviation is measured before the output's rounding (which the
  // tolerance covers): a rounded sample hides a deviation below half a BF16 step, and a
  // kernel's own roundings add up across that step.
  N.raw_outputs = N.stage_bf16;
  std::mt19937_64 rng(0x51ac4);  // fixed: the same inputs always get the same slack
  N.perturb = &rng;
  TensorSet base = exact;  // what the samples deviate from (unrounded on a staged platform)
  std::vector<std::vector<double>> slack;
  for (const Tensor& t : exact) slack.emplace_back(t.data.size(), 0.0);
  for (int k = 0; k < kSlackSamples; ++k) {
    const TensorSet sample = run(N);
    if (k == 0 && same_values(sample, exact)) return {};  // every stage staged as kernels must: no slack
    if (k == 0 && N.raw_outputs) {
      FloatNumerics unperturbed = N;
      unperturbed.perturb = nullptr;
      base = run(unperturbed);
    }
    for (size_t t = 0; t < base.size() && t < sample.size(); ++t)
      for (size_t i = 0; i < slack[t].size(); ++i) {
        const double d = std::fabs(sample[t].data[i] - base[t].data[i]);
        if (std::isfinite(d)) slack[t][i] = std::max(slack[t][i], kSlackFactor * d);
      }
    if (k == 0 && all_zero(slack)) return {};  // nothing perturbed reaches an output
  }
  return slack;
}

}  // namespace tlmcraft::tasks
