#include "platforms/plena/pack/baselines/conv_block.h"

#include <stdexcept>

#include "platforms/plena/pack/baselines/conv_staging.h"

namespace tlmcraft::tasks::plena {
namespace {

constexpr int kT1 = 1, kVr = 2, kOff = 3, kLoop = 4, kShift = 5, kFp = 6, kRow = 7, kAux = 8;
constexpr uint64_t kFpRs = 64;  // FP_MEM words of the repeated rs row

std::string s(uint64_t v) { return std::to_string(v); }

struct Rows {  // VRAM addresses
  uint64_t ones = 0, e0 = 0, tmp = 0, mean = 0, gamma = 0, beta = 0, var = 0, rs = 0, end = 0;
};

Rows plan_rows(const ConvVram& v, const PlenaArch& a) {
  const uint64_t V = a.vlen, block = uint64_t(a.blen) * V;
  Rows r;
  r.ones = v.free_row * V;
  r.e0 = r.ones + V;
  r.tmp = r.e0 + V;
  r.mean = r.tmp + V;
  r.gamma = r.mean + block;
  r.beta = r.gamma + block;
  r.var = r.beta + block;
  r.rs = r.var + block;
  r.end = r.rs + V;
  if (r.end / V > a.vram_rows) throw std::invalid_argument("conv_block template: BatchNorm rows exceed VRAM");
  return r;
}

// BLEN VRAM rows at `dst` = the c_out-vector at a5 repeated across the row, through the
// workspace row at a6.
void emit_repeated(AsmWriter& w, uint64_t vec_addr, uint64_t dst, uint32_t c_out, const PlenaArch& a,
                   const std::string& name) {
  w.comment(name + " repeated across a row");
  w.set_addr(5, kT1, vec_addr, "a5 = " + name);
  w.set(kT1, c_out, "SCALE = c_out");
  w.op("C_SET_SCALE_REG gp1");
  w.op("C_SET_STRIDE_REG gp0", "STRIDE = 0: every row of a transfer is the same HBM row");
  w.set(kVr, dst);
  w.op("H_PREFETCH_V gp2, gp0, a5, 1, 0", name + "[0..c_out) in lanes 0..c_out-1 of BLEN rows");
  w.set(kT1, uint64_t(a.blen) * a.vlen, "SCALE = elements of the workspace row");
  w.op("C_SET_SCALE_REG gp1");
  for (uint32_t u = 0; u < a.vlen / c_out; ++u) {
    w.set(kOff, uint64_t(u) * c_out);
    w.op("H_STORE_V gp2, gp3, a6, 1, 0", "copy " + s(u) + " (its tail is overwritten next)");
  }
  w.op("H_PREFETCH_V gp2, gp0, a6, 1, 0", "the repeated row");
}

// rs row: lane o of the repeated var row isolated, then 1 / sqrt(var + eps) on the scalar
// unit, stored at every lane of channel o in FP_MEM, mapped to VRAM.
void emit_rs(AsmWriter& w, const ConvBlockKernel& k, const Rows& r, const PlenaArch& a) {
  const uint32_t c_out = k.conv.c_out;
  w.comment("rs = 1 / sqrt(var + eps) per channel (scalar unit), repeated in FP_MEM");
  w.op("S_LD_FP f3, gp0, " + s(k.fp_eps), "f3 = eps");
  w.set(kShift, 0, "channel o");
  w.set(kFp, kFpRs, "FP_MEM word of channel o");
  w.set(kRow, r.tmp);
  w.set(kAux, r.var);
  w.set(kVr, r.e0);
  w.loop_start(kLoop, c_out, "channels");
  w.op("V_SHFT_V gp7, gp8, gp5, 0", "lane 0 = var[o] + ...");
  w.op("V_MUL_VV gp7, gp7, gp2, 0", "only lane 0 left");
  w.op("S_LD_FP f2, gp0, 0", "f2 = 0");
  w.op("V_RED_MAX f2, gp7", "f2 = var[o] (> 0)");
  w.op("S_ADD_FP f2, f2, f3", "var + eps");
  w.op("S_SQRT_FP f2, f2");
  w.op("S_RECI_FP f2, f2", "rs[o]");
  for (uint32_t u = 0; u < a.vlen / c_out; ++u) w.op("S_ST_FP f2, gp6, " + s(uint64_t(u) * c_out));
  w.op("S_ADDI_INT gp5, gp5, 1");
  w.op("S_ADDI_INT gp6, gp6, 1");
  w.loop_end(kLoop);
  w.set(kRow, r.rs);
  w.op("S_MAP_V_FP gp7, gp0, " + s(kFpRs), "rs row");
}

// Every y row: t = z - mean, t rs, t gamma, + beta, max(., 0), in place.
void emit_normalise(AsmWriter& w, const ConvVram& v, const Rows& r, const PlenaArch& a) {
  w.comment("BatchNorm and ReLU on every y row");
  w.set(kRow, v.y);
  w.set(kT1, r.mean);
  w.set(kVr, r.rs);
  w.set(kOff, r.gamma);
  w.set(kAux, r.beta);
  w.loop_start(kLoop, uint32_t(v.y_rows), "y rows");
  w.op("V_SUB_VV gp7, gp7, gp1, 0", "t = z - mean");
  w.op("V_MUL_VV gp7, gp7, gp2, 0", "t rs");
  w.op("V_MUL_VV gp7, gp7, gp3, 0", "t rs gamma");
  w.op("V_ADD_VV gp7, gp7, gp8, 0", "+ beta");
  w.op("V_MAX_VF gp7, gp7, f0, 0", "ReLU");
  w.op("S_ADDI_INT gp7, gp7, " + s(a.vlen));
  w.loop_end(kLoop);
}

}  // namespace

std::string plena_conv_block_kernel(const ConvBlockKernel& k, const PlenaArch& a) {
  AsmWriter w;
  const ConvVram v = emit_conv_to_vram(w, k.conv, a);
  const Rows r = plan_rows(v, a);
  w.set_addr(6, kT1, v.scratch_end, "a6 = workspace row for the repeated vectors");
  w.comment("a one-hot row e0 (lane 0 = 1) from a row of ones shifted down by VLEN-1");
  w.op("S_LD_FP f1, gp0, 1", "f1 = 1.0");
  w.set(kRow, r.ones);
  w.op("V_ADD_VF gp7, gp11, f1, 0", "ones (zero rows + 1)");
  w.set(kAux, r.e0);
  w.set(kShift, a.vlen - 1);
  w.op("V_SHFT_V gp8, gp7, gp5, 0", "e0");
  const uint32_t c_out = k.conv.c_out;
  emit_repeated(w, k.mean_addr, r.mean, c_out, a, "mean");
  emit_repeated(w, k.gamma_addr, r.gamma, c_out, a, "gamma");
  emit_repeated(w, k.beta_addr, r.beta, c_out, a, "beta");
  emit_repeated(w, k.var_addr, r.var, c_out, a, "var");
  emit_rs(w, k, r, a);
  emit_normalise(w, v, r, a);
  emit_store_rows(w, v.y, v.y_rows, a);
  return w.str();
}

}  // namespace tlmcraft::tasks::plena
