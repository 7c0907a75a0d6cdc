// Instruction decoding: one 32-bit word -> DecodedInsn (handler, operand fields, op class
// and register dependencies). Every RV32IMF/Zicsr encoding is recognised here; vector
// encodings go to decode_vector(); anything else decodes to the illegal handler, so an
// illegal word only traps when it is executed.
#include "isa/riscv/scalar_ops.h"

namespace tlmcraft::isa::riscv {

namespace {

inline uint8_t xreg(uint32_t r) { return r == 0 ? kNoReg : static_cast<uint8_t>(r); }  // x0: no dependency
inline uint8_t freg(uint32_t r) { return static_cast<uint8_t>(kFpBase + r); }

// The low `bits` bits of `value` as a two's-complement number. Computed in unsigned
// arithmetic: shifting a negative int left is undefined behaviour in C++17.
int32_t sign_extend(uint32_t value, unsigned bits) {
  const uint32_t sign = 1u << (bits - 1);
  return static_cast<int32_t>(((value & ((sign << 1) - 1)) ^ sign) - sign);
}

int32_t imm_i(uint32_t raw) { return static_cast<int32_t>(raw) >> 20; }
int32_t imm_s(uint32_t raw) { return sign_extend((raw >> 25) << 5 | ((raw >> 7) & 0x1f), 12); }
int32_t imm_b(uint32_t raw) {
  return sign_extend((raw >> 31) << 12 | ((raw >> 7) & 1) << 11 | ((raw >> 25) & 0x3f) << 5 | ((raw >> 8) & 0xf) << 1, 13);
}
int32_t imm_u(uint32_t raw) { return static_cast<int32_t>(raw & 0xfffff000u); }
int32_t imm_j(uint32_t raw) {
  return sign_extend((raw >> 31) << 20 | ((raw >> 12) & 0xff) << 12 | ((raw >> 20) & 1) << 11 | ((raw >> 21) & 0x3ff) << 1,
                     21);
}

struct Builder {
  DecodedInsn& d;
  Builder& op(Handler h, OpClass c) { d.exec = h; d.cls = c; return *this; }
  Builder& dst(uint8_t r) { d.dst[0] = r; return *this; }
  Builder& src(uint8_t a, uint8_t b = kNoReg, uint8_t c = kNoReg) {
    d.src[0] = a; d.src[1] = b; d.src[2] = c;
    return *this;
  }
};

void make_illegal(DecodedInsn& d) {
  d.exec = ops::illegal;
  d.cls = OpClass::System;
  d.dst[0] = d.dst[1] = kNoReg;
  d.src[0] = d.src[1] = d.src[2] = d.src[3] = kNoReg;
}

bool valid_rm(uint32_t rm) { return rm != 5 && rm != 6; }

void decode_op_fp(uint32_t raw, DecodedInsn& d, Builder& b) {
  const uint32_t funct7 = raw >> 25, funct3 = (raw >> 12) & 7, rs2 = (raw >> 20) & 0x1f;
  d.aux = funct3;  // rm for the rounding instructions
  const uint8_t fd = freg(d.rd), fs1 = freg(d.rs1), fs2 = freg(d.rs2);
  switch (funct7) {
    case 0x00: if (valid_rm(funct3)) b.op(ops::fadd_s, OpClass::FpAdd).dst(fd).src(fs1, fs2); return;
    case 0x04: if (valid_rm(funct3)) b.op(ops::fsub_s, OpClass::FpAdd).dst(fd).src(fs1, fs2); return;
    case 0x08: if (valid_rm(funct3)) b.op(ops::fmul_s, OpClass::FpMul).dst(fd).src(fs1, fs2); return;
    case 0x0C: if (valid_rm(funct3)) b.op(ops::fdiv_s, OpClass::FpDiv).dst(fd).src(fs1, fs2); return;
    case 0x2C: if (valid_rm(funct3) && rs2 == 0) b.op(ops::fsqrt_s, OpClass::FpSqrt).dst(fd).src(fs1); return;
    case 0x10: {
      static const Handler sgnj[3] = {ops::fsgnj_s, ops::fsgnjn_s, ops::fsgnjx_s};
      if (funct3 < 3) b.op(sgnj[funct3], OpClass::FpMove).dst(fd).src(fs1, fs2);
      return;
    }
    case 0x14:
      if (funct3 < 2) b.op(funct3 == 0 ? ops::fmin_s : ops::fmax_s, OpClass::FpCmp).dst(fd).src(fs1, fs2);
      return;
    case 0x50: {
      static const Handler cmp[3] = {ops::fle_s, ops::flt_s, ops::feq_s};
      if (funct3 < 3) b.op(cmp[funct3], OpClass::FpCmp).dst(xreg(d.rd)).src(fs1, fs2);
      return;
    }
    case 0x60:
      if (valid_rm(funct3) && rs2 < 2)
        b.op(rs2 == 0 ? ops::fcvt_w_s : ops::fcvt_wu_s, OpClass::FpCvt).dst(xreg(d.rd)).src(fs1);
      return;
    case 0x68:
      if (valid_rm(funct3) && rs2 < 2)
        b.op(rs2 == 0 ? ops::fcvt_s_w : ops::fcvt_s_wu, OpClass::FpCvt).dst(fd).src(xreg(d.rs1));
      return;
    case 0x70:
      if (rs2 == 0 && funct3 == 0) b.op(ops::fmv_x_w, OpClass::FpMove).dst(xreg(d.rd)).src(fs1);
      else if (rs2 == 0 && funct3 == 1) b.op(ops::fclass_s, OpClass::FpCmp).dst(xreg(d.rd)).src(fs1);
      return;
    case 0x78:
      if (rs2 == 0 && funct3 == 0) b.op(ops::fmv_w_x, OpClass::FpMove).dst(fd).src(xreg(d.rs1));
      return;
  }
}

void decode_scalar(uint32_t raw, DecodedInsn& d) {
  Builder b{d};
  const uint32_t opcode = raw & 0x7f, funct3 = (raw >> 12) & 7, funct7 = raw >> 25;
  const uint8_t xd = xreg(d.rd), xs1 = xreg(d.rs1), xs2 = xreg(d.rs2);
  switch (opcode) {
    case 0x37: d.imm = imm_u(raw); b.op(ops::lui, OpClass::Alu).dst(xd); return;
    case 0x17: d.imm = imm_u(raw); b.op(ops::auipc, OpClass::Alu).dst(xd); return;
    case 0x6f: d.imm = imm_j(raw); b.op(ops::jal, OpClass::Jump).dst(xd); return;
    case 0x67:
      d.imm = imm_i(raw);
      if (funct3 == 0) b.op(ops::jalr, OpClass::Jump).dst(xd).src(xs1);
      return;
    case 0x63: {
      static const Handler br[8] = {ops::beq, ops::bne, nullptr, nullptr, ops::blt, ops::bge, ops::bltu, ops::bgeu};
      d.imm = imm_b(raw);
      if (br[funct3]) b.op(br[funct3], OpClass::Branch).src(xs1, xs2);
      return;
    }
    case 0x03: {
      static const Handler ld[8] = {ops::lb, ops::lh, ops::lw, nullptr, ops::lbu, ops::lhu, nullptr, nullptr};
      d.imm = imm_i(raw);
      if (ld[funct3]) b.op(ld[funct3], OpClass::Load).dst(xd).src(xs1);
      return;
    }
    case 0x23: {
      static const Handler st[8] = {ops::sb, ops::sh, ops::sw, nullptr, nullptr, nullptr, nullptr, nullptr};
      d.imm = imm_s(raw);
      if (st[funct3]) b.op(st[funct3], OpClass::Store).src(xs1, xs2);
      return;
    }
    case 0x13: {
      d.imm = imm_i(raw);
      static const Handler alu[8] = {ops::addi, nullptr, ops::slti, ops::sltiu, ops::xori, nullptr, ops::ori, ops::andi};
      if (alu[funct3]) {
        b.op(alu[funct3], OpClass::Alu).dst(xd).src(xs1);
      } else {
        d.imm = d.rs2;  // shamt
        if (funct3 == 1 && funct7 == 0) b.op(ops::slli, OpClass::Alu).dst(xd).src(xs1);
        else if (funct3 == 5 && funct7 == 0) b.op(ops::srli, OpClass::Alu).dst(xd).src(xs1);
        else if (funct3 == 5 && funct7 == 0x20) b.op(ops::srai, OpClass::Alu).dst(xd).src(xs1);
      }
      return;
    }
    case 0x33: {
      static const Handler base[8] = {ops::add, ops::sll, ops::slt, ops::sltu, ops::xor_, ops::srl, ops::or_, ops::and_};
      static const Handler muldiv[8] = {ops::mul, ops::mulh, ops::mulhsu, ops::mulhu, ops::div, ops::divu, ops::rem, ops::remu};
      if (funct7 == 0) b.op(base[funct3], OpClass::Alu).dst(xd).src(xs1, xs2);
      else if (funct7 == 0x20 && funct3 == 0) b.op(ops::sub, OpClass::Alu).dst(xd).src(xs1, xs2);
      else if (funct7 == 0x20 && funct3 == 5) b.op(ops::sra, OpClass::Alu).dst(xd).src(xs1, xs2);
      else if (funct7 == 1) b.op(muldiv[funct3], funct3 < 4 ? OpClass::Mul : OpClass::Div).dst(xd).src(xs1, xs2);
      return;
    }
    case 0x0f:
      if (funct3 == 0) b.op(ops::fence, OpClass::Fence);  // fm/pred/succ are hints here
      return;
    case 0x73:
      if (funct3 == 0) {
        if (raw == 0x00000073u) b.op(ops::ecall, OpClass::System);
        else if (raw == 0x00100073u) b.op(ops::ebreak, OpClass::System);
        else if (raw == 0x08000073u) b.op(ops::mpause, OpClass::Halt);
        return;
      }
      if (funct3 == 4) return;
      {
        static const Handler csr[8] = {nullptr, ops::csrrw, ops::csrrs, ops::csrrc, nullptr, ops::csrrwi, ops::csrrsi, ops::csrrci};
        d.aux = raw >> 20;
        b.op(csr[funct3], OpClass::Csr).dst(xd);
        if (funct3 < 4) b.src(xs1);
      }
      return;
    case 0x07:  // LOAD-FP width 2 = flw
      d.imm = imm_i(raw);
      b.op(ops::flw, OpClass::FpLoad).dst(freg(d.rd)).src(xs1);
      return;
    case 0x27:  // STORE-FP width 2 = fsw
      d.imm = imm_s(raw);
      b.op(ops::fsw, OpClass::FpStore).src(xs1, freg(d.rs2));
      return;
    case 0x43: case 0x47: case 0x4b: case 0x4f: {
      if (((raw >> 25) & 3) != 0 || !valid_rm(funct3)) return;  // only fmt S
      static const Handler fma[4] = {ops::fmadd_s, ops::fmsub_s, ops::fnmsub_s, ops::fnmadd_s};
      d.aux = funct3;
      b.op(fma[(opcode >> 2) & 3], OpClass::FpFma).dst(freg(d.rd)).src(freg(d.rs1), freg(d.rs2), freg(d.rs3));
      return;
    }
    case 0x53: decode_op_fp(raw, d, b); return;
  }
}

}  // namespace

DecodedInsn decode(uint32_t raw) {
  DecodedInsn d;
  d.raw = raw;
  d.rd = (raw >> 7) & 0x1f;
  d.rs1 = (raw >> 15) & 0x1f;
  d.rs2 = (raw >> 20) & 0x1f;
  d.rs3 = raw >> 27;
  const uint32_t opcode = raw & 0x7f, width = (raw >> 12) & 7;
  const bool vector = opcode == 0x57 || ((opcode == 0x07 || opcode == 0x27) && width != 2);
  if (vector) {
    if (!decode_vector(raw, d) || d.exec == nullptr) make_illegal(d);
    return d;
  }
  decode_scalar(raw, d);
  if (d.exec == nullptr) make_illegal(d);
  return d;
}

}  // namespace tlmcraft::isa::riscv
