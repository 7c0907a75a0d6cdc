#include "tasks/reference/reference.h"

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
  return p == PlatformId::Coral ? ref::int8_tasks().count(task) > 0 : ref::float_tasks().count(task) > 0;
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
  if (p == PlatformId::Coral) return ref::int8_tasks().at(task.name)(ctx);
  return ref::float_tasks().at(task.name)(ctx, FloatNumerics::for_platform(p));
}

}  // namespace tlmcraft::tasks
