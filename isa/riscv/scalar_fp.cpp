// RV32F semantics on FLEN = 32 registers (no NaN boxing: every f register holds exactly
// one binary32 value). Arithmetic and flags come from fp32.cpp.
#include <string>

#include "isa/riscv/fp32.h"
#include "isa/riscv/scalar_ops.h"

namespace tlmcraft::isa::riscv::ops {

namespace {
// The instruction's rm field (decode stored it in aux and rejected 5 and 6); 7 = dyn
// takes frm, which is illegal when it holds 5..7.
inline unsigned rounding(const Hart& h, const DecodedInsn& d) {
  unsigned rm = d.aux;
  if (rm == 7) {
    rm = h.frm;
    if (rm > 4) throw_illegal(d, "dynamic rounding mode with invalid frm " + std::to_string(h.frm));
  }
  return rm;
}
}  // namespace

void flw(Hart& h, const DecodedInsn& d) { h.f[d.rd] = h.load<uint32_t>(h.x[d.rs1] + d.imm); }
void fsw(Hart& h, const DecodedInsn& d) { h.store<uint32_t>(h.x[d.rs1] + d.imm, h.f[d.rs2]); }

#define TLM_RV_FP_BINARY(name, fn)                                    \
  void name(Hart& h, const DecodedInsn& d) {                          \
    const unsigned rm = rounding(h, d);                               \
    uint32_t flags = 0;                                               \
    h.f[d.rd] = fp32::fn(h.f[d.rs1], h.f[d.rs2], rm, flags);          \
    h.fflags |= flags;                                                \
  }
TLM_RV_FP_BINARY(fadd_s, add)
TLM_RV_FP_BINARY(fsub_s, sub)
TLM_RV_FP_BINARY(fmul_s, mul)
TLM_RV_FP_BINARY(fdiv_s, div)
#undef TLM_RV_FP_BINARY

void fsqrt_s(Hart& h, const DecodedInsn& d) {
  const unsigned rm = rounding(h, d);
  uint32_t flags = 0;
  h.f[d.rd] = fp32::sqrt(h.f[d.rs1], rm, flags);
  h.fflags |= flags;
}

#define TLM_RV_FP_FMA(name, negate_product, negate_addend)                                                  \
  void name(Hart& h, const DecodedInsn& d) {                                                               \
    const unsigned rm = rounding(h, d);                                                                    \
    uint32_t flags = 0;                                                                                    \
    h.f[d.rd] = fp32::fma(h.f[d.rs1], h.f[d.rs2], h.f[d.rs3], negate_product, negate_addend, rm, flags); \
    h.fflags |= flags;                                                                                     \
  }
TLM_RV_FP_FMA(fmadd_s, false, false)   //  (a*b) + c
TLM_RV_FP_FMA(fmsub_s, false, true)    //  (a*b) - c
TLM_RV_FP_FMA(fnmsub_s, true, false)   // -(a*b) + c
TLM_RV_FP_FMA(fnmadd_s, true, true)    // -(a*b) - c
#undef TLM_RV_FP_FMA

// Sign injection works on bits and never canonicalizes NaNs.
void fsgnj_s(Hart& h, const DecodedInsn& d) { h.f[d.rd] = (h.f[d.rs1] & 0x7fffffffu) | (h.f[d.rs2] & 0x80000000u); }
void fsgnjn_s(Hart& h, const DecodedInsn& d) { h.f[d.rd] = (h.f[d.rs1] & 0x7fffffffu) | (~h.f[d.rs2] & 0x80000000u); }
void fsgnjx_s(Hart& h, const DecodedInsn& d) { h.f[d.rd] = h.f[d.rs1] ^ (h.f[d.rs2] & 0x80000000u); }

void fmin_s(Hart& h, const DecodedInsn& d) {
  uint32_t flags = 0;
  h.f[d.rd] = fp32::min(h.f[d.rs1], h.f[d.rs2], flags);
  h.fflags |= flags;
}
void fmax_s(Hart& h, const DecodedInsn& d) {
  uint32_t flags = 0;
  h.f[d.rd] = fp32::max(h.f[d.rs1], h.f[d.rs2], flags);
  h.fflags |= flags;
}

void feq_s(Hart& h, const DecodedInsn& d) {
  uint32_t flags = 0;
  h.x[d.rd] = fp32::eq(h.f[d.rs1], h.f[d.rs2], flags);
  h.fflags |= flags;
}
void flt_s(Hart& h, const DecodedInsn& d) {
  uint32_t flags = 0;
  h.x[d.rd] = fp32::lt(h.f[d.rs1], h.f[d.rs2], flags);
  h.fflags |= flags;
}
void fle_s(Hart& h, const DecodedInsn& d) {
  uint32_t flags = 0;
  h.x[d.rd] = fp32::le(h.f[d.rs1], h.f[d.rs2], flags);
  h.fflags |= flags;
}
void fclass_s(Hart& h, const DecodedInsn& d) { h.x[d.rd] = fp32::classify(h.f[d.rs1]); }

void fcvt_w_s(Hart& h, const DecodedInsn& d) {
  const unsigned rm = rounding(h, d);
  uint32_t flags = 0;
  h.x[d.rd] = fp32::to_i32(h.f[d.rs1], rm, flags);
  h.fflags |= flags;
}
void fcvt_wu_s(Hart& h, const DecodedInsn& d) {
  const unsigned rm = rounding(h, d);
  uint32_t flags = 0;
  h.x[d.rd] = fp32::to_u32(h.f[d.rs1], rm, flags);
  h.fflags |= flags;
}
void fcvt_s_w(Hart& h, const DecodedInsn& d) {
  const unsigned rm = rounding(h, d);
  uint32_t flags = 0;
  h.f[d.rd] = fp32::from_i32(static_cast<int32_t>(h.x[d.rs1]), rm, flags);
  h.fflags |= flags;
}
void fcvt_s_wu(Hart& h, const DecodedInsn& d) {
  const unsigned rm = rounding(h, d);
  uint32_t flags = 0;
  h.f[d.rd] = fp32::from_u32(h.x[d.rs1], rm, flags);
  h.fflags |= flags;
}

void fmv_x_w(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.f[d.rs1]; }
void fmv_w_x(Hart& h, const DecodedInsn& d) { h.f[d.rd] = h.x[d.rs1]; }

}  // namespace tlmcraft::isa::riscv::ops
