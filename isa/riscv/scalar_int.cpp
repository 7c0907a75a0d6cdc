// RV32I and M semantics: integer ALU, branches and jumps, loads and stores, multiply and
// divide (division by zero and signed overflow give the spec's fixed results, no trap).
#include <cstdio>

#include "isa/riscv/scalar_ops.h"

namespace tlmcraft::isa::riscv::ops {

namespace {
inline int32_t s(uint32_t v) { return static_cast<int32_t>(v); }

// Control transfer: RV32IMF has no compressed instructions, so targets must be 4-aligned;
// the jump itself traps (pc still at the jump), as the spec's instruction-address-
// misaligned exception does. We report it as an instruction access fault.
inline void jump_to(Hart& h, uint32_t target) {
  if (target & 3) {
    char buf[80];
    std::snprintf(buf, sizeof buf, "jump to misaligned address 0x%08x", target);
    throw Trap{TrapCause::InstructionAccessFault, target, buf};
  }
  h.pc = target;
  h.info.taken = true;
}
}  // namespace

void lui(Hart& h, const DecodedInsn& d) { h.x[d.rd] = static_cast<uint32_t>(d.imm); }
void auipc(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.pc + static_cast<uint32_t>(d.imm); }

void jal(Hart& h, const DecodedInsn& d) {
  uint32_t link = h.pc + 4;
  jump_to(h, h.pc + static_cast<uint32_t>(d.imm));
  h.x[d.rd] = link;
}

void jalr(Hart& h, const DecodedInsn& d) {
  uint32_t link = h.pc + 4;
  jump_to(h, (h.x[d.rs1] + static_cast<uint32_t>(d.imm)) & ~1u);  // rd may equal rs1: read first
  h.x[d.rd] = link;
}

#define TLM_RV_BRANCH(name, cond)                                         \
  void name(Hart& h, const DecodedInsn& d) {                              \
    uint32_t a = h.x[d.rs1], b = h.x[d.rs2];                              \
    (void)a;                                                              \
    (void)b;                                                              \
    if (cond) jump_to(h, h.pc + static_cast<uint32_t>(d.imm));            \
  }
TLM_RV_BRANCH(beq, a == b)
TLM_RV_BRANCH(bne, a != b)
TLM_RV_BRANCH(blt, s(a) < s(b))
TLM_RV_BRANCH(bge, s(a) >= s(b))
TLM_RV_BRANCH(bltu, a < b)
TLM_RV_BRANCH(bgeu, a >= b)
#undef TLM_RV_BRANCH

void lb(Hart& h, const DecodedInsn& d) { h.x[d.rd] = static_cast<uint32_t>(int32_t(h.load<int8_t>(h.x[d.rs1] + d.imm))); }
void lh(Hart& h, const DecodedInsn& d) { h.x[d.rd] = static_cast<uint32_t>(int32_t(h.load<int16_t>(h.x[d.rs1] + d.imm))); }
void lw(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.load<uint32_t>(h.x[d.rs1] + d.imm); }
void lbu(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.load<uint8_t>(h.x[d.rs1] + d.imm); }
void lhu(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.load<uint16_t>(h.x[d.rs1] + d.imm); }
void sb(Hart& h, const DecodedInsn& d) { h.store<uint8_t>(h.x[d.rs1] + d.imm, static_cast<uint8_t>(h.x[d.rs2])); }
void sh(Hart& h, const DecodedInsn& d) { h.store<uint16_t>(h.x[d.rs1] + d.imm, static_cast<uint16_t>(h.x[d.rs2])); }
void sw(Hart& h, const DecodedInsn& d) { h.store<uint32_t>(h.x[d.rs1] + d.imm, h.x[d.rs2]); }

void addi(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] + static_cast<uint32_t>(d.imm); }
void slti(Hart& h, const DecodedInsn& d) { h.x[d.rd] = s(h.x[d.rs1]) < d.imm; }
void sltiu(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] < static_cast<uint32_t>(d.imm); }
void xori(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] ^ static_cast<uint32_t>(d.imm); }
void ori(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] | static_cast<uint32_t>(d.imm); }
void andi(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] & static_cast<uint32_t>(d.imm); }
// Shift amounts are in imm (decode masks them to 5 bits).
void slli(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] << d.imm; }
void srli(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] >> d.imm; }
void srai(Hart& h, const DecodedInsn& d) { h.x[d.rd] = static_cast<uint32_t>(s(h.x[d.rs1]) >> d.imm); }

void add(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] + h.x[d.rs2]; }
void sub(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] - h.x[d.rs2]; }
void sll(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] << (h.x[d.rs2] & 31); }
void slt(Hart& h, const DecodedInsn& d) { h.x[d.rd] = s(h.x[d.rs1]) < s(h.x[d.rs2]); }
void sltu(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] < h.x[d.rs2]; }
void xor_(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] ^ h.x[d.rs2]; }
void srl(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] >> (h.x[d.rs2] & 31); }
void sra(Hart& h, const DecodedInsn& d) { h.x[d.rd] = static_cast<uint32_t>(s(h.x[d.rs1]) >> (h.x[d.rs2] & 31)); }
void or_(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] | h.x[d.rs2]; }
void and_(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] & h.x[d.rs2]; }

void mul(Hart& h, const DecodedInsn& d) { h.x[d.rd] = h.x[d.rs1] * h.x[d.rs2]; }
void mulh(Hart& h, const DecodedInsn& d) {
  h.x[d.rd] = static_cast<uint32_t>(static_cast<uint64_t>(int64_t(s(h.x[d.rs1])) * int64_t(s(h.x[d.rs2]))) >> 32);
}
void mulhsu(Hart& h, const DecodedInsn& d) {
  h.x[d.rd] = static_cast<uint32_t>(static_cast<uint64_t>(int64_t(s(h.x[d.rs1])) * int64_t(uint64_t(h.x[d.rs2]))) >> 32);
}
void mulhu(Hart& h, const DecodedInsn& d) {
  h.x[d.rd] = static_cast<uint32_t>((uint64_t(h.x[d.rs1]) * uint64_t(h.x[d.rs2])) >> 32);
}

// Division by zero: quotient all ones, remainder the dividend. Overflow (INT_MIN / -1):
// quotient INT_MIN, remainder 0 (RISC-V M, table "semantics for division by zero").
void div(Hart& h, const DecodedInsn& d) {
  int32_t a = s(h.x[d.rs1]), b = s(h.x[d.rs2]);
  if (b == 0) h.x[d.rd] = 0xffffffffu;
  else if (a == INT32_MIN && b == -1) h.x[d.rd] = 0x80000000u;
  else h.x[d.rd] = static_cast<uint32_t>(a / b);
}
void divu(Hart& h, const DecodedInsn& d) {
  uint32_t a = h.x[d.rs1], b = h.x[d.rs2];
  h.x[d.rd] = b == 0 ? 0xffffffffu : a / b;
}
void rem(Hart& h, const DecodedInsn& d) {
  int32_t a = s(h.x[d.rs1]), b = s(h.x[d.rs2]);
  if (b == 0) h.x[d.rd] = static_cast<uint32_t>(a);
  else if (a == INT32_MIN && b == -1) h.x[d.rd] = 0;
  else h.x[d.rd] = static_cast<uint32_t>(a % b);
}
void remu(Hart& h, const DecodedInsn& d) {
  uint32_t a = h.x[d.rs1], b = h.x[d.rs2];
  h.x[d.rd] = b == 0 ? a : a % b;
}

}  // namespace tlmcraft::isa::riscv::ops
