// Per-lane arithmetic of the semantics language (internal to isa/extension): integer
// wrapping, saturation and rounding shifts, conversions and the float functions. bf16
// values are carried as the float they equal; every bf16 result is rounded with
// isa/formats/bf16.h (nearest even) so results match the platforms' own semantics.
#pragma once
#include <cstdint>

#include "isa/extension/expression.h"

namespace tlmcraft::isa::extension::detail {

// v reduced to f's width: sign-extended (signed), zero-extended (unsigned, u64 as bits),
// bool to its lowest bit.
int64_t wrap(ElemFormat f, int64_t v);

// The exact mathematical value of an integer lane of format f.
__int128 int_value(ElemFormat f, int64_t lane);

// v clamped to the range of integer format f, as a lane of f.
int64_t saturate(ElemFormat f, __int128 v);

// round(v / 2^shift) (shift clamped to [0, 64]) with ties away from zero (srs) or to
// even (rne), saturated to f.
int64_t shift_round_saturate(ElemFormat f, __int128 v, int64_t shift, bool ties_to_even);

// Conversions between lanes. Float to integer rounds to nearest even and saturates
// (NaN gives 0); integer to float rounds once to nearest even; integer to integer wraps.
int64_t float_to_int(ElemFormat to, float v);
float int_to_float(ElemFormat to, ElemFormat from, int64_t lane);
float round_float(ElemFormat to, float v);  // to bf16 (nearest even) or unchanged for f32

// The float functions in f32 (the caller rounds to bf16): exactly these expressions.
float f32_function(Op op, float x);
// fma(a, b, c) rounded once to `to` (f32 or bf16).
float fused_multiply_add(ElemFormat to, float a, float b, float c);
float max_nan(float a, float b);  // NaN propagates (as the platforms' max)
float min_nan(float a, float b);

}  // namespace tlmcraft::isa::extension::detail
