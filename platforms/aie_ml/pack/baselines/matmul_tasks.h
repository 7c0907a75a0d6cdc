// The kernel plans of the AIE-ML matrix tasks (GEMM, Linear, BatchMatMul; GEMV): the task's
// shapes and DDR offsets, on `columns` x `rows` compute tiles (1 x 1 is the baseline).
#pragma once
#include <cstdint>

#include "platforms/aie_ml/pack/baselines/gemv_kernel.h"
#include "platforms/aie_ml/pack/baselines/matmul_kernel.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks::aie_ml {

// Throws std::invalid_argument for a task without a matmul plan.
MatmulPlan matmul_plan(const Instance& inst, uint32_t columns = 1, uint32_t rows = 1);
// GEMV's plan (tensors A, x, y).
GemvPlan gemv_plan(const Instance& inst);

}  // namespace tlmcraft::tasks::aie_ml
