// AIE-ML "mlp" group kernels outside the generator map (mlp_generators() in generators.h
// registers RoPE and FFN).
#pragma once
#include <string>

#include "tasks/registry.h"

namespace tlmcraft::tasks::aie_ml {

// SwiGLU as four single-tile stages (mlp_stages.h: swiglu_mlp): s = SiLU(x W_gate) and
// u = x W_up, a = s * u, y = a W_down, with s, u, a as bf16 in DDR scratch. It runs and
// writes every output, but is NOT registered as the baseline: the task's AIE-ML check
// (double reference without intermediate rounding, |got - want| <= 0.01 + 0.01 |want|)
// fails for a handful of elements whenever a (or s, or u) is rounded to bf16 before the
// down projection (y ~ 1.5 rms(a) with cancellation); a passing kernel must carry a as
// bf16 high + low parts (two products per MAC) and keep g, u in fp32 until a is formed.
std::string swiglu_staged_kernel(const Instance& inst);

}  // namespace tlmcraft::tasks::aie_ml
