// Reference implementations of the 23 tasks: the outputs a correct kernel produces
// from given inputs, under the platform's numerics policy (docs/tasks.md):
// PLENA and AIE-ML through the staged float references (tasks/reference/float_ops.h),
// integer platforms (Coral) through the integer formulation their pack registers
// (tasks/integer_formulation.h).
#pragma once
#include <stdexcept>
#include <vector>

#include "tasks/spec.h"
#include "tasks/tensor.h"

namespace tlmcraft::tasks {

// The outputs (in spec order, with spec shapes) of `task` on platform p for `inputs`
// (the values the platform's memory holds, as generate_inputs() returns them).
// Throws std::invalid_argument for a task without a reference on that platform or
// inputs that do not match the spec's names and shapes.
TensorSet reference(const TaskSpec& task, PlatformId p, const Params& params, const TensorSet& inputs);

// How far a correct kernel's outputs may land from a float reference because the kernel
// rounds to BF16 stages the reference computes unstaged (all of AIE-ML's, which is full
// precision until the output; PLENA's FlashAttention softmax): per output tensor, one extra
// tolerance per element (docs/tasks.md, "Rounding slack"). Estimated by Monte Carlo
// arithmetic: the reference is rerun kSlackSamples times with those stages rounded
// stochastically to BF16, and the slack is kSlackFactor times the largest deviation from
// `exact` seen. Deterministic for given inputs. Empty where every stage is staged as
// kernels must (the other PLENA tasks: one rerun shows it) and for integer formulations
// (exact integers).
std::vector<std::vector<double>> rounding_slack(const TaskSpec& task, PlatformId p, const Params& params,
                                                const TensorSet& inputs, const TensorSet& exact);
constexpr int kSlackSamples = 8;
constexpr double kSlackFactor = 3.0;

// True if a reference exists for this task name on platform p.
bool has_reference(const std::string& task, PlatformId p);

}  // namespace tlmcraft::tasks
