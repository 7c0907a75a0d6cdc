// Integer matmuls reuse the double building blocks of tasks/reference/float_ops.h with no
// rounding: every product and partial sum of int8 operands is an integer far below 2^53.
#include "platforms/coral/pack/int8_blocks.h"

#include "platforms/coral/pack/int8_math.h"

namespace tlmcraft::tasks::coral {
namespace {

using ref::Vec;

const FloatNumerics kExact{false};

int64_t i(double v) { return int64_t(v); }

}  // namespace

Vec requant(const Vec& acc, int shift) {
  Vec y(acc.size());
  for (size_t k = 0; k < acc.size(); ++k) y[k] = double(sat8(rshift(i(acc[k]), shift)));
  return y;
}

Vec matmul_requant(const Vec& a, const Vec& b, int64_t m, int64_t k, int64_t n, int shift) {
  return requant(ref::matmul(a, b, m, k, n, kExact), shift);
}

Vec lookup(const Vec& x, const Vec& lut) {
  Vec y(x.size());
  for (size_t k = 0; k < x.size(); ++k) y[k] = lut[size_t(i(x[k]) + 128)];
  return y;
}

Vec add_sat8(const Vec& a, const Vec& b) {
  Vec y(a.size());
  for (size_t k = 0; k < a.size(); ++k) y[k] = double(sat8(i(a[k]) + i(b[k])));
  return y;
}

Vec rmsnorm_rows(const Vec& x, const Vec& gamma, int64_t rows, int64_t n) {
  Vec y(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = x.data() + r * n;
    int64_t s = 0;
    for (int64_t k = 0; k < n; ++k) s += i(row[k]) * i(row[k]);
    const int64_t sd = isqrt(256 * (rdiv(s, n) + 1));
    for (int64_t k = 0; k < n; ++k)
      y[size_t(r * n + k)] = double(sat8(rdiv(rdiv(512 * i(row[k]), sd) * i(gamma[size_t(k)]), 64)));
  }
  return y;
}

Vec rope_q7(const Vec& x, const Vec& cos, const Vec& sin, int64_t s, int64_t h, int64_t d) {
  const int64_t half = d / 2;
  Vec y(x.size());
  for (int64_t p = 0; p < s; ++p)
    for (int64_t col = 0; col < h; ++col) {
      const int64_t j = col % d, head0 = col - j;
      const int64_t partner =
          j < half ? -i(x[size_t(p * h + head0 + j + half)]) : i(x[size_t(p * h + head0 + j - half)]);
      const int64_t acc = i(x[size_t(p * h + col)]) * i(cos[size_t(p * d + j)]) + partner * i(sin[size_t(p * d + j)]);
      y[size_t(p * h + col)] = double(sat8(rshift(acc, 7)));
    }
  return y;
}

Vec swiglu_q5(const Vec& x, const Vec& w_gate, const Vec& w_up, const Vec& w_down, const Vec& silu_lut, int64_t n,
              int64_t h, int64_t h_i, int shift1, int shift2) {
  const Vec g = matmul_requant(x, w_gate, n, h, h_i, shift1);
  const Vec u = matmul_requant(x, w_up, n, h, h_i, shift1);
  const Vec s = lookup(g, silu_lut);
  Vec a(s.size());
  for (size_t k = 0; k < s.size(); ++k) a[k] = double(sat8(rshift(i(s[k]) * i(u[k]), 5)));
  return matmul_requant(a, w_down, n, h_i, h, shift2);
}

}  // namespace tlmcraft::tasks::coral
