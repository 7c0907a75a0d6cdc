// Scalar instructions: FP (bf16 registers, computed in float32 and rounded to bf16 with
// round-to-nearest-even), integer (u32, wrapping), FP_MEM / INT_MEM loads and stores,
// and S_MAP_V_FP (FP_MEM -> one VRAM row). f0 and gp0 read as zero; writes to them are
// dropped (a load into them still checks its address).
#include <cmath>

#include "isa/plena/semantics_internal.h"

namespace tlmcraft::isa::plena::detail {
namespace {

template <class Op>
void fp_binary(Exec& x, Op op) {
  uint32_t rd, rs1, rs2;
  if (!x.fp_reg(isa::kRd, rd) || !x.fp_reg(isa::kRs1, rs1) || !x.fp_reg(isa::kRs2, rs2)) return;
  x.set_fp(rd, float_to_bf16(op(x.fp(rs1), x.fp(rs2))));
}

template <class Op>
void fp_unary(Exec& x, Op op) {
  uint32_t rd, rs1;
  if (!x.fp_reg(isa::kRd, rd) || !x.fp_reg(isa::kRs1, rs1)) return;
  x.set_fp(rd, float_to_bf16(op(x.fp(rs1))));
}

template <class Op>
void int_binary(Exec& x, Op op) {
  uint32_t rd, rs1, rs2;
  if (!x.gp_reg(isa::kRd, rd) || !x.gp_reg(isa::kRs1, rs1) || !x.gp_reg(isa::kRs2, rs2)) return;
  x.set_gp(rd, op(x.gp(rs1), x.gp(rs2)));
}

// Address gp[rs1] + imm of a scalar memory word, checked against the memory's size.
bool scalar_address(Exec& x, Memory m, uint64_t& addr) {
  uint32_t rs1;
  uint64_t imm;
  if (!x.gp_reg(isa::kRs1, rs1) || !x.imm(imm)) return false;
  addr = uint64_t(x.gp(rs1)) + imm;
  return x.check_fits(m, addr, 1, 1, 0, "address", Origin{rs1, imm, true});
}

}  // namespace

void exec_s_add_fp(Exec& x) { fp_binary(x, [](float a, float b) { return a + b; }); }
void exec_s_sub_fp(Exec& x) { fp_binary(x, [](float a, float b) { return a - b; }); }
void exec_s_mul_fp(Exec& x) { fp_binary(x, [](float a, float b) { return a * b; }); }
void exec_s_max_fp(Exec& x) { fp_binary(x, [](float a, float b) { return max_nan(a, b); }); }
void exec_s_exp_fp(Exec& x) { fp_unary(x, [](float a) { return std::exp(a); }); }
void exec_s_reci_fp(Exec& x) { fp_unary(x, [](float a) { return 1.0f / a; }); }
void exec_s_sqrt_fp(Exec& x) { fp_unary(x, [](float a) { return std::sqrt(a); }); }

// S_LD_FP f, rs1, imm: f = FP_MEM[gp[rs1] + imm]
void exec_s_ld_fp(Exec& x) {
  uint32_t rd;
  uint64_t addr;
  if (!x.fp_reg(isa::kRd, rd) || !scalar_address(x, Memory::FP_MEM, addr)) return;
  x.set_fp(rd, x.s.fp_mem.data[addr]);
  x.read(Memory::FP_MEM, addr, 1);
}

// S_ST_FP f, rs1, imm: FP_MEM[gp[rs1] + imm] = f
void exec_s_st_fp(Exec& x) {
  uint32_t rd;
  uint64_t addr;
  if (!x.fp_reg(isa::kRd, rd) || !scalar_address(x, Memory::FP_MEM, addr)) return;
  x.s.fp_mem.data[addr] = x.fp_bits(rd);
  x.write(Memory::FP_MEM, addr, 1);
}

// S_MAP_V_FP rd, rs1, imm: VRAM[gp[rd] .. +VLEN] = FP_MEM[gp[rs1] + imm .. +VLEN]
void exec_s_map_v_fp(Exec& x) {
  uint32_t rd, rs1;
  uint64_t imm;
  if (!x.gp_reg(isa::kRd, rd) || !x.gp_reg(isa::kRs1, rs1) || !x.imm(imm)) return;
  const uint32_t vlen = x.p.vlen;
  const uint64_t src = uint64_t(x.gp(rs1)) + imm;
  const uint64_t dst = x.gp(rd);
  if (!x.check_fits(Memory::FP_MEM, src, vlen, 1, 0, "source", Origin{rs1, imm, true}) ||
      !x.check_vram_row(dst, "destination", Origin{rd}))
    return;
  for (uint32_t i = 0; i < vlen; ++i) x.s.vram.data[dst + i] = x.s.fp_mem.data[src + i];
  x.read(Memory::FP_MEM, src, vlen);
  x.write(Memory::VRAM, dst, vlen);
}

void exec_s_add_int(Exec& x) { int_binary(x, [](uint32_t a, uint32_t b) { return a + b; }); }
void exec_s_sub_int(Exec& x) { int_binary(x, [](uint32_t a, uint32_t b) { return a - b; }); }
void exec_s_mul_int(Exec& x) { int_binary(x, [](uint32_t a, uint32_t b) { return a * b; }); }

// S_ADDI_INT rd, rs1, imm: gp[rd] = gp[rs1] + imm (mod 2^32)
void exec_s_addi_int(Exec& x) {
  uint32_t rd, rs1;
  uint64_t imm;
  if (!x.gp_reg(isa::kRd, rd) || !x.gp_reg(isa::kRs1, rs1) || !x.imm(imm)) return;
  x.set_gp(rd, uint32_t(x.gp(rs1) + imm));
}

// S_LUI_INT rd, imm: gp[rd] = imm << 12 (mod 2^32)
void exec_s_lui_int(Exec& x) {
  uint32_t rd;
  uint64_t imm;
  if (!x.gp_reg(isa::kRd, rd) || !x.imm(imm)) return;
  x.set_gp(rd, uint32_t(imm << 12));
}

// S_LD_INT rd, rs1, imm: gp[rd] = INT_MEM[gp[rs1] + imm]
void exec_s_ld_int(Exec& x) {
  uint32_t rd;
  uint64_t addr;
  if (!x.gp_reg(isa::kRd, rd) || !scalar_address(x, Memory::INT_MEM, addr)) return;
  x.set_gp(rd, x.s.int_mem.data[addr]);
  x.read(Memory::INT_MEM, addr, 1);
}

// S_ST_INT rd, rs1, imm: INT_MEM[gp[rs1] + imm] = gp[rd]
void exec_s_st_int(Exec& x) {
  uint32_t rd;
  uint64_t addr;
  if (!x.gp_reg(isa::kRd, rd) || !scalar_address(x, Memory::INT_MEM, addr)) return;
  x.s.int_mem.data[addr] = x.gp(rd);
  x.write(Memory::INT_MEM, addr, 1);
}

}  // namespace tlmcraft::isa::plena::detail
