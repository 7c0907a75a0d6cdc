#include "tasks/baselines/plena/flash_attention.h"

#include <algorithm>
#include <stdexcept>

#include "tasks/baselines/plena/stages.h"

namespace tlmcraft::tasks::plena {

uint32_t default_kv_block(uint32_t s, const PlenaArch& arch) { return std::min(arch.vlen, s / 2); }

std::string plena_flash_attention(const Instance& inst, const PlenaArch& arch, uint32_t kv_block) {
  const auto layout = inst.layout();
  const uint32_t s = uint32_t(inst.params().at("s")), d = uint32_t(inst.params().at("h"));
  const uint32_t blk = kv_block ? kv_block : default_kv_block(s, arch);
  if (!blk || blk % 16 || blk > arch.vlen || s % blk)
    throw std::invalid_argument("FlashAttention template: the KV block (" + std::to_string(blk) +
                                ") must be a multiple of 16, at most VLEN = " + std::to_string(arch.vlen) +
                                " and divide s = " + std::to_string(s));
  const uint32_t blocks = s / blk;
  StageEmitter e(arch, scratch_base(*layout));
  e.writer().comment("PLENA template baseline: " + inst.task().name + " " + inst.config().name + ", online softmax over " +
                     std::to_string(blocks) + " KV blocks of " + std::to_string(blk) + " keys");
  e.prologue(2);  // FP_MEM[2] = 1/sqrt(d)
  const HbmMat q = hbm_mat(layout->placement("Q")), k = hbm_mat(layout->placement("K"));
  const HbmMat v = hbm_mat(layout->placement("V")), o = hbm_mat(layout->placement("O"));
  const uint32_t V = arch.vlen;
  // Scratch: the unnormalised output, one block's scores and exponentials, P V of a block,
  // and per-row alpha and l broadcast over a VLEN row (read for every column tile).
  const HbmMat acc = e.scratch(s, d), sc = e.scratch(s, V), ex = e.scratch(s, V), pv = e.scratch(s, d);
  HbmMat alpha = e.scratch(s, V), l = e.scratch(s, V);
  alpha.tile_step = 0;
  l.tile_step = 0;
  e.flash_init(s);
  for (uint32_t b = 0; b < blocks; ++b) {
    const std::string name = "KV block " + std::to_string(b);
    const uint64_t first_key = uint64_t(b) * blk * k.stride;
    e.matmul(q, k.columns(first_key), true, sc, s, d, blk, name + ": S = Q K_b^T");
    e.flash_block(sc, ex, alpha, b + 1 == blocks ? &l : nullptr, s, blk, name + ": E = exp(S c - m), update m, l");
    const HbmMat vb = v.columns(uint64_t(b) * blk * v.stride);
    if (b == 0) {
      e.matmul(ex, vb, false, acc, s, blk, d, name + ": O = E V_b");
      continue;
    }
    e.matmul(ex, vb, false, pv, s, blk, d, name + ": E V_b");
    e.map({acc, pv, alpha}, acc, s, d,
          [](AsmWriter& w, const std::vector<int>& in, int out, int) {
            w.op("V_MUL_VV " + gp(out) + ", " + gp(in[0]) + ", " + gp(in[2]) + ", 0", "O * alpha");
            w.op("V_ADD_VV " + gp(out) + ", " + gp(out) + ", " + gp(in[1]) + ", 0", "+ E V_b");
          },
          name + ": O = O alpha + E V_b");
  }
  e.map({acc, l}, o, s, d,
        [](AsmWriter& w, const std::vector<int>& in, int out, int tmp) {
          w.op("V_RECI_V " + gp(tmp) + ", " + gp(in[1]) + ", 0", "1 / l");
          w.op("V_MUL_VV " + gp(out) + ", " + gp(in[0]) + ", " + gp(tmp) + ", 0", "O = O / l");
        },
        "O = O / l");
  return e.str();
}

}  // namespace tlmcraft::tasks::plena
