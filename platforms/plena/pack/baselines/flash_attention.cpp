#include "platforms/plena/pack/baselines/flash_attention.h"

#include <algorithm>
#include <stdexcept>

#include "platforms/plena/pack/baselines/stages.h"

namespace tlmcraft::tasks::plena {

uint32_t default_kv_block(uint32_t s, const PlenaArch& arch) { return std::min(arch.vlen, s / 2); }

std::string plena_flash_attention(const Instance& inst, const PlenaArch& arch, uint32_t kv_block) {
  const auto layout = inst.layout();
  const uint32_t s = uint32_t(inst.params().at("s")), d = uint32_t(inst.params().at("h"));
  const uint32_t blk = kv_block ? kv_block : default_kv_block(s, arch);
  if (!blk || blk % 16 || blk > arch.vlen || s % blk || s % arch.v_rows)
    throw std::invalid_argument("FlashAttention template: the KV block (" + std::to_string(blk) +
                                ") must be a multiple of 16, at most VLEN = " + std::to_string(arch.vlen) +
                                " and divide s = " + std::to_string(s) + " (a multiple of BLEN)");
  const uint32_t blocks = s / blk;
  StageEmitter e(arch, scratch_base(*layout));
  e.writer().comment("PLENA template baseline: " + inst.task().name + " " + inst.config().name + ", online softmax over " +
                     std::to_string(blocks) + " KV blocks of " + std::to_string(blk) + " keys");
  e.prologue(2);  // FP_MEM[2] = 1/sqrt(d)
  const HbmMat q = hbm_mat(layout->placement("Q")), k = hbm_mat(layout->placement("K"));
  const HbmMat v = hbm_mat(layout->placement("V")), o = hbm_mat(layout->placement("O"));
  const uint32_t V = arch.vlen, spad = (s + V - 1) / V * V;
  // Scratch: per block the scores S_b, E_b = exp(S_b c - m) and P = E_b / l ([s, VLEN]);
  // per-row scalars broadcast over a VLEN row (alpha, 1/l, alpha/l); the unnormalised
  // output O and the running sum l (broadcast over a row) in two copies each (a block
  // reads the previous copy while writing the other); diag(alpha) [s, s] and the identity.
  const HbmMat sc = e.scratch(s, V), ex = e.scratch(s, V), pr = e.scratch(s, V);
  const HbmMat alpha = e.scratch(s, V), recip = e.scratch(s, V), alpha_recip = e.scratch(s, V);
  const HbmMat acc[2] = {e.scratch(s, d), e.scratch(s, d)};
  const HbmMat sum[2] = {e.scratch(s, V), e.scratch(s, V)};
  const HbmMat diag = e.scratch(s, spad);
  const HbmMat ones = e.ones();
  const HbmMat id = blocks > 1 ? e.identity(s) : HbmMat{};
  auto broadcast = [](HbmMat m) {
    m.tile_step = 0;  // the same row tile for every column tile
    return m;
  };
  auto diagonal = [&](const HbmMat& scalars, const std::string& what) {
    e.map({id, broadcast(scalars)}, diag, s, spad,
          [](AsmWriter& w, const std::vector<int>& in, int out, int) {
            w.op("V_MUL_VV " + gp(out) + ", " + gp(in[0]) + ", " + gp(in[1]) + ", 0", "I * scalar (exact)");
          },
          what);
  };
  auto mul_rows = [](AsmWriter& w, const std::vector<int>& in, int out, int) {
    w.op("V_MUL_VV " + gp(out) + ", " + gp(in[0]) + ", " + gp(in[1]) + ", 0");
  };
  e.flash_init(s);
  for (uint32_t b = 0; b < blocks; ++b) {
    const std::string name = "KV block " + std::to_string(b);
    const HbmMat kb = k.columns(uint64_t(b) * blk * k.stride), vb = v.columns(uint64_t(b) * blk * v.stride);
    e.matmul(q, kb, true, sc, s, d, blk, name + ": S = Q K_b^T");
    e.flash_block(sc, ex, alpha, s, blk, name + ": E = exp(S c - m), update m");
    const HbmMat &o_new = acc[b % 2], &l_new = sum[b % 2];
    const HbmMat &o_old = acc[(b + 1) % 2], &l_old = sum[(b + 1) % 2];
    // l = sum E + alpha l (the rescaled running sum), one FP32 accumulation.
    if (b == 0) {
      e.matmul(ex, ones, false, l_new, s, blk, V, name + ": l = sum E (every lane)");
    } else {
      diagonal(alpha, name + ": diag(alpha)");
      e.matmul_sum({MatTerm{ex, ones, false, blk}, MatTerm{diag, l_old, false, s}}, l_new, s, V,
                   name + ": l = sum E + alpha l");
    }
    if (b + 1 < blocks) {
      // O = E V_b + diag(alpha) O: the accumulator rescaled inside the FP32 accumulator.
      if (b == 0)
        e.matmul(ex, vb, false, o_new, s, blk, d, name + ": O = E V_b");
      else
        e.matmul_sum({MatTerm{ex, vb, false, blk}, MatTerm{diag, o_old, false, s}}, o_new, s, d,
                     name + ": O = E V_b + diag(alpha) O");
      continue;
    }
    // Last block: normalise as the result is formed, O = (E / l) V_b + diag(alpha / l) O.
    e.map({l_new}, recip, s, V,
          [](AsmWriter& w, const std::vector<int>& in, int out, int) {
            w.op("V_RECI_V " + gp(out) + ", " + gp(in[0]) + ", 0", "1 / l");
          },
          name + ": 1 / l");
    e.map({ex, recip}, pr, s, V, mul_rows, name + ": P = E / l");
    if (b == 0) {
      e.matmul(pr, vb, false, o, s, blk, d, name + ": O = P V_b");
      break;
    }
    e.map({alpha, recip}, alpha_recip, s, V, mul_rows, name + ": alpha / l");
    diagonal(alpha_recip, name + ": diag(alpha / l)");
    e.matmul_sum({MatTerm{pr, vb, false, blk}, MatTerm{diag, o_old, false, s}}, o, s, d,
                 name + ": O = P V_b + diag(alpha / l) O");
  }
  return e.str();
}

}  // namespace tlmcraft::tasks::plena
