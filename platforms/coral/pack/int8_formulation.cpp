// The Coral (int8) references, exact, in the arithmetic of int8_math.h. Integer matmuls
// reuse the double building blocks of tasks/reference/float_ops.h with no rounding: every
// product and partial sum of int8 operands is an integer far below 2^53, so double is exact.
#include "platforms/coral/pack/int8_formulation.h"

#include <algorithm>

#include "platforms/coral/pack/int8_attention.h"
#include "platforms/coral/pack/int8_blocks.h"
#include "platforms/coral/pack/int8_decoders.h"
#include "platforms/coral/pack/int8_math.h"
#include "tasks/reference/float_ops.h"

namespace tlmcraft::tasks::coral {
namespace {

using ref::Ctx;
using ref::Vec;
using Reference = std::function<TensorSet(const Ctx&)>;

const FloatNumerics kExact{false};

int64_t i(double v) { return int64_t(v); }

int shift(const Ctx& c, const char* name = "shift") { return int(constant(c.spec.name, c.params, name)); }

TensorSet softmax(const Ctx& c) {
  const Vec& x = c.v("x");
  return c.output(int8_softmax_q7(x.data(), int64_t(x.size()), c.v("exp_table")));
}

TensorSet layernorm(const Ctx& c) {
  const Vec &x = c.v("x"), &gamma = c.v("gamma"), &beta = c.v("beta");
  const int64_t n = c("n");
  int64_t s1 = 0;
  for (double v : x) s1 += i(v);
  const int64_t mean = rdiv(s1, n);
  int64_t s2 = 0;
  for (double v : x) s2 += (i(v) - mean) * (i(v) - mean);
  const int64_t var = rdiv(s2, n);
  const int64_t sd = isqrt(256 * (var + 1));
  Vec y(x.size());
  for (size_t k = 0; k < x.size(); ++k) {
    const int64_t z = rdiv(512 * (i(x[k]) - mean), sd);
    y[k] = double(sat8(rdiv(z * i(gamma[k]), 64) + i(beta[k])));
  }
  return c.output(y);
}

TensorSet batchmatmul(const Ctx& c) {
  const int64_t b = c("b"), m = c("M"), k = c("K"), n = c("N");
  const Vec &a = c.v("A"), &bb = c.v("B");
  Vec y;
  for (int64_t t = 0; t < b; ++t) {
    const Vec at(a.begin() + t * m * k, a.begin() + (t + 1) * m * k);
    const Vec bt(bb.begin() + t * k * n, bb.begin() + (t + 1) * k * n);
    const Vec ct = requant(ref::matmul(at, bt, m, k, n, kExact), shift(c));
    y.insert(y.end(), ct.begin(), ct.end());
  }
  return c.output(y);
}

TensorSet ffn(const Ctx& c) {
  const int64_t n = c("n"), h = c("h"), hi = c("h_i");
  const Vec a = requant(ref::matmul(c.v("x"), c.v("W1"), n, h, hi, kExact), shift(c, "shift1"));
  const Vec s = lookup(a, c.v("silu_lut"));
  return c.output(requant(ref::matmul(s, c.v("W2"), n, hi, h, kExact), shift(c, "shift2")));
}

TensorSet swiglu(const Ctx& c) {
  return c.output(swiglu_q5(c.v("x"), c.v("W_gate"), c.v("W_up"), c.v("W_down"), c.v("silu_lut"), c("n"), c("h"),
                            c("h_i"), shift(c, "shift1"), shift(c, "shift2")));
}

TensorSet conv_block(const Ctx& c) {
  const int64_t hh = c("H"), co = c("c_out");
  const Vec t = requant(ref::conv2d(c.v("x"), c.v("w"), hh, hh, c("c_in"), co, c("k")), shift(c));
  const Vec &mult = c.v("bn_mult"), &bias = c.v("bn_bias");
  Vec y(t.size());
  for (size_t k = 0; k < t.size(); ++k) {
    const size_t o = k % size_t(co);
    const int64_t b = sat8(rshift(i(t[k]) * i(mult[o]) + i(bias[o]), 6));
    y[k] = double(std::max<int64_t>(b, 0));
  }
  return c.output(y);
}

// Attention with `heads` query heads over `kv_heads` key/value heads (int8_attention.h);
// a parameter the task lacks counts as 1 (kv_heads: as many as heads for MHA).
Reference attention(bool mha, bool online) {
  return [mha, online](const Ctx& c) {
    const int64_t s = c("s"), heads = c.params.count("heads") ? c("heads") : 1;
    const int64_t kv = c.params.count("kv_heads") ? c("kv_heads") : (mha ? heads : 1), d = c("h") / heads;
    const Vec &q = c.v("Q"), &k = c.v("K"), &v = c.v("V"), &table = c.v("exp_table");
    const int sh = shift(c, "shift_qk");
    return c.output(online ? int8_flash_attention(q, k, v, s, s, heads, kv, d, sh,
                                                  int(constant(c.spec.name, c.params, "block")), table)
                           : int8_attention(q, k, v, s, s, heads, kv, d, sh, table));
  };
}

std::map<std::string, Reference> references() {
  return {
      {"relu",
       [](const Ctx& c) {
         Vec y = c.v("x");
         for (double& v : y) v = std::max(v, 0.0);
         return c.output(y);
       }},
      {"gelu", [](const Ctx& c) { return c.output(lookup(c.v("x"), c.v("lut"))); }},
      {"silu", [](const Ctx& c) { return c.output(lookup(c.v("x"), c.v("lut"))); }},
      {"softmax", softmax},
      {"layernorm", layernorm},
      {"rmsnorm", [](const Ctx& c) { return c.output(rmsnorm_rows(c.v("x"), c.v("gamma"), 1, c("n"))); }},
      {"gemv",
       [](const Ctx& c) {
         return c.output(requant(ref::matmul_bt(c.v("x"), c.v("A"), 1, c("N"), c("M"), kExact), shift(c)));
       }},
      {"gemm",
       [](const Ctx& c) {
         return c.output(requant(ref::matmul(c.v("A"), c.v("B"), c("M"), c("K"), c("N"), kExact), shift(c)));
       }},
      {"batchmatmul", batchmatmul},
      {"linear",
       [](const Ctx& c) {
         const Vec p = ref::matmul(c.v("x"), c.v("W"), c("M"), c("K"), c("N"), kExact);
         return c.output(requant(ref::add_row_bias(p, c.v("bias"), c("M"), c("N"), kExact), shift(c)));
       }},
      {"conv2d",
       [](const Ctx& c) {
         return c.output(requant(ref::conv2d(c.v("x"), c.v("w"), c("H"), c("H"), c("c_in"), c("c_out"), c("k")), shift(c)));
       }},
      {"depthwise_conv",
       [](const Ctx& c) {
         return c.output(requant(ref::depthwise(c.v("x"), c.v("w"), c("H"), c("H"), c("c"), c("k")), shift(c)));
       }},
      {"rope", [](const Ctx& c) { return c.output(rope_q7(c.v("x"), c.v("cos"), c.v("sin"), c("s"), c("h"), c("h"))); }},
      {"ffn", ffn},
      {"swiglu", swiglu},
      {"conv_block", conv_block},
      {"scaled_dot_product", attention(false, false)},
      {"mha", attention(true, false)},
      {"gqa", attention(false, false)},
      {"mqa", attention(false, false)},
      {"flash_attention", attention(false, true)},
      {"llama_decoder", llama_decoder},
      {"t5_decoder", t5_decoder},
  };
}

}  // namespace

IntegerFormulation int8_formulation() {
  IntegerFormulation f;
  f.references = references();
  f.constants = constants;
  f.tables = {{"gelu_lut", gelu_table}, {"silu_lut", silu_table}, {"exp_q15", exp_q15_table}};
  return f;
}

}  // namespace tlmcraft::tasks::coral
