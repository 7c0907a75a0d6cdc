// Tiling a matmul to the matrix unit's widest pass: a run of MLEN/BLEN accumulation
// groups that together compute BLEN rows x one whole MLEN-wide weight tile with M_MM
// (BLEN x BLEN blocks, MLEN*BLEN*BLEN MACs per pass) becomes BLEN row products with
// M_MV (one activation row times the whole tile, MLEN*MLEN MACs per pass), each weight
// tile reused for every row. Both accumulate in FP32 in ascending contraction order and
// round at write-out, so the results are bit-identical; the matrix passes drop by
// MLEN/BLEN / BLEN (4 in the benchmark configuration). docs/search-agent.md, "Expert
// transformations on PLENA's GEMM-like tasks".
#pragma once
#include <string>

#include "platforms/plena/pack/agent/plena_analysis.h"
#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {

// Rewrites every straight-line run of MLEN/BLEN groups
//     [set-up] M_MM 0, T_k + g*BLEN, X_k (k = 0..K-1) [set-up] M_MM_WO Y + g*BLEN, S   (g = 0..MLEN/BLEN-1)
// into, after the runs' set-up,
//     M_MV 0, T_k, X_k + r*VLEN (k = 0..K-1); M_MV_WO Y + r*S                         (r = 0..BLEN-1)
// Legal when: every accumulation in the kernel is closed within its block (so both
// accumulators are clear where a run starts); only pure set-up lies between the groups;
// S >= MLEN (output rows disjoint); the output rows overlap none of the activation rows;
// the registers that held T_k, X_k and Y still hold values they can be derived from
// (S_ADDI_INT, unsigned immediate) and two gp registers are unused by the kernel.
// Returns the number of runs rewritten; 0 with `why` set when none could be.
int matmul_rows_to_matrix_vector(Kernel& kernel, const Arch& arch, std::string& why);

// Every M_MM/M_TMM (M_MV/M_TMV) accumulation is written out in the block it starts in,
// before any loop: then both accumulators are clear at every block boundary.
bool accumulations_closed(const Block& block);

}  // namespace tlmcraft::agent::search::plena
