// Generic element loops for the arithmetic instruction shapes (same-width binary and
// multiply-add, compare-into-mask, widening, narrowing). Each handler checks legality
// against the current vtype, then runs an inner loop specialised per SEW; the element
// operation is a small functor (see vector_integer.cpp and friends).
//
// Functor interfaces (U = unsigned element type, W = WideT<U>; a = vs2, b = vs1/rs1/imm):
//   Binary:   template <class U> static U apply(U a, U b, Hart&)
//             (optionally kRecordsOperands and static void record(Hart&, U a, U b): see below)
//   Ternary:  template <class U> static U apply(U vd, U a, U b)
//   Compare:  template <class U> static bool apply(U a, U b)
//   Widening: static constexpr bool kSignedA, kSignedB;  template <class W> static W apply(W a, W b)
//             (operands already extended; for ternary forms: apply(W vd, W a, W b))
//   Narrow:   template <class U> static U apply(WideT<U> a, unsigned shift, Hart&)
#pragma once
#include <type_traits>
#include "isa/riscv/vector_common.h"

namespace tlmcraft::isa::riscv::vec {

// Where the second operand comes from.
enum class Src : uint8_t { V, X, I };

template <typename U, Src S>
inline U second_operand(const Hart& h, const DecodedInsn& d, unsigned i) {
  if constexpr (S == Src::V) return h.vget<U>(d.rs1, i);
  else if constexpr (S == Src::X) return U(h.x[d.rs1]);
  else return U(uint32_t(d.imm));
}

// Ops that first record the operands of every element of the source registers
// (`kRecordsOperands` and `record(Hart&, U a, U b)`: vector divides, for the timing model).
template <class Op, class = void> struct records_operands : std::false_type {};
template <class Op> struct records_operands<Op, std::void_t<decltype(Op::kRecordsOperands)>> : std::true_type {};

// vd[i] = Op(vs2[i], op1) for active body elements.
template <class Op, Src S> void exec_binary(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  require_aligned(d, "vd", d.rd, t.lmul_log2);
  require_aligned(d, "vs2", d.rs2, t.lmul_log2);
  if (S == Src::V) require_aligned(d, "vs1", d.rs1, t.lmul_log2);
  require_vd_not_v0(d);
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    if constexpr (records_operands<Op>::value) {
      const unsigned all = group_regs(t.lmul_log2) * unsigned(kVlenBytes / sizeof(U));
      for (unsigned i = 0; i < all; ++i) Op::record(h, h.vget<U>(d.rs2, i), second_operand<U, S>(h, d, i));
    }
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i) {
      if (!active(h, masked, i)) continue;
      h.vset<U>(d.rd, i, Op::apply(h.vget<U>(d.rs2, i), second_operand<U, S>(h, d, i), h));
    }
  });
  const unsigned g = group_regs(t.lmul_log2);
  finish(h, h.vstart, h.vl, t.sew_bytes, g, g);
}

// vd[i] = Op(vd[i], vs2[i], op1) (multiply-add family).
template <class Op, Src S> void exec_ternary(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  require_aligned(d, "vd", d.rd, t.lmul_log2);
  require_aligned(d, "vs2", d.rs2, t.lmul_log2);
  if (S == Src::V) require_aligned(d, "vs1", d.rs1, t.lmul_log2);
  require_vd_not_v0(d);
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i) {
      if (!active(h, masked, i)) continue;
      h.vset<U>(d.rd, i,
                Op::apply(h.vget<U>(d.rd, i), h.vget<U>(d.rs2, i), second_operand<U, S>(h, d, i)));
    }
  });
  const unsigned g = group_regs(t.lmul_log2);
  finish(h, h.vstart, h.vl, t.sew_bytes, g, g);
}

// Mask destination from a per-element predicate: compares. The mask is built in a copy
// of vd so that vd may equal vs2 or v0 (both legal for mask results).
template <class Op, Src S> void exec_compare(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  require_aligned(d, "vs2", d.rs2, t.lmul_log2);
  const unsigned sew_bits = t.sew_bytes * 8;
  require_legal_overlap(d, d.rd, 1, 0, d.rs2, sew_bits, t.lmul_log2);
  if (S == Src::V) {
    require_aligned(d, "vs1", d.rs1, t.lmul_log2);
    require_legal_overlap(d, d.rd, 1, 0, d.rs1, sew_bits, t.lmul_log2);
  }
  const bool masked = is_masked(d);
  uint8_t out[kVlenBytes];
  std::memcpy(out, h.v[d.rd], kVlenBytes);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i) {
      if (!active(h, masked, i)) continue;
      set_mask_bit(out, i, Op::apply(h.vget<U>(d.rs2, i), second_operand<U, S>(h, d, i)));
    }
  });
  std::memcpy(h.v[d.rd], out, kVlenBytes);
  finish(h, h.vstart, h.vl, t.sew_bytes, 1, group_regs(t.lmul_log2));
}

// Widening: 2*SEW vd[i] = Op(ext(vs2[i]) or wide vs2[i], ext(op1)). Requires SEW <= 16
// and LMUL <= 4 (the destination group is 2*LMUL).
inline VType widening_vtype(const Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  if (t.sew_bytes * 16 > kElen) illegal(d, "widening needs SEW <= ELEN/2 (16)");
  if (t.lmul_log2 >= 3) illegal(d, "widening needs LMUL <= 4");
  return t;
}
template <typename W, bool Signed, typename U> inline W extend(U value) {
  if constexpr (Signed) return W(std::make_signed_t<W>(SignedT<U>(value)));
  else return W(value);
}

template <class Op, Src S, bool WideA> void exec_widening(Hart& h, const DecodedInsn& d) {
  const VType t = widening_vtype(h, d);
  const int wl = t.lmul_log2 + 1;
  const unsigned sew_bits = t.sew_bytes * 8;
  require_aligned(d, "vd", d.rd, wl);
  require_vd_not_v0(d);
  if (WideA) {
    require_aligned(d, "vs2", d.rs2, wl);
  } else {
    require_aligned(d, "vs2", d.rs2, t.lmul_log2);
    require_legal_overlap(d, d.rd, 2 * sew_bits, wl, d.rs2, sew_bits, t.lmul_log2);
  }
  if (S == Src::V) {
    require_aligned(d, "vs1", d.rs1, t.lmul_log2);
    require_legal_overlap(d, d.rd, 2 * sew_bits, wl, d.rs1, sew_bits, t.lmul_log2);
  }
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    using W = WideT<U>;
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i) {
      if (!active(h, masked, i)) continue;
      W a;
      if constexpr (WideA) a = h.vget<W>(d.rs2, i);
      else a = extend<W, Op::kSignedA>(h.vget<U>(d.rs2, i));
      const W b = extend<W, Op::kSignedB>(second_operand<U, S>(h, d, i));
      h.vset<W>(d.rd, i, Op::apply(a, b));
    }
  });
  finish(h, h.vstart, h.vl, t.sew_bytes, group_regs(wl), group_regs(t.lmul_log2));
  h.info.element_scale = 2;
}

// Widening multiply-add: 2*SEW vd[i] = Op(vd[i], ext(vs2[i]), ext(op1)).
template <class Op, Src S> void exec_widening_ternary(Hart& h, const DecodedInsn& d) {
  const VType t = widening_vtype(h, d);
  const int wl = t.lmul_log2 + 1;
  const unsigned sew_bits = t.sew_bytes * 8;
  require_aligned(d, "vd", d.rd, wl);
  require_vd_not_v0(d);
  require_aligned(d, "vs2", d.rs2, t.lmul_log2);
  require_legal_overlap(d, d.rd, 2 * sew_bits, wl, d.rs2, sew_bits, t.lmul_log2);
  if (S == Src::V) {
    require_aligned(d, "vs1", d.rs1, t.lmul_log2);
    require_legal_overlap(d, d.rd, 2 * sew_bits, wl, d.rs1, sew_bits, t.lmul_log2);
  }
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    using W = WideT<U>;
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i) {
      if (!active(h, masked, i)) continue;
      const W a = extend<W, Op::kSignedA>(h.vget<U>(d.rs2, i));
      const W b = extend<W, Op::kSignedB>(second_operand<U, S>(h, d, i));
      h.vset<W>(d.rd, i, Op::apply(h.vget<W>(d.rd, i), a, b));
    }
  });
  finish(h, h.vstart, h.vl, t.sew_bytes, group_regs(wl), group_regs(t.lmul_log2));
  h.info.element_scale = 2;
}

// Narrowing: SEW vd[i] = Op(2*SEW vs2[i], shift amount from vs1[i]/rs1/uimm).
template <class Op, Src S> void exec_narrowing(Hart& h, const DecodedInsn& d) {
  const VType t = widening_vtype(h, d);
  const int wl = t.lmul_log2 + 1;
  const unsigned sew_bits = t.sew_bytes * 8;
  require_aligned(d, "vd", d.rd, t.lmul_log2);
  require_aligned(d, "vs2", d.rs2, wl);
  require_vd_not_v0(d);
  require_legal_overlap(d, d.rd, sew_bits, t.lmul_log2, d.rs2, 2 * sew_bits, wl);
  if (S == Src::V) require_aligned(d, "vs1", d.rs1, t.lmul_log2);
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    using W = WideT<U>;
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i) {
      if (!active(h, masked, i)) continue;
      const unsigned shift = unsigned(second_operand<U, S>(h, d, i)) & (2 * kBits<U> - 1);
      h.vset<U>(d.rd, i, Op::template apply<U>(h.vget<W>(d.rs2, i), shift, h));
    }
  });
  finish(h, h.vstart, h.vl, t.sew_bytes, group_regs(t.lmul_log2), group_regs(wl));
  h.info.element_scale = 2;
}

}  // namespace tlmcraft::isa::riscv::vec
