// Instruction sequences for fp32 arithmetic on the AIE-ML vector unit, which multiplies
// only bf16 operands (exact fp32 products) and adds fp32 accumulator lanes: a product of
// two fp32 values is split into bf16 high and low parts (three products, about 16
// significant bits), 2^t is a cubic in the fraction plus an exponent-field add, and a
// reciprocal is an integer bit-trick guess refined by Newton steps. One vector op per
// bundle; the platform interlocks the latencies. Registers are passed in by name.
#pragma once
#include <cstdint>
#include <string>

#include "platforms/aie_ml/pack/baselines/block_loop.h"

namespace tlmcraft::tasks::aie_ml {

// Bit patterns of a value rounded to fp32 and to bf16 (nearest even), and the bf16 of
// what is left (the low part of a hi/lo split of a constant).
uint32_t fp32_bits(double v);
uint16_t bf16_bits(double v);
uint16_t bf16_low_bits(double v);

// Constants (setup code): broadcast into an accumulator (fp32 or int32 lanes) or a 256-bit
// vector register (bf16 lanes). Both go through r4 and x11.
void const_acc(KernelText& t, const std::string& bm, uint32_t bits, const std::string& what);
void const_bf16(KernelText& t, const std::string& w, uint16_t bits, const std::string& what);

// w_hi = bf16(a), w_lo = bf16(a - w_hi); tmp is an accumulator scratch.
void split(KernelText& t, const std::string& a, const std::string& w_hi, const std::string& w_lo, const std::string& tmp);
// dst = (ah + al) * (bh + bl) without the al*bl term.
void mul_split(KernelText& t, const std::string& dst, const std::string& ah, const std::string& al, const std::string& bh,
               const std::string& bl);

// Registers 2^t and recip use (vector w and accumulator bm names).
struct FpScratch {
  std::string k = "bm3", kf = "bm4", f = "bm5", p = "bm6", tmp = "bm7", y = "bm8", e = "bm9";
  std::string wf = "w2", wp = "w3", wah = "w4", wal = "w5", wyh = "w6", wyl = "w7", weh = "w8", wel = "w9";
};
// Constants 2^t and recip read (set up once by fp_constants).
struct FpConstants {
  std::string c3 = "w16";                       // bf16 ln2^3/6
  std::string c2 = "bm12", c1 = "bm13";         // fp32 ln2^2/2, ln2
  std::string one = "bm14", two = "bm15";       // fp32 1, 2
  std::string magic = "bm16";                   // int32 0x7EF311C3 (reciprocal guess)
};
void fp_constants(KernelText& t, const FpConstants& c = {});

// dst = 2^t (t fp32, |t| < 126): k = round(t), f = t - k in [-1/2, 1/2],
// 2^f = 1 + f (c1 + f (c2 + f c3)) (Taylor, |error| < 7e-4 relative), then k is added to
// the exponent field. dst may be t.
void exp2(KernelText& t, const std::string& dst, const std::string& src, const FpScratch& s = {}, const FpConstants& c = {});
// Registers exp2_precise reads: c4 and c3 (fp32 accumulators; c5 is bf16 in w16, c2, c1
// and 1 are fp_constants'), and, when `floor` names an x register holding int32 -126 << 23
// in every lane, the scratch x register for the clamp.
struct Exp2PreciseRegs {
  std::string c4 = "bm0", c3 = "bm2";
  std::string floor = "", clamp_tmp = "x7";
};
// dst = 2^t to about 1e-5 relative (exp2's 7e-4 is inherited by every softmax weight;
// this one keeps an attention output's error at its final bf16 rounding): k = round(t),
// f = t - k split into bf16 high and low parts, 2^f by the degree-5 Taylor polynomial
// (|error| < 2.4e-6 at |f| = 1/2) in fp32 Horner steps whose products keep three of the
// four hi/lo terms. Without `floor`, t must lie in (-126, 126) (k is added to the exponent
// field and wraps below); with it, k << 23 is clamped at -126 << 23, so any t in
// (-2^22, 126) gives 2^t, or a value below 2^-125 for t < -126. dst may be t; uses
// bm3..bm8, w2..w5.
void exp2_precise(KernelText& t, const std::string& dst, const std::string& src, const Exp2PreciseRegs& r = {});
// dst = 1 / a (a fp32, positive normal): guess 0x7EF311C3 - bits(a) (|error| < 13%), then
// three steps y = y (2 - a y): error 13% -> 1.7% -> 3e-4 -> ~1e-7 plus split rounding.
// With `loop_tag` the steps run as a zero-overhead loop of that tag (one step's code, the
// same values: what keeps large kernels within program memory once the exposed pipeline's
// waits are bundles); then recip must not sit inside another zero-overhead loop.
void recip(KernelText& t, const std::string& dst, const std::string& a, const FpScratch& s = {}, const FpConstants& c = {},
           const std::string& loop_tag = "");

// Horizontal reductions: every lane of `acc` (16 fp32 lanes) becomes the sum of all lanes;
// every lane of `x` (32 bf16 lanes) the maximum. Byte windows of VSHIFT rotate the lanes.
void reduce_sum_fp32(KernelText& t, const std::string& acc, const std::string& tmp_acc);
void reduce_max_bf16(KernelText& t, const std::string& x);
// dst = 1 / sqrt(v) (v fp32, positive normal, the same in every lane): the scalar unit
// forms the guess 0x5F3759DF - (bits(v) >> 1) (|error| < 3.5%), then three steps
// y = y (1.5 - (v/2) y^2). Uses r5..r7 and the FpScratch registers.
void rsqrt_uniform(KernelText& t, const std::string& dst, const std::string& v, const FpScratch& s = {});

}  // namespace tlmcraft::tasks::aie_ml
