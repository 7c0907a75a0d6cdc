#include "platforms/plena/pack/baselines/elementwise.h"

#include <stdexcept>

#include "platforms/plena/pack/baselines/asm_writer.h"
#include "platforms/plena/pack/baselines/row_ops.h"

namespace tlmcraft::tasks::plena {
namespace {

// Register roles.
constexpr int kT1 = 1, kRow = 2, kHbmOff = 3, kTmp = 4, kBlock = 5, kLoopBlock = 10, kLoopRow = 11;

// FP_MEM indices of the task constants (platforms/plena/pack/layout_plena.cpp).
constexpr int kFpOne = 1, kFpGeluCubic = 2, kFpGeluExpArg = 3;

// One row at gp[kRow], in place; gp[kTmp] is a scratch row. f1 = 1.0, f2/f3 as loaded.
void row_body(AsmWriter& w, Activation act) {
  switch (act) {
    case Activation::Relu:
      w.op("V_MAX_VF gp2, gp2, f0, 0", "y = max(x, 0)");
      break;
    case Activation::Silu:
      w.op("V_SUB_VF gp4, gp2, f0, 0, 1", "-x (0 - x)");
      w.op("V_EXP_V gp4, gp4, 0", "e = exp(-x)");
      w.op("V_ADD_VF gp4, gp4, f1, 0", "d = 1 + e");
      w.op("V_RECI_V gp4, gp4, 0", "r = 1 / d");
      w.op("V_MUL_VV gp2, gp2, gp4, 0", "y = x * r");
      break;
    case Activation::Gelu:
      // 0.5 (1 + tanh(u')) = 1 / (1 + exp(-2u')), so y = x / (1 + exp(c2 (x + c1 x^3))).
      w.op("V_MUL_VV gp4, gp2, gp2, 0", "x2 = x * x");
      w.op("V_MUL_VV gp4, gp4, gp2, 0", "x3 = x2 * x");
      w.op("V_MUL_VF gp4, gp4, f2, 0", "t = c1 * x3");
      w.op("V_ADD_VV gp4, gp2, gp4, 0", "u = x + t");
      w.op("V_MUL_VF gp4, gp4, f3, 0", "v = c2 * u");
      w.op("V_EXP_V gp4, gp4, 0", "e = exp(v)");
      w.op("V_ADD_VF gp4, gp4, f1, 0", "d = 1 + e");
      w.op("V_RECI_V gp4, gp4, 0", "r = 1 / d");
      w.op("V_MUL_VV gp2, gp2, gp4, 0", "y = x * r");
      break;
  }
}

const char* name(Activation act) {
  switch (act) {
    case Activation::Relu: return "ReLU";
    case Activation::Silu: return "SiLU";
    case Activation::Gelu: return "GELU (tanh form)";
  }
  return "?";
}

}  // namespace

std::string plena_elementwise_kernel(const ElementwiseKernel& k, const PlenaArch& a) {
  const uint64_t block = uint64_t(a.v_rows) * a.vlen;
  if (k.n == 0 || k.n % block)
    throw std::invalid_argument("elementwise template needs n to be a positive multiple of BLEN*VLEN = " +
                                std::to_string(block) + ", got " + std::to_string(k.n));
  if (a.vram_rows < a.v_rows + 1) throw std::invalid_argument("elementwise template: VRAM too small");
  AsmWriter w;
  w.comment(std::string(name(k.act)) + " over n = " + std::to_string(k.n) + ": blocks of " +
            std::to_string(a.v_rows) + " rows of " + std::to_string(a.vlen));
  w.set_addr(0, kT1, k.x_addr, "a0 = x");
  w.set_addr(1, kT1, k.y_addr, "a1 = y");
  w.set(kT1, k.n, "SCALE = elements of x");
  w.op("C_SET_SCALE_REG gp1");
  if (k.act != Activation::Relu) w.op("S_LD_FP f1, gp0, " + std::to_string(kFpOne), "1.0");
  if (k.act == Activation::Gelu) {
    w.op("S_LD_FP f2, gp0, " + std::to_string(kFpGeluCubic), "c1 = 0.044715");
    w.op("S_LD_FP f3, gp0, " + std::to_string(kFpGeluExpArg), "c2 = -2 sqrt(2/pi)");
  }
  w.set(kBlock, 0, "VRAM block");
  w.set(kTmp, block, "VRAM scratch row");
  w.set(kHbmOff, 0, "element offset of the block");
  w.loop_start(kLoopBlock, uint32_t(k.n / block), "blocks");
  w.op("H_PREFETCH_V gp5, gp3, a0, 0, " + std::to_string(kPrecMx), "x block -> VRAM");
  w.op("S_ADD_INT gp2, gp5, gp0", "first row");
  w.loop_start(kLoopRow, a.v_rows, "rows of the block");
  row_body(w, k.act);
  w.op("S_ADDI_INT gp2, gp2, " + std::to_string(a.vlen));
  w.loop_end(kLoopRow);
  w.op("H_STORE_V gp5, gp3, a1, 0, " + std::to_string(kPrecBf16), "y block -> HBM (BF16)");
  w.op("S_ADDI_INT gp3, gp3, " + std::to_string(block));
  w.loop_end(kLoopBlock);
  return w.str();
}

}  // namespace tlmcraft::tasks::plena
