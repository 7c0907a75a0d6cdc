#include "tasks/baselines/aie_ml/fp_steps.h"

#include <cmath>
#include <cstring>

#include "tasks/layout_aie_ml.h"

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

void recip(KernelText& t, const std::string& dst, const std::string& a, const FpScratch& s, const FpConstants& c) {
  split(t, a, s.wah, s.wal, s.tmp);
  t.op("VSUB.ACC32 " + s.y + ", " + c.magic + ", " + a, "y0: bit-trick guess of 1/a");
  for (int i = 0; i < 3; ++i) {
    split(t, s.y, s.wyh, s.wyl, s.tmp);
    mul_split(t, s.e, s.wah, s.wal, s.wyh, s.wyl);
    t.op("VSUB.F " + s.e + ", " + c.two + ", " + s.e, "2 - a y");
    split(t, s.e, s.weh, s.wel, s.tmp);
    mul_split(t, s.y, s.wyh, s.wyl, s.weh, s.wel);
  }
  if (dst != s.y) t.op("VMOV " + dst + ", " + s.y);
}

}  // namespace tlmcraft::tasks::aie_ml
