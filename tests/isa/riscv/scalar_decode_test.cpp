// decode(): op classes, register dependencies (x 0..31, f 32..63, x0 = none), illegal
// encodings; disassemble(): objdump-like text.
#include <gtest/gtest.h>

#include "scalar_support.h"

namespace tlmcraft::isa::riscv::test {
namespace {

constexpr uint32_t a0 = 10, a1 = 11, a2 = 12, sp = 2;

bool is_illegal(uint32_t raw) {
  Machine m;
  m.load({raw});
  try {
    m.hart.step();
  } catch (const Trap& t) {
    return t.cause == TrapCause::IllegalInstruction;
  }
  return false;
}

TEST(RiscvScalarDecode, ClassesAndDependencies) {
  DecodedInsn d = decode(alu(AluOp::Add, a0, a1, a2));
  EXPECT_EQ(d.cls, OpClass::Alu);
  EXPECT_EQ(d.dst[0], a0);
  EXPECT_EQ(d.src[0], a1);
  EXPECT_EQ(d.src[1], a2);

  d = decode(addi(0, a1, 1));  // x0 destination: no register written
  EXPECT_EQ(d.dst[0], kNoReg);
  d = decode(addi(a0, 0, 1));  // x0 source: no dependency
  EXPECT_EQ(d.src[0], kNoReg);

  EXPECT_EQ(decode(alu(AluOp::Mulhu, a0, a1, a2)).cls, OpClass::Mul);
  EXPECT_EQ(decode(alu(AluOp::Remu, a0, a1, a2)).cls, OpClass::Div);
  EXPECT_EQ(decode(beq(a0, a1, 8)).cls, OpClass::Branch);
  EXPECT_EQ(decode(jal(1, 8)).cls, OpClass::Jump);
  EXPECT_EQ(decode(csr(2, a0, 0xB00, 0)).cls, OpClass::Csr);
  EXPECT_EQ(decode(fence()).cls, OpClass::Fence);
  EXPECT_EQ(decode(ecall()).cls, OpClass::System);
  EXPECT_EQ(decode(mpause()).cls, OpClass::Halt);

  d = decode(sw(a1, sp, 8));
  EXPECT_EQ(d.cls, OpClass::Store);
  EXPECT_EQ(d.dst[0], kNoReg);
  EXPECT_EQ(d.src[0], sp);
  EXPECT_EQ(d.src[1], a1);
  EXPECT_EQ(d.imm, 8);

  d = decode(fma(0x43, 10, 11, 12, 13, 0));  // fmadd.s fa0,fa1,fa2,fa3,rne
  EXPECT_EQ(d.cls, OpClass::FpFma);
  EXPECT_EQ(d.dst[0], kFpBase + 10);
  EXPECT_EQ(d.src[0], kFpBase + 11);
  EXPECT_EQ(d.src[1], kFpBase + 12);
  EXPECT_EQ(d.src[2], kFpBase + 13);

  d = decode(op_fp(0x50, a0, 1, 2, 2));  // feq.s a0,ft1,ft2
  EXPECT_EQ(d.cls, OpClass::FpCmp);
  EXPECT_EQ(d.dst[0], a0);
  EXPECT_EQ(d.src[0], kFpBase + 1);
  d = decode(flw(3, a0, 4));
  EXPECT_EQ(d.cls, OpClass::FpLoad);
  EXPECT_EQ(d.dst[0], kFpBase + 3);
  EXPECT_EQ(d.src[0], a0);
  d = decode(fsw(3, a0, 4));
  EXPECT_EQ(d.cls, OpClass::FpStore);
  EXPECT_EQ(d.src[1], kFpBase + 3);
  EXPECT_EQ(decode(fdiv(1, 2, 3)).cls, OpClass::FpDiv);
  EXPECT_EQ(decode(fsqrt(1, 2)).cls, OpClass::FpSqrt);
  EXPECT_EQ(decode(op_fp(0x60, a0, 1, 0, 1)).cls, OpClass::FpCvt);
  EXPECT_EQ(decode(op_fp(0x78, 1, a0, 0, 0)).cls, OpClass::FpMove);
}

TEST(RiscvScalarDecode, ImmediatesAreSignExtended) {
  EXPECT_EQ(decode(addi(a0, a0, -2048)).imm, -2048);
  EXPECT_EQ(decode(sw(a0, a1, -4)).imm, -4);
  EXPECT_EQ(decode(beq(a0, a1, -4096)).imm, -4096);
  EXPECT_EQ(decode(bne(a0, a1, 4094)).imm, 4094);
  EXPECT_EQ(decode(jal(0, -1048576)).imm, -1048576);
  EXPECT_EQ(decode(jal(0, 1048574)).imm, 1048574);
  EXPECT_EQ(decode(lui(a0, 0xfffff)).imm, int32_t(0xfffff000u));
}

TEST(RiscvScalarDecode, ReservedEncodingsAreIllegal) {
  EXPECT_TRUE(is_illegal(0x00000000u));
  EXPECT_TRUE(is_illegal(0xffffffffu));
  EXPECT_TRUE(is_illegal(0x0000100fu));                       // fence.i (Zifencei not in the ISA)
  EXPECT_TRUE(is_illegal(0x10500073u));                       // wfi
  EXPECT_TRUE(is_illegal(0x30200073u));                       // mret
  EXPECT_TRUE(is_illegal(enc_r(0x01, 1, a1, 1, a0, 0x13)));   // slli with funct7 != 0 (RV64 shamt)
  EXPECT_TRUE(is_illegal(enc_r(0x04, a2, a1, 0, a0, 0x33)));  // OP with funct7 0x04
  EXPECT_TRUE(is_illegal(enc_r(0x20, a2, a1, 1, a0, 0x33)));  // "sub" funct7 with sll funct3
  EXPECT_TRUE(is_illegal(enc_i(0, a1, 1, a0, 0x67)));         // jalr funct3 != 0
  EXPECT_TRUE(is_illegal(enc_b(8, a1, a0, 2)));               // branch funct3 2
  EXPECT_TRUE(is_illegal(enc_i(0, a1, 3, a0, 0x03)));         // ld
  EXPECT_TRUE(is_illegal(enc_s(0, a1, a0, 3, 0x23)));         // sd
  EXPECT_TRUE(is_illegal(csr(4, a0, 0x001, 0)));              // SYSTEM funct3 4
  EXPECT_TRUE(is_illegal(op_fp(0x01, 1, 2, 3, 0)));           // fadd.d (fmt D)
  EXPECT_TRUE(is_illegal(op_fp(0x2C, 1, 2, 1, 0)));           // fsqrt.s with rs2 != 0
  EXPECT_TRUE(is_illegal(op_fp(0x60, a0, 1, 2, 0)));          // fcvt.l.s (RV64)
  EXPECT_TRUE(is_illegal(op_fp(0x10, 1, 2, 3, 3)));           // fsgnj funct3 3
  EXPECT_TRUE(is_illegal(op_fp(0x14, 1, 2, 3, 2)));           // fmin/fmax funct3 2
  EXPECT_TRUE(is_illegal(op_fp(0x50, a0, 2, 3, 3)));          // compare funct3 3
  EXPECT_TRUE(is_illegal(op_fp(0x70, a0, 1, 0, 2)));          // fmv.x.w funct3 2
  EXPECT_TRUE(is_illegal(op_fp(0x78, 1, a0, 1, 0)));          // fmv.w.x rs2 != 0
  EXPECT_TRUE(is_illegal(enc_r4(3, 2, 1, 0, 4, 0x43) | (1u << 25)));  // fmadd.d
  EXPECT_TRUE(is_illegal(enc_i(0, a0, 3, 1, 0x07)));          // fld
  EXPECT_FALSE(is_illegal(addi(0, 0, 0)));
  EXPECT_FALSE(is_illegal(0x0310000fu));                      // fence rw,w
}

TEST(RiscvScalarDisassemble, ObjdumpLikeText) {
  auto dis = [](uint32_t raw, uint32_t pc = 0) { return Hart::disassemble(raw, pc); };
  EXPECT_EQ(dis(addi(a0, a0, 1)), "addi a0,a0,1");
  EXPECT_EQ(dis(lw(15, sp, 8)), "lw a5,8(sp)");
  EXPECT_EQ(dis(sw(15, 8, -4)), "sw a5,-4(s0)");
  EXPECT_EQ(dis(fadd(10, 11, 12)), "fadd.s fa0,fa1,fa2");
  EXPECT_EQ(dis(fadd(10, 11, 12, 1)), "fadd.s fa0,fa1,fa2,rtz");
  EXPECT_EQ(dis(addi(a0, 0, -5)), "li a0,-5");
  EXPECT_EQ(dis(addi(a1, a2, 0)), "mv a1,a2");
  EXPECT_EQ(dis(addi(0, 0, 0)), "nop");
  EXPECT_EQ(dis(jalr(0, 1, 0)), "ret");
  EXPECT_EQ(dis(jalr(0, 15, 0)), "jr a5");
  EXPECT_EQ(dis(slli(a0, a0, 3)), "slli a0,a0,0x3");
  EXPECT_EQ(dis(srai(a0, a1, 31)), "srai a0,a1,0x1f");
  EXPECT_EQ(dis(lui(a0, 0x12345)), "lui a0,0x12345");
  EXPECT_EQ(dis(csr(2, a0, 0xB00, 0)), "csrr a0,mcycle");
  EXPECT_EQ(dis(csr(1, 0, 0x003, a1)), "csrw fcsr,a1");
  EXPECT_EQ(dis(csr(1, a0, 0x001, a1)), "csrrw a0,fflags,a1");
  EXPECT_EQ(dis(csr(6, a0, 0x002, 3)), "csrrsi a0,frm,3");
  EXPECT_EQ(dis(csr(2, a0, 0x7C0, 0)), "csrr a0,0x7c0");
  EXPECT_EQ(dis(fma(0x43, 10, 11, 12, 13)), "fmadd.s fa0,fa1,fa2,fa3");
  EXPECT_EQ(dis(op_fp(0x60, a0, 10, 0, 1)), "fcvt.w.s a0,fa0,rtz");
  EXPECT_EQ(dis(op_fp(0x68, 10, a0, 1, 7)), "fcvt.s.wu fa0,a0");
  EXPECT_EQ(dis(op_fp(0x70, a0, 10, 0, 0)), "fmv.x.w a0,fa0");
  EXPECT_EQ(dis(op_fp(0x10, 10, 11, 11, 1)), "fneg.s fa0,fa1");
  EXPECT_EQ(dis(op_fp(0x10, 10, 11, 12, 0)), "fsgnj.s fa0,fa1,fa2");
  EXPECT_EQ(dis(op_fp(0x50, a0, 11, 12, 2)), "feq.s a0,fa1,fa2");
  EXPECT_EQ(dis(op_fp(0x70, a0, 11, 0, 1)), "fclass.s a0,fa1");
  EXPECT_EQ(dis(flw(10, a0, 4)), "flw fa0,4(a0)");
  EXPECT_EQ(dis(fsw(10, a0, 4)), "fsw fa0,4(a0)");
  EXPECT_EQ(dis(fence()), "fence");
  EXPECT_EQ(dis(0x0310000fu), "fence rw,w");
  EXPECT_EQ(dis(ecall()), "ecall");
  EXPECT_EQ(dis(ebreak()), "ebreak");
  EXPECT_EQ(dis(mpause()), "mpause");
  EXPECT_EQ(dis(alu(AluOp::Mulhsu, a0, a1, a2)), "mulhsu a0,a1,a2");
  EXPECT_EQ(dis(alu(AluOp::Sub, a0, 0, a1)), "neg a0,a1");
  EXPECT_EQ(dis(beq(a0, 0, 0), 0x90), "beqz a0,0x90");
  EXPECT_EQ(dis(bne(a0, a1, 8), 0x94), "bne a0,a1,0x9c");
  EXPECT_EQ(dis(jal(0, -4), 0x98), "j 0x94");
  EXPECT_EQ(dis(jal(1, 16), 0x9c), "jal 0xac");
  EXPECT_EQ(dis(fsqrt(10, 11)), "fsqrt.s fa0,fa1");
  EXPECT_EQ(dis(op_fp(0x14, 10, 11, 12, 0)), "fmin.s fa0,fa1,fa2");
  EXPECT_EQ(dis(0x00000000u), ".word 0x00000000");
  EXPECT_EQ(dis(0x10500073u), ".word 0x10500073");
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::test
