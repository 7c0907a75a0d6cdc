// The integer building blocks Coral's references share (exact; int8_math.h's helpers):
// the single-stage tasks use them once, the decoder blocks (int8_decoders.h) compose them.
// Matrices are row-major ref::Vec holding integers.
#pragma once
#include <cstdint>

#include "tasks/reference/float_ops.h"

namespace tlmcraft::tasks::coral {

// sat8(rshift(acc, shift)) of every element.
ref::Vec requant(const ref::Vec& acc, int shift);
// requant(a b, shift) for a [m, k], b [k, n].
ref::Vec matmul_requant(const ref::Vec& a, const ref::Vec& b, int64_t m, int64_t k, int64_t n, int shift);
// lut[x + 128] of every element (a 256-entry table indexed by an int8 value).
ref::Vec lookup(const ref::Vec& x, const ref::Vec& lut);
// sat8(a + b) elementwise (a residual connection).
ref::Vec add_sat8(const ref::Vec& a, const ref::Vec& b);
// The Coral RMSNorm of each of `rows` rows of n values, gamma in Q6, y in Q5:
// sd = isqrt(256 (rdiv(sum x^2, n) + 1)); y = sat8(rdiv(rdiv(512 x, sd) gamma, 64)).
ref::Vec rmsnorm_rows(const ref::Vec& x, const ref::Vec& gamma, int64_t rows, int64_t n);
// RoPE (rotate-half) on each head of d columns of x [s, h], x in Q5, tables [s, d] in Q7:
// y = sat8(rshift(x cos -+ partner sin, 7)), the partner the other half's element.
ref::Vec rope_q7(const ref::Vec& x, const ref::Vec& cos, const ref::Vec& sin, int64_t s, int64_t h, int64_t d);
// The Coral SwiGLU of x [n, h]: g, u = requant(x W_gate | W_up, shift1); s = silu_lut[g + 128];
// a = sat8(rshift(s u, 5)); requant(a W_down, shift2).
ref::Vec swiglu_q5(const ref::Vec& x, const ref::Vec& w_gate, const ref::Vec& w_up, const ref::Vec& w_down,
                   const ref::Vec& silu_lut, int64_t n, int64_t h, int64_t h_i, int shift1, int shift2);

}  // namespace tlmcraft::tasks::coral
