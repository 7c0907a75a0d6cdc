// Fixed-point arithmetic: saturating add/sub (vxsat), averaging add/sub (vxrm), vsmul
// (vxrm, vxsat), scaling shifts vssrl/vssra (vxrm), narrowing clips vnclipu/vnclip
// (vxrm, vxsat). Intermediate results are exact in 64 bits for SEW <= 32.
#include <limits>

#include "isa/riscv/vector_handlers.h"

namespace tlmcraft::isa::riscv::vec {
namespace {

template <class U> U saturate_unsigned(int64_t value, Hart& h) {
  const int64_t max = int64_t(U(~U(0)));
  if (value > max) { h.vxsat = 1; return U(max); }
  if (value < 0) { h.vxsat = 1; return 0; }
  return U(value);
}
template <class U> U saturate_signed(int64_t value, Hart& h) {
  const int64_t max = int64_t(std::numeric_limits<SignedT<U>>::max());
  const int64_t min = int64_t(std::numeric_limits<SignedT<U>>::min());
  if (value > max) { h.vxsat = 1; return U(max); }
  if (value < min) { h.vxsat = 1; return U(min); }
  return U(value);
}

struct SAddU {
  template <class U> static U apply(U a, U b, Hart& h) { return saturate_unsigned<U>(int64_t(a) + b, h); }
};
struct SSubU {
  template <class U> static U apply(U a, U b, Hart& h) { return saturate_unsigned<U>(int64_t(a) - b, h); }
};
struct SAdd {
  template <class U> static U apply(U a, U b, Hart& h) { return saturate_signed<U>(sext(a) + sext(b), h); }
};
struct SSub {
  template <class U> static U apply(U a, U b, Hart& h) { return saturate_signed<U>(sext(a) - sext(b), h); }
};
// Averaging: (a +/- b) >> 1 with vxrm rounding, no overflow (exact intermediate).
struct AAddU {
  template <class U> static U apply(U a, U b, Hart& h) {
    return U(round_shift_unsigned(uint64_t(a) + b, 1, h.vxrm));
  }
};
struct AAdd {
  template <class U> static U apply(U a, U b, Hart& h) {
    return U(round_shift_signed(sext(a) + sext(b), 1, h.vxrm));
  }
};
struct ASubU {
  template <class U> static U apply(U a, U b, Hart& h) {
    return U(round_shift_signed(int64_t(a) - int64_t(b), 1, h.vxrm));
  }
};
struct ASub {
  template <class U> static U apply(U a, U b, Hart& h) {
    return U(round_shift_signed(sext(a) - sext(b), 1, h.vxrm));
  }
};
// vsmul: (a * b) >> (SEW-1), rounded, saturated (only MIN * MIN overflows).
struct SMul {
  template <class U> static U apply(U a, U b, Hart& h) {
    return saturate_signed<U>(round_shift_signed(sext(a) * sext(b), kBits<U> - 1, h.vxrm), h);
  }
};
struct SSrl {
  template <class U> static U apply(U a, U b, Hart& h) {
    return U(round_shift_unsigned(a, b & (kBits<U> - 1), h.vxrm));
  }
};
struct SSra {
  template <class U> static U apply(U a, U b, Hart& h) {
    return U(round_shift_signed(sext(a), b & (kBits<U> - 1), h.vxrm));
  }
};
// Narrowing clips: 2*SEW source shifted right with rounding, saturated to SEW.
struct NClipU {
  template <class U> static U apply(WideT<U> a, unsigned shift, Hart& h) {
    return saturate_unsigned<U>(int64_t(round_shift_unsigned(a, shift, h.vxrm)), h);
  }
};
struct NClip {
  template <class U> static U apply(WideT<U> a, unsigned shift, Hart& h) {
    return saturate_signed<U>(round_shift_signed(sext(a), shift, h.vxrm), h);
  }
};

constexpr unsigned kVXI = kFormV | kFormX | kFormI, kVX = kFormV | kFormX;

}  // namespace

VecImpl fixed_point_impl(unsigned f3, unsigned f6, uint32_t) {
  Handler handler = nullptr;
  if (f3 == kOPMVV || f3 == kOPMVX) {
    switch (f6) {
      case 0x08: handler = pick_binary<AAddU>(f3, kVX); break;
      case 0x09: handler = pick_binary<AAdd>(f3, kVX); break;
      case 0x0a: handler = pick_binary<ASubU>(f3, kVX); break;
      case 0x0b: handler = pick_binary<ASub>(f3, kVX); break;
      default: break;
    }
  } else {
    switch (f6) {
      case 0x20: handler = pick_binary<SAddU>(f3, kVXI); break;
      case 0x21: handler = pick_binary<SAdd>(f3, kVXI); break;
      case 0x22: handler = pick_binary<SSubU>(f3, kVX); break;
      case 0x23: handler = pick_binary<SSub>(f3, kVX); break;
      case 0x27: handler = pick_binary<SMul>(f3, kVX); break;
      case 0x2a: handler = pick_binary<SSrl>(f3, kVXI); break;
      case 0x2b: handler = pick_binary<SSra>(f3, kVXI); break;
      case 0x2e: handler = pick_narrowing<NClipU>(f3, kVXI); break;
      case 0x2f: handler = pick_narrowing<NClip>(f3, kVXI); break;
      default: break;
    }
  }
  return {handler, OpClass::VecFixedPoint};
}

}  // namespace tlmcraft::isa::riscv::vec
