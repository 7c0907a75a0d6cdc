#include "platforms/aie_ml/pack/baselines/fp_steps.h"

#include <cmath>
#include <cstring>

#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {

uint32_t fp32_bits(double v) {
  const float f = static_cast<float>(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

uint16_t bf16_bits(double v) { return aie_ml_bf16_bits(v); }

uint16_t bf16_low_bits(double v) { return aie_ml_bf16_bits(v - aie_ml_bf16_value(aie_ml_bf16_bits(v))); }

void const_acc(KernelText& t, const std::string& bm, uint32_t bits, const std::string& what) {
  t.op("MOVXM r4, " + std::to_string(bits), what);
  t.op("VBCST.32 x11, r4");
  t.op("VMOV " + bm + ", x11");
}

void const_bf16(KernelText& t, const std::string& w, uint16_t bits, const std::string& what) {
  t.op("MOVXM r4, " + std::to_string(bits), what);
  t.op("VBCST.16 x11, r4");
  t.op("VMOV " + w + ", w22");
}

void split(KernelText& t, const std::string& a, const std::string& w_hi, const std::string& w_lo, const std::string& tmp) {
  t.op("VCONV.BF16.FP32 " + w_hi + ", " + a);
  t.op("VCONV.FP32.BF16 " + tmp + ", " + w_hi);
  t.op("VSUB.F " + tmp + ", " + a + ", " + tmp);
  t.op("VCONV.BF16.FP32 " + w_lo + ", " + tmp);
}

void mul_split(KernelText& t, const std::string& dst, const std::string& ah, const std::string& al, const std::string& bh,
               const std::string& bl) {
  t.op("VMUL.E.BF16 " + dst + ", " + ah + ", " + bh);
  t.op("VMAC.E.BF16 " + dst + ", " + dst + ", " + al + ", " + bh);
  t.op("VMAC.E.BF16 " + dst + ", " + dst + ", " + ah + ", " + bl);
}

void fp_constants(KernelText& t, const FpConstants& c) {
  const double ln2 = std::log(2.0);
  const_bf16(t, c.c3, bf16_bits(ln2 * ln2 * ln2 / 6), "ln2^3/6 (bf16)");
  const_acc(t, c.c2, fp32_bits(ln2 * ln2 / 2), "ln2^2/2");
  const_acc(t, c.c1, fp32_bits(ln2), "ln2");
  const_acc(t, c.one, fp32_bits(1.0), "1.0");
  const_acc(t, c.two, fp32_bits(2.0), "2.0");
  const_acc(t, c.magic, 0x7EF311C3u, "reciprocal guess constant");
}

void exp2(KernelText& t, const std::string& dst, const std::string& src, const FpScratch& s, const FpConstants& c) {
  t.op("VCONV.S32.FP32 " + s.k + ", " + src + ", #0", "k = round(t)");
  t.op("VCONV.FP32.S32 " + s.kf + ", " + s.k);
  t.op("VSUB.F " + s.f + ", " + src + ", " + s.kf, "f = t - k");
  t.op("VCONV.BF16.FP32 " + s.wf + ", " + s.f);
  t.op("VMOV " + s.p + ", " + c.c2);
  t.op("VMAC.E.BF16 " + s.p + ", " + s.p + ", " + c.c3 + ", " + s.wf, "c2 + c3 f");
  t.op("VCONV.BF16.FP32 " + s.wp + ", " + s.p);
  t.op("VMOV " + s.p + ", " + c.c1);
  t.op("VMAC.E.BF16 " + s.p + ", " + s.p + ", " + s.wp + ", " + s.wf, "c1 + f (...)");
  t.op("VCONV.BF16.FP32 " + s.wp + ", " + s.p);
  t.op("VMOV " + s.p + ", " + c.one);
  t.op("VMAC.E.BF16 " + s.p + ", " + s.p + ", " + s.wp + ", " + s.wf, "2^f = 1 + f (...)");
  t.op("VCONV.S32.FP32 " + s.k + ", " + s.kf + ", #23", "k << 23");
  t.op("VADD.ACC32 " + dst + ", " + s.p + ", " + s.k, "2^k 2^f: add k to the exponent field");
}

void exp2_precise(KernelText& t, const std::string& dst, const std::string& src, const Exp2PreciseRegs& r) {
  t.op("VCONV.S32.FP32 bm3, " + src + ", #0", "k = round(t)");
  t.op("VCONV.FP32.S32 bm4, bm3");
  t.op("VSUB.F bm5, " + src + ", bm4", "f = t - k (exact)");
  split(t, "bm5", "w2", "w3", "bm7");
  t.op("VMOV bm6, " + r.c4, "c4 + c5 f");
  t.op("VMAC.E.BF16 bm6, bm6, w16, w2");
  t.op("VMAC.E.BF16 bm6, bm6, w16, w3");
  for (const std::string& c : {r.c3, std::string("bm12"), std::string("bm13"), std::string("bm14")}) {
    split(t, "bm6", "w4", "w5", "bm7");
    t.op("VMOV bm8, " + c, "c_n + p f");
    t.op("VMAC.E.BF16 bm8, bm8, w4, w2");
    t.op("VMAC.E.BF16 bm8, bm8, w5, w2");
    t.op("VMAC.E.BF16 bm8, bm8, w4, w3");
    t.op("VMOV bm6, bm8");
  }
  t.op("VCONV.S32.FP32 bm3, bm4, #23", "k << 23");
  if (!r.floor.empty()) {
    t.op("VMOV " + r.clamp_tmp + ", bm3");
    t.op("VMAX.S32 " + r.clamp_tmp + ", " + r.clamp_tmp + ", " + r.floor, "k >= -126: no wrap below 2^-126");
    t.op("VMOV bm3, " + r.clamp_tmp);
  }
  t.op("VADD.ACC32 " + dst + ", bm6, bm3", "2^k 2^f: add k to the exponent field");
}

void recip(KernelText& t, const std::string& dst, const std::string& a, const FpScratch& s, const FpConstants& c,
           const std::string& loop_tag) {
  split(t, a, s.wah, s.wal, s.tmp);
  t.op("VSUB.ACC32 " + s.y + ", " + c.magic + ", " + a, "y0: bit-trick guess of 1/a");
  const auto step = [&](KernelText& b) {
    split(b, s.y, s.wyh, s.wyl, s.tmp);
    mul_split(b, s.e, s.wah, s.wal, s.wyh, s.wyl);
    b.op("VSUB.F " + s.e + ", " + c.two + ", " + s.e, "2 - a y");
    split(b, s.e, s.weh, s.wel, s.tmp);
    mul_split(b, s.y, s.wyh, s.wyl, s.weh, s.wel);
  };
  if (!loop_tag.empty())
    t.loop(loop_tag, 3, step);
  else
    for (int i = 0; i < 3; ++i) step(t);
  if (dst != s.y) t.op("VMOV " + dst + ", " + s.y);
}

void reduce_sum_fp32(KernelText& t, const std::string& acc, const std::string& tmp_acc) {
  for (int bytes : {32, 16, 8, 4}) {
    t.op("VMOV x6, " + acc);
    t.op("VSHIFT x7, x6, x6, #" + std::to_string(bytes), "rotate by " + std::to_string(bytes / 4) + " lanes");
    t.op("VMOV " + tmp_acc + ", x7");
    t.op("VADD.F " + acc + ", " + acc + ", " + tmp_acc);
  }
}

void reduce_max_bf16(KernelText& t, const std::string& x) {
  for (int bytes : {32, 16, 8, 4, 2}) {
    t.op("VSHIFT x7, " + x + ", " + x + ", #" + std::to_string(bytes), "rotate by " + std::to_string(bytes / 2) + " lanes");
    t.op("VMAX.BF16 " + x + ", " + x + ", x7");
  }
}

void rsqrt_uniform(KernelText& t, const std::string& dst, const std::string& v, const FpScratch& s) {
  t.op("VMOV x6, " + v);
  t.op("VEXTRACT.S32 r5, x6, #0", "bits(v)");
  t.op("MOV r6, #-1");
  t.op("ASHL r5, r5, r6", "bits(v) >> 1");
  t.op("MOVXM r7, " + std::to_string(0x5F3759DFu));
  t.op("SUB r5, r7, r5", "guess of 1/sqrt(v)");
  t.op("VBCST.32 x6, r5");
  t.op("VMOV " + s.y + ", x6");
  // v/2 split into bf16 parts (halving is exact).
  t.op("MOVXM r4, " + std::to_string(bf16_bits(0.5)));
  t.op("VBCST.16 x7, r4");
  split(t, v, s.wah, s.wal, s.tmp);
  t.op("VMUL.E.BF16 " + s.e + ", " + s.wah + ", w14", "v / 2");
  t.op("VMAC.E.BF16 " + s.e + ", " + s.e + ", " + s.wal + ", w14");
  split(t, s.e, s.wah, s.wal, s.tmp);
  const_acc(t, s.p, fp32_bits(1.5), "1.5");
  for (int i = 0; i < 3; ++i) {
    split(t, s.y, s.wyh, s.wyl, s.tmp);
    mul_split(t, s.e, s.wyh, s.wyl, s.wyh, s.wyl);  // y^2
    split(t, s.e, s.weh, s.wel, s.tmp);
    mul_split(t, s.e, s.wah, s.wal, s.weh, s.wel);  // (v/2) y^2
    t.op("VSUB.F " + s.e + ", " + s.p + ", " + s.e, "1.5 - (v/2) y^2");
    split(t, s.e, s.weh, s.wel, s.tmp);
    mul_split(t, s.y, s.wyh, s.wyl, s.weh, s.wel);
  }
  if (dst != s.y) t.op("VMOV " + dst + ", " + s.y);
}

}  // namespace tlmcraft::tasks::aie_ml
