// AIE-ML baselines for the matrix tasks (GEMM, Linear, BatchMatMul, GEMV): the
// single-tile kernels of matmul_kernel.h (GEMM, Linear, BatchMatMul) and gemv_kernel.h
// (GEMV) at the task layout's DDR offsets.
#include <stdexcept>

#include "platforms/aie_ml/pack/baselines/generators.h"
#include "platforms/aie_ml/pack/baselines/gemv_kernel.h"
#include "platforms/aie_ml/pack/baselines/matmul_kernel.h"
#include "platforms/aie_ml/pack/baselines/matmul_tasks.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

// The layout contract's DDR offset (platforms/aie_ml/pack/layout_aie_ml.h).
uint64_t ddr_offset(const Instance& inst, const std::string& name) { return aie_ml_tensor_offset(inst, name); }

int64_t param(const Instance& inst, const std::string& name) {
  const auto it = inst.params().find(name);
  if (it == inst.params().end())
    throw std::invalid_argument("task '" + inst.task().name + "' configuration has no parameter '" + name + "'");
  return it->second;
}

}  // namespace

MatmulPlan matmul_plan(const Instance& inst, uint32_t columns, uint32_t rows) {
  const std::string& task = inst.task().name;
  MatmulPlan p;
  p.columns = columns;
  p.rows = rows;
  p.M = param(inst, "M");
  p.K = param(inst, "K");
  p.N = param(inst, "N");
  if (task == "gemm" || task == "batchmatmul") {
    if (task == "batchmatmul") p.batches = param(inst, "b");
    p.a_offset = ddr_offset(inst, "A");
    p.b_offset = ddr_offset(inst, "B");
    p.c_offset = ddr_offset(inst, "C");
  } else if (task == "linear") {
    p.a_offset = ddr_offset(inst, "x");
    p.b_offset = ddr_offset(inst, "W");
    p.c_offset = ddr_offset(inst, "y");
    p.has_bias = true;
    p.bias_offset = ddr_offset(inst, "bias");
  } else {
    throw std::invalid_argument("no AIE-ML matmul plan for task '" + task + "'");
  }
  return p;
}

GemvPlan gemv_plan(const Instance& inst) {
  GemvPlan p;
  p.M = param(inst, "M");
  p.N = param(inst, "N");
  p.a_offset = ddr_offset(inst, "A");
  p.x_offset = ddr_offset(inst, "x");
  p.y_offset = ddr_offset(inst, "y");
  return p;
}

GeneratorMap matmul_generators() {
  GeneratorMap g;
  for (const char* task : {"gemm", "linear", "batchmatmul"})
    g[task] = [](const Instance& inst, const nlohmann::json&) { return matmul_kernel(matmul_plan(inst, 1, 1)); };
  g["gemv"] = [](const Instance& inst, const nlohmann::json&) { return gemv_kernel(gemv_plan(inst)); };
  return g;
}

}  // namespace tlmcraft::tasks::aie_ml
