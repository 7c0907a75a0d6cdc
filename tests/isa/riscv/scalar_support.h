// Test support for the RISC-V ISS: an instruction encoder (our own, from the spec's
// encoding tables) and a small machine with Coral's ITCM/DTCM map that runs a word list.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "isa/riscv/hart.h"

namespace tlmcraft::isa::riscv::test {

// ---- encoding formats ----
uint32_t enc_r(uint32_t funct7, uint32_t rs2, uint32_t rs1, uint32_t funct3, uint32_t rd, uint32_t opcode);
uint32_t enc_i(int32_t imm, uint32_t rs1, uint32_t funct3, uint32_t rd, uint32_t opcode);
uint32_t enc_s(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t funct3, uint32_t opcode);
uint32_t enc_b(int32_t offset, uint32_t rs2, uint32_t rs1, uint32_t funct3);
uint32_t enc_u(uint32_t imm20, uint32_t rd, uint32_t opcode);
uint32_t enc_j(int32_t offset, uint32_t rd);
uint32_t enc_r4(uint32_t rs3, uint32_t rs2, uint32_t rs1, uint32_t rm, uint32_t rd, uint32_t opcode);

// ---- RV32I / M ----
uint32_t lui(uint32_t rd, uint32_t imm20);
uint32_t auipc(uint32_t rd, uint32_t imm20);
uint32_t jal(uint32_t rd, int32_t offset);
uint32_t jalr(uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t beq(uint32_t rs1, uint32_t rs2, int32_t off);
uint32_t bne(uint32_t rs1, uint32_t rs2, int32_t off);
uint32_t blt(uint32_t rs1, uint32_t rs2, int32_t off);
uint32_t bge(uint32_t rs1, uint32_t rs2, int32_t off);
uint32_t bltu(uint32_t rs1, uint32_t rs2, int32_t off);
uint32_t bgeu(uint32_t rs1, uint32_t rs2, int32_t off);
uint32_t lb(uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t lh(uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t lw(uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t lbu(uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t lhu(uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t sb(uint32_t rs2, uint32_t rs1, int32_t imm);
uint32_t sh(uint32_t rs2, uint32_t rs1, int32_t imm);
uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t imm);
uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t slti(uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t sltiu(uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t xori(uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t ori(uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t andi(uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t slli(uint32_t rd, uint32_t rs1, uint32_t shamt);
uint32_t srli(uint32_t rd, uint32_t rs1, uint32_t shamt);
uint32_t srai(uint32_t rd, uint32_t rs1, uint32_t shamt);
// R-type ALU and M: op(rd, rs1, rs2)
enum class AluOp { Add, Sub, Sll, Slt, Sltu, Xor, Srl, Sra, Or, And, Mul, Mulh, Mulhsu, Mulhu, Div, Divu, Rem, Remu };
uint32_t alu(AluOp op, uint32_t rd, uint32_t rs1, uint32_t rs2);
uint32_t fence();
uint32_t ecall();
uint32_t ebreak();
uint32_t mpause();
// Zicsr: funct3 1..3 (rw, rs, rc) with a register, 5..7 with a uimm in the rs1 field.
uint32_t csr(uint32_t funct3, uint32_t rd, uint32_t csr_addr, uint32_t rs1_or_uimm);

// ---- F ----
constexpr uint32_t kDyn = 7;
uint32_t flw(uint32_t fd, uint32_t rs1, int32_t imm);
uint32_t fsw(uint32_t fs2, uint32_t rs1, int32_t imm);
// OP-FP by funct7 (0x00 fadd, 0x04 fsub, 0x08 fmul, 0x0C fdiv, ...), funct3 = rm or selector.
uint32_t op_fp(uint32_t funct7, uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t funct3);
uint32_t fadd(uint32_t fd, uint32_t fs1, uint32_t fs2, uint32_t rm = kDyn);
uint32_t fsub(uint32_t fd, uint32_t fs1, uint32_t fs2, uint32_t rm = kDyn);
uint32_t fmul(uint32_t fd, uint32_t fs1, uint32_t fs2, uint32_t rm = kDyn);
uint32_t fdiv(uint32_t fd, uint32_t fs1, uint32_t fs2, uint32_t rm = kDyn);
uint32_t fsqrt(uint32_t fd, uint32_t fs1, uint32_t rm = kDyn);
// opcode 0x43 fmadd, 0x47 fmsub, 0x4b fnmsub, 0x4f fnmadd
uint32_t fma(uint32_t opcode, uint32_t fd, uint32_t fs1, uint32_t fs2, uint32_t fs3, uint32_t rm = kDyn);

// Builds a machine: ITCM 8 KB at 0 (executable, read-only at run time), DTCM 32 KB at
// 0x10000, external memory 64 KB at 0x20000000.
struct Machine {
  static constexpr uint32_t kItcm = 0x0, kDtcm = 0x10000, kExt = 0x20000000;
  std::vector<uint8_t> itcm = std::vector<uint8_t>(8192), dtcm = std::vector<uint8_t>(32768),
                       ext = std::vector<uint8_t>(65536);
  Hart hart;
  Machine();
  // Writes the words at ITCM 0 followed by mpause and resets the pc to 0.
  void load(const std::vector<uint32_t>& words);
  // load() + run until mpause (throws Trap; fails the test after 100000 steps).
  void run(const std::vector<uint32_t>& words);
  // Runs and returns the trap it must raise (fails the test if none).
  Trap run_expect_trap(const std::vector<uint32_t>& words);
  uint32_t dtcm_word(uint32_t offset) const;
};

// Float <-> bit pattern.
uint32_t bits(float f);
float value(uint32_t b);

}  // namespace tlmcraft::isa::riscv::test
