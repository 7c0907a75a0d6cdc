#include "platforms/coral/pack/int8_attention.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>

#include "platforms/coral/pack/int8_math.h"

namespace tlmcraft::tasks::coral {
namespace {

using ref::Vec;

int64_t i(double v) { return int64_t(v); }

// One head: q [s_q, d], k and v [s_k, d] -> O [s_q, d].
using HeadFn = std::function<Vec(const Vec& q, const Vec& k, const Vec& v, int64_t s_q, int64_t s_k, int64_t d)>;

// Columns first .. first + d - 1 of the [rows, width] matrix x.
Vec columns(const Vec& x, int64_t rows, int64_t width, int64_t first, int64_t d) {
  Vec y(size_t(rows * d));
  for (int64_t r = 0; r < rows; ++r) std::copy_n(x.begin() + r * width + first, d, y.begin() + r * d);
  return y;
}

void put_columns(Vec& x, const Vec& part, int64_t rows, int64_t width, int64_t first, int64_t d) {
  for (int64_t r = 0; r < rows; ++r) std::copy_n(part.begin() + r * d, d, x.begin() + r * width + first);
}

Vec per_head(const Vec& q, const Vec& k, const Vec& v, int64_t s_q, int64_t s_k, int64_t heads, int64_t kv_heads,
             int64_t d, const HeadFn& head) {
  if (heads <= 0 || kv_heads <= 0 || d <= 0 || s_q <= 0 || s_k <= 0 || heads % kv_heads != 0)
    throw std::invalid_argument("int8 attention: heads (" + std::to_string(heads) +
                                ") must be a positive multiple of kv_heads (" + std::to_string(kv_heads) +
                                "), sizes positive");
  if (s_k > kMaxAttentionKeys)
    throw std::invalid_argument("int8 attention: " + std::to_string(s_k) + " keys exceed the int32 bound of " +
                                std::to_string(kMaxAttentionKeys));
  if (q.size() != size_t(s_q * heads * d) || k.size() != size_t(s_k * kv_heads * d) || v.size() != k.size())
    throw std::invalid_argument("int8 attention: Q, K or V does not have the stated shape");
  Vec o(q.size());
  for (int64_t j = 0; j < heads; ++j) {
    const int64_t g = j / (heads / kv_heads);
    const Vec oj = head(columns(q, s_q, heads * d, j * d, d), columns(k, s_k, kv_heads * d, g * d, d),
                        columns(v, s_k, kv_heads * d, g * d, d), s_q, s_k, d);
    put_columns(o, oj, s_q, heads * d, j * d, d);
  }
  return o;
}

// The online-softmax state of one query row.
struct RowState {
  int64_t m = -128, l = 0;
  std::vector<int64_t> acc;
};

void rescale(RowState& st, int64_t m_new, const Vec& table) {
  if (m_new <= st.m) return;
  const int64_t a = i(table[size_t(m_new - st.m)]);
  st.l = rshift(st.l * a, 15);
  for (int64_t& x : st.acc) x = rshift(x * a, 15);
  st.m = m_new;
}

// Folds keys [k0, k1) of row r (logits t) into the state.
void fold_block(RowState& st, const double* t, const Vec& v, int64_t k0, int64_t k1, int64_t d, const Vec& table) {
  int64_t mb = -128;
  for (int64_t j = k0; j < k1; ++j) mb = std::max(mb, i(t[j]));
  rescale(st, std::max(st.m, mb), table);
  for (int64_t j = k0; j < k1; ++j) {
    const int64_t e = i(table[size_t(st.m - i(t[j]))]);
    st.l += e;
    for (int64_t c = 0; c < d; ++c) st.acc[size_t(c)] += e * i(v[size_t(j * d + c)]);
  }
}

}  // namespace

Vec int8_logits(const Vec& q, const Vec& k, int64_t s_q, int64_t s_k, int64_t d, int shift_qk) {
  Vec t(size_t(s_q * s_k));
  for (int64_t r = 0; r < s_q; ++r)
    for (int64_t j = 0; j < s_k; ++j) {
      int64_t acc = 0;
      for (int64_t c = 0; c < d; ++c) acc += i(q[size_t(r * d + c)]) * i(k[size_t(j * d + c)]);
      t[size_t(r * s_k + j)] = double(sat8(rshift(acc, shift_qk)));
    }
  return t;
}

Vec int8_softmax_q7(const double* t, int64_t n, const Vec& exp_table) {
  const int64_t m = i(*std::max_element(t, t + n));
  std::vector<int64_t> e(static_cast<size_t>(n));
  int64_t sum = 0;
  for (int64_t k = 0; k < n; ++k) sum += e[size_t(k)] = i(exp_table[size_t(m - i(t[k]))]);
  Vec p(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) p[size_t(k)] = double(std::min<int64_t>(127, rdiv(128 * e[size_t(k)], sum)));
  return p;
}

Vec int8_attention(const Vec& q, const Vec& k, const Vec& v, int64_t s_q, int64_t s_k, int64_t heads, int64_t kv_heads,
                   int64_t d, int shift_qk, const Vec& exp_table) {
  return per_head(q, k, v, s_q, s_k, heads, kv_heads, d,
                  [&](const Vec& qh, const Vec& kh, const Vec& vh, int64_t sq, int64_t sk, int64_t dh) {
                    const Vec t = int8_logits(qh, kh, sq, sk, dh, shift_qk);
                    Vec o(size_t(sq * dh));
                    for (int64_t r = 0; r < sq; ++r) {
                      const Vec p = int8_softmax_q7(t.data() + r * sk, sk, exp_table);
                      for (int64_t c = 0; c < dh; ++c) {
                        int64_t acc = 0;
                        for (int64_t j = 0; j < sk; ++j) acc += i(p[size_t(j)]) * i(vh[size_t(j * dh + c)]);
                        o[size_t(r * dh + c)] = double(sat8(rshift(acc, 7)));
                      }
                    }
                    return o;
                  });
}

Vec int8_flash_attention(const Vec& q, const Vec& k, const Vec& v, int64_t s_q, int64_t s_k, int64_t heads,
                         int64_t kv_heads, int64_t d, int shift_qk, int64_t block, const Vec& exp_table) {
  if (block <= 0) throw std::invalid_argument("int8 flash attention: block must be positive");
  return per_head(q, k, v, s_q, s_k, heads, kv_heads, d,
                  [&](const Vec& qh, const Vec& kh, const Vec& vh, int64_t sq, int64_t sk, int64_t dh) {
                    const Vec t = int8_logits(qh, kh, sq, sk, dh, shift_qk);
                    Vec o(size_t(sq * dh));
                    for (int64_t r = 0; r < sq; ++r) {
                      RowState st;
                      st.acc.assign(size_t(dh), 0);
                      for (int64_t k0 = 0; k0 < sk; k0 += block)
                        fold_block(st, t.data() + r * sk, vh, k0, std::min(sk, k0 + block), dh, exp_table);
                      for (int64_t c = 0; c < dh; ++c)
                        o[size_t(r * dh + c)] = double(sat8(rdiv(st.acc[size_t(c)], st.l)));
                    }
                    return o;
                  });
}

}  // namespace tlmcraft::tasks::coral
