// IEEE 754 binary32 arithmetic as RISC-V F specifies it: explicit rounding mode (RNE,
// RTZ, RDN, RUP, RMM), accrued flags (NV DZ OF UF NX, underflow detected after rounding)
// and the canonical NaN for every NaN result. Values are bit patterns.
//
// Method: each operation is evaluated on the host in double precision rounded toward
// zero with the inexact flag turned into a sticky last bit ("round to odd"). Binary64
// holds 53 >= 2 * 24 + 2 bits, so rounding that odd result once more to binary32 in
// software, in any mode, gives the correctly rounded binary32 result; the double
// step never overflows or underflows for binary32 operands.
#pragma once
#include <cstdint>

namespace tlmcraft::isa::riscv::fp32 {

enum Flag : uint32_t { kNX = 1, kUF = 2, kOF = 4, kDZ = 8, kNV = 16 };
enum RoundingMode : unsigned { kRNE = 0, kRTZ = 1, kRDN = 2, kRUP = 3, kRMM = 4 };
constexpr uint32_t kCanonicalNaN = 0x7fc00000u;

inline bool is_nan(uint32_t a) { return (a & 0x7fffffffu) > 0x7f800000u; }
inline bool is_snan(uint32_t a) { return is_nan(a) && !(a & 0x00400000u); }

// Rounds a finite, infinite or NaN double to binary32 in mode `rm`, accumulating flags.
// The double must be exact or round-to-odd (as produced by the operations below).
uint32_t round_from_double(double v, unsigned rm, uint32_t& flags);

uint32_t add(uint32_t a, uint32_t b, unsigned rm, uint32_t& flags);
uint32_t sub(uint32_t a, uint32_t b, unsigned rm, uint32_t& flags);
uint32_t mul(uint32_t a, uint32_t b, unsigned rm, uint32_t& flags);
uint32_t div(uint32_t a, uint32_t b, unsigned rm, uint32_t& flags);
uint32_t sqrt(uint32_t a, unsigned rm, uint32_t& flags);
// (negate_product ? -(a*b) : a*b) + (negate_addend ? -c : c), one rounding.
uint32_t fma(uint32_t a, uint32_t b, uint32_t c, bool negate_product, bool negate_addend, unsigned rm,
             uint32_t& flags);

// minimumNumber / maximumNumber (IEEE 754-2019), -0 < +0; NV only for signalling NaNs.
uint32_t min(uint32_t a, uint32_t b, uint32_t& flags);
uint32_t max(uint32_t a, uint32_t b, uint32_t& flags);
// feq is quiet (NV for signalling NaNs only); flt/fle signal NV for any NaN.
bool eq(uint32_t a, uint32_t b, uint32_t& flags);
bool lt(uint32_t a, uint32_t b, uint32_t& flags);
bool le(uint32_t a, uint32_t b, uint32_t& flags);
uint32_t classify(uint32_t a);  // the fclass.s one-hot mask

// Conversions with the spec's saturation: out of range or NaN sets NV (and not NX).
uint32_t to_i32(uint32_t a, unsigned rm, uint32_t& flags);
uint32_t to_u32(uint32_t a, unsigned rm, uint32_t& flags);
uint32_t from_i32(int32_t v, unsigned rm, uint32_t& flags);
uint32_t from_u32(uint32_t v, unsigned rm, uint32_t& flags);

}  // namespace tlmcraft::isa::riscv::fp32
