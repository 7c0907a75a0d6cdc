// Scalar instruction handlers (RV32I, M, F, Zicsr, system), one function per instruction.
// Internal to isa/riscv: decode.cpp plugs them into DecodedInsn::exec.
//
// Conventions: operands come from the DecodedInsn fields (rd, rs1, rs2, rs3, imm, aux);
// a handler writes x[rd] unconditionally (the step loop re-zeroes x0), sets pc and
// info.taken when it redirects control, and throws Trap before changing any state.
#pragma once
#include "isa/riscv/hart.h"

namespace tlmcraft::isa::riscv::ops {

#define TLM_RV_SCALAR_HANDLERS(X)                                                          \
  /* RV32I */                                                                              \
  X(lui) X(auipc) X(jal) X(jalr)                                                           \
  X(beq) X(bne) X(blt) X(bge) X(bltu) X(bgeu)                                              \
  X(lb) X(lh) X(lw) X(lbu) X(lhu) X(sb) X(sh) X(sw)                                        \
  X(addi) X(slti) X(sltiu) X(xori) X(ori) X(andi) X(slli) X(srli) X(srai)                  \
  X(add) X(sub) X(sll) X(slt) X(sltu) X(xor_) X(srl) X(sra) X(or_) X(and_)                 \
  /* M */                                                                                  \
  X(mul) X(mulh) X(mulhsu) X(mulhu) X(div) X(divu) X(rem) X(remu)                          \
  /* system */                                                                             \
  X(fence) X(ecall) X(ebreak) X(mpause) X(illegal)                                         \
  X(csrrw) X(csrrs) X(csrrc) X(csrrwi) X(csrrsi) X(csrrci)                                 \
  /* F */                                                                                  \
  X(flw) X(fsw) X(fadd_s) X(fsub_s) X(fmul_s) X(fdiv_s) X(fsqrt_s)                         \
  X(fmadd_s) X(fmsub_s) X(fnmsub_s) X(fnmadd_s)                                            \
  X(fsgnj_s) X(fsgnjn_s) X(fsgnjx_s) X(fmin_s) X(fmax_s)                                   \
  X(feq_s) X(flt_s) X(fle_s) X(fclass_s)                                                   \
  X(fcvt_w_s) X(fcvt_wu_s) X(fcvt_s_w) X(fcvt_s_wu) X(fmv_x_w) X(fmv_w_x)

#define TLM_RV_DECLARE_HANDLER(name) void name(Hart& h, const DecodedInsn& d);
TLM_RV_SCALAR_HANDLERS(TLM_RV_DECLARE_HANDLER)
#undef TLM_RV_DECLARE_HANDLER

// Throws the illegal-instruction trap for `d` with a reason ("unknown CSR 0x123").
[[noreturn]] void throw_illegal(const DecodedInsn& d, const std::string& reason);

}  // namespace tlmcraft::isa::riscv::ops
