// Reference implementations of the 23 tasks: the outputs a correct kernel produces
// from given inputs, under the platform's numerics policy (docs/tasks.md):
// PLENA and AIE-ML through the staged float references (tasks/reference/float_ops.h),
// Coral through the integer formulations (tasks/coral_int.h).
#pragma once
#include <stdexcept>

#include "tasks/spec.h"
#include "tasks/tensor.h"

namespace tlmcraft::tasks {

// The outputs (in spec order, with spec shapes) of `task` on platform p for `inputs`
// (the values the platform's memory holds, as generate_inputs() returns them).
// Throws std::invalid_argument for a task without a reference on that platform or
// inputs that do not match the spec's names and shapes.
TensorSet reference(const TaskSpec& task, PlatformId p, const Params& params, const TensorSet& inputs);

// True if a reference exists for this task name on platform p.
bool has_reference(const std::string& task, PlatformId p);

}  // namespace tlmcraft::tasks
