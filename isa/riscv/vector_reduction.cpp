// Reductions: vd[0] = op(vs1[0], active vs2[i] for i < vl); the widening sums accumulate
// SEW elements into a 2*SEW result. vstart must be 0; with vl = 0 vd is left unchanged.
#include "isa/riscv/vector_handlers.h"

namespace tlmcraft::isa::riscv::vec {
namespace {

struct RSum { template <class U> static U apply(U acc, U x) { return U(acc + x); } };
struct RAnd { template <class U> static U apply(U acc, U x) { return U(acc & x); } };
struct ROr { template <class U> static U apply(U acc, U x) { return U(acc | x); } };
struct RXor { template <class U> static U apply(U acc, U x) { return U(acc ^ x); } };
struct RMinU { template <class U> static U apply(U acc, U x) { return x < acc ? x : acc; } };
struct RMaxU { template <class U> static U apply(U acc, U x) { return x > acc ? x : acc; } };
struct RMin {
  template <class U> static U apply(U acc, U x) { return SignedT<U>(x) < SignedT<U>(acc) ? x : acc; }
};
struct RMax {
  template <class U> static U apply(U acc, U x) { return SignedT<U>(x) > SignedT<U>(acc) ? x : acc; }
};

template <class Op> void exec_reduction(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  require_vstart_zero(h, d);
  require_aligned(d, "vs2", d.rs2, t.lmul_log2);
  const bool masked = is_masked(d);
  if (h.vl > 0) {
    dispatch_sew(t.sew_log2, [&](auto z) {
      using U = decltype(z);
      U acc = h.vget<U>(d.rs1, 0);
      for (unsigned i = 0, end = h.vl; i < end; ++i)
        if (active(h, masked, i)) acc = Op::apply(acc, h.vget<U>(d.rs2, i));
      h.vset<U>(d.rd, 0, acc);
    });
  }
  finish(h, 0, h.vl, t.sew_bytes, 1, group_regs(t.lmul_log2));
}

// vwredsumu / vwredsum: 2*SEW vd[0] = vs1[0] + sum of extended vs2[i].
template <bool kSigned> void exec_widening_reduction(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  if (t.sew_bytes * 16 > kElen) illegal(d, "widening needs SEW <= ELEN/2 (16)");
  require_vstart_zero(h, d);
  require_aligned(d, "vs2", d.rs2, t.lmul_log2);
  const bool masked = is_masked(d);
  if (h.vl > 0) {
    dispatch_sew(t.sew_log2, [&](auto z) {
      using U = decltype(z);
      using W = WideT<U>;
      W acc = h.vget<W>(d.rs1, 0);
      for (unsigned i = 0, end = h.vl; i < end; ++i)
        if (active(h, masked, i)) acc = W(acc + extend<W, kSigned>(h.vget<U>(d.rs2, i)));
      h.vset<W>(d.rd, 0, acc);
    });
  }
  finish(h, 0, h.vl, t.sew_bytes, 1, group_regs(t.lmul_log2));
}

}  // namespace

VecImpl reduction_impl(unsigned f3, unsigned f6, uint32_t) {
  Handler handler = nullptr;
  if (f3 == kOPMVV) {
    switch (f6) {
      case 0x00: handler = &exec_reduction<RSum>; break;
      case 0x01: handler = &exec_reduction<RAnd>; break;
      case 0x02: handler = &exec_reduction<ROr>; break;
      case 0x03: handler = &exec_reduction<RXor>; break;
      case 0x04: handler = &exec_reduction<RMinU>; break;
      case 0x05: handler = &exec_reduction<RMin>; break;
      case 0x06: handler = &exec_reduction<RMaxU>; break;
      case 0x07: handler = &exec_reduction<RMax>; break;
      default: break;
    }
  } else if (f3 == kOPIVV) {
    if (f6 == 0x30) handler = &exec_widening_reduction<false>;
    if (f6 == 0x31) handler = &exec_widening_reduction<true>;
  }
  return {handler, OpClass::VecReduction};
}

}  // namespace tlmcraft::isa::riscv::vec
