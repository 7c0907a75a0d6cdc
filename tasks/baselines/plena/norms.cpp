#include "tasks/baselines/plena/norms.h"

#include <stdexcept>

#include "tasks/baselines/plena/asm_writer.h"
#include "tasks/baselines/plena/row_ops.h"

namespace tlmcraft::tasks::plena {
namespace {

// Register roles (gp1, gp2, gp15 belong to the row routines).
constexpr int kT1 = 1, kRow = 3, kAux = 4, kAux2 = 5, kLoop = 10;
// FP_MEM indices of the task constants (tasks/layout_plena.cpp): 1/n, eps.
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
  w.op("S_ADD_FP f3, f0, f0", "s = 0");
  for_rows(p, "e = exp(x - m) in place; s = sum(e)", [&] {
    w.op("V_SUB_VF gp3, gp3, f2, 0, 0", "d = x - m");
    w.op("V_EXP_V gp3, gp3, 0", "e = exp(d)");
    w.op("V_RED_SUM f3, gp3, 0", "s = bf16(s + sum(row))");
  });
  w.op("S_RECI_FP f3, f3", "r = 1 / s");
  for_rows(p, "y = e * r", [&] { w.op("V_MUL_VF gp3, gp3, f3, 0", "y = e * r"); });
}

void layernorm(Plan& p) {
  AsmWriter& w = p.w;
  w.op("S_ADD_FP f4, f0, f0", "s1 = 0");
  for_rows(p, "s1 = sum(x)", [&] { w.op("V_RED_SUM f4, gp3, 0", "s1 = bf16(s1 + sum(row))"); });
  w.op("S_MUL_FP f4, f4, f2", "mean = s1 * (1/n)");
  w.set(kAux, p.scratch, "scratch row for c^2");
  w.op("S_ADD_FP f5, f0, f0", "s2 = 0");
  for_rows(p, "c = x - mean in place; s2 = sum(c^2)", [&] {
    w.op("V_SUB_VF gp3, gp3, f4, 0, 0", "c = x - mean");
    w.op("V_MUL_VV gp4, gp3, gp3, 0", "q = c * c");
    w.op("V_RED_SUM f5, gp4, 0", "s2 = bf16(s2 + sum(q))");
  });
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
  w.op("S_ADD_FP f5, f0, f0", "s = 0");
  for_rows(p, "s = sum(x^2)", [&] {
    w.op("V_MUL_VV gp4, gp3, gp3, 0", "q = x * x");
    w.op("V_RED_SUM f5, gp4, 0", "s = bf16(s + sum(q))");
  });
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
