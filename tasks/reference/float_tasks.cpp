// The float references (PLENA, AIE-ML): each task as a composition of the staged
// building blocks, the final output rounded to BF16.
#include <cmath>

#include "tasks/reference/reference_internal.h"

namespace tlmcraft::tasks::ref {
namespace {

Vec outputs(Vec v, const FloatNumerics& N) {
  for (double& x : v) x = N.out(x);
  return v;
}

TensorSet batchmatmul(const Ctx& c, const FloatNumerics& N) {
  const int64_t b = c("b"), m = c("M"), k = c("K"), n = c("N");
  const Vec &a = c.v("A"), &bb = c.v("B");
  Vec y;
  for (int64_t i = 0; i < b; ++i) {
    const Vec ai(a.begin() + i * m * k, a.begin() + (i + 1) * m * k);
    const Vec bi(bb.begin() + i * k * n, bb.begin() + (i + 1) * k * n);
    const Vec ci = matmul(ai, bi, m, k, n, N);
    y.insert(y.end(), ci.begin(), ci.end());
  }
  return c.output(outputs(y, N));
}

TensorSet heads_attention(const Ctx& c, const FloatNumerics& N, int64_t heads, int64_t kv_heads,
                          bool exact_softmax = false) {
  const int64_t s = c("s"), h = c("h");
  return c.output(
      outputs(attention(c.v("Q"), c.v("K"), c.v("V"), s, s, heads, kv_heads, h / heads, N, exact_softmax), N));
}

TensorSet conv_block(const Ctx& c, const FloatNumerics& N) {
  const int64_t hh = c("H"), ci = c("c_in"), co = c("c_out"), k = c("k");
  Vec z = conv2d(c.v("x"), c.v("w"), hh, hh, ci, co, k, N);
  const Vec &gamma = c.v("gamma"), &beta = c.v("beta"), &mean = c.v("mean"), &var = c.v("var");
  const double eps = N.c(1e-5);
  for (size_t i = 0; i < z.size(); ++i) {
    const size_t o = i % size_t(co);
    const double t = N.r(N.r(z[i]) - mean[o]);
    const double rs = N.r(1.0 / N.r(std::sqrt(N.r(var[o] + eps))));
    const double b = N.r(N.r(N.r(t * rs) * gamma[o]) + beta[o]);
    z[i] = std::max(b, 0.0);
  }
  return c.output(outputs(z, N));
}

Vec swiglu_block(const Vec& x, const Vec& wg, const Vec& wu, const Vec& wd, int64_t n, int64_t h, int64_t hi,
                 const FloatNumerics& N) {
  const Vec g = matmul(x, wg, n, h, hi, N);
  const Vec u = matmul(x, wu, n, h, hi, N);
  return matmul(mul(silu(g, N), u, N), wd, n, hi, h, N);
}

TensorSet llama_decoder(const Ctx& c, const FloatNumerics& N) {
  const int64_t s = c("s"), h = c("h"), heads = c("heads"), hi = c("h_i"), d = h / heads;
  const Vec& x = c.v("x");
  const Vec a = rmsnorm_rows(x, c.v("g_attn"), s, h, 1e-6, N);
  const Vec q = rope_heads(matmul(a, c.v("Wq"), s, h, h, N), c.v("cos"), c.v("sin"), s, h, d, N);
  const Vec k = rope_heads(matmul(a, c.v("Wk"), s, h, h, N), c.v("cos"), c.v("sin"), s, h, d, N);
  const Vec v = matmul(a, c.v("Wv"), s, h, h, N);
  const Vec o = attention(q, k, v, s, s, heads, heads, d, N);
  const Vec x2 = add(x, matmul(o, c.v("Wo"), s, h, h, N), N);
  const Vec b = rmsnorm_rows(x2, c.v("g_ffn"), s, h, 1e-6, N);
  const Vec y = add(x2, swiglu_block(b, c.v("W_gate"), c.v("W_up"), c.v("W_down"), s, h, hi, N), N);
  return c.output(outputs(y, N));
}

TensorSet t5_decoder(const Ctx& c, const FloatNumerics& N) {
  const int64_t s = c("s"), h = c("h"), heads = c("heads"), hi = c("h_i"), d = h / heads;
  const Vec &x = c.v("x"), &enc = c.v("enc");
  const Vec a = rmsnorm_rows(x, c.v("g_self"), s, h, 1e-6, N);
  const Vec o1 = attention(matmul(a, c.v("Wq_s"), s, h, h, N), matmul(a, c.v("Wk_s"), s, h, h, N),
                           matmul(a, c.v("Wv_s"), s, h, h, N), s, s, heads, heads, d, N);
  const Vec x2 = add(x, matmul(o1, c.v("Wo_s"), s, h, h, N), N);
  const Vec b = rmsnorm_rows(x2, c.v("g_cross"), s, h, 1e-6, N);
  const Vec o2 = attention(matmul(b, c.v("Wq_c"), s, h, h, N), matmul(enc, c.v("Wk_c"), s, h, h, N),
                           matmul(enc, c.v("Wv_c"), s, h, h, N), s, s, heads, heads, d, N);
  const Vec x3 = add(x2, matmul(o2, c.v("Wo_c"), s, h, h, N), N);
  const Vec cc = rmsnorm_rows(x3, c.v("g_ffn"), s, h, 1e-6, N);
  const Vec f = matmul(relu(matmul(cc, c.v("W1"), s, h, hi, N), N), c.v("W2"), s, hi, h, N);
  return c.output(outputs(add(x3, f, N), N));
}

}  // namespace

const std::map<std::string, FloatTask>& float_tasks() {
  static const std::map<std::string, FloatTask> tasks{
      {"relu", [](const Ctx& c, const FloatNumerics& N) { return c.output(outputs(relu(c.v("x"), N), N)); }},
      {"silu", [](const Ctx& c, const FloatNumerics& N) { return c.output(outputs(silu(c.v("x"), N), N)); }},
      {"gelu", [](const Ctx& c, const FloatNumerics& N) { return c.output(outputs(gelu(c.v("x"), N), N)); }},
      {"softmax",
       [](const Ctx& c, const FloatNumerics& N) { return c.output(outputs(softmax_rows(c.v("x"), 1, c("n"), N), N)); }},
      {"layernorm",
       [](const Ctx& c, const FloatNumerics& N) {
         return c.output(outputs(layernorm_rows(c.v("x"), c.v("gamma"), c.v("beta"), 1, c("n"), 1e-5, N), N));
       }},
      {"rmsnorm",
       [](const Ctx& c, const FloatNumerics& N) {
         return c.output(outputs(rmsnorm_rows(c.v("x"), c.v("gamma"), 1, c("n"), 1e-6, N), N));
       }},
      {"gemv",
       [](const Ctx& c, const FloatNumerics& N) {
         // y = A x as the 1 x N row x times A^T.
         return c.output(outputs(matmul_bt(c.v("x"), c.v("A"), 1, c("N"), c("M"), N), N));
       }},
      {"gemm",
       [](const Ctx& c, const FloatNumerics& N) {
         return c.output(outputs(matmul(c.v("A"), c.v("B"), c("M"), c("K"), c("N"), N), N));
       }},
      {"batchmatmul", batchmatmul},
      {"linear",
       [](const Ctx& c, const FloatNumerics& N) {
         const Vec p = matmul(c.v("x"), c.v("W"), c("M"), c("K"), c("N"), N);
         return c.output(outputs(add_row_bias(p, c.v("bias"), c("M"), c("N"), N), N));
       }},
      {"conv2d",
       [](const Ctx& c, const FloatNumerics& N) {
         return c.output(outputs(conv2d(c.v("x"), c.v("w"), c("H"), c("H"), c("c_in"), c("c_out"), c("k"), N), N));
       }},
      {"depthwise_conv",
       [](const Ctx& c, const FloatNumerics& N) {
         return c.output(outputs(depthwise(c.v("x"), c.v("w"), c("H"), c("H"), c("c"), c("k"), N), N));
       }},
      {"rope",
       [](const Ctx& c, const FloatNumerics& N) {
         return c.output(outputs(rope_heads(c.v("x"), c.v("cos"), c.v("sin"), c("s"), c("h"), c("h"), N), N));
       }},
      {"ffn",
       [](const Ctx& c, const FloatNumerics& N) {
         const int64_t n = c("n"), h = c("h"), hi = c("h_i");
         const Vec a = silu(matmul(c.v("x"), c.v("W1"), n, h, hi, N), N);
         return c.output(outputs(matmul(a, c.v("W2"), n, hi, h, N), N));
       }},
      {"swiglu",
       [](const Ctx& c, const FloatNumerics& N) {
         return c.output(outputs(
             swiglu_block(c.v("x"), c.v("W_gate"), c.v("W_up"), c.v("W_down"), c("n"), c("h"), c("h_i"), N), N));
       }},
      {"scaled_dot_product", [](const Ctx& c, const FloatNumerics& N) { return heads_attention(c, N, 1, 1); }},
      {"flash_attention", [](const Ctx& c, const FloatNumerics& N) { return heads_attention(c, N, 1, 1, true); }},
      {"mha", [](const Ctx& c, const FloatNumerics& N) { return heads_attention(c, N, c("heads"), c("heads")); }},
      {"gqa", [](const Ctx& c, const FloatNumerics& N) { return heads_attention(c, N, c("heads"), c("kv_heads")); }},
      {"mqa", [](const Ctx& c, const FloatNumerics& N) { return heads_attention(c, N, c("heads"), 1); }},
      {"conv_block", conv_block},
      {"llama_decoder", llama_decoder},
      {"t5_decoder", t5_decoder},
  };
  return tasks;
}

}  // namespace tlmcraft::tasks::ref
