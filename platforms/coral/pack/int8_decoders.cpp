#include "platforms/coral/pack/int8_decoders.h"

#include <algorithm>
#include <string>

#include "platforms/coral/pack/int8_attention.h"
#include "platforms/coral/pack/int8_blocks.h"
#include "platforms/coral/pack/int8_math.h"

namespace tlmcraft::tasks::coral {
namespace {

using ref::Ctx;
using ref::Vec;

int shift(const Ctx& c, const char* name) { return int(constant(c.spec.name, c.params, name)); }

// x + requant(attention(q, k, v) Wo, shift_o): one attention sub-block's residual output.
Vec attend(const Ctx& c, const Vec& x, const Vec& q, const Vec& k, const Vec& v, const std::string& wo) {
  const int64_t s = c("s"), h = c("h"), heads = c("heads");
  const Vec o = int8_attention(q, k, v, s, s, heads, heads, h / heads, shift(c, "shift_qk"), c.v("exp_table"));
  return add_sat8(x, matmul_requant(o, c.v(wo), s, h, h, shift(c, "shift_o")));
}

}  // namespace

TensorSet llama_decoder(const Ctx& c) {
  const int64_t s = c("s"), h = c("h"), d = h / c("heads");
  const int qkv = shift(c, "shift_qkv");
  const Vec& x = c.v("x");
  const Vec a = rmsnorm_rows(x, c.v("g_attn"), s, h);
  const Vec q = rope_q7(matmul_requant(a, c.v("Wq"), s, h, h, qkv), c.v("cos"), c.v("sin"), s, h, d);
  const Vec k = rope_q7(matmul_requant(a, c.v("Wk"), s, h, h, qkv), c.v("cos"), c.v("sin"), s, h, d);
  const Vec x2 = attend(c, x, q, k, matmul_requant(a, c.v("Wv"), s, h, h, qkv), "Wo");
  const Vec b = rmsnorm_rows(x2, c.v("g_ffn"), s, h);
  const Vec f = swiglu_q5(b, c.v("W_gate"), c.v("W_up"), c.v("W_down"), c.v("silu_lut"), s, h, c("h_i"),
                          shift(c, "shift1"), shift(c, "shift2"));
  return c.output(add_sat8(x2, f));
}

TensorSet t5_decoder(const Ctx& c) {
  const int64_t s = c("s"), h = c("h"), hi = c("h_i");
  const int qkv = shift(c, "shift_qkv");
  const Vec &x = c.v("x"), &enc = c.v("enc");
  const Vec a = rmsnorm_rows(x, c.v("g_self"), s, h);
  const Vec x2 =
      attend(c, x, matmul_requant(a, c.v("Wq_s"), s, h, h, qkv), matmul_requant(a, c.v("Wk_s"), s, h, h, qkv),
             matmul_requant(a, c.v("Wv_s"), s, h, h, qkv), "Wo_s");
  const Vec b = rmsnorm_rows(x2, c.v("g_cross"), s, h);
  const Vec x3 =
      attend(c, x2, matmul_requant(b, c.v("Wq_c"), s, h, h, qkv), matmul_requant(enc, c.v("Wk_c"), s, h, h, qkv),
             matmul_requant(enc, c.v("Wv_c"), s, h, h, qkv), "Wo_c");
  const Vec r = matmul_requant(rmsnorm_rows(x3, c.v("g_ffn"), s, h), c.v("W1"), s, h, hi, shift(c, "shift1"));
  Vec relu(r.size());
  std::transform(r.begin(), r.end(), relu.begin(), [](double v) { return std::max(v, 0.0); });
  return c.output(add_sat8(x3, matmul_requant(relu, c.v("W2"), s, hi, h, shift(c, "shift2"))));
}

}  // namespace tlmcraft::tasks::coral
