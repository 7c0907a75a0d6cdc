// Semantics-preserving source transformations of Coral kernels (C with RVV intrinsics,
// compiled by clang-16 -O2 for rv32imf_zve32x, VLEN = 128). Each transformation edits
// the text, checks its own legality and refuses with a reason (`why`) rather than emit a
// kernel that computes something else or does not compile; the evaluator re-checks
// every kept kernel on fresh seeds anyway.
//
// Loops are named by their index in find_loops() (text order, outer before inner).
#pragma once
#include <cstdint>
#include <string>

namespace tlmcraft::agent::search::coral {

// True if loop `loop` is strip-mined: its text holds exactly one __riscv_vsetvl_*, not
// inside a nested loop, whose result `vl` advances the loop (`x += vl` or
// `x += (int)vl`).
bool is_strip_mined(const std::string& src, size_t loop);

// Multiplies the LMUL of every vector type and intrinsic in strip-mined loop `loop` by
// `factor` (2, 4 or 8): vint8m1_t -> vint8m2_t, __riscv_vsetvl_e8m1 -> e8m2, widening
// partners alike (e16m2 -> e16m4), so the SEW/LMUL ratio and hence vl stay consistent
// across the loop. A reduction's m1 result type is kept. Static helpers the loop calls
// with vector types are cloned with scaled types (name_lmulF) and the calls renamed.
// Refused when any type would exceed m8, a fractional LMUL appears, the loop reads a
// vector variable declared outside it (other than an m1 reduction accumulator), or it
// uses LMUL-changing intrinsics (vlmul_ext/trunc, vget/vset).
bool scale_lmul(std::string& src, size_t loop, int factor, std::string& why);

// Puts `#pragma clang loop unroll_count(count)` (count >= 2) or, with count == 0,
// `#pragma clang loop unroll(full)` on its own line before loop `loop`. Full unrolling
// is refused unless the trip count is a constant (`i = 0; i < EXPR; ++i` with EXPR an
// integer expression of #defines) of at most `max_full_trip`. Refused when `for` does
// not start its line, a loop pragma is already there, or the product of the unroll
// factors of the loops nested in or around it (full = the trip count) would exceed
// `max_nest_factor` (the kernel's code must fit the 8 KB ITCM).
bool add_unroll_pragma(std::string& src, size_t loop, int count, std::string& why, int64_t max_full_trip = 16,
                       int64_t max_nest_factor = 16);

// Moves tensor `macro` (B for B_ADDR) into a static DTCM buffer `stage_<macro>` and
// points every use of <macro>_ADDR at it. An input or weight is copied in at the start
// of main (e8m8 vector loads/stores: one external read of each byte instead of one per
// re-read); an output is computed in the buffer and copied out once before main's
// return (external writes in 128-byte groups). Refused when the tensor is not an input,
// weight or output of the layout (kv tensors may be updated in place), is already
// staged, is never used, an output's main does not end in its only `return`, or the
// DTCM would not hold the existing static arrays, the buffer and `reserve_bytes`
// (stack, small data).
bool stage_in_dtcm(std::string& src, const std::string& macro, std::string& why, int64_t dtcm_bytes = 32768,
                   int64_t reserve_bytes = 4096);

}  // namespace tlmcraft::agent::search::coral
