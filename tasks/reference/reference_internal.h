// Shared by the reference files: the float tasks' dispatch table (integer formulations
// are registered by platform packs, tasks/integer_formulation.h).
#pragma once
#include <functional>
#include <map>
#include <string>

#include "tasks/reference/context.h"

namespace tlmcraft::tasks::ref {

// Float tasks compute with N.
using FloatTask = std::function<TensorSet(const Ctx&, const FloatNumerics& N)>;
const std::map<std::string, FloatTask>& float_tasks();

}  // namespace tlmcraft::tasks::ref
