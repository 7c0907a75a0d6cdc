// Multi-stage MLP kernel files for AIE-ML: single-tile matmul kernels (matmul_kernel.h)
// and elementwise stages placed in one file, one array column each, run one after the
// other through DDR scratch. two_stage_mlp (FFN):
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

#include "platforms/aie_ml/pack/baselines/matmul_kernel.h"

namespace tlmcraft::tasks::aie_ml {

// `up` computes the intermediate (c_offset = scratch), `down` reads it (a_offset = the
// same scratch). Both are single-tile plans (columns = rows = 1). Throws
// std::invalid_argument when a plan is not feasible (matmul_plan_problem's text).
std::string two_stage_mlp(const MatmulPlan& up, const MatmulPlan& down, const std::string& title);

// SwiGLU keeping every intermediate as bf16 high + low parts (about 16 significant bits):
//  (0) [SiLU(g)_hi | SiLU(g)_lo | u_hi | u_lo] = x [Wg | Wg | Wu | Wu] (one matmul, N = 4 h_i;
//      the core picks SiLU and the part per quarter of its steps) -> c_offset, n x 4 h_i;
//  (1) a = s u from the parts, stacked [a_hi; a_lo] -> a_offset, 2n x h_i;
//  (2) P = [a_hi; a_lo] W_down (M = 2n) -> p_offset, 2n x h;
//  (3) y = P_hi + P_lo -> y_offset.
// Stage k runs in column k; each waits for its predecessor's last DDR write (shim locks).
struct SwigluSplitPlan {
  int64_t n = 0, h = 0, h_i = 0;
  uint64_t x_offset = 0, wg_offset = 0, wu_offset = 0, wd_offset = 0, y_offset = 0;
  uint64_t c_offset = 0, a_offset = 0, p_offset = 0;  // DDR scratch
};
std::string swiglu_split_mlp(const SwigluSplitPlan& plan);

}  // namespace tlmcraft::tasks::aie_ml
