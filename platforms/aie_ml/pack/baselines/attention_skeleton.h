// The single-tile AIE-ML attention skeleton shared by the attention baselines
// (attention_tasks.cpp: scaled_dot_product, mha, mqa, gqa; flash_attention.cpp): the
// plan of O_j = softmax(Q_j K_g^T / sqrt(d)) V_g, g = j / (heads / kv_heads), its data
// movement and the core program around the per-row body (constants, K^T transposition,
// the group / head / row loops). attention_tasks.cpp describes the data path and the
// tile memory.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "platforms/aie_ml/pack/baselines/block_loop.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks::aie_ml {

// Compute tile regions (tile addresses; each at most 16 KB): K_g as it arrives (its first
// bytes are the per-row scratch once K^T exists), K^T [d, sp], V_g [s, d], Q_j / O_j [s, d].
constexpr uint32_t kAttTileK = 0x0000, kAttTileKt = 0x4000, kAttTileV = 0x8000, kAttTileQo = 0xC000;

struct AttentionPlan {
  int64_t s = 0, heads = 1, kv_heads = 1, d = 0;
  // Compute tiles [0, 0] .. [0, row_tiles - 1], each taking s / row_tiles consecutive query
  // rows of every head with all of K and V (the K/V stream is broadcast to them).
  int64_t row_tiles = 1;
  uint64_t q_offset = 0, k_offset = 0, v_offset = 0, o_offset = 0, inputs_end = 0;
  int64_t sp() const { return s < 16 ? 16 : s; }  // K^T row length (whole 16-lane blocks)
  int64_t h() const { return heads * d; }
  int64_t hk() const { return kv_heads * d; }
  int64_t rows() const { return s / row_tiles; }  // query rows per tile
};

// The plan of an attention-family instance (scaled_dot_product and flash_attention have
// one head); throws std::invalid_argument for another task or inconsistent heads.
AttentionPlan attention_plan(const Instance& inst);
// Why the skeleton cannot run the plan ("" when it can).
std::string attention_plan_problem(const AttentionPlan& p);

// Emits one query row: r22 = the core address of q row i (to be overwritten by O row i);
// registers the skeleton owns: r20..r23 (counters, row address), w17..w21 (constants),
// bm12..bm16 (fp_constants).
using RowBody = std::function<void(KernelText&, const AttentionPlan&)>;
// The core program: constants (fp_constants; log2 e as bf16 high + middle parts in
// w17 / w18; c5 = ln2^5/5! in w16; c = 1/sqrt(d) high / low in w20 / w19; the key lane
// mask in w21), `setup` (the body's own constants), then per key/value head the K^T
// transposition and per query head and row `row`.
std::string attention_core_program(const AttentionPlan& p, const RowBody& setup, const RowBody& row);
// acc(v) += (W_hi[t] + W_lo[t]) V[t, 16 v .. 16 v + 15] for `keys` keys t, v < vectors:
// p0 / p3 walk the weights' bf16 high / low parts, p1 the V rows (all advanced); `what`
// names the weights in the comments. Uses r13, r14, w0..w5, w22, w23.
void weighted_rows_loop(KernelText& t, const std::string& what, int64_t keys, int64_t vectors,
                        const std::function<std::string(int64_t)>& acc);
// The `.movement` section (attention_tasks.cpp's data path). With several row tiles,
// mem0.mm2s0 broadcasts K_g, V_g to all of them, mem0.mm2s<1 + r> sends tile r its q
// rows, and tile r returns its O rows to mem0.s2mm<1 + r> (the [s, h] matrix in place
// after the inputs); when every tile's rows are in, mem0.mm2s<1 + row_tiles> writes O to
// DDR through shim0.s2mm0.
std::string attention_movement(const AttentionPlan& p);
// The kernel file: a comment line, the core program on every row tile, the movement.
std::string attention_kernel(const AttentionPlan& p, const std::string& title, const RowBody& setup,
                             const RowBody& row);

}  // namespace tlmcraft::tasks::aie_ml
