// objdump-like disassembly of one RV32IMF/Zicsr word (ABI register names, the common
// aliases objdump prints: nop, li, mv, ret, j, beqz, csrr, fmv.s ...). Vector words are
// delegated to disassemble_vector(); anything unknown prints as ".word 0x...".
#include <cstdarg>
#include <cstdio>

#include "isa/riscv/scalar_ops.h"
#include "isa/riscv/register_names.h"

namespace tlmcraft::isa::riscv {

namespace {

const char* const kRmNames[8] = {"rne", "rtz", "rdn", "rup", "rmm", "", "", ""};

std::string fmt(const char* format, ...) {
  char buf[128];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}

std::string csr_name(uint32_t csr) {
  switch (csr) {
    case 0x001: return "fflags";
    case 0x002: return "frm";
    case 0x003: return "fcsr";
    case 0x008: return "vstart";
    case 0x009: return "vxsat";
    case 0x00A: return "vxrm";
    case 0x00F: return "vcsr";
    case 0x300: return "mstatus";
    case 0x301: return "misa";
    case 0xB00: return "mcycle";
    case 0xB02: return "minstret";
    case 0xB80: return "mcycleh";
    case 0xB82: return "minstreth";
    case 0xC20: return "vl";
    case 0xC21: return "vtype";
    case 0xC22: return "vlenb";
    case 0xF14: return "mhartid";
  }
  return fmt("0x%x", csr);
}

// ",rtz" when the instruction names a static rounding mode; nothing for dyn (7).
std::string rm_suffix(uint32_t rm) { return rm == 7 ? "" : std::string(",") + kRmNames[rm]; }

int32_t imm_i(uint32_t raw) { return static_cast<int32_t>(raw) >> 20; }
// imm[11:5] shifted into place by an arithmetic right shift (a negative int shifted left
// would be undefined behaviour in C++17).
int32_t imm_s(uint32_t raw) { return (static_cast<int32_t>(raw & 0xfe000000u) >> 20) | ((raw >> 7) & 0x1f); }

std::string fence_set(uint32_t bits) {
  std::string s;
  if (bits & 8) s += 'i';
  if (bits & 4) s += 'o';
  if (bits & 2) s += 'r';
  if (bits & 1) s += 'w';
  return s.empty() ? "0" : s;
}

std::string scalar(uint32_t raw, uint32_t pc, const DecodedInsn& d) {
  const char* rd = kXNames[d.rd];
  const char* rs1 = kXNames[d.rs1];
  const char* rs2 = kXNames[d.rs2];
  const char* fd = kFNames[d.rd];
  const char* fs1 = kFNames[d.rs1];
  const char* fs2 = kFNames[d.rs2];
  const char* fs3 = kFNames[d.rs3];
  const uint32_t opcode = raw & 0x7f, funct3 = (raw >> 12) & 7, funct7 = raw >> 25;
  const uint32_t target = pc + static_cast<uint32_t>(d.imm);
  switch (opcode) {
    case 0x37: return fmt("lui %s,0x%x", rd, raw >> 12);
    case 0x17: return fmt("auipc %s,0x%x", rd, raw >> 12);
    case 0x6f:
      if (d.rd == 0) return fmt("j 0x%x", target);
      if (d.rd == 1) return fmt("jal 0x%x", target);
      return fmt("jal %s,0x%x", rd, target);
    case 0x67:
      if (d.rd == 0 && d.rs1 == 1 && d.imm == 0) return "ret";
      if (d.rd == 0 && d.imm == 0) return fmt("jr %s", rs1);
      if (d.rd == 1 && d.imm == 0) return fmt("jalr %s", rs1);
      return fmt("jalr %s,%d(%s)", rd, d.imm, rs1);
    case 0x63: {
      static const char* const names[8] = {"beq", "bne", "", "", "blt", "bge", "bltu", "bgeu"};
      if (d.rs2 == 0 && funct3 == 0) return fmt("beqz %s,0x%x", rs1, target);
      if (d.rs2 == 0 && funct3 == 1) return fmt("bnez %s,0x%x", rs1, target);
      return fmt("%s %s,%s,0x%x", names[funct3], rs1, rs2, target);
    }
    case 0x03: {
      static const char* const names[8] = {"lb", "lh", "lw", "", "lbu", "lhu", "", ""};
      return fmt("%s %s,%d(%s)", names[funct3], rd, d.imm, rs1);
    }
    case 0x23: {
      static const char* const names[8] = {"sb", "sh", "sw", "", "", "", "", ""};
      return fmt("%s %s,%d(%s)", names[funct3], rs2, d.imm, rs1);
    }
    case 0x13: {
      if (funct3 == 0 && d.rd == 0 && d.rs1 == 0 && d.imm == 0) return "nop";
      if (funct3 == 0 && d.rs1 == 0) return fmt("li %s,%d", rd, d.imm);
      if (funct3 == 0 && d.imm == 0) return fmt("mv %s,%s", rd, rs1);
      if (funct3 == 3 && d.imm == 1) return fmt("seqz %s,%s", rd, rs1);
      if (funct3 == 4 && d.imm == -1) return fmt("not %s,%s", rd, rs1);
      if (funct3 == 1) return fmt("slli %s,%s,0x%x", rd, rs1, d.imm);
      if (funct3 == 5) return fmt("%s %s,%s,0x%x", funct7 ? "srai" : "srli", rd, rs1, d.imm);
      static const char* const names[8] = {"addi", "", "slti", "sltiu", "xori", "", "ori", "andi"};
      return fmt("%s %s,%s,%d", names[funct3], rd, rs1, d.imm);
    }
    case 0x33: {
      static const char* const base[8] = {"add", "sll", "slt", "sltu", "xor", "srl", "or", "and"};
      static const char* const muldiv[8] = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
      if (funct7 == 1) return fmt("%s %s,%s,%s", muldiv[funct3], rd, rs1, rs2);
      if (funct7 == 0x20) {
        if (funct3 == 0 && d.rs1 == 0) return fmt("neg %s,%s", rd, rs2);
        return fmt("%s %s,%s,%s", funct3 == 0 ? "sub" : "sra", rd, rs1, rs2);
      }
      if (funct3 == 3 && d.rs1 == 0) return fmt("snez %s,%s", rd, rs2);
      return fmt("%s %s,%s,%s", base[funct3], rd, rs1, rs2);
    }
    case 0x0f: {
      const uint32_t pred = (raw >> 24) & 0xf, succ = (raw >> 20) & 0xf;
      if (pred == 0xf && succ == 0xf) return "fence";
      return "fence " + fence_set(pred) + "," + fence_set(succ);
    }
    case 0x73: {
      if (raw == 0x00000073u) return "ecall";
      if (raw == 0x00100073u) return "ebreak";
      if (raw == 0x08000073u) return "mpause";
      static const char* const names[8] = {"", "csrrw", "csrrs", "csrrc", "", "csrrwi", "csrrsi", "csrrci"};
      const std::string csr = csr_name(d.aux);
      const bool imm = funct3 >= 5;
      if (funct3 == 2 && d.rs1 == 0) return fmt("csrr %s,%s", rd, csr.c_str());
      if (d.rd == 0 && (funct3 & 3) != 0) {
        static const char* const alias[4] = {"", "csrw", "csrs", "csrc"};
        if (imm) return fmt("%si %s,%u", alias[funct3 & 3], csr.c_str(), d.rs1);
        return fmt("%s %s,%s", alias[funct3 & 3], csr.c_str(), rs1);
      }
      if (imm) return fmt("%s %s,%s,%u", names[funct3], rd, csr.c_str(), d.rs1);
      return fmt("%s %s,%s,%s", names[funct3], rd, csr.c_str(), rs1);
    }
    case 0x07: return fmt("flw %s,%d(%s)", fd, imm_i(raw), rs1);
    case 0x27: return fmt("fsw %s,%d(%s)", fs2, imm_s(raw), rs1);
    case 0x43: case 0x47: case 0x4b: case 0x4f: {
      static const char* const names[4] = {"fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s"};
      return fmt("%s %s,%s,%s,%s", names[(opcode >> 2) & 3], fd, fs1, fs2, fs3) + rm_suffix(funct3);
    }
    case 0x53: {
      const uint32_t rs2n = d.rs2;
      switch (funct7) {
        case 0x00: return fmt("fadd.s %s,%s,%s", fd, fs1, fs2) + rm_suffix(funct3);
        case 0x04: return fmt("fsub.s %s,%s,%s", fd, fs1, fs2) + rm_suffix(funct3);
        case 0x08: return fmt("fmul.s %s,%s,%s", fd, fs1, fs2) + rm_suffix(funct3);
        case 0x0C: return fmt("fdiv.s %s,%s,%s", fd, fs1, fs2) + rm_suffix(funct3);
        case 0x2C: return fmt("fsqrt.s %s,%s", fd, fs1) + rm_suffix(funct3);
        case 0x10: {
          static const char* const alias[3] = {"fmv.s", "fneg.s", "fabs.s"};
          static const char* const names[3] = {"fsgnj.s", "fsgnjn.s", "fsgnjx.s"};
          if (d.rs1 == d.rs2) return fmt("%s %s,%s", alias[funct3], fd, fs1);
          return fmt("%s %s,%s,%s", names[funct3], fd, fs1, fs2);
        }
        case 0x14: return fmt("%s %s,%s,%s", funct3 ? "fmax.s" : "fmin.s", fd, fs1, fs2);
        case 0x50: {
          static const char* const names[3] = {"fle.s", "flt.s", "feq.s"};
          return fmt("%s %s,%s,%s", names[funct3], rd, fs1, fs2);
        }
        case 0x60: return fmt("%s %s,%s", rs2n ? "fcvt.wu.s" : "fcvt.w.s", rd, fs1) + rm_suffix(funct3);
        case 0x68: return fmt("%s %s,%s", rs2n ? "fcvt.s.wu" : "fcvt.s.w", fd, rs1) + rm_suffix(funct3);
        case 0x70: return fmt("%s %s,%s", funct3 ? "fclass.s" : "fmv.x.w", rd, fs1);
        case 0x78: return fmt("fmv.w.x %s,%s", fd, rs1);
      }
    }
  }
  return fmt(".word 0x%08x", raw);
}

}  // namespace

std::string Hart::disassemble(uint32_t raw, uint32_t pc) {
  const std::string vector = disassemble_vector(raw);
  if (!vector.empty()) return vector;
  const DecodedInsn d = decode(raw);
  if (d.exec == ops::illegal) return fmt(".word 0x%08x", raw);
  return scalar(raw, pc, d);
}

}  // namespace tlmcraft::isa::riscv
