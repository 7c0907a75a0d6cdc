// The test encoder follows the base formats of the RISC-V unprivileged spec (R, I, S, B,
// U, J, R4); immediates are split into their fields exactly as the spec's figures show.
#include "scalar_support.h"

#include <gtest/gtest.h>

#include <cstring>

namespace tlmcraft::isa::riscv::test {

uint32_t enc_r(uint32_t funct7, uint32_t rs2, uint32_t rs1, uint32_t funct3, uint32_t rd, uint32_t opcode) {
  return funct7 << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | opcode;
}
uint32_t enc_i(int32_t imm, uint32_t rs1, uint32_t funct3, uint32_t rd, uint32_t opcode) {
  return (uint32_t(imm) & 0xfff) << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | opcode;
}
uint32_t enc_s(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t funct3, uint32_t opcode) {
  const uint32_t u = uint32_t(imm);
  return ((u >> 5) & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | (u & 0x1f) << 7 | opcode;
}
uint32_t enc_b(int32_t offset, uint32_t rs2, uint32_t rs1, uint32_t funct3) {
  const uint32_t u = uint32_t(offset);
  return ((u >> 12) & 1) << 31 | ((u >> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 |
         ((u >> 1) & 0xf) << 8 | ((u >> 11) & 1) << 7 | 0x63;
}
uint32_t enc_u(uint32_t imm20, uint32_t rd, uint32_t opcode) { return (imm20 & 0xfffff) << 12 | rd << 7 | opcode; }
uint32_t enc_j(int32_t offset, uint32_t rd) {
  const uint32_t u = uint32_t(offset);
  return ((u >> 20) & 1) << 31 | ((u >> 1) & 0x3ff) << 21 | ((u >> 11) & 1) << 20 | ((u >> 12) & 0xff) << 12 |
         rd << 7 | 0x6f;
}
uint32_t enc_r4(uint32_t rs3, uint32_t rs2, uint32_t rs1, uint32_t rm, uint32_t rd, uint32_t opcode) {
  return rs3 << 27 | 0u << 25 | rs2 << 20 | rs1 << 15 | rm << 12 | rd << 7 | opcode;
}

uint32_t lui(uint32_t rd, uint32_t imm20) { return enc_u(imm20, rd, 0x37); }
uint32_t auipc(uint32_t rd, uint32_t imm20) { return enc_u(imm20, rd, 0x17); }
uint32_t jal(uint32_t rd, int32_t offset) { return enc_j(offset, rd); }
uint32_t jalr(uint32_t rd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 0, rd, 0x67); }
uint32_t beq(uint32_t rs1, uint32_t rs2, int32_t off) { return enc_b(off, rs2, rs1, 0); }
uint32_t bne(uint32_t rs1, uint32_t rs2, int32_t off) { return enc_b(off, rs2, rs1, 1); }
uint32_t blt(uint32_t rs1, uint32_t rs2, int32_t off) { return enc_b(off, rs2, rs1, 4); }
uint32_t bge(uint32_t rs1, uint32_t rs2, int32_t off) { return enc_b(off, rs2, rs1, 5); }
uint32_t bltu(uint32_t rs1, uint32_t rs2, int32_t off) { return enc_b(off, rs2, rs1, 6); }
uint32_t bgeu(uint32_t rs1, uint32_t rs2, int32_t off) { return enc_b(off, rs2, rs1, 7); }
uint32_t lb(uint32_t rd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 0, rd, 0x03); }
uint32_t lh(uint32_t rd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 1, rd, 0x03); }
uint32_t lw(uint32_t rd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 2, rd, 0x03); }
uint32_t lbu(uint32_t rd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 4, rd, 0x03); }
uint32_t lhu(uint32_t rd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 5, rd, 0x03); }
uint32_t sb(uint32_t rs2, uint32_t rs1, int32_t imm) { return enc_s(imm, rs2, rs1, 0, 0x23); }
uint32_t sh(uint32_t rs2, uint32_t rs1, int32_t imm) { return enc_s(imm, rs2, rs1, 1, 0x23); }
uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t imm) { return enc_s(imm, rs2, rs1, 2, 0x23); }
uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 0, rd, 0x13); }
uint32_t slti(uint32_t rd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 2, rd, 0x13); }
uint32_t sltiu(uint32_t rd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 3, rd, 0x13); }
uint32_t xori(uint32_t rd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 4, rd, 0x13); }
uint32_t ori(uint32_t rd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 6, rd, 0x13); }
uint32_t andi(uint32_t rd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 7, rd, 0x13); }
uint32_t slli(uint32_t rd, uint32_t rs1, uint32_t shamt) { return enc_r(0, shamt, rs1, 1, rd, 0x13); }
uint32_t srli(uint32_t rd, uint32_t rs1, uint32_t shamt) { return enc_r(0, shamt, rs1, 5, rd, 0x13); }
uint32_t srai(uint32_t rd, uint32_t rs1, uint32_t shamt) { return enc_r(0x20, shamt, rs1, 5, rd, 0x13); }

uint32_t alu(AluOp op, uint32_t rd, uint32_t rs1, uint32_t rs2) {
  struct Code { uint32_t funct7, funct3; };
  static const Code codes[] = {{0, 0}, {0x20, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0x20, 5}, {0, 6},
                               {0, 7}, {1, 0},    {1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {1, 6},    {1, 7}};
  const Code c = codes[static_cast<int>(op)];
  return enc_r(c.funct7, rs2, rs1, c.funct3, rd, 0x33);
}
uint32_t fence() { return 0x0ff0000fu; }  // fence iorw,iorw
uint32_t ecall() { return 0x00000073u; }
uint32_t ebreak() { return 0x00100073u; }
uint32_t mpause() { return 0x08000073u; }
uint32_t csr(uint32_t funct3, uint32_t rd, uint32_t csr_addr, uint32_t rs1_or_uimm) {
  return csr_addr << 20 | rs1_or_uimm << 15 | funct3 << 12 | rd << 7 | 0x73;
}

uint32_t flw(uint32_t fd, uint32_t rs1, int32_t imm) { return enc_i(imm, rs1, 2, fd, 0x07); }
uint32_t fsw(uint32_t fs2, uint32_t rs1, int32_t imm) { return enc_s(imm, fs2, rs1, 2, 0x27); }
uint32_t op_fp(uint32_t funct7, uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t funct3) {
  return enc_r(funct7, rs2, rs1, funct3, rd, 0x53);
}
uint32_t fadd(uint32_t fd, uint32_t fs1, uint32_t fs2, uint32_t rm) { return op_fp(0x00, fd, fs1, fs2, rm); }
uint32_t fsub(uint32_t fd, uint32_t fs1, uint32_t fs2, uint32_t rm) { return op_fp(0x04, fd, fs1, fs2, rm); }
uint32_t fmul(uint32_t fd, uint32_t fs1, uint32_t fs2, uint32_t rm) { return op_fp(0x08, fd, fs1, fs2, rm); }
uint32_t fdiv(uint32_t fd, uint32_t fs1, uint32_t fs2, uint32_t rm) { return op_fp(0x0C, fd, fs1, fs2, rm); }
uint32_t fsqrt(uint32_t fd, uint32_t fs1, uint32_t rm) { return op_fp(0x2C, fd, fs1, 0, rm); }
uint32_t fma(uint32_t opcode, uint32_t fd, uint32_t fs1, uint32_t fs2, uint32_t fs3, uint32_t rm) {
  return enc_r4(fs3, fs2, fs1, rm, fd, opcode);
}

Machine::Machine() {
  hart.add_region({"itcm", kItcm, uint32_t(itcm.size()), itcm.data(), false, true});
  hart.add_region({"dtcm", kDtcm, uint32_t(dtcm.size()), dtcm.data(), true, false});
  hart.add_region({"ext", kExt, uint32_t(ext.size()), ext.data(), true, false});
}

void Machine::load(const std::vector<uint32_t>& words) {
  std::vector<uint32_t> all = words;
  all.push_back(mpause());
  std::memcpy(itcm.data(), all.data(), all.size() * 4);
  hart.flush_decode_cache();
  hart.pc = 0;
  hart.halted = false;
}

void Machine::run(const std::vector<uint32_t>& words) {
  load(words);
  hart.run(100000);
  EXPECT_TRUE(hart.halted) << "program did not reach mpause";
}

Trap Machine::run_expect_trap(const std::vector<uint32_t>& words) {
  load(words);
  try {
    hart.run(100000);
  } catch (const Trap& t) {
    return t;
  }
  ADD_FAILURE() << "expected a trap";
  return Trap{};
}

uint32_t Machine::dtcm_word(uint32_t offset) const {
  uint32_t w;
  std::memcpy(&w, dtcm.data() + offset, 4);
  return w;
}

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float value(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

}  // namespace tlmcraft::isa::riscv::test
