// Shared by the float and integer reference files: the per-task dispatch tables and a
// small context giving a task function its inputs and parameters by name.
#pragma once
#include <functional>
#include <map>
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

// Float tasks compute with N; integer tasks return exact integers as doubles.
using FloatTask = std::function<TensorSet(const Ctx&, const FloatNumerics& N)>;
using IntTask = std::function<TensorSet(const Ctx&)>;
const std::map<std::string, FloatTask>& float_tasks();
const std::map<std::string, IntTask>& int8_tasks();

}  // namespace tlmcraft::tasks::ref
