#include "tasks/reference/float_ops.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "isa/formats/bf16.h"

namespace tlmcraft::tasks::ref {

namespace fmt = tlmcraft::isa::formats;

namespace {

// PLENA's numerics policy (stage_bf16) accumulates like its matrix unit: each product of
// two BF16/MXFP8 values is exact in float32 and added to a float32 accumulator in
// ascending contraction order. AIE-ML sums in double.
bool fp32_accumulate(const FloatNumerics& N) { return N.stage_bf16; }

// FlashAttention's exact softmax and P V of one query row on a staged platform (PLENA;
// docs/tasks.md, "Rounding slack"). In the reference Ns rounds nothing and the caller
// rounds the output once. In a rounding-slack sample Ns rounds stochastically every stage
// an online-softmax kernel materialises in BF16: D = T - m, E, the running sum and the
// partial output after every kKvChunk keys (the smallest KV block a kernel can take, so any
// block size's boundaries are among them), 1/l and P. The output's own rounding is the
// caller's (N.out).
constexpr int64_t kKvChunk = 16;

void exact_attention_row(const double* t, const Vec& v, int64_t s_k, int64_t d, const FloatNumerics& Ns, double* o) {
  const double m = *std::max_element(t, t + s_k);
  Vec e(static_cast<size_t>(s_k));
  for (int64_t j = 0; j < s_k; ++j) e[size_t(j)] = Ns.r(std::exp(Ns.r(t[j] - m)));
  double l = 0;
  for (int64_t j0 = 0; j0 < s_k; j0 += kKvChunk) {
    for (int64_t j = j0; j < std::min(s_k, j0 + kKvChunk); ++j) l += e[size_t(j)];
    l = Ns.r(l);  // the running sum between blocks (after the last chunk: l)
  }
  const double r = Ns.r(1.0 / l);
  std::fill(o, o + d, 0.0);
  for (int64_t j0 = 0; j0 < s_k; j0 += kKvChunk) {
    for (int64_t j = j0; j < std::min(s_k, j0 + kKvChunk); ++j) {
      const double p = Ns.r(e[size_t(j)] * r);
      for (int64_t x = 0; x < d; ++x) o[x] += p * v[size_t(j * d + x)];
    }
    if (j0 + kKvChunk < s_k)
      for (int64_t x = 0; x < d; ++x) o[x] = Ns.r(o[x]);  // the partial output between blocks
  }
}

}  // namespace

double reduce_sum(const double* v, int64_t n, const FloatNumerics& N) {
  if (fp32_accumulate(N)) {
    float f = 0.0f;
    for (int64_t i = 0; i < n; ++i) f += float(v[i]);
    return N.r(f);
  }
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += v[i];
  return N.r(s);
}

double vred_sum(const double* v, int64_t n, int64_t vlen) {
  float f = 0.0f;
  for (int64_t start = 0; start < n; start += vlen) {
    float row = 0.0f;
    for (int64_t i = start; i < std::min(n, start + vlen); ++i) row += float(v[i]);
    f = fmt::round_to_bf16(f + row);  // float add, then the f-register's BF16 rounding
  }
  return f;
}

Vec matmul(const Vec& a, const Vec& b, int64_t m, int64_t k, int64_t n, const FloatNumerics& N) {
  Vec c(size_t(m * n));
  if (fp32_accumulate(N)) {
    std::vector<float> acc(static_cast<size_t>(n));
    for (int64_t i = 0; i < m; ++i) {
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int64_t kk = 0; kk < k; ++kk) {
        const float av = float(a[size_t(i * k + kk)]);
        const double* brow = &b[size_t(kk * n)];
        for (int64_t j = 0; j < n; ++j) acc[size_t(j)] += av * float(brow[j]);
      }
      for (int64_t j = 0; j < n; ++j) c[size_t(i * n + j)] = N.r(acc[size_t(j)]);
    }
    return c;
  }
  Vec acc(static_cast<size_t>(n));
  for (int64_t i = 0; i < m; ++i) {
    std::fill(acc.begin(), acc.end(), 0.0);
    for (int64_t kk = 0; kk < k; ++kk) {
      const double av = a[size_t(i * k + kk)];
      const double* brow = &b[size_t(kk * n)];
      for (int64_t j = 0; j < n; ++j) acc[size_t(j)] += av * brow[j];
    }
    for (int64_t j = 0; j < n; ++j) c[size_t(i * n + j)] = N.r(acc[size_t(j)]);
  }
  return c;
}

Vec matmul_bt(const Vec& a, const Vec& b, int64_t m, int64_t k, int64_t n, const FloatNumerics& N) {
  Vec c(size_t(m * n));
  const bool f32 = fp32_accumulate(N);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const double* ar = &a[size_t(i * k)];
      const double* br = &b[size_t(j * k)];
      if (f32) {
        float s = 0.0f;
        for (int64_t kk = 0; kk < k; ++kk) s += float(ar[kk]) * float(br[kk]);
        c[size_t(i * n + j)] = N.r(s);
      } else {
        double s = 0;
        for (int64_t kk = 0; kk < k; ++kk) s += ar[kk] * br[kk];
        c[size_t(i * n + j)] = N.r(s);
      }
    }
  return c;
}

Vec relu(const Vec& x, const FloatNumerics& N) {
  Vec y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = N.r(std::max(x[i], 0.0));
  return y;
}

Vec silu(const Vec& x, const FloatNumerics& N) {
  const double one = N.c(1.0);
  Vec y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double e = N.r(std::exp(N.r(-x[i])));
    const double d = N.r(one + e);
    const double r = N.r(1.0 / d);
    y[i] = N.r(x[i] * r);
  }
  return y;
}

Vec gelu(const Vec& x, const FloatNumerics& N) {
  const double c1 = N.c(0.044715), c2 = N.c(-2.0 * std::sqrt(2.0 / M_PI)), one = N.c(1.0);
  Vec y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double xv = x[i];
    const double x2 = N.r(xv * xv);
    const double x3 = N.r(x2 * xv);
    const double t = N.r(c1 * x3);
    const double u = N.r(xv + t);
    const double v = N.r(c2 * u);
    const double e = N.r(std::exp(v));
    const double d = N.r(one + e);
    const double r = N.r(1.0 / d);
    y[i] = N.r(xv * r);
  }
  return y;
}

Vec softmax_rows(const Vec& x, int64_t rows, int64_t cols, const FloatNumerics& N) {
  Vec y(x.size());
  Vec e(static_cast<size_t>(cols));
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = &x[size_t(r * cols)];
    const double m = *std::max_element(xr, xr + cols);
    for (int64_t j = 0; j < cols; ++j) e[size_t(j)] = N.r(std::exp(N.r(xr[j] - m)));
    const double rs = N.r(1.0 / reduce_sum(e.data(), cols, N));  // z is materialised (BF16)
    for (int64_t j = 0; j < cols; ++j) y[size_t(r * cols + j)] = N.r(e[size_t(j)] * rs);
  }
  return y;
}

Vec layernorm_rows(const Vec& x, const Vec& gamma, const Vec& beta, int64_t rows, int64_t cols, double eps,
                   const FloatNumerics& N) {
  const double inv_n = N.c(1.0 / double(cols)), e = N.c(eps);
  Vec y(x.size()), c(static_cast<size_t>(cols)), q(static_cast<size_t>(cols));
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = &x[size_t(r * cols)];
    const double mean = N.r(reduce_sum(xr, cols, N) * inv_n);
    for (int64_t j = 0; j < cols; ++j) {
      c[size_t(j)] = N.r(xr[j] - mean);
      q[size_t(j)] = N.r(c[size_t(j)] * c[size_t(j)]);
    }
    const double var = N.r(reduce_sum(q.data(), cols, N) * inv_n);
    const double rs = N.r(1.0 / N.r(std::sqrt(N.r(var + e))));
    for (int64_t j = 0; j < cols; ++j) {
      const double z = N.r(c[size_t(j)] * rs);
      const double g = N.r(z * gamma[size_t(j)]);
      y[size_t(r * cols + j)] = N.r(g + beta[size_t(j)]);
    }
  }
  return y;
}

Vec rmsnorm_rows(const Vec& x, const Vec& gamma, int64_t rows, int64_t cols, double eps, const FloatNumerics& N) {
  const double inv_n = N.c(1.0 / double(cols)), e = N.c(eps);
  Vec y(x.size()), q(static_cast<size_t>(cols));
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = &x[size_t(r * cols)];
    for (int64_t j = 0; j < cols; ++j) q[size_t(j)] = N.r(xr[j] * xr[j]);
    const double ms = N.r(reduce_sum(q.data(), cols, N) * inv_n);
    const double rs = N.r(1.0 / N.r(std::sqrt(N.r(ms + e))));
    for (int64_t j = 0; j < cols; ++j) y[size_t(r * cols + j)] = N.r(N.r(xr[j] * rs) * gamma[size_t(j)]);
  }
  return y;
}

Vec rope_heads(const Vec& x, const Vec& cos, const Vec& sin, int64_t s, int64_t h, int64_t d,
               const FloatNumerics& N) {
  if (d % 2 != 0 || h % d != 0) throw std::logic_error("rope: head width must be even and divide h");
  const int64_t half = d / 2;
  Vec y(x.size());
  for (int64_t p = 0; p < s; ++p)
    for (int64_t c0 = 0; c0 < h; c0 += d)
      for (int64_t j = 0; j < d; ++j) {
        const double xv = x[size_t(p * h + c0 + j)];
        const double rot = j < half ? -x[size_t(p * h + c0 + j + half)] : x[size_t(p * h + c0 + j - half)];
        const double a = N.r(xv * cos[size_t(p * d + j)]);
        const double b = N.r(rot * sin[size_t(p * d + j)]);
        y[size_t(p * h + c0 + j)] = N.r(a + b);
      }
  return y;
}

Vec attention(const Vec& q, const Vec& k, const Vec& v, int64_t s_q, int64_t s_k, int64_t heads,
              int64_t kv_heads, int64_t d, const FloatNumerics& N, bool exact_softmax) {
  if (kv_heads <= 0 || heads % kv_heads != 0) throw std::logic_error("attention: kv_heads must divide heads");
  const int64_t h = heads * d, hk = kv_heads * d, group = heads / kv_heads;
  const double c = N.c(1.0 / std::sqrt(double(d)));
  Vec o(size_t(s_q * h));
  Vec qh(size_t(s_q * d)), kh(size_t(s_k * d)), vh(size_t(s_k * d));
  for (int64_t j = 0; j < heads; ++j) {
    const int64_t g = j / group;
    for (int64_t p = 0; p < s_q; ++p)
      for (int64_t t = 0; t < d; ++t) qh[size_t(p * d + t)] = q[size_t(p * h + j * d + t)];
    for (int64_t p = 0; p < s_k; ++p)
      for (int64_t t = 0; t < d; ++t) {
        kh[size_t(p * d + t)] = k[size_t(p * hk + g * d + t)];
        vh[size_t(p * d + t)] = v[size_t(p * hk + g * d + t)];
      }
    Vec scores = matmul_bt(qh, kh, s_q, d, s_k, N);
    for (double& x : scores) x = N.r(x * c);
    // Exact: softmax and P V in double from the BF16 scores, one rounding at the output.
    const FloatNumerics exact = N.unstaged();
    const FloatNumerics& Ns = exact_softmax ? exact : N;
    Vec oh(size_t(s_q * d));
    if (exact_softmax && N.stage_bf16) {
      for (int64_t r = 0; r < s_q; ++r)
        exact_attention_row(&scores[size_t(r * s_k)], vh, s_k, d, Ns, &oh[size_t(r * d)]);
      for (double& x : oh) x = N.out(x);  // rounded once (left raw for rounding_slack)
    } else {
      oh = matmul(softmax_rows(scores, s_q, s_k, Ns), vh, s_q, s_k, d, Ns);
      if (exact_softmax)
        for (double& x : oh) x = N.r(x);
    }
    for (int64_t r = 0; r < s_q; ++r)
      for (int64_t t = 0; t < d; ++t) o[size_t(r * h + j * d + t)] = oh[size_t(r * d + t)];
  }
  return o;
}

Vec add(const Vec& a, const Vec& b, const FloatNumerics& N) {
  Vec y(a.size());
  for (size_t i = 0; i < a.size(); ++i) y[i] = N.r(a[i] + b[i]);
  return y;
}

Vec mul(const Vec& a, const Vec& b, const FloatNumerics& N) {
  Vec y(a.size());
  for (size_t i = 0; i < a.size(); ++i) y[i] = N.r(a[i] * b[i]);
  return y;
}

Vec add_row_bias(const Vec& a, const Vec& bias, int64_t rows, int64_t cols, const FloatNumerics& N) {
  Vec y(a.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < cols; ++j) y[size_t(r * cols + j)] = N.r(a[size_t(r * cols + j)] + bias[size_t(j)]);
  return y;
}

namespace {

// The convolution with accumulator type Acc (float: PLENA's matrix unit, double: AIE-ML),
// each output's products added in (dr, dc, i) order.
template <class Acc>
Vec conv2d_acc(const Vec& x, const Vec& w, int64_t h, int64_t wd, int64_t ci, int64_t co, int64_t k) {
  const int64_t pad = (k - 1) / 2;
  Vec y(size_t(h * wd * co), 0.0);
  std::vector<Acc> acc(static_cast<size_t>(co));
  for (int64_t r = 0; r < h; ++r)
    for (int64_t c = 0; c < wd; ++c) {
      std::fill(acc.begin(), acc.end(), Acc(0));
      for (int64_t dr = 0; dr < k; ++dr)
        for (int64_t dc = 0; dc < k; ++dc) {
          const int64_t rr = r + dr - pad, cc = c + dc - pad;
          if (rr < 0 || rr >= h || cc < 0 || cc >= wd) continue;
          for (int64_t i = 0; i < ci; ++i) {
            const Acc xv = Acc(x[size_t((rr * wd + cc) * ci + i)]);
            const double* wrow = &w[size_t(((dr * k + dc) * ci + i) * co)];
            for (int64_t o = 0; o < co; ++o) acc[size_t(o)] += xv * Acc(wrow[o]);
          }
        }
      for (int64_t o = 0; o < co; ++o) y[size_t((r * wd + c) * co + o)] = double(acc[size_t(o)]);
    }
  return y;
}

}  // namespace

Vec conv2d(const Vec& x, const Vec& w, int64_t h, int64_t wd, int64_t ci, int64_t co, int64_t k,
           const FloatNumerics& N) {
  return fp32_accumulate(N) ? conv2d_acc<float>(x, w, h, wd, ci, co, k) : conv2d_acc<double>(x, w, h, wd, ci, co, k);
}

Vec depthwise(const Vec& x, const Vec& w, int64_t h, int64_t wd, int64_t c, int64_t k, const FloatNumerics& N) {
  const int64_t pad = (k - 1) / 2;
  Vec y(size_t(h * wd * c), 0.0);
  for (int64_t r = 0; r < h; ++r)
    for (int64_t col = 0; col < wd; ++col)
      for (int64_t dr = 0; dr < k; ++dr)
        for (int64_t dc = 0; dc < k; ++dc) {
          const int64_t rr = r + dr - pad, cc = col + dc - pad;
          if (rr < 0 || rr >= h || cc < 0 || cc >= wd) continue;
          for (int64_t ch = 0; ch < c; ++ch) {
            double& acc = y[size_t((r * wd + col) * c + ch)];
            const double p = x[size_t((rr * wd + cc) * c + ch)] * w[size_t((dr * k + dc) * c + ch)];
            // PLENA: a vector multiply and a vector add per tap, each rounded to BF16.
            acc = N.stage_bf16 ? N.r(acc + N.r(p)) : acc + p;
          }
        }
  return y;
}

}  // namespace tlmcraft::tasks::ref
