#include "platforms/plena/pack/baselines/norms.h"

#include <stdexcept>

#include "platforms/plena/pack/baselines/asm_writer.h"
#include "platforms/plena/pack/baselines/row_ops.h"

namespace tlmcraft::tasks::plena {
namespace {

// Register roles (gp1, gp2, gp15 belong to the row routines).
constexpr int kT1 = 1, kRow = 3, kAux = 4, kAux2 = 5, kLoop = 10;
// FP_MEM indices of the task constants (platforms/plena/pack/layout_plena.cpp): 1/n, eps.
constexpr int kFpInvN = 2, kFpEps = 3;

std::string n(uint64_t v) { return std::to_string(v); }

struct Plan {
  const NormKernel& k;
  const PlenaArch& a;
  AsmWriter w;
  uint64_t rows = 0;       // n / VLEN
  uint64_t gamma = 0, beta = 0, scratch = 0;  // VRAM addresses
  uint64_t row(uint64_t r) const { return r * a.vlen; }
};

// A hardware loop over the staged rows; `body` uses gp3 (and any registers it advanced).
template <class Body>
void for_rows(Plan& p, const std::string& what, Body body) {
  p.w.set(kRow, 0, "row 0");
  p.w.loop_start(kLoop, uint32_t(p.rows), what);
  body();
  p.w.op("S_ADDI_INT gp3, gp3, " + n(p.a.vlen));
  p.w.loop_end(kLoop);
}

// MSRAM tile 0 = a 64 x 64 tile of ones, so M_MV 0, gp0, row adds the row's sum to every
// lane of the matrix unit's FP32 accumulator. The ones go VRAM scratch -> HBM scratch
// (BLEN copies of one row, STRIDE 0) -> MSRAM (every tile row read from that HBM row).
void emit_ones_tile(Plan& p) {
  AsmWriter& w = p.w;
  w.comment("a tile of ones in MSRAM 0: sums accumulate in the matrix unit (FP32, rounded once)");
  w.op("S_LD_FP f1, gp0, 1", "f1 = 1.0");
  for (uint32_t r = 0; r < p.a.v_rows; ++r) {
    w.set(kAux, p.scratch + p.row(r), "scratch row " + n(r));
    w.op("S_MAP_V_FP gp4, gp0, 0", "FP_MEM[0..VLEN) (finite constants)");
    w.op("V_MUL_VF gp4, gp4, f0, 0", "0");
    w.op("V_ADD_VF gp4, gp4, f1, 0", "1");
  }
  w.set_addr(7, kT1, p.k.scratch_addr, "a7 = HBM scratch row");
  w.op("C_SET_STRIDE_REG gp0", "STRIDE = 0: every row of a transfer is the same HBM row");
  w.set(kAux, p.scratch);
  w.op("H_STORE_V gp4, gp0, a7, 1, 2", "HBM scratch = one BF16 row of ones");
  w.op("H_PREFETCH_M gp0, gp0, a7, 1, 2", "MSRAM tile 0 = ones");
}

// f = the FP32 sum accumulated by the M_MV instructions since the last write-out, rounded
// once to BF16: M_MV_WO writes it to every lane of a scratch row, V_RED_MAX reads one.
// `seed` is an f-register no larger than the sum (f0 = 0 for sums of non-negative values).
void emit_sum_readout(Plan& p, const std::string& f, const std::string& seed) {
  AsmWriter& w = p.w;
  w.set(kAux2, p.scratch + p.row(1), "sum row");
  w.op("M_MV_WO gp5, 0", "every lane = bf16(FP32 sum)");
  w.op("S_ADD_FP " + f + ", " + seed + ", f0", f + " = " + seed);
  w.op("V_RED_MAX " + f + ", gp5, 0", f + " = the sum");
}

// f5 = 1 / sqrt(f5 * (1/n) + eps), f5 holding a sum of squares.
void emit_inv_std(AsmWriter& w) {
  w.op("S_MUL_FP f5, f5, f2", "mean square = s * (1/n)");
  w.op("S_ADD_FP f5, f5, f3", "ve = + eps");
  w.op("S_SQRT_FP f5, f5", "sd = sqrt(ve)");
  w.op("S_RECI_FP f5, f5", "rs = 1 / sd");
}

void softmax(Plan& p) {
  AsmWriter& w = p.w;
  w.comment("running max, seeded with one element of x (no f-register holds -inf)");
  w.set(kAux, p.scratch, "scratch row");
  w.set(kAux2, p.a.vlen - 1, "shift VLEN-1");
  w.op("V_SHFT_V gp4, gp0, gp5, 0", "one lane holds an element of row 0, the rest 0");
  w.op("S_ADD_FP f2, f0, f0", "f2 = 0");
  w.op("V_RED_SUM f2, gp4, 0", "f2 = that element (exact)");
  for_rows(p, "m = max(x)", [&] { w.op("V_RED_MAX f2, gp3, 0", "m = max(m, max(row))"); });
  for_rows(p, "e = exp(x - m) in place; ACC += sum(e)", [&] {
    w.op("V_SUB_VF gp3, gp3, f2, 0, 0", "d = x - m");
    w.op("V_EXP_V gp3, gp3, 0", "e = exp(d)");
    w.op("M_MV 0, gp0, gp3", "ACC += sum(row)");
  });
  emit_sum_readout(p, "f3", "f0");
  w.op("S_RECI_FP f3, f3", "r = 1 / s");
  for_rows(p, "y = e * r", [&] { w.op("V_MUL_VF gp3, gp3, f3, 0", "y = e * r"); });
}

void layernorm(Plan& p) {
  AsmWriter& w = p.w;
  for_rows(p, "ACC += sum(x)", [&] { w.op("M_MV 0, gp0, gp3", "ACC += sum(row)"); });
  w.op("S_RECI_FP f4, f0", "+inf");
  w.op("S_SUB_FP f4, f0, f4", "-inf (s1 may be negative)");
  emit_sum_readout(p, "f4", "f4");
  w.op("S_MUL_FP f4, f4, f2", "mean = s1 * (1/n)");
  w.set(kAux, p.scratch, "scratch row for c^2");
  for_rows(p, "c = x - mean in place; ACC += sum(c^2)", [&] {
    w.op("V_SUB_VF gp3, gp3, f4, 0, 0", "c = x - mean");
    w.op("V_MUL_VV gp4, gp3, gp3, 0", "q = c * c");
    w.op("M_MV 0, gp0, gp4", "ACC += sum(q)");
  });
  emit_sum_readout(p, "f5", "f0");
  emit_inv_std(w);
  w.set(kAux, p.gamma, "gamma row");
  w.set(kAux2, p.beta, "beta row");
  for_rows(p, "y = c * rs * gamma + beta", [&] {
    w.op("V_MUL_VF gp3, gp3, f5, 0", "z = c * rs");
    w.op("V_MUL_VV gp3, gp3, gp4, 0", "g = z * gamma");
    w.op("V_ADD_VV gp3, gp3, gp5, 0", "y = g + beta");
    w.op("S_ADDI_INT gp4, gp4, " + n(p.a.vlen));
    w.op("S_ADDI_INT gp5, gp5, " + n(p.a.vlen));
  });
}

void rmsnorm(Plan& p) {
  AsmWriter& w = p.w;
  w.set(kAux, p.scratch, "scratch row for x^2");
  for_rows(p, "ACC += sum(x^2)", [&] {
    w.op("V_MUL_VV gp4, gp3, gp3, 0", "q = x * x");
    w.op("M_MV 0, gp0, gp4", "ACC += sum(q)");
  });
  emit_sum_readout(p, "f5", "f0");
  emit_inv_std(w);
  w.set(kAux, p.gamma, "gamma row");
  for_rows(p, "y = x * rs * gamma", [&] {
    w.op("V_MUL_VF gp3, gp3, f5, 0", "z = x * rs");
    w.op("V_MUL_VV gp3, gp3, gp4, 0", "y = z * gamma");
    w.op("S_ADDI_INT gp4, gp4, " + n(p.a.vlen));
  });
}

const char* name(RowReduction k) {
  switch (k) {
    case RowReduction::Softmax: return "Softmax";
    case RowReduction::LayerNorm: return "LayerNorm";
    case RowReduction::RmsNorm: return "RMSNorm";
  }
  return "?";
}

}  // namespace

std::string plena_norm_kernel(const NormKernel& k, const PlenaArch& a) {
  const uint64_t block = uint64_t(a.v_rows) * a.vlen;
  if (k.n == 0 || k.n % block)
    throw std::invalid_argument(std::string(name(k.kind)) + " template needs n to be a positive multiple of BLEN*VLEN = " +
                                n(block) + ", got " + n(k.n));
  Plan p{k, a, {}};
  p.rows = k.n / a.vlen;
  const uint64_t tensors = k.kind == RowReduction::LayerNorm ? 3 : k.kind == RowReduction::RmsNorm ? 2 : 1;
  const uint64_t need = tensors * p.rows + a.v_rows;  // staged tensors, BLEN scratch rows
  if (need > a.vram_rows)
    throw std::invalid_argument(std::string(name(k.kind)) + " template needs " + n(need) + " VRAM rows for n = " +
                                n(k.n) + ", the platform has " + n(a.vram_rows));
  p.gamma = p.row(p.rows);
  p.beta = p.row(2 * p.rows);
  p.scratch = p.row(tensors * p.rows);

  AsmWriter& w = p.w;
  w.comment(std::string(name(k.kind)) + " over n = " + n(k.n) + " (" + n(p.rows) + " rows staged in VRAM)");
  const int y_areg = int(tensors);
  w.set_addr(0, kT1, k.x_addr, "a0 = x");
  if (tensors > 1) w.set_addr(1, kT1, k.gamma_addr, "a1 = gamma");
  if (tensors > 2) w.set_addr(2, kT1, k.beta_addr, "a2 = beta");
  w.set_addr(y_areg, kT1, k.y_addr, "a" + n(y_areg) + " = y");
  w.set(kT1, k.n, tensors > 1 ? "SCALE = elements of x (and of each weight vector)" : "SCALE = elements of x");
  w.op("C_SET_SCALE_REG gp1");
  emit_prefetch_rows(w, a, 0, 0, 0, p.rows, kPrecMx);
  if (tensors > 1) emit_prefetch_rows(w, a, 1, 0, p.gamma, p.rows, kPrecMx);
  if (tensors > 2) emit_prefetch_rows(w, a, 2, 0, p.beta, p.rows, kPrecMx);
  emit_ones_tile(p);
  if (k.kind != RowReduction::Softmax) {
    w.op("S_LD_FP f2, gp0, " + n(kFpInvN), "1/n");
    w.op("S_LD_FP f3, gp0, " + n(kFpEps), "eps");
  }
  w.blank();
  switch (k.kind) {
    case RowReduction::Softmax: softmax(p); break;
    case RowReduction::LayerNorm: layernorm(p); break;
    case RowReduction::RmsNorm: rmsnorm(p); break;
  }
  w.blank();
  emit_store_rows(w, a, y_areg, 0, 0, p.rows, p.scratch, kPrecBf16);
  return w.str();
}

}  // namespace tlmcraft::tasks::plena
