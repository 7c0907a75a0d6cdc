#include "platforms/plena/pack/baselines/matvec.h"

#include <stdexcept>

#include "platforms/plena/pack/baselines/asm_writer.h"
#include "platforms/plena/pack/baselines/row_ops.h"

namespace tlmcraft::tasks::plena {
namespace {

// Register roles (gp1, gp2, gp15 belong to the row routines).
constexpr int kT1 = 1, kXRow = 3, kAOff = 4, kYRow = 5, kLoopM = 10, kLoopN = 11;

std::string n(uint64_t v) { return std::to_string(v); }

}  // namespace

std::string plena_gemv_kernel(const GemvKernel& g, const PlenaArch& a) {
  if (a.mlen != a.vlen) throw std::invalid_argument("GEMV template assumes MLEN == VLEN");
  if (!g.m || !g.n || g.m % a.mlen || g.n % a.mlen)
    throw std::invalid_argument("GEMV template needs M and N to be positive multiples of MLEN = " + n(a.mlen) +
                                ", got M = " + n(g.m) + ", N = " + n(g.n));
  const uint64_t x_rows = g.n / a.vlen, y_rows = g.m / a.mlen;
  // x rows (+ BLEN-1 spare rows for a prefetch tail), y rows, BLEN scratch rows for a store tail
  const uint64_t x_area = x_rows + a.v_rows - 1;
  const uint64_t y_vram = x_area * a.vlen, scratch = (x_area + y_rows) * a.vlen;
  if (x_area + y_rows + a.v_rows > a.vram_rows) throw std::invalid_argument("GEMV template: x and y exceed VRAM");

  AsmWriter w;
  w.comment("GEMV y[" + n(g.m) + "] = A[" + n(g.m) + "," + n(g.n) + "] x[" + n(g.n) + "]");
  w.set_addr(0, kT1, g.a_addr, "a0 = A");
  w.set_addr(1, kT1, g.x_addr, "a1 = x");
  w.set_addr(2, kT1, g.y_addr, "a2 = y");
  w.set(kT1, g.n, "SCALE = elements of x");
  w.op("C_SET_SCALE_REG gp1");
  emit_prefetch_rows(w, a, 1, 0, 0, x_rows, kPrecMx);
  w.blank();
  w.set(kT1, uint64_t(g.m) * g.n, "SCALE = elements of A");
  w.op("C_SET_SCALE_REG gp1");
  w.set(kT1, g.n, "STRIDE = row length of A");
  w.op("C_SET_STRIDE_REG gp1");
  w.set(kAOff, 0, "A offset of the current tile");
  w.set(kYRow, y_vram, "VRAM row of the current outputs");
  w.loop_start(kLoopM, uint32_t(y_rows), "blocks of MLEN outputs");
  w.set(kXRow, 0, "x row 0");
  w.loop_start(kLoopN, uint32_t(g.n / a.mlen), "tiles along N");
  w.op("H_PREFETCH_M gp0, gp4, a0, 1, " + n(kPrecMx), "A[m0 .. +MLEN, n0 .. +MLEN] -> MSRAM tile 0");
  w.op("M_TMV 0, gp0, gp3", "acc[c] += sum_k x[n0+k] * A[m0+c][n0+k]");
  w.op("S_ADDI_INT gp3, gp3, " + n(a.vlen), "next x row");
  w.op("S_ADDI_INT gp4, gp4, " + n(a.mlen), "next tile along N");
  w.loop_end(kLoopN);
  w.op("M_MV_WO gp5, 0", "y[m0 .. +MLEN] = bf16(acc)");
  w.op("S_ADDI_INT gp5, gp5, " + n(a.vlen));
  w.set(kT1, uint64_t(a.mlen - 1) * g.n, "the rest of MLEN rows of A (N already added)");
  w.op("S_ADD_INT gp4, gp4, gp1", "next MLEN rows of A");
  w.loop_end(kLoopM);
  w.blank();
  emit_store_rows(w, a, 2, 0, y_vram, y_rows, scratch, kPrecBf16);
  return w.str();
}

}  // namespace tlmcraft::tasks::plena
