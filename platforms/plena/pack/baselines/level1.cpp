// PLENA template baselines for the level-1 tasks: addresses from the task's PLENA layout,
// shapes from the configuration's parameters.
#include "platforms/plena/pack/baselines/conv.h"
#include "platforms/plena/pack/baselines/depthwise.h"
#include "platforms/plena/pack/baselines/elementwise.h"
#include "platforms/plena/pack/baselines/generators.h"
#include "platforms/plena/pack/baselines/matvec.h"
#include "platforms/plena/pack/baselines/norms.h"
#include "platforms/plena/pack/baselines/stages.h"

namespace tlmcraft::tasks::plena {
namespace {

uint64_t addr(const Instance& inst, const char* tensor) { return inst.layout()->placement(tensor).address; }
uint64_t elements(const Instance& inst, const char* tensor) { return inst.layout()->placement(tensor).elements; }
uint32_t param(const Instance& inst, const char* name) { return uint32_t(inst.params().at(name)); }

std::string gemm(const Instance& inst, const PlenaArch& a) {
  GemmKernel g;
  g.m = param(inst, "M");
  g.k = param(inst, "K");
  g.n = param(inst, "N");
  g.x_addr = addr(inst, "A");
  g.w_addr = addr(inst, "B");
  g.y_addr = addr(inst, "C");
  return plena_gemm_kernel(g, a);
}

std::string linear(const Instance& inst, const PlenaArch& a) {
  GemmKernel g;
  g.m = param(inst, "M");
  g.k = param(inst, "K");
  g.n = param(inst, "N");
  g.x_addr = addr(inst, "x");
  g.w_addr = addr(inst, "W");
  g.y_addr = addr(inst, "y");
  g.has_bias = true;
  g.bias_addr = addr(inst, "bias");
  return plena_gemm_kernel(g, a);
}

// One GEMM per batch, each on its slice of the [b, ., .] tensors (SCALE stays the whole
// tensor's element count; the slice's offsets move data and scale bytes together).
std::string batchmatmul(const Instance& inst, const PlenaArch& a) {
  const uint32_t b = param(inst, "b");
  std::string out;
  for (uint32_t i = 0; i < b; ++i) {
    GemmKernel g;
    g.m = param(inst, "M");
    g.k = param(inst, "K");
    g.n = param(inst, "N");
    g.x_addr = addr(inst, "A");
    g.w_addr = addr(inst, "B");
    g.y_addr = addr(inst, "C");
    g.x_scale = elements(inst, "A");
    g.w_scale = elements(inst, "B");
    g.x_offset = uint64_t(i) * g.m * g.k;
    g.w_offset = uint64_t(i) * g.k * g.n;
    g.y_offset = uint64_t(i) * g.m * g.n;
    out += "; ---- batch " + std::to_string(i) + " of " + std::to_string(b) + "\n" + plena_gemm_kernel(g, a);
  }
  return out;
}

std::string gemv(const Instance& inst, const PlenaArch& a) {
  GemvKernel g;
  g.m = param(inst, "M");
  g.n = param(inst, "N");
  g.a_addr = addr(inst, "A");
  g.x_addr = addr(inst, "x");
  g.y_addr = addr(inst, "y");
  return plena_gemv_kernel(g, a);
}

std::string conv2d(const Instance& inst, const PlenaArch& a) { return plena_conv2d_kernel(conv_kernel(inst), a); }

std::string depthwise_conv(const Instance& inst, const PlenaArch& a) {
  DepthwiseKernel d;
  d.h = param(inst, "H");
  d.c = param(inst, "c");
  d.k = param(inst, "k");
  d.x_addr = addr(inst, "x");
  d.w_addr = addr(inst, "w");
  d.y_addr = addr(inst, "y");
  d.scratch_addr = scratch_base(*inst.layout());
  return plena_depthwise_kernel(d, a);
}

Generator elementwise(Activation act) {
  return [act](const Instance& inst, const PlenaArch& a) {
    ElementwiseKernel k;
    k.act = act;
    k.n = param(inst, "n");
    k.x_addr = addr(inst, "x");
    k.y_addr = addr(inst, "y");
    return plena_elementwise_kernel(k, a);
  };
}

Generator norm(RowReduction kind) {
  return [kind](const Instance& inst, const PlenaArch& a) {
    NormKernel k;
    k.kind = kind;
    k.n = param(inst, "n");
    k.x_addr = addr(inst, "x");
    if (kind != RowReduction::Softmax) k.gamma_addr = addr(inst, "gamma");
    if (kind == RowReduction::LayerNorm) k.beta_addr = addr(inst, "beta");
    k.y_addr = addr(inst, "y");
    k.scratch_addr = scratch_base(*inst.layout());
    return plena_norm_kernel(k, a);
  };
}

}  // namespace

ConvKernel conv_kernel(const Instance& inst) {
  ConvKernel c;
  c.h = param(inst, "H");
  c.c_in = param(inst, "c_in");
  c.c_out = param(inst, "c_out");
  c.k = param(inst, "k");
  c.x_addr = addr(inst, "x");
  c.w_addr = addr(inst, "w");
  c.y_addr = addr(inst, "y");
  c.scratch_addr = scratch_base(*inst.layout());
  return c;
}

GeneratorMap level1_generators() {
  return {{"silu", elementwise(Activation::Silu)},
          {"relu", elementwise(Activation::Relu)},
          {"gelu", elementwise(Activation::Gelu)},
          {"softmax", norm(RowReduction::Softmax)},
          {"layernorm", norm(RowReduction::LayerNorm)},
          {"rmsnorm", norm(RowReduction::RmsNorm)},
          {"gemv", gemv},
          {"gemm", gemm},
          {"batchmatmul", batchmatmul},
          {"linear", linear},
          {"conv2d", conv2d},
          {"depthwise_conv", depthwise_conv}};
}

}  // namespace tlmcraft::tasks::plena
