// RV32F semantics: every rounding mode, the five accrued flags, NaN rules, conversions.
// Operands sit in f1, f2, f3; results go to f4 (or a0 for integer results).
#include <gtest/gtest.h>

#include "scalar_support.h"

namespace tlmcraft::isa::riscv::test {
namespace {

constexpr uint32_t NX = 1, UF = 2, OF = 4, DZ = 8, NV = 16;
constexpr uint32_t RNE = 0, RTZ = 1, RDN = 2, RUP = 3, RMM = 4;
constexpr uint32_t kQNaN = 0x7fc00000u, kSNaN = 0x7f800001u, kNegQNaN = 0xffc12345u;
constexpr uint32_t kInf = 0x7f800000u, kNegInf = 0xff800000u, kMax = 0x7f7fffffu;
constexpr uint32_t kOne = 0x3f800000u, kNegOne = 0xbf800000u, kNegZero = 0x80000000u;
constexpr uint32_t a0 = 10;

struct Result {
  uint32_t value;  // f4 (run_fp) or a0 (xop)
  uint32_t flags;
};

Result run_fp(uint32_t insn, uint32_t a, uint32_t b = 0, uint32_t c = 0, uint32_t frm = 0, uint32_t xa = 0) {
  Machine m;
  m.hart.f[1] = a;
  m.hart.f[2] = b;
  m.hart.f[3] = c;
  m.hart.x[11] = xa;
  m.hart.frm = frm;
  m.run({insn});
  return {m.hart.f[4], m.hart.fflags};
}
Result fop(uint32_t insn, uint32_t a, uint32_t b = 0, uint32_t c = 0) { return run_fp(insn, a, b, c); }
// Integer-destination variant: always read a0.
Result xop(uint32_t insn, uint32_t a, uint32_t b = 0) {
  Machine m;
  m.hart.f[1] = a;
  m.hart.f[2] = b;
  m.run({insn});
  return {m.hart.x[a0], m.hart.fflags};
}
uint32_t fcvt_w(uint32_t rm) { return op_fp(0x60, a0, 1, 0, rm); }
uint32_t fcvt_wu(uint32_t rm) { return op_fp(0x60, a0, 1, 1, rm); }
uint32_t fcvt_s_w(uint32_t rm) { return op_fp(0x68, 4, 11, 0, rm); }
uint32_t fcvt_s_wu(uint32_t rm) { return op_fp(0x68, 4, 11, 1, rm); }
Result from_int(uint32_t insn, uint32_t x) { return run_fp(insn, 0, 0, 0, 0, x); }

#define EXPECT_FP(res, v, fl)          \
  do {                                 \
    const Result r_ = (res);           \
    EXPECT_EQ(r_.value, (v)) << std::hex << r_.value; \
    EXPECT_EQ(r_.flags, (fl));         \
  } while (0)

TEST(RiscvScalarFp, AddTieUnderEveryRoundingMode) {
  // 1 + 2^-24 lies exactly halfway between 1 and 1 + 2^-23 (0x3f800001).
  const uint32_t tiny = 0x33800000u;  // 2^-24
  EXPECT_FP(fop(fadd(4, 1, 2, RNE), kOne, tiny), kOne, NX);          // tie to even
  EXPECT_FP(fop(fadd(4, 1, 2, RTZ), kOne, tiny), kOne, NX);
  EXPECT_FP(fop(fadd(4, 1, 2, RDN), kOne, tiny), kOne, NX);
  EXPECT_FP(fop(fadd(4, 1, 2, RUP), kOne, tiny), 0x3f800001u, NX);
  EXPECT_FP(fop(fadd(4, 1, 2, RMM), kOne, tiny), 0x3f800001u, NX);   // tie away from zero
  // Negative: -1 - 2^-24; RDN goes away from zero, RUP toward it.
  EXPECT_FP(fop(fadd(4, 1, 2, RDN), kNegOne, tiny | 0x80000000u), 0xbf800001u, NX);
  EXPECT_FP(fop(fadd(4, 1, 2, RUP), kNegOne, tiny | 0x80000000u), kNegOne, NX);
  EXPECT_FP(fop(fadd(4, 1, 2, RMM), kNegOne, tiny | 0x80000000u), 0xbf800001u, NX);
  // 1 + 3*2^-24: halfway between 1+2^-23 (odd) and 1+2^-22 (even): RNE and RMM both up.
  EXPECT_FP(fop(fadd(4, 1, 2, RNE), kOne, 0x34400000u), 0x3f800002u, NX);
  EXPECT_FP(fop(fadd(4, 1, 2, RTZ), kOne, 0x34400000u), 0x3f800001u, NX);
}

TEST(RiscvScalarFp, DynamicRoundingUsesFrm) {
  const uint32_t tiny = 0x33800000u;
  EXPECT_FP(run_fp(fadd(4, 1, 2, kDyn), kOne, tiny, 0, RUP), 0x3f800001u, NX);
  EXPECT_FP(run_fp(fadd(4, 1, 2, kDyn), kOne, tiny, 0, RNE), kOne, NX);
}

TEST(RiscvScalarFp, InvalidRoundingModesAreIllegal) {
  Machine m;
  m.hart.frm = 5;  // dyn with frm = 5: illegal at execution
  Trap t = m.run_expect_trap({fadd(4, 1, 2, kDyn)});
  EXPECT_EQ(t.cause, TrapCause::IllegalInstruction);
  EXPECT_NE(t.detail.find("invalid frm 5"), std::string::npos) << t.detail;
  EXPECT_EQ(m.hart.pc, 0u);
  // rm = 5 or 6 in the encoding: illegal whatever frm holds.
  Machine n;
  EXPECT_EQ(n.run_expect_trap({fadd(4, 1, 2, 6)}).cause, TrapCause::IllegalInstruction);
  EXPECT_EQ(n.run_expect_trap({fma(0x43, 4, 1, 2, 3, 5)}).cause, TrapCause::IllegalInstruction);
}

TEST(RiscvScalarFp, InvalidAndDivideByZero) {
  EXPECT_FP(fop(fdiv(4, 1, 2, RNE), 0, 0), kQNaN, NV);                   // 0/0
  EXPECT_FP(fop(fdiv(4, 1, 2, RNE), kOne, 0), kInf, DZ);                 // 1/+0
  EXPECT_FP(fop(fdiv(4, 1, 2, RNE), kOne, kNegZero), kNegInf, DZ);       // 1/-0
  EXPECT_FP(fop(fsub(4, 1, 2, RNE), kInf, kInf), kQNaN, NV);             // inf - inf
  EXPECT_FP(fop(fmul(4, 1, 2, RNE), kInf, 0), kQNaN, NV);                // inf * 0
  EXPECT_FP(fop(fsqrt(4, 1, RNE), kNegOne), kQNaN, NV);                  // sqrt(-1)
  EXPECT_FP(fop(fsqrt(4, 1, RNE), kNegZero), kNegZero, 0u);              // sqrt(-0) = -0
  // NaN operands: canonical NaN out; NV only for a signalling NaN.
  EXPECT_FP(fop(fadd(4, 1, 2, RNE), kNegQNaN, kOne), kQNaN, 0u);
  EXPECT_FP(fop(fadd(4, 1, 2, RNE), kSNaN, kOne), kQNaN, NV);
  EXPECT_FP(fop(fmul(4, 1, 2, RNE), kOne, kSNaN), kQNaN, NV);
  EXPECT_FP(fop(fdiv(4, 1, 2, RNE), kInf, kNegQNaN), kQNaN, 0u);
}

TEST(RiscvScalarFp, OverflowDependsOnRoundingMode) {
  // max * 2 overflows: RNE/RMM -> inf; RTZ -> max; RUP -> +inf; RDN -> +max. OF and NX.
  const uint32_t two = 0x40000000u;
  EXPECT_FP(fop(fmul(4, 1, 2, RNE), kMax, two), kInf, OF | NX);
  EXPECT_FP(fop(fmul(4, 1, 2, RTZ), kMax, two), kMax, OF | NX);
  EXPECT_FP(fop(fmul(4, 1, 2, RDN), kMax, two), kMax, OF | NX);
  EXPECT_FP(fop(fmul(4, 1, 2, RUP), kMax, two), kInf, OF | NX);
  EXPECT_FP(fop(fmul(4, 1, 2, RMM), kMax, two), kInf, OF | NX);
  // Negative: RDN -> -inf, RUP -> -max.
  EXPECT_FP(fop(fmul(4, 1, 2, RDN), kMax | 0x80000000u, two), kNegInf, OF | NX);
  EXPECT_FP(fop(fmul(4, 1, 2, RUP), kMax | 0x80000000u, two), kMax | 0x80000000u, OF | NX);
  // The ulp of max is 2^104. max + 2^102 (a quarter ulp) rounds back to max: only NX.
  // max + 2^103 is a tie and max's significand is odd, so RNE rounds up: overflow.
  EXPECT_FP(fop(fadd(4, 1, 2, RNE), kMax, 0x72800000u), kMax, NX);
  EXPECT_FP(fop(fadd(4, 1, 2, RNE), kMax, 0x73000000u), kInf, OF | NX);
  EXPECT_FP(fop(fadd(4, 1, 2, RTZ), kMax, 0x73000000u), kMax, NX);
}

TEST(RiscvScalarFp, UnderflowIsDetectedAfterRounding) {
  // a = 8193 * 2^-100 = (1 + 2^-13) * 2^-87 -> 0x14000400; b = 8191 * 2^-52 =
  // (2 - 2^-12) * 2^-40 -> 0x2bfff800. a*b = (2^26 - 1) * 2^-152 = 2^-126 * (1 - 2^-26).
  // Rounded to 24 bits with an unbounded exponent it is 2^-126 under RNE/RUP/RMM: not
  // tiny, so no UF (only NX). Under RTZ/RDN it stays below 2^-126: UF and NX.
  const uint32_t a = 0x14000400u, b = 0x2bfff800u;
  EXPECT_FP(fop(fmul(4, 1, 2, RNE), a, b), 0x00800000u, NX);
  EXPECT_FP(fop(fmul(4, 1, 2, RUP), a, b), 0x00800000u, NX);
  EXPECT_FP(fop(fmul(4, 1, 2, RMM), a, b), 0x00800000u, NX);
  EXPECT_FP(fop(fmul(4, 1, 2, RTZ), a, b), 0x007fffffu, UF | NX);
  EXPECT_FP(fop(fmul(4, 1, 2, RDN), a, b), 0x007fffffu, UF | NX);
  // Exact subnormal results raise nothing: 2^-149 * 1.
  EXPECT_FP(fop(fmul(4, 1, 2, RNE), 0x00000001u, kOne), 0x00000001u, 0u);
  // 2^-149 * 0.5 = 2^-150: a tie between 0 and 2^-149 -> 0 (even) under RNE, UF|NX.
  EXPECT_FP(fop(fmul(4, 1, 2, RNE), 0x00000001u, 0x3f000000u), 0u, UF | NX);
  EXPECT_FP(fop(fmul(4, 1, 2, RUP), 0x00000001u, 0x3f000000u), 0x00000001u, UF | NX);
  EXPECT_FP(fop(fmul(4, 1, 2, RMM), 0x00000001u, 0x3f000000u), 0x00000001u, UF | NX);
}

TEST(RiscvScalarFp, SignOfExactZeroSums) {
  // x + (-x) = +0 in every mode except RDN (-0); -0 + -0 = -0.
  EXPECT_FP(fop(fsub(4, 1, 2, RNE), kOne, kOne), 0u, 0u);
  EXPECT_FP(fop(fsub(4, 1, 2, RDN), kOne, kOne), kNegZero, 0u);
  EXPECT_FP(fop(fadd(4, 1, 2, RDN), 0u, kNegZero), kNegZero, 0u);
  EXPECT_FP(fop(fadd(4, 1, 2, RNE), kNegZero, kNegZero), kNegZero, 0u);
  EXPECT_FP(fop(fadd(4, 1, 2, RUP), 0u, kNegZero), 0u, 0u);
}

TEST(RiscvScalarFp, SqrtRounding) {
  // sqrt(2) = 1.41421356237...; 0x3fb504f3 = 1.41421353816... (below), 0x3fb504f4 =
  // 1.41421365737... (above, farther): RNE/RTZ/RDN/RMM -> ...f3, RUP -> ...f4.
  const uint32_t two = 0x40000000u;
  EXPECT_FP(fop(fsqrt(4, 1, RNE), two), 0x3fb504f3u, NX);
  EXPECT_FP(fop(fsqrt(4, 1, RTZ), two), 0x3fb504f3u, NX);
  EXPECT_FP(fop(fsqrt(4, 1, RMM), two), 0x3fb504f3u, NX);
  EXPECT_FP(fop(fsqrt(4, 1, RUP), two), 0x3fb504f4u, NX);
  EXPECT_FP(fop(fsqrt(4, 1, RNE), 0x40800000u), two, 0u);  // sqrt(4) = 2 exactly
}

TEST(RiscvScalarFp, FusedMultiplyAddRoundsOnce) {
  const uint32_t two = 0x40000000u, three = 0x40400000u;
  EXPECT_FP(fop(fma(0x43, 4, 1, 2, 3, RNE), two, three, kOne), 0x40e00000u, 0u);  // 2*3+1 = 7
  EXPECT_FP(fop(fma(0x47, 4, 1, 2, 3, RNE), two, three, kOne), 0x40a00000u, 0u);  // 2*3-1 = 5
  EXPECT_FP(fop(fma(0x4b, 4, 1, 2, 3, RNE), two, three, kOne), 0xc0a00000u, 0u);  // -(2*3)+1 = -5
  EXPECT_FP(fop(fma(0x4f, 4, 1, 2, 3, RNE), two, three, kOne), 0xc0e00000u, 0u);  // -(2*3)-1 = -7
  // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly = 0x3a000400 fused (a separate multiply
  // would round the square to 1 + 2^-11 first and give 0x3a000000).
  EXPECT_FP(fop(fma(0x43, 4, 1, 2, 3, RNE), 0x3f800800u, 0x3f800800u, kNegOne), 0x3a000400u, 0u);
  // inf * 0 + qNaN: invalid even though the addend is a quiet NaN.
  EXPECT_FP(fop(fma(0x43, 4, 1, 2, 3, RNE), kInf, 0u, kQNaN), kQNaN, NV);
  // inf * 1 + -inf: invalid.
  EXPECT_FP(fop(fma(0x43, 4, 1, 2, 3, RNE), kInf, kOne, kNegInf), kQNaN, NV);
  // -(1*1) + 1 = +0 exact; under RDN -0.
  EXPECT_FP(fop(fma(0x4b, 4, 1, 2, 3, RDN), kOne, kOne, kOne), kNegZero, 0u);
}

TEST(RiscvScalarFp, MinMaxNumberSemantics) {
  const uint32_t fmin = 0x14, fmax = 0x14;
  EXPECT_FP(fop(op_fp(fmin, 4, 1, 2, 0), kSNaN, kOne), kOne, NV);   // sNaN: the other operand, NV
  EXPECT_FP(fop(op_fp(fmin, 4, 1, 2, 0), kQNaN, kOne), kOne, 0u);   // qNaN: the other operand
  EXPECT_FP(fop(op_fp(fmax, 4, 1, 2, 1), kOne, kNegQNaN), kOne, 0u);
  EXPECT_FP(fop(op_fp(fmin, 4, 1, 2, 0), kQNaN, kSNaN), kQNaN, NV);  // both NaN: canonical
  EXPECT_FP(fop(op_fp(fmax, 4, 1, 2, 1), kNegQNaN, kNegQNaN), kQNaN, 0u);
  EXPECT_FP(fop(op_fp(fmin, 4, 1, 2, 0), 0u, kNegZero), kNegZero, 0u);  // -0 < +0
  EXPECT_FP(fop(op_fp(fmin, 4, 1, 2, 0), kNegZero, 0u), kNegZero, 0u);
  EXPECT_FP(fop(op_fp(fmax, 4, 1, 2, 1), kNegZero, 0u), 0u, 0u);
  EXPECT_FP(fop(op_fp(fmax, 4, 1, 2, 1), kNegOne, kOne), kOne, 0u);
  EXPECT_FP(fop(op_fp(fmin, 4, 1, 2, 0), kNegInf, kOne), kNegInf, 0u);
}

TEST(RiscvScalarFp, ComparisonsSignalAsSpecified) {
  EXPECT_FP(xop(op_fp(0x50, a0, 1, 2, 2), kOne, kOne), 1u, 0u);            // feq 1,1
  EXPECT_FP(xop(op_fp(0x50, a0, 1, 2, 2), 0u, kNegZero), 1u, 0u);          // feq +0,-0
  EXPECT_FP(xop(op_fp(0x50, a0, 1, 2, 2), kQNaN, kQNaN), 0u, 0u);          // feq quiet
  EXPECT_FP(xop(op_fp(0x50, a0, 1, 2, 2), kSNaN, kOne), 0u, NV);           // feq sNaN: NV
  EXPECT_FP(xop(op_fp(0x50, a0, 1, 2, 1), kQNaN, kOne), 0u, NV);           // flt qNaN: NV
  EXPECT_FP(xop(op_fp(0x50, a0, 1, 2, 0), kOne, kQNaN), 0u, NV);           // fle qNaN: NV
  EXPECT_FP(xop(op_fp(0x50, a0, 1, 2, 1), kNegOne, kOne), 1u, 0u);         // flt -1,1
  EXPECT_FP(xop(op_fp(0x50, a0, 1, 2, 1), kNegZero, 0u), 0u, 0u);          // flt -0,+0: equal
  EXPECT_FP(xop(op_fp(0x50, a0, 1, 2, 0), kNegZero, 0u), 1u, 0u);          // fle -0,+0
}

TEST(RiscvScalarFp, ClassifiesEveryCategory) {
  const uint32_t fclass = op_fp(0x70, a0, 1, 0, 1);
  EXPECT_EQ(xop(fclass, kNegInf).value, 1u << 0);
  EXPECT_EQ(xop(fclass, kNegOne).value, 1u << 1);
  EXPECT_EQ(xop(fclass, 0x80000001u).value, 1u << 2);
  EXPECT_EQ(xop(fclass, kNegZero).value, 1u << 3);
  EXPECT_EQ(xop(fclass, 0u).value, 1u << 4);
  EXPECT_EQ(xop(fclass, 0x00000001u).value, 1u << 5);
  EXPECT_EQ(xop(fclass, kOne).value, 1u << 6);
  EXPECT_EQ(xop(fclass, kInf).value, 1u << 7);
  EXPECT_EQ(xop(fclass, kSNaN).value, 1u << 8);
  EXPECT_EQ(xop(fclass, kQNaN).value, 1u << 9);
}

TEST(RiscvScalarFp, SignInjectionAndMovesKeepBits) {
  // fsgnj* never canonicalize: the NaN payload survives.
  EXPECT_FP(fop(op_fp(0x10, 4, 1, 2, 0), kNegQNaN, kOne), 0x7fc12345u, 0u);      // fsgnj: sign of +1
  EXPECT_FP(fop(op_fp(0x10, 4, 1, 2, 1), kOne, kOne), kNegOne, 0u);               // fsgnjn
  EXPECT_FP(fop(op_fp(0x10, 4, 1, 2, 2), kNegOne, kNegOne), kOne, 0u);            // fsgnjx: - ^ - = +
  EXPECT_FP(fop(op_fp(0x10, 4, 1, 2, 2), kSNaN, kNegOne), kSNaN | 0x80000000u, 0u);
  EXPECT_EQ(xop(op_fp(0x70, a0, 1, 0, 0), kSNaN).value, kSNaN);                   // fmv.x.w
  Machine m;
  m.hart.x[11] = kSNaN;
  m.run({op_fp(0x78, 4, 11, 0, 0)});                                             // fmv.w.x
  EXPECT_EQ(m.hart.f[4], kSNaN);
  EXPECT_EQ(m.hart.fflags, 0u);
}

TEST(RiscvScalarFp, ConvertToSignedIntegerSaturates) {
  // 2.5 and -2.5 under each mode (round-half cases).
  const uint32_t p25 = 0x40200000u, m25 = 0xc0200000u;
  EXPECT_FP(xop(fcvt_w(RNE), p25), 2u, NX);
  EXPECT_FP(xop(fcvt_w(RTZ), p25), 2u, NX);
  EXPECT_FP(xop(fcvt_w(RDN), p25), 2u, NX);
  EXPECT_FP(xop(fcvt_w(RUP), p25), 3u, NX);
  EXPECT_FP(xop(fcvt_w(RMM), p25), 3u, NX);
  EXPECT_FP(xop(fcvt_w(RNE), m25), uint32_t(-2), NX);
  EXPECT_FP(xop(fcvt_w(RDN), m25), uint32_t(-3), NX);
  EXPECT_FP(xop(fcvt_w(RUP), m25), uint32_t(-2), NX);
  EXPECT_FP(xop(fcvt_w(RMM), m25), uint32_t(-3), NX);
  // Spec table: NaN -> 2^31-1, +inf -> 2^31-1, -inf -> -2^31, all NV (not NX).
  EXPECT_FP(xop(fcvt_w(RNE), kQNaN), 0x7fffffffu, NV);
  EXPECT_FP(xop(fcvt_w(RNE), kInf), 0x7fffffffu, NV);
  EXPECT_FP(xop(fcvt_w(RNE), kNegInf), 0x80000000u, NV);
  // -2^31 is representable: no flags. The next float below, -(2^31 + 256) = 0xcf000001
  // (what -2^31-1 becomes in binary32), is out of range: -2^31 with NV. 2^31 = 0x4f000000
  // is out of range too: 2^31-1 with NV.
  EXPECT_FP(xop(fcvt_w(RNE), 0xcf000000u), 0x80000000u, 0u);
  EXPECT_FP(xop(fcvt_w(RNE), 0xcf000001u), 0x80000000u, NV);
  EXPECT_FP(xop(fcvt_w(RNE), 0x4f000000u), 0x7fffffffu, NV);
  EXPECT_FP(xop(fcvt_w(RTZ), 0x4effffffu), 0x7fffff80u, 0u);  // 2^31 - 128
}

TEST(RiscvScalarFp, ConvertToUnsignedIntegerSaturates) {
  EXPECT_FP(xop(fcvt_wu(RNE), kNegOne), 0u, NV);               // negative out of range
  EXPECT_FP(xop(fcvt_wu(RTZ), 0xbf000000u), 0u, NX);           // -0.5 RTZ -> -0 -> 0: in range
  EXPECT_FP(xop(fcvt_wu(RNE), 0xbf000000u), 0u, NX);           // -0.5 RNE -> -0 (tie to even)
  EXPECT_FP(xop(fcvt_wu(RMM), 0xbf000000u), 0u, NV);           // -0.5 RMM -> -1: out of range
  EXPECT_FP(xop(fcvt_wu(RNE), kQNaN), 0xffffffffu, NV);
  EXPECT_FP(xop(fcvt_wu(RNE), kInf), 0xffffffffu, NV);
  EXPECT_FP(xop(fcvt_wu(RNE), kNegInf), 0u, NV);
  EXPECT_FP(xop(fcvt_wu(RNE), 0x4f800000u), 0xffffffffu, NV);  // 2^32
  EXPECT_FP(xop(fcvt_wu(RNE), 0x4f7fffffu), 0xffffff00u, 0u);  // 2^32 - 256
}

TEST(RiscvScalarFp, ConvertFromInteger) {
  // 2^24 + 1 is halfway between 2^24 (0x4b800000) and 2^24 + 2 (0x4b800001).
  EXPECT_FP(from_int(fcvt_s_w(RNE), 16777217u), 0x4b800000u, NX);
  EXPECT_FP(from_int(fcvt_s_w(RMM), 16777217u), 0x4b800001u, NX);
  EXPECT_FP(from_int(fcvt_s_w(RUP), 16777217u), 0x4b800001u, NX);
  EXPECT_FP(from_int(fcvt_s_w(RTZ), 16777217u), 0x4b800000u, NX);
  EXPECT_FP(from_int(fcvt_s_w(RNE), 0xffffffffu), kNegOne, 0u);             // -1
  EXPECT_FP(from_int(fcvt_s_w(RNE), 0x80000000u), 0xcf000000u, 0u);         // -2^31
  EXPECT_FP(from_int(fcvt_s_wu(RNE), 0xffffffffu), 0x4f800000u, NX);        // 2^32 - 1 -> 2^32
  EXPECT_FP(from_int(fcvt_s_wu(RTZ), 0xffffffffu), 0x4f7fffffu, NX);
  EXPECT_FP(from_int(fcvt_s_wu(RNE), 0u), 0u, 0u);
}

TEST(RiscvScalarFp, FlagsAccumulateAndLoadStoreMoveBits) {
  Machine m;
  m.hart.f[1] = kOne;
  m.hart.f[2] = 0;
  m.hart.f[3] = 0x33800000u;
  m.hart.x[11] = Machine::kDtcm;
  m.run({
      fdiv(4, 1, 2, RNE),      // DZ
      fadd(5, 1, 3, RNE),      // NX
      fsw(4, 11, 8),           // +inf to memory
      flw(6, 11, 8),
      csr(2, a0, 0x003, 0),    // csrr a0, fcsr
  });
  EXPECT_EQ(m.hart.fflags, DZ | NX);
  EXPECT_EQ(m.hart.f[6], kInf);
  EXPECT_EQ(m.dtcm_word(8), kInf);
  EXPECT_EQ(m.hart.x[a0], DZ | NX);
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::test
