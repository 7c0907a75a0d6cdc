// Vector instructions: one VLEN-wide VRAM row per operand, rows VLEN-aligned.
//
// Numerics: every lane computes in float32 from bf16 inputs and rounds the result to
// bf16 (nearest even). exp and reciprocal are float32 expf / 1.0f/x, then rounded; no
// input clamping (exp overflows to +inf like IEEE; the reference simulator clamps the
// input to [-88, 88]).
// Masks: with rmask = 1 only the HLEN-wide heads whose V_MASK bit is set are written
// (bit h covers lanes h*HLEN .. h*HLEN+HLEN-1); the other lanes of the destination keep
// their old values. (The reference simulator copies the source lanes there instead.)
// Reductions with rmask = 1 reduce the selected heads' lanes only.
// V_SUB_VV computes Vector[rs1] - Vector[rs2], as the reference simulator does (the
// spec's formula lists the operands the other way round, its prose does not say).
// V_SHFT_V shifts LEFT by gp[rs2] lanes, as the PLENA spec says: out[i] = in[i + s],
// zeros shifted in at the top (the reference simulator shifts right).
#include <cmath>

#include "isa/plena/semantics_internal.h"

namespace tlmcraft::isa::plena::detail {
namespace {

struct VectorOperands {
  uint64_t dst = 0, src1 = 0, src2 = 0;
  bool rmask = false;
};

// Reads rd (dest row), rs1 (source row), optionally rs2 (second row) and the rmask flag.
bool decode_rows(Exec& x, bool second_row, VectorOperands& o) {
  uint32_t rd, rs1, rs2 = 0;
  if (!x.gp_reg(isa::kRd, rd) || !x.gp_reg(isa::kRs1, rs1)) return false;
  if (second_row && !x.gp_reg(isa::kRs2, rs2)) return false;
  if (!x.flag(isa::kRs3, "rmask", o.rmask)) return false;
  o.dst = x.gp(rd);
  o.src1 = x.gp(rs1);
  if (!x.check_vram_row(o.src1, "source", Origin{rs1})) return false;
  if (second_row) {
    o.src2 = x.gp(rs2);
    if (!x.check_vram_row(o.src2, "source", Origin{rs2})) return false;
  }
  return x.check_vram_row(o.dst, "destination", Origin{rd});
}

// Applies f(lane) -> bf16 bits to the destination lanes the mask enables, in lane order.
template <class F>
void for_enabled_lanes(Exec& x, const VectorOperands& o, F f) {
  uint16_t* v = x.s.vram.data;
  const uint32_t hlen = x.p.hlen;
  const uint32_t heads = x.s.mask_heads();
  for (uint32_t h = 0; h < heads; ++h) {
    if (o.rmask && !((x.s.v_mask >> h) & 1u)) continue;
    for (uint32_t i = h * hlen; i < (h + 1) * hlen; ++i) v[o.dst + i] = f(i);
  }
}

void record(Exec& x, const VectorOperands& o, bool second_row) {
  x.read(Memory::VRAM, o.src1, x.p.vlen);
  if (second_row) x.read(Memory::VRAM, o.src2, x.p.vlen);
  x.write(Memory::VRAM, o.dst, x.p.vlen);
}

template <class Op>
void vv(Exec& x, Op op) {
  VectorOperands o;
  if (!decode_rows(x, true, o)) return;
  const uint16_t* v = x.s.vram.data;
  for_enabled_lanes(x, o, [&](uint32_t i) {
    return float_to_bf16(op(bf16_to_float(v[o.src1 + i]), bf16_to_float(v[o.src2 + i])));
  });
  record(x, o, true);
}

template <class Op>
void vf(Exec& x, Op op) {
  VectorOperands o;
  uint32_t rs2;
  if (!x.fp_reg(isa::kRs2, rs2) || !decode_rows(x, false, o)) return;
  const float f = x.fp(rs2);
  const uint16_t* v = x.s.vram.data;
  for_enabled_lanes(x, o, [&](uint32_t i) { return float_to_bf16(op(bf16_to_float(v[o.src1 + i]), f)); });
  record(x, o, false);
}

template <class Op>
void unary(Exec& x, Op op) {
  VectorOperands o;
  if (!decode_rows(x, false, o)) return;
  const uint16_t* v = x.s.vram.data;
  for_enabled_lanes(x, o, [&](uint32_t i) { return float_to_bf16(op(bf16_to_float(v[o.src1 + i]))); });
  record(x, o, false);
}

// V_RED_*: rd is an fp register (read and written), rs1 the row, rs3 the optional rmask.
// `step(partial, lane_value)` folds the enabled lanes in lane order starting from
// `init`; `finish(f, partial)` combines the old register value with the row result.
template <class Step, class Finish>
void reduction(Exec& x, float init, Step step, Finish finish) {
  uint32_t rd, rs1;
  bool rmask;
  if (!x.fp_reg(isa::kRd, rd) || !x.gp_reg(isa::kRs1, rs1) || !x.flag(isa::kRs3, "rmask", rmask)) return;
  const uint64_t src = x.gp(rs1);
  if (!x.check_vram_row(src, "source", Origin{rs1})) return;
  const uint16_t* v = x.s.vram.data + src;
  const uint32_t hlen = x.p.hlen;
  float partial = init;
  for (uint32_t h = 0; h < x.s.mask_heads(); ++h) {
    if (rmask && !((x.s.v_mask >> h) & 1u)) continue;
    for (uint32_t i = h * hlen; i < (h + 1) * hlen; ++i) partial = step(partial, bf16_to_float(v[i]));
  }
  x.set_fp(rd, float_to_bf16(finish(x.fp(rd), partial)));
  x.read(Memory::VRAM, src, x.p.vlen);
}

}  // namespace

void exec_v_add_vv(Exec& x) { vv(x, [](float a, float b) { return a + b; }); }
void exec_v_sub_vv(Exec& x) { vv(x, [](float a, float b) { return a - b; }); }
void exec_v_mul_vv(Exec& x) { vv(x, [](float a, float b) { return a * b; }); }

void exec_v_add_vf(Exec& x) { vf(x, [](float a, float f) { return a + f; }); }
void exec_v_mul_vf(Exec& x) { vf(x, [](float a, float f) { return a * f; }); }
void exec_v_max_vf(Exec& x) { vf(x, [](float a, float f) { return max_nan(a, f); }); }
void exec_v_min_vf(Exec& x) { vf(x, [](float a, float f) { return min_nan(a, f); }); }

// V_SUB_VF rd, rs1, f, rmask, rorder: rorder 0 -> v - f, 1 -> f - v.
void exec_v_sub_vf(Exec& x) {
  bool reverse;
  if (!x.flag(isa::kFunct1, "rorder", reverse)) return;
  if (reverse) vf(x, [](float a, float f) { return f - a; });
  else vf(x, [](float a, float f) { return a - f; });
}

void exec_v_exp_v(Exec& x) { unary(x, [](float a) { return std::exp(a); }); }
void exec_v_reci_v(Exec& x) { unary(x, [](float a) { return 1.0f / a; }); }

// V_SHFT_V rd, rs1, rs2, rmask: out[i] = in[i + gp[rs2]] (0 past the end).
void exec_v_shft_v(Exec& x) {
  uint32_t rs2;
  if (!x.gp_reg(isa::kRs2, rs2)) return;
  VectorOperands o;
  if (!decode_rows(x, false, o)) return;
  const uint64_t shift = x.gp(rs2);
  const uint32_t vlen = x.p.vlen;
  const uint16_t* v = x.s.vram.data;
  // Ascending lanes read at i + shift >= i, so an in-place shift reads before it writes.
  for_enabled_lanes(x, o, [&](uint32_t i) -> uint16_t {
    return i + shift < vlen ? v[o.src1 + i + shift] : formats::kBf16Zero;
  });
  record(x, o, false);
}

// V_RED_SUM f, rs1, rmask: f = bf16(f + sum), the row sum accumulated in float32 in
// lane order, then added to f once.
void exec_v_red_sum(Exec& x) {
  reduction(x, 0.0f, [](float sum, float v) { return sum + v; },
            [](float f, float sum) { return f + sum; });
}

// V_RED_MAX f, rs1, rmask: f = max(f, max(row)) (NaN propagates).
void exec_v_red_max(Exec& x) {
  reduction(x, -INFINITY, [](float m, float v) { return max_nan(m, v); },
            [](float f, float m) { return max_nan(f, m); });
}

}  // namespace tlmcraft::isa::plena::detail
