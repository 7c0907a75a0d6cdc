// AIE-ML baselines for the matrix tasks (GEMM, Linear, BatchMatMul, GEMV).
#include "tasks/baselines/aie_ml/generators.h"

namespace tlmcraft::tasks::aie_ml {

GeneratorMap matmul_generators() { return {}; }

}  // namespace tlmcraft::tasks::aie_ml
