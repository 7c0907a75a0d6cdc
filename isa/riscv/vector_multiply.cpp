// Multiply, divide and multiply-add: vmul/vmulh/vmulhu/vmulhsu, vdivu/vdiv/vremu/vrem,
// vmacc/vnmsac/vmadd/vnmsub, widening vwmul/vwmulu/vwmulsu and vwmacc/u/su/us.
#include <algorithm>

#include "isa/riscv/vector_handlers.h"

namespace tlmcraft::isa::riscv::vec {
namespace {

// a = vs2, b = vs1/rs1. Products are formed in 64 bits (exact for SEW <= 32).
struct Mul { template <class U> static U apply(U a, U b, Hart&) { return U(uint64_t(a) * b); } };
struct MulH {
  template <class U> static U apply(U a, U b, Hart&) {
    return U(uint64_t(sext(a) * sext(b)) >> kBits<U>);
  }
};
struct MulHU {
  template <class U> static U apply(U a, U b, Hart&) { return U((uint64_t(a) * b) >> kBits<U>); }
};
struct MulHSU {  // vs2 signed, vs1 unsigned
  template <class U> static U apply(U a, U b, Hart&) {
    return U(uint64_t(sext(a) * int64_t(b)) >> kBits<U>);
  }
};
// Division by zero and signed overflow follow the scalar M extension: x/0 = all ones
// (-1 signed), x%0 = x, MIN/-1 = MIN, MIN%-1 = 0. `record` notes one element's operands
// for the timing model (StepInfo::div_elements; see exec_binary).
template <bool Signed> struct DivideOperands {
  static constexpr bool kRecordsOperands = true;
  template <class U> static void record(Hart& h, U a, U b) {
    DivElement e;
    const int64_t x = Signed ? sext(a) : int64_t(a), y = Signed ? sext(b) : int64_t(b);
    e.dividend = uint32_t(x < 0 ? -x : x);
    e.divisor = uint32_t(y < 0 ? -y : y);
    e.quotient_negative = (x < 0) != (y < 0);
    e.remainder_negative = x < 0;
    e.by_zero = b == 0;
    e.overflow = Signed && a == U(U(1) << (kBits<U> - 1)) && y == -1;
    h.info.div_elements.push_back(e);
  }
};

struct DivU : DivideOperands<false> {
  template <class U> static U apply(U a, U b, Hart&) { return b == 0 ? U(~U(0)) : U(a / b); }
};
struct RemU : DivideOperands<false> {
  template <class U> static U apply(U a, U b, Hart&) { return b == 0 ? a : U(a % b); }
};
struct Div : DivideOperands<true> {
  template <class U> static U apply(U a, U b, Hart&) {
    if (b == 0) return U(~U(0));
    const int64_t x = sext(a), y = sext(b);
    return U(uint64_t(x / y));  // MIN / -1 = 2^(SEW-1), which truncates back to MIN
  }
};
struct Rem : DivideOperands<true> {
  template <class U> static U apply(U a, U b, Hart&) {
    if (b == 0) return a;
    const int64_t x = sext(a), y = sext(b);
    return U(uint64_t(x % y));
  }
};

// Multiply-add: vd = Op(vd, vs2, vs1/rs1).
struct Macc { template <class U> static U apply(U vd, U a, U b) { return U(uint64_t(b) * a + vd); } };
struct Nmsac { template <class U> static U apply(U vd, U a, U b) { return U(vd - uint64_t(b) * a); } };
struct Madd { template <class U> static U apply(U vd, U a, U b) { return U(uint64_t(b) * vd + a); } };
struct Nmsub { template <class U> static U apply(U vd, U a, U b) { return U(a - uint64_t(b) * vd); } };

// Widening multiplies: operands extended to 2*SEW, the product is exact in 2*SEW bits.
template <bool SA, bool SB> struct WMul {
  static constexpr bool kSignedA = SA, kSignedB = SB;
  template <class W> static W apply(W a, W b) { return W(uint64_t(a) * uint64_t(b)); }
};
template <bool SA, bool SB> struct WMacc {
  static constexpr bool kSignedA = SA, kSignedB = SB;
  template <class W> static W apply(W vd, W a, W b) { return W(uint64_t(a) * uint64_t(b) + vd); }
};

constexpr unsigned kVX = kFormV | kFormX;

Handler opm_handler(unsigned f3, unsigned f6) {
  switch (f6) {
    case 0x20: return pick_binary<DivU>(f3, kVX);
    case 0x21: return pick_binary<Div>(f3, kVX);
    case 0x22: return pick_binary<RemU>(f3, kVX);
    case 0x23: return pick_binary<Rem>(f3, kVX);
    case 0x24: return pick_binary<MulHU>(f3, kVX);
    case 0x25: return pick_binary<Mul>(f3, kVX);
    case 0x26: return pick_binary<MulHSU>(f3, kVX);
    case 0x27: return pick_binary<MulH>(f3, kVX);
    case 0x29: return pick_ternary<Madd>(f3, kVX);
    case 0x2b: return pick_ternary<Nmsub>(f3, kVX);
    case 0x2d: return pick_ternary<Macc>(f3, kVX);
    case 0x2f: return pick_ternary<Nmsac>(f3, kVX);
    case 0x38: return pick_widening<WMul<false, false>, false>(f3);  // vwmulu
    case 0x3a: return pick_widening<WMul<true, false>, false>(f3);   // vwmulsu: vs2 signed
    case 0x3b: return pick_widening<WMul<true, true>, false>(f3);    // vwmul
    case 0x3c: return pick_widening_ternary<WMacc<false, false>>(f3, kVX);  // vwmaccu
    case 0x3d: return pick_widening_ternary<WMacc<true, true>>(f3, kVX);    // vwmacc
    case 0x3e: return pick_widening_ternary<WMacc<true, false>>(f3, kFormX);  // vwmaccus: vs2 signed
    case 0x3f: return pick_widening_ternary<WMacc<false, true>>(f3, kVX);   // vwmaccsu: vs1 signed
    default: return nullptr;
  }
}

}  // namespace

VecImpl multiply_impl(unsigned f3, unsigned f6, uint32_t) {
  if (f3 != kOPMVV && f3 != kOPMVX) return {};
  return {opm_handler(f3, f6), f6 >= 0x20 && f6 <= 0x23 ? OpClass::VecDiv : OpClass::VecMul};
}

}  // namespace tlmcraft::isa::riscv::vec
