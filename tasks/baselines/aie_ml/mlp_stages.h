// Multi-stage MLP kernel files for AIE-ML: two single-tile matmul kernels
// (matmul_kernel.h) placed in one file, one array column each, run one after the other.
//
// Stage 1 (column 0: shim0, mem0, tile (0,0)) computes SiLU(A1 B1): its core program is
// the matmul kernel's with SiLU applied to the fp32 accumulators before the bf16 store
// (no intermediate bf16 rounding of A1 B1). Its output stream is routed from mem0.mm2s5 to
// shim1.s2mm1 (instead of shim0.s2mm0), which writes it to the DDR scratch area
// (stage 1's c_offset) and, after DDR acknowledges the last write, releases shim1 lock 0.
// Stage 2 (column 1: shim1, mem1, tile (1,0)) is the matmul kernel for A2 B2 moved to
// column 1; its A read (shim1.mm2s1) acquires shim1 lock 0 first, so it starts only when
// the whole intermediate is in DDR. Everything else (B loads, tile programs) runs
// immediately. BD and buffer names are prefixed "up_" and "down_".
#pragma once
#include <string>

#include "tasks/baselines/aie_ml/matmul_kernel.h"

namespace tlmcraft::tasks::aie_ml {

// `up` computes the intermediate (c_offset = scratch), `down` reads it (a_offset = the
// same scratch). Both are single-tile plans (columns = rows = 1). Throws
// std::invalid_argument when a plan is not feasible (matmul_plan_problem's text).
std::string two_stage_mlp(const MatmulPlan& up, const MatmulPlan& down, const std::string& title);

// SwiGLU in four stages, one array column each: (0) s = SiLU(A Bg) and (1) u = A Bu, both
// written to DDR through shim2 (s2mm0 / s2mm1, releasing shim2 locks 0 / 1); (2) a = s * u
// elementwise on tile (2,0), its reads of s and u waiting for those locks, written to
// `a_offset` through shim3.s2mm1 (releasing shim3 lock 0); (3) a Bd, its A read
// acquiring shim3 lock 0. gate.c_offset, up.c_offset and a_offset are DDR scratch areas.
std::string swiglu_mlp(const MatmulPlan& gate, const MatmulPlan& up, const MatmulPlan& down, uint64_t a_offset,
                       const std::string& title);

}  // namespace tlmcraft::tasks::aie_ml
