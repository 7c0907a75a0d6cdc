// Staged float building blocks of the PLENA and AIE-ML references. Each returns values
// rounded with N.r() after every stage a kernel would materialise (see FloatNumerics);
// matmuls accumulate in double and round once. Matrices are row-major.
#pragma once
#include <cstdint>
#include <vector>

#include "tasks/numerics.h"

namespace tlmcraft::tasks::ref {

using Vec = std::vector<double>;

// The sum of n values as a kernel materialises it, rounded once with N.r(). PLENA: a
// float32 accumulator in ascending index order, as the matrix unit accumulates (a kernel
// sums a row through M_MV with a ones matrix and gets exactly this); AIE-ML: double.
// Not V_RED_SUM's BF16 running total (see vred_sum and docs/tasks.md: that loses up to
// the whole mean of a LayerNorm at n = 16384, so a reference built on it would fail
// correct kernels).
double reduce_sum(const double* v, int64_t n, const FloatNumerics& N);
// What a chain of V_RED_SUM instructions computes for n values: each chunk of vlen
// values summed in float32 in lane order, then f = bf16(f + chunk_sum) with f from 0.
// Not used by the references; kept to measure its error against reduce_sum.
double vred_sum(const double* v, int64_t n, int64_t vlen);

// [M, K] x [K, N], accumulated as reduce_sum accumulates (PLENA float32 in ascending k,
// AIE-ML double), each result rounded once with N.r().
Vec matmul(const Vec& a, const Vec& b, int64_t m, int64_t k, int64_t n, const FloatNumerics& N);
// [M, K] x [N, K]^T.
Vec matmul_bt(const Vec& a, const Vec& b, int64_t m, int64_t k, int64_t n, const FloatNumerics& N);

Vec relu(const Vec& x, const FloatNumerics& N);
// e = exp(-x); d = 1 + e; r = 1/d; y = x * r.
Vec silu(const Vec& x, const FloatNumerics& N);
// x2 = x x; x3 = x2 x; t = c1 x3; u = x + t; v = c2 u; e = exp(v); d = 1 + e; r = 1/d; y = x r
// with c1 = 0.044715, c2 = -2 sqrt(2/pi) (the tanh form via 0.5(1 + tanh u) = 1/(1 + e^-2u)).
Vec gelu(const Vec& x, const FloatNumerics& N);
// Row-wise softmax of [rows, cols]: m = max; d = x - m; e = exp(d); s = reduce_sum(e); r = 1/s; y = e r.
Vec softmax_rows(const Vec& x, int64_t rows, int64_t cols, const FloatNumerics& N);
// LayerNorm of each row of [rows, cols] (eps given), gamma and beta of cols values.
Vec layernorm_rows(const Vec& x, const Vec& gamma, const Vec& beta, int64_t rows, int64_t cols, double eps,
                   const FloatNumerics& N);
// RMSNorm of each row of [rows, cols].
Vec rmsnorm_rows(const Vec& x, const Vec& gamma, int64_t rows, int64_t cols, double eps, const FloatNumerics& N);
// Rotate-half RoPE on every head (width d = cos's width) of x [s, heads * d]:
// a = x cos; b = rotate_half(x) sin; y = a + b.
Vec rope_heads(const Vec& x, const Vec& cos, const Vec& sin, int64_t s, int64_t h, int64_t d,
               const FloatNumerics& N);
// Attention of q [s_q, heads d] against k, v [s_k, kv_heads d]: per query head j,
// S = q_j k_g^T; T = S c (c = 1/sqrt(d)); softmax rows; O_j = P v_g, g = j / (heads / kv_heads).
// exact_softmax: the softmax and P v_g in double from the rounded T, O_j rounded once with
// N.r() (N.out() on a staged platform) (FlashAttention: the staged D, E, P roundings depend
// on the offset a kernel subtracts, which an online softmax changes per KV block; docs/tasks.md).
Vec attention(const Vec& q, const Vec& k, const Vec& v, int64_t s_q, int64_t s_k, int64_t heads,
              int64_t kv_heads, int64_t d, const FloatNumerics& N, bool exact_softmax = false);
// Elementwise helpers, rounded with N.r().
Vec add(const Vec& a, const Vec& b, const FloatNumerics& N);
Vec mul(const Vec& a, const Vec& b, const FloatNumerics& N);
// Adds bias[j] to every row of [rows, cols].
Vec add_row_bias(const Vec& a, const Vec& bias, int64_t rows, int64_t cols, const FloatNumerics& N);
// Stride-1 'same' convolution, channels last: x [H, W, ci], w [k, k, ci, co] -> [H, W, co],
// accumulated as reduce_sum accumulates (PLENA float32, AIE-ML double) over (dr, dc, i) in
// that order; not rounded (callers round). The default (double) is exact for integer inputs.
Vec conv2d(const Vec& x, const Vec& w, int64_t h, int64_t wd, int64_t ci, int64_t co, int64_t k,
           const FloatNumerics& N = FloatNumerics{});
// Depthwise: x [H, W, c], w [k, k, c] -> [H, W, c], taps in (dr, dc) order. PLENA
// (stage_bf16) materialises each tap like its vector unit: acc = r(acc + r(x w)); AIE-ML
// sums in double. Not rounded at the end (callers round).
Vec depthwise(const Vec& x, const Vec& w, int64_t h, int64_t wd, int64_t c, int64_t k,
              const FloatNumerics& N = FloatNumerics{});

}  // namespace tlmcraft::tasks::ref
