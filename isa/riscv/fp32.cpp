// binary32 arithmetic with RISC-V rounding and flags (see fp32.h for the method).
#include "isa/riscv/fp32.h"

#include <cfenv>
#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace tlmcraft::isa::riscv::fp32 {

namespace {

constexpr uint32_t kSign = 0x80000000u;
constexpr uint32_t kInf = 0x7f800000u;
constexpr uint32_t kMaxFinite = 0x7f7fffffu;

double widen(uint32_t a) {
  float f;
  std::memcpy(&f, &a, 4);
  return static_cast<double>(f);  // exact (callers never pass NaNs)
}

uint64_t bits_of(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

double from_bits(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

bool is_zero(uint32_t a) { return (a & 0x7fffffffu) == 0; }
bool is_inf(uint32_t a) { return (a & 0x7fffffffu) == kInf; }

enum class HostOp { Add, Mul, Div, Sqrt, MulAdd };

// Host floating-point environment for one operation: round toward zero, flags cleared;
// the previous environment comes back on destruction. On x86-64 this is one MXCSR read
// and write each way (the <cfenv> calls cost several times more); elsewhere <cfenv>.
class HostRoundTowardZero {
 public:
#if defined(__SSE2__)
  // RC = toward zero (bits 14:13), flags (5:0) cleared, FTZ (15) and DAZ (6) off.
  HostRoundTowardZero() : saved_(_mm_getcsr()) { _mm_setcsr((saved_ & ~0xe07fu) | 0x6000u); }
  ~HostRoundTowardZero() { _mm_setcsr(saved_); }
  // NV and DZ into RISC-V flags; true if the result was inexact.
  bool collect(uint32_t& flags) const {
    const unsigned raised = _mm_getcsr();
    if (raised & 0x01u) flags |= kNV;  // IE
    if (raised & 0x04u) flags |= kDZ;  // ZE
    return raised & 0x20u;             // PE
  }

 private:
  unsigned saved_;
#else
  HostRoundTowardZero() : saved_(std::fegetround()) {
    std::fesetround(FE_TOWARDZERO);
    std::feclearexcept(FE_ALL_EXCEPT);
  }
  ~HostRoundTowardZero() { std::fesetround(saved_); }
  bool collect(uint32_t& flags) const {
    const int raised = std::fetestexcept(FE_ALL_EXCEPT);
    if (raised & FE_INVALID) flags |= kNV;
    if (raised & FE_DIVBYZERO) flags |= kDZ;
    return raised & FE_INEXACT;
  }

 private:
  int saved_;
#endif
};

// Evaluates the operation in double, rounded toward zero, and returns it with the
// inexact flag folded into the last bit (round to odd). NV and DZ from the host are
// accumulated into `flags`. Operands and result pass through volatiles so the
// arithmetic cannot move across the rounding-mode switch.
double host_round_to_odd(HostOp op, double a, double b, double c, uint32_t& flags) {
  volatile double va = a, vb = b, vc = c;
  volatile double vr;
  bool inexact;
  {
    HostRoundTowardZero env;
    const double x = va, y = vb, z = vc;
    switch (op) {
      case HostOp::Add: vr = x + y; break;
      case HostOp::Mul: vr = x * y; break;
      case HostOp::Div: vr = x / y; break;
      case HostOp::Sqrt: vr = std::sqrt(x); break;
      case HostOp::MulAdd: {
        volatile double product = x * y;  // exact: 24 x 24 bits fit in 53
        vr = product + z;
        break;
      }
    }
    inexact = env.collect(flags);
  }
  double result = vr;
  if (inexact && std::isfinite(result)) result = from_bits(bits_of(result) | 1);
  return result;
}

// Exact cancellation gives +0 in every mode but RDN, where it is -0 (IEEE 754 6.3).
// The host ran in RTZ, so fix the sign for RDN when the addends were not both +0.
double fix_zero_sum_sign(double r, double addend1, double addend2, unsigned rm) {
  if (r == 0 && rm == kRDN && !std::signbit(r) && !(addend1 == 0 && !std::signbit(addend1) && addend2 == 0 && !std::signbit(addend2)))
    return -0.0;
  return r;
}

bool round_up(uint64_t kept, uint64_t rest, uint64_t half, bool negative, unsigned rm) {
  if (rest == 0) return false;
  switch (rm) {
    case kRNE: return rest > half || (rest == half && (kept & 1));
    case kRTZ: return false;
    case kRDN: return negative;
    case kRUP: return !negative;
    case kRMM: return rest >= half;
  }
  return false;
}

// Any NaN operand: canonical NaN, NV if one of them signals.
bool nan_operands(uint32_t& result, uint32_t& flags, uint32_t a, uint32_t b, uint32_t c = 0) {
  if (!is_nan(a) && !is_nan(b) && !is_nan(c)) return false;
  if (is_snan(a) || is_snan(b) || is_snan(c)) flags |= kNV;
  result = kCanonicalNaN;
  return true;
}

}  // namespace

uint32_t round_from_double(double v, unsigned rm, uint32_t& flags) {
  const uint64_t b = bits_of(v);
  const bool negative = b >> 63;
  const uint32_t sign = negative ? kSign : 0;
  const uint32_t dexp = (b >> 52) & 0x7ff;
  const uint64_t frac = b & ((1ull << 52) - 1);
  if (dexp == 0x7ff) return frac ? kCanonicalNaN : (sign | kInf);
  if (dexp == 0 && frac == 0) return sign;
  // value = m * 2^(e - 52), m in [2^52, 2^53)
  int e;
  uint64_t m;
  if (dexp == 0) {  // double subnormal: never produced from binary32 operands, handled anyway
    m = frac;
    e = -1022;
    while (!(m & (1ull << 52))) { m <<= 1; --e; }
  } else {
    m = frac | (1ull << 52);
    e = static_cast<int>(dexp) - 1023;
  }

  if (e >= -126) {  // normal range: keep 24 significant bits
    uint64_t kept = m >> 29, rest = m & ((1ull << 29) - 1);
    if (round_up(kept, rest, 1ull << 28, negative, rm)) ++kept;
    if (kept == (1ull << 24)) { kept >>= 1; ++e; }
    if (rest) flags |= kNX;
    if (e > 127) {
      flags |= kOF | kNX;
      const bool to_inf = rm == kRNE || rm == kRMM || (rm == kRDN && negative) || (rm == kRUP && !negative);
      return sign | (to_inf ? kInf : kMaxFinite);
    }
    return sign | (uint32_t(e + 127) << 23) | (uint32_t(kept) & 0x7fffffu);
  }

  // Below 2^-126: the result is subnormal (or rounds up to the smallest normal).
  int shift = 29 + (-126 - e);
  if (shift > 60) shift = 60;  // everything is below half an ulp already
  uint64_t kept = m >> shift, rest = m & ((1ull << shift) - 1);
  if (round_up(kept, rest, 1ull << (shift - 1), negative, rm)) ++kept;
  if (rest) {
    // Tininess after rounding: the value rounded to 24 bits with an unbounded exponent
    // is below 2^-126, unless e = -127 and that rounding carries up to 2^-126.
    bool tiny = true;
    if (e == -127) {
      uint64_t k24 = m >> 29, r24 = m & ((1ull << 29) - 1);
      if (round_up(k24, r24, 1ull << 28, negative, rm)) ++k24;
      tiny = k24 < (1ull << 24);
    }
    flags |= kNX;
    if (tiny) flags |= kUF;
  }
  return sign | static_cast<uint32_t>(kept);  // kept == 2^23 encodes the smallest normal
}

uint32_t add(uint32_t a, uint32_t b, unsigned rm, uint32_t& flags) {
  uint32_t r;
  if (nan_operands(r, flags, a, b)) return r;
  const double x = widen(a), y = widen(b);
  const double sum = fix_zero_sum_sign(host_round_to_odd(HostOp::Add, x, y, 0, flags), x, y, rm);
  return round_from_double(sum, rm, flags);
}

uint32_t sub(uint32_t a, uint32_t b, unsigned rm, uint32_t& flags) {
  uint32_t r;
  if (nan_operands(r, flags, a, b)) return r;
  return add(a, b ^ kSign, rm, flags);
}

uint32_t mul(uint32_t a, uint32_t b, unsigned rm, uint32_t& flags) {
  uint32_t r;
  if (nan_operands(r, flags, a, b)) return r;
  return round_from_double(host_round_to_odd(HostOp::Mul, widen(a), widen(b), 0, flags), rm, flags);
}

uint32_t div(uint32_t a, uint32_t b, unsigned rm, uint32_t& flags) {
  uint32_t r;
  if (nan_operands(r, flags, a, b)) return r;
  return round_from_double(host_round_to_odd(HostOp::Div, widen(a), widen(b), 0, flags), rm, flags);
}

uint32_t sqrt(uint32_t a, unsigned rm, uint32_t& flags) {
  uint32_t r;
  if (nan_operands(r, flags, a, 0)) return r;
  return round_from_double(host_round_to_odd(HostOp::Sqrt, widen(a), 0, 0, flags), rm, flags);
}

uint32_t fma(uint32_t a, uint32_t b, uint32_t c, bool negate_product, bool negate_addend, unsigned rm,
             uint32_t& flags) {
  // inf * 0 is invalid even when the addend is a quiet NaN (RISC-V F, fused multiply-add).
  if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b))) flags |= kNV;
  uint32_t r;
  if (nan_operands(r, flags, a, b, c)) return r;
  if (negate_product) a ^= kSign;
  if (negate_addend) c ^= kSign;
  const double x = widen(a), y = widen(b), z = widen(c);
  const double sum = host_round_to_odd(HostOp::MulAdd, x, y, z, flags);
  return round_from_double(fix_zero_sum_sign(sum, x * y, z, rm), rm, flags);
}

uint32_t min(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_snan(a) || is_snan(b)) flags |= kNV;
  if (is_nan(a) && is_nan(b)) return kCanonicalNaN;
  if (is_nan(a)) return b;
  if (is_nan(b)) return a;
  if (is_zero(a) && is_zero(b)) return a | b;  // -0 if either is -0
  return widen(a) < widen(b) ? a : b;
}

uint32_t max(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_snan(a) || is_snan(b)) flags |= kNV;
  if (is_nan(a) && is_nan(b)) return kCanonicalNaN;
  if (is_nan(a)) return b;
  if (is_nan(b)) return a;
  if (is_zero(a) && is_zero(b)) return a & b;  // +0 unless both are -0
  return widen(a) > widen(b) ? a : b;
}

bool eq(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) {
    if (is_snan(a) || is_snan(b)) flags |= kNV;
    return false;
  }
  return widen(a) == widen(b);
}

bool lt(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) {
    flags |= kNV;
    return false;
  }
  return widen(a) < widen(b);
}

bool le(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) {
    flags |= kNV;
    return false;
  }
  return widen(a) <= widen(b);
}

uint32_t classify(uint32_t a) {
  const bool negative = a & kSign;
  const uint32_t exp = (a >> 23) & 0xff, frac = a & 0x7fffffu;
  if (exp == 0xff) {
    if (frac == 0) return negative ? 1u << 0 : 1u << 7;
    return (frac & 0x400000u) ? 1u << 9 : 1u << 8;
  }
  if (exp == 0) {
    if (frac == 0) return negative ? 1u << 3 : 1u << 4;
    return negative ? 1u << 2 : 1u << 5;
  }
  return negative ? 1u << 1 : 1u << 6;
}

namespace {
// Rounds a finite double to an integral double in mode `rm` (exact arithmetic: all
// binary32 values are exact doubles and their fractional parts are too).
double round_integral(double v, unsigned rm) {
  const double t = std::trunc(v);
  const double frac = v - t;
  if (frac == 0) return t;
  const double away = t + (v < 0 ? -1.0 : 1.0);
  switch (rm) {
    case kRTZ: return t;
    case kRDN: return v < 0 ? away : t;
    case kRUP: return v > 0 ? away : t;
    case kRMM: return std::fabs(frac) >= 0.5 ? away : t;
    case kRNE:
    default: {
      const double f = std::fabs(frac);
      if (f > 0.5) return away;
      if (f < 0.5) return t;
      return std::fmod(t, 2.0) != 0 ? away : t;
    }
  }
}
}  // namespace

uint32_t to_i32(uint32_t a, unsigned rm, uint32_t& flags) {
  if (is_nan(a)) {
    flags |= kNV;
    return 0x7fffffffu;
  }
  const double v = widen(a);
  if (std::isinf(v)) {
    flags |= kNV;
    return v < 0 ? 0x80000000u : 0x7fffffffu;
  }
  const double r = round_integral(v, rm);
  if (r < -2147483648.0 || r > 2147483647.0) {
    flags |= kNV;
    return v < 0 ? 0x80000000u : 0x7fffffffu;
  }
  if (r != v) flags |= kNX;
  return static_cast<uint32_t>(static_cast<int32_t>(r));
}

uint32_t to_u32(uint32_t a, unsigned rm, uint32_t& flags) {
  if (is_nan(a)) {
    flags |= kNV;
    return 0xffffffffu;
  }
  const double v = widen(a);
  if (std::isinf(v)) {
    flags |= kNV;
    return v < 0 ? 0u : 0xffffffffu;
  }
  const double r = round_integral(v, rm);
  if (r < 0 || r > 4294967295.0) {
    flags |= kNV;
    return v < 0 ? 0u : 0xffffffffu;
  }
  if (r != v) flags |= kNX;
  return static_cast<uint32_t>(r);
}

uint32_t from_i32(int32_t v, unsigned rm, uint32_t& flags) { return round_from_double(double(v), rm, flags); }
uint32_t from_u32(uint32_t v, unsigned rm, uint32_t& flags) { return round_from_double(double(v), rm, flags); }

}  // namespace tlmcraft::isa::riscv::fp32
