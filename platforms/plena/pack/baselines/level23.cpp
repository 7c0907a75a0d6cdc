// PLENA template baselines for the level-2 and level-3 tasks: each kernel is a sequence of
// HBM-to-HBM stages (stages.h) in the order of the task's reference stages; ConvBlock is
// the Conv2D template with a BatchNorm/ReLU epilogue (conv_block.h).
#include "platforms/plena/pack/baselines/conv_block.h"
#include "platforms/plena/pack/baselines/flash_attention.h"
#include "platforms/plena/pack/baselines/generators.h"
#include "platforms/plena/pack/baselines/stages.h"

namespace tlmcraft::tasks::plena {
namespace {

struct Ctx {
  std::unique_ptr<PlatformLayout> layout;
  const Params& p;
  StageEmitter e;

  Ctx(const Instance& inst, const PlenaArch& a, int scale_index)
      : layout(inst.layout()), p(inst.params()), e(a, scratch_base(*layout)) {
    e.writer().comment("PLENA template baseline: " + inst.task().name + " " + inst.config().name);
    e.prologue(scale_index);
  }
  HbmMat mat(const std::string& name) const { return hbm_mat(layout->placement(name)); }
  uint32_t operator()(const std::string& name) const { return uint32_t(p.at(name)); }
};

// SiLU stages of the references: e = exp(-a); d = 1 + e; r = 1/d; s = a * r.
void silu_row(AsmWriter& w, int a, int out, int tmp) {
  w.op("V_SUB_VF " + gp(tmp) + ", " + gp(a) + ", f0, 0, 1", "-a");
  w.op("V_EXP_V " + gp(tmp) + ", " + gp(tmp) + ", 0", "e = exp(-a)");
  w.op("V_ADD_VF " + gp(tmp) + ", " + gp(tmp) + ", f1, 0", "d = 1 + e");
  w.op("V_RECI_V " + gp(tmp) + ", " + gp(tmp) + ", 0", "r = 1/d");
  w.op("V_MUL_VV " + gp(out) + ", " + gp(a) + ", " + gp(tmp) + ", 0", "s = a * r");
}

void add_rows(AsmWriter& w, const std::vector<int>& in, int out, int) {
  w.op("V_ADD_VV " + gp(out) + ", " + gp(in[0]) + ", " + gp(in[1]) + ", 0", "residual add");
}

// y = (SiLU(x Wg) * (x Wu)) Wd, all [n, *] in HBM.
void swiglu_stages(StageEmitter& e, const HbmMat& x, const HbmMat& wg, const HbmMat& wu, const HbmMat& wd,
                   const HbmMat& y, uint32_t n, uint32_t h, uint32_t hi) {
  const HbmMat g = e.scratch(n, hi), u = e.scratch(n, hi), a = e.scratch(n, hi);
  e.matmul(x, wg, false, g, n, h, hi, "g = x W_gate");
  e.matmul(x, wu, false, u, n, h, hi, "u = x W_up");
  e.map({g, u}, a, n, hi,
        [](AsmWriter& w, const std::vector<int>& in, int out, int tmp) {
          silu_row(w, in[0], out, tmp);
          w.op("V_MUL_VV " + gp(out) + ", " + gp(out) + ", " + gp(in[1]) + ", 0", "a = SiLU(g) * u");
        },
        "a = SiLU(g) * u");
  e.matmul(a, wd, false, y, n, hi, h, "y = a W_down");
}

std::string rope(const Instance& inst, const PlenaArch& arch) {
  Ctx c(inst, arch, -1);
  c.e.rope(c.mat("x"), c.mat("cos"), c.mat("sin"), c.mat("y"), c("s"), c("h"), c("h"), "y = RoPE(x)");
  return c.e.str();
}

std::string ffn(const Instance& inst, const PlenaArch& arch) {
  Ctx c(inst, arch, -1);
  const uint32_t n = c("n"), h = c("h"), hi = c("h_i");
  const HbmMat a = c.e.scratch(n, hi), sl = c.e.scratch(n, hi);
  c.e.matmul(c.mat("x"), c.mat("W1"), false, a, n, h, hi, "a = x W1");
  c.e.map({a}, sl, n, hi, [](AsmWriter& w, const std::vector<int>& in, int out, int tmp) { silu_row(w, in[0], out, tmp); },
          "s = SiLU(a)");
  c.e.matmul(sl, c.mat("W2"), false, c.mat("y"), n, hi, h, "y = s W2");
  return c.e.str();
}

std::string swiglu(const Instance& inst, const PlenaArch& arch) {
  Ctx c(inst, arch, -1);
  swiglu_stages(c.e, c.mat("x"), c.mat("W_gate"), c.mat("W_up"), c.mat("W_down"), c.mat("y"), c("n"), c("h"), c("h_i"));
  return c.e.str();
}

// Attention tasks: FP_MEM[2] = 1/sqrt(d).
std::string attention(const Instance& inst, const PlenaArch& arch, uint32_t heads, uint32_t kv_heads) {
  Ctx c(inst, arch, 2);
  const uint32_t s = c("s"), h = c("h");
  c.e.attention(c.mat("Q"), c.mat("K"), c.mat("V"), c.mat("O"), s, h / heads, heads, kv_heads, "attention");
  return c.e.str();
}

// Decoder FP_MEM: 3 = 1/h, 4 = eps, 5 = 1/sqrt(d).
std::string llama_decoder(const Instance& inst, const PlenaArch& arch) {
  Ctx c(inst, arch, 5);
  StageEmitter& e = c.e;
  const uint32_t s = c("s"), h = c("h"), heads = c("heads"), hi = c("h_i"), d = h / heads;
  const HbmMat x = c.mat("x");
  const HbmMat a = e.scratch(s, h), q0 = e.scratch(s, h), k0 = e.scratch(s, h), v = e.scratch(s, h);
  const HbmMat q = e.scratch(s, h), k = e.scratch(s, h), o = e.scratch(s, h), t = e.scratch(s, h);
  const HbmMat x2 = e.scratch(s, h), b = e.scratch(s, h);
  e.rmsnorm(x, c.mat("g_attn"), a, s, h, 3, 4, "a = RMSNorm(x)");
  e.matmul(a, c.mat("Wq"), false, q0, s, h, h, "q = a Wq");
  e.matmul(a, c.mat("Wk"), false, k0, s, h, h, "k = a Wk");
  e.matmul(a, c.mat("Wv"), false, v, s, h, h, "v = a Wv");
  e.rope(q0, c.mat("cos"), c.mat("sin"), q, s, h, d, "q = RoPE(q)");
  e.rope(k0, c.mat("cos"), c.mat("sin"), k, s, h, d, "k = RoPE(k)");
  e.attention(q, k, v, o, s, d, heads, heads, "self-attention");
  e.matmul(o, c.mat("Wo"), false, t, s, h, h, "o Wo");
  e.map({x, t}, x2, s, h, add_rows, "x2 = x + o Wo");
  e.rmsnorm(x2, c.mat("g_ffn"), b, s, h, 3, 4, "b = RMSNorm(x2)");
  const HbmMat f = e.scratch(s, h);
  swiglu_stages(e, b, c.mat("W_gate"), c.mat("W_up"), c.mat("W_down"), f, s, h, hi);
  e.map({x2, f}, c.mat("y"), s, h, add_rows, "y = x2 + SwiGLU(b)");
  return e.str();
}

std::string t5_decoder(const Instance& inst, const PlenaArch& arch) {
  Ctx c(inst, arch, 5);
  StageEmitter& e = c.e;
  const uint32_t s = c("s"), h = c("h"), heads = c("heads"), hi = c("h_i"), d = h / heads;
  const HbmMat x = c.mat("x"), enc = c.mat("enc");
  auto sc = [&] { return e.scratch(s, h); };
  // self-attention
  const HbmMat a = sc(), q1 = sc(), k1 = sc(), v1 = sc(), o1 = sc(), t1 = sc(), x2 = sc();
  e.rmsnorm(x, c.mat("g_self"), a, s, h, 3, 4, "a = RMSNorm(x)");
  e.matmul(a, c.mat("Wq_s"), false, q1, s, h, h, "q = a Wq_s");
  e.matmul(a, c.mat("Wk_s"), false, k1, s, h, h, "k = a Wk_s");
  e.matmul(a, c.mat("Wv_s"), false, v1, s, h, h, "v = a Wv_s");
  e.attention(q1, k1, v1, o1, s, d, heads, heads, "self-attention");
  e.matmul(o1, c.mat("Wo_s"), false, t1, s, h, h, "o Wo_s");
  e.map({x, t1}, x2, s, h, add_rows, "x2 = x + o Wo_s");
  // cross-attention: keys and values from the encoder output
  const HbmMat b = sc(), q2 = sc(), k2 = sc(), v2 = sc(), o2 = sc(), t2 = sc(), x3 = sc();
  e.rmsnorm(x2, c.mat("g_cross"), b, s, h, 3, 4, "b = RMSNorm(x2)");
  e.matmul(b, c.mat("Wq_c"), false, q2, s, h, h, "q = b Wq_c");
  e.matmul(enc, c.mat("Wk_c"), false, k2, s, h, h, "k = enc Wk_c");
  e.matmul(enc, c.mat("Wv_c"), false, v2, s, h, h, "v = enc Wv_c");
  e.attention(q2, k2, v2, o2, s, d, heads, heads, "cross-attention");
  e.matmul(o2, c.mat("Wo_c"), false, t2, s, h, h, "o Wo_c");
  e.map({x2, t2}, x3, s, h, add_rows, "x3 = x2 + o Wo_c");
  // ReLU feed-forward
  const HbmMat cn = sc(), f1 = e.scratch(s, hi), f2 = e.scratch(s, hi), f = sc();
  e.rmsnorm(x3, c.mat("g_ffn"), cn, s, h, 3, 4, "c = RMSNorm(x3)");
  e.matmul(cn, c.mat("W1"), false, f1, s, h, hi, "c W1");
  e.map({f1}, f2, s, hi,
        [](AsmWriter& w, const std::vector<int>& in, int out, int) {
          w.op("V_MAX_VF " + gp(out) + ", " + gp(in[0]) + ", f0, 0", "ReLU");
        },
        "ReLU(c W1)");
  e.matmul(f2, c.mat("W2"), false, f, s, hi, h, "ReLU(c W1) W2");
  e.map({x3, f}, c.mat("y"), s, h, add_rows, "y = x3 + FFN(c)");
  return e.str();
}

std::string conv_block(const Instance& inst, const PlenaArch& a) {
  const auto layout = inst.layout();
  ConvBlockKernel k;
  k.conv = conv_kernel(inst);
  k.gamma_addr = layout->placement("gamma").address;
  k.beta_addr = layout->placement("beta").address;
  k.mean_addr = layout->placement("mean").address;
  k.var_addr = layout->placement("var").address;
  return plena_conv_block_kernel(k, a);
}

}  // namespace

GeneratorMap level23_generators() {
  return {
      {"rope", rope},
      {"ffn", ffn},
      {"swiglu", swiglu},
      {"scaled_dot_product", [](const Instance& i, const PlenaArch& a) { return attention(i, a, 1, 1); }},
      {"flash_attention", [](const Instance& i, const PlenaArch& a) { return plena_flash_attention(i, a); }},
      {"mha",
       [](const Instance& i, const PlenaArch& a) {
         const uint32_t heads = uint32_t(i.params().at("heads"));
         return attention(i, a, heads, heads);
       }},
      {"gqa",
       [](const Instance& i, const PlenaArch& a) {
         return attention(i, a, uint32_t(i.params().at("heads")), uint32_t(i.params().at("kv_heads")));
       }},
      {"mqa", [](const Instance& i, const PlenaArch& a) { return attention(i, a, uint32_t(i.params().at("heads")), 1); }},
      {"llama_decoder", llama_decoder},
      {"t5_decoder", t5_decoder},
      {"conv_block", conv_block},
  };
}

}  // namespace tlmcraft::tasks::plena
