// Integer arithmetic: add/sub/reverse-sub, min/max, logic, shifts, narrowing shifts,
// compares, add-with-carry family, merge/move, widening add/sub, zero/sign extension.
#include "isa/riscv/vector_handlers.h"

namespace tlmcraft::isa::riscv::vec {
namespace {

// ---- same-width binary operations (a = vs2, b = vs1/rs1/imm) ----
struct Add { template <class U> static U apply(U a, U b, Hart&) { return U(a + b); } };
struct Sub { template <class U> static U apply(U a, U b, Hart&) { return U(a - b); } };
struct RSub { template <class U> static U apply(U a, U b, Hart&) { return U(b - a); } };
struct MinU { template <class U> static U apply(U a, U b, Hart&) { return a < b ? a : b; } };
struct MaxU { template <class U> static U apply(U a, U b, Hart&) { return a > b ? a : b; } };
struct Min {
  template <class U> static U apply(U a, U b, Hart&) { return SignedT<U>(a) < SignedT<U>(b) ? a : b; }
};
struct Max {
  template <class U> static U apply(U a, U b, Hart&) { return SignedT<U>(a) > SignedT<U>(b) ? a : b; }
};
struct And { template <class U> static U apply(U a, U b, Hart&) { return U(a & b); } };
struct Or { template <class U> static U apply(U a, U b, Hart&) { return U(a | b); } };
struct Xor { template <class U> static U apply(U a, U b, Hart&) { return U(a ^ b); } };
// Shifts use the low log2(SEW) bits of the shift operand.
struct Sll {
  template <class U> static U apply(U a, U b, Hart&) { return U(a << (b & (kBits<U> - 1))); }
};
struct Srl {
  template <class U> static U apply(U a, U b, Hart&) { return U(a >> (b & (kBits<U> - 1))); }
};
struct Sra {
  template <class U> static U apply(U a, U b, Hart&) {
    return U(SignedT<U>(a) >> (b & (kBits<U> - 1)));
  }
};

// ---- narrowing shifts: 2*SEW source, shift by the low log2(2*SEW) bits ----
struct NSrl {
  template <class U> static U apply(WideT<U> a, unsigned shift, Hart&) { return U(a >> shift); }
};
struct NSra {
  template <class U> static U apply(WideT<U> a, unsigned shift, Hart&) {
    return U(SignedT<WideT<U>>(a) >> shift);
  }
};

// ---- compares ----
struct Eq { template <class U> static bool apply(U a, U b) { return a == b; } };
struct Ne { template <class U> static bool apply(U a, U b) { return a != b; } };
struct Ltu { template <class U> static bool apply(U a, U b) { return a < b; } };
struct Lt { template <class U> static bool apply(U a, U b) { return SignedT<U>(a) < SignedT<U>(b); } };
struct Leu { template <class U> static bool apply(U a, U b) { return a <= b; } };
struct Le { template <class U> static bool apply(U a, U b) { return SignedT<U>(a) <= SignedT<U>(b); } };
struct Gtu { template <class U> static bool apply(U a, U b) { return a > b; } };
struct Gt { template <class U> static bool apply(U a, U b) { return SignedT<U>(a) > SignedT<U>(b); } };

// ---- widening add/sub (operands already extended to 2*SEW) ----
template <bool SA, bool SB> struct WAdd {
  static constexpr bool kSignedA = SA, kSignedB = SB;
  template <class W> static W apply(W a, W b) { return W(a + b); }
};
template <bool SA, bool SB> struct WSub {
  static constexpr bool kSignedA = SA, kSignedB = SB;
  template <class W> static W apply(W a, W b) { return W(a - b); }
};

// ---- add/subtract with carry/borrow ----
struct Adc {
  template <class U> static U apply(U a, U b, unsigned c) { return U(a + b + c); }
  template <class U> static bool carry_out(U a, U b, unsigned c) {
    return (uint64_t(a) + b + c) >> kBits<U>;
  }
};
struct Sbc {
  template <class U> static U apply(U a, U b, unsigned c) { return U(a - b - c); }
  template <class U> static bool carry_out(U a, U b, unsigned c) {
    return uint64_t(a) < uint64_t(b) + c;  // borrow
  }
};

// vadc/vsbc: vd[i] = vs2[i] +/- op1 +/- v0.mask[i] for every body element (vm = 0 only).
template <class Op, Src S> void exec_carry(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  require_aligned(d, "vd", d.rd, t.lmul_log2);
  require_aligned(d, "vs2", d.rs2, t.lmul_log2);
  if (S == Src::V) require_aligned(d, "vs1", d.rs1, t.lmul_log2);
  if (d.rd == 0) illegal(d, "destination v0 overlaps the carry input");
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i)
      h.vset<U>(d.rd, i, Op::apply(h.vget<U>(d.rs2, i), second_operand<U, S>(h, d, i),
                                   unsigned(mask_bit(h, 0, i))));
  });
  const unsigned g = group_regs(t.lmul_log2);
  finish(h, h.vstart, h.vl, t.sew_bytes, g, g);
}

// vmadc/vmsbc: mask of carry/borrow outs; carry in from v0 when vm = 0.
template <class Op, Src S> void exec_carry_out(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  const unsigned sew_bits = t.sew_bytes * 8;
  require_aligned(d, "vs2", d.rs2, t.lmul_log2);
  require_legal_overlap(d, d.rd, 1, 0, d.rs2, sew_bits, t.lmul_log2);
  if (S == Src::V) {
    require_aligned(d, "vs1", d.rs1, t.lmul_log2);
    require_legal_overlap(d, d.rd, 1, 0, d.rs1, sew_bits, t.lmul_log2);
  }
  const bool carry_in = is_masked(d);
  uint8_t out[kVlenBytes];
  std::memcpy(out, h.v[d.rd], kVlenBytes);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i) {
      const unsigned c = carry_in ? unsigned(mask_bit(h, 0, i)) : 0u;
      set_mask_bit(out, i, Op::carry_out(h.vget<U>(d.rs2, i), second_operand<U, S>(h, d, i), c));
    }
  });
  std::memcpy(h.v[d.rd], out, kVlenBytes);
  finish(h, h.vstart, h.vl, t.sew_bytes, 1, group_regs(t.lmul_log2));
}

// vmerge (vm = 0): vd[i] = v0.mask[i] ? op1 : vs2[i]; vmv.v.* (vm = 1): vd[i] = op1.
template <Src S> void exec_merge(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  require_aligned(d, "vd", d.rd, t.lmul_log2);
  if (S == Src::V) require_aligned(d, "vs1", d.rs1, t.lmul_log2);
  const bool merge = is_masked(d);
  if (merge) {
    require_aligned(d, "vs2", d.rs2, t.lmul_log2);
    require_vd_not_v0(d);
  }
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i) {
      const U b = second_operand<U, S>(h, d, i);
      h.vset<U>(d.rd, i, !merge || mask_bit(h, 0, i) ? b : h.vget<U>(d.rs2, i));
    }
  });
  const unsigned g = group_regs(t.lmul_log2);
  finish(h, h.vstart, h.vl, t.sew_bytes, g, g);
}

// vzext/vsext.vf<F>: vd[i] = extend(vs2[i]) with source EEW = SEW / F.
template <unsigned kFactorLog2, bool kSigned> void exec_extend(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  if (t.sew_log2 < kFactorLog2) illegal(d, "source EEW = SEW / factor is below 8");
  const int src_emul = t.lmul_log2 - int(kFactorLog2);
  if (src_emul < -3) illegal(d, "source EMUL is below 1/8");
  require_aligned(d, "vd", d.rd, t.lmul_log2);
  require_aligned(d, "vs2", d.rs2, src_emul);
  require_vd_not_v0(d);
  require_legal_overlap(d, d.rd, t.sew_bytes * 8, t.lmul_log2, d.rs2,
                        (t.sew_bytes * 8) >> kFactorLog2, src_emul);
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i) {
      if (!active(h, masked, i)) continue;
      U value;
      const unsigned src_bytes = sizeof(U) >> kFactorLog2;
      if (src_bytes == 1) value = extend<U, kSigned>(h.vget<uint8_t>(d.rs2, i));
      else value = extend<U, kSigned>(h.vget<uint16_t>(d.rs2, i));
      h.vset<U>(d.rd, i, value);
    }
  });
  finish(h, h.vstart, h.vl, t.sew_bytes, group_regs(t.lmul_log2), group_regs(src_emul));
}

template <class Op> Handler pick_carry(unsigned f3, unsigned forms) {
  if (is_v_form(f3)) return (forms & kFormV) ? &exec_carry<Op, Src::V> : nullptr;
  if (is_x_form(f3)) return (forms & kFormX) ? &exec_carry<Op, Src::X> : nullptr;
  return (forms & kFormI) ? &exec_carry<Op, Src::I> : nullptr;
}
template <class Op> Handler pick_carry_out(unsigned f3, unsigned forms) {
  if (is_v_form(f3)) return (forms & kFormV) ? &exec_carry_out<Op, Src::V> : nullptr;
  if (is_x_form(f3)) return (forms & kFormX) ? &exec_carry_out<Op, Src::X> : nullptr;
  return (forms & kFormI) ? &exec_carry_out<Op, Src::I> : nullptr;
}

constexpr unsigned kVXI = kFormV | kFormX | kFormI, kVX = kFormV | kFormX, kXI = kFormX | kFormI;

Handler opi_handler(unsigned f3, unsigned f6, uint32_t raw) {
  const bool vm = vm_bit(raw);
  switch (f6) {
    case 0x00: return pick_binary<Add>(f3, kVXI);
    case 0x02: return pick_binary<Sub>(f3, kVX);
    case 0x03: return pick_binary<RSub>(f3, kXI);
    case 0x04: return pick_binary<MinU>(f3, kVX);
    case 0x05: return pick_binary<Min>(f3, kVX);
    case 0x06: return pick_binary<MaxU>(f3, kVX);
    case 0x07: return pick_binary<Max>(f3, kVX);
    case 0x09: return pick_binary<And>(f3, kVXI);
    case 0x0a: return pick_binary<Or>(f3, kVXI);
    case 0x0b: return pick_binary<Xor>(f3, kVXI);
    case 0x10: return vm ? nullptr : pick_carry<Adc>(f3, kVXI);  // vadc needs vm = 0
    case 0x11: return pick_carry_out<Adc>(f3, kVXI);
    case 0x12: return vm ? nullptr : pick_carry<Sbc>(f3, kVX);
    case 0x13: return pick_carry_out<Sbc>(f3, kVX);
    case 0x17:
      if (vm && ((raw >> 20) & 31) != 0) return nullptr;  // vmv.v.* needs vs2 = 0
      if (f3 == kOPIVV) return &exec_merge<Src::V>;
      if (f3 == kOPIVX) return &exec_merge<Src::X>;
      return &exec_merge<Src::I>;
    case 0x18: return pick_compare<Eq>(f3, kVXI);
    case 0x19: return pick_compare<Ne>(f3, kVXI);
    case 0x1a: return pick_compare<Ltu>(f3, kVX);
    case 0x1b: return pick_compare<Lt>(f3, kVX);
    case 0x1c: return pick_compare<Leu>(f3, kVXI);
    case 0x1d: return pick_compare<Le>(f3, kVXI);
    case 0x1e: return pick_compare<Gtu>(f3, kXI);
    case 0x1f: return pick_compare<Gt>(f3, kXI);
    case 0x25: return pick_binary<Sll>(f3, kVXI);
    case 0x28: return pick_binary<Srl>(f3, kVXI);
    case 0x29: return pick_binary<Sra>(f3, kVXI);
    case 0x2c: return pick_narrowing<NSrl>(f3, kVXI);
    case 0x2d: return pick_narrowing<NSra>(f3, kVXI);
    default: return nullptr;
  }
}

Handler opm_handler(unsigned f3, unsigned f6, uint32_t raw) {
  switch (f6) {
    case 0x12: {  // VXUNARY0: vzext/vsext, selected by the vs1 field
      if (f3 != kOPMVV) return nullptr;
      switch ((raw >> 15) & 31) {
        case 0x04: return &exec_extend<2, false>;  // vzext.vf4
        case 0x05: return &exec_extend<2, true>;   // vsext.vf4
        case 0x06: return &exec_extend<1, false>;  // vzext.vf2
        case 0x07: return &exec_extend<1, true>;   // vsext.vf2
        default: return nullptr;  // vf8 needs SEW = 64 (> ELEN)
      }
    }
    case 0x30: return pick_widening<WAdd<false, false>, false>(f3);
    case 0x31: return pick_widening<WAdd<true, true>, false>(f3);
    case 0x32: return pick_widening<WSub<false, false>, false>(f3);
    case 0x33: return pick_widening<WSub<true, true>, false>(f3);
    case 0x34: return pick_widening<WAdd<false, false>, true>(f3);
    case 0x35: return pick_widening<WAdd<true, true>, true>(f3);
    case 0x36: return pick_widening<WSub<false, false>, true>(f3);
    case 0x37: return pick_widening<WSub<true, true>, true>(f3);
    default: return nullptr;
  }
}

}  // namespace

VecImpl integer_impl(unsigned f3, unsigned f6, uint32_t raw) {
  const bool opm = f3 == kOPMVV || f3 == kOPMVX;
  return {opm ? opm_handler(f3, f6, raw) : opi_handler(f3, f6, raw), OpClass::VecAlu};
}

}  // namespace tlmcraft::isa::riscv::vec
