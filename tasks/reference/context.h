// What a reference function sees: the task, the platform, the configuration's
// parameters and the inputs by name. Public because platform packs write reference
// functions too (integer formulations, tasks/integer_formulation.h).
#pragma once
#include <cstdint>
#include <string>

#include "tasks/reference/float_ops.h"
#include "tasks/spec.h"
#include "tasks/tensor.h"

namespace tlmcraft::tasks::ref {

struct Ctx {
  const TaskSpec& spec;
  PlatformId platform;
  const Params& params;
  const TensorSet& in;

  const Vec& v(const std::string& name) const { return find(in, name).data; }
  int64_t operator()(const std::string& name) const { return params.at(name); }
  // The task's single output tensor holding `data` (shape from the spec).
  TensorSet output(Vec data) const;
};

}  // namespace tlmcraft::tasks::ref
