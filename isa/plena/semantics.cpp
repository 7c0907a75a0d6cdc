// Dispatch and the shared operand/address checks. The instructions themselves live in
// semantics_matrix.cpp, semantics_vector.cpp, semantics_scalar.cpp, semantics_memory.cpp
// and semantics_control.cpp.
#include <cstdio>

#include "isa/plena/semantics_internal.h"

namespace tlmcraft::isa::plena {

const char* mnemonic(uint32_t opcode) {
  static const char* const kNames[kMaxOpcode + 1] = {
      "?",          "M_MM",       "M_TMM",      "M_BMM",       "M_BTMM",     "M_BMM_WO",
      "M_MM_WO",    "M_MV",       "M_TMV",      "M_BMV",       "M_BTMV",     "M_MV_WO",
      "M_BMV_WO",   "V_ADD_VV",   "V_ADD_VF",   "V_SUB_VV",    "V_SUB_VF",   "V_MUL_VV",
      "V_MUL_VF",   "V_EXP_V",    "V_RECI_V",   "V_RED_SUM",   "V_RED_MAX",  "S_ADD_FP",
      "S_SUB_FP",   "S_MAX_FP",   "S_MUL_FP",   "S_EXP_FP",    "S_RECI_FP",  "S_SQRT_FP",
      "S_LD_FP",    "S_ST_FP",    "S_MAP_V_FP", "S_ADD_INT",   "S_ADDI_INT", "S_SUB_INT",
      "S_MUL_INT",  "S_LUI_INT",  "S_LD_INT",   "S_ST_INT",    "H_PREFETCH_M", "H_PREFETCH_V",
      "H_STORE_V",  "C_SET_ADDR_REG", "C_SET_SCALE_REG", "C_SET_STRIDE_REG", "C_SET_V_MASK_REG",
      "C_LOOP_START", "C_LOOP_END", "V_PS_V",    "V_SHFT_V",    "C_HADAMARD_TRANSFORM", "C_BREAK",
      "V_MAX_VF",   "V_MIN_VF",   "V_TOPK"};
  return opcode <= kMaxOpcode ? kNames[opcode] : "?";
}

const char* memory_name(Memory m) {
  switch (m) {
    case Memory::MSRAM: return "MSRAM";
    case Memory::VRAM: return "VRAM";
    case Memory::FP_MEM: return "FP_MEM";
    case Memory::INT_MEM: return "INT_MEM";
  }
  return "?";
}

namespace detail {

bool Exec::fail(const char* fmt, ...) {
  char buf[400];
  int n = std::snprintf(buf, sizeof buf, "%s: ", mnemonic(in.opcode));
  if (n < 0) n = 0;
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf + n, sizeof buf - size_t(n), fmt, args);
  va_end(args);
  r.fault = buf;
  return false;
}

bool Exec::gp_reg(int field, uint32_t& reg) {
  const int64_t v = in.field[field];
  if (v < 0 || v > 15) return fail("gp register number %lld out of range (gp0-gp15)", (long long)v);
  reg = uint32_t(v);
  return true;
}

bool Exec::fp_reg(int field, uint32_t& reg) {
  const int64_t v = in.field[field];
  if (v < 0 || v > 7) return fail("fp register number %lld out of range (f0-f7)", (long long)v);
  reg = uint32_t(v);
  return true;
}

bool Exec::a_reg(int field, uint32_t& reg) {
  const int64_t v = in.field[field];
  if (v < 0 || v > 7) return fail("address register number %lld out of range (a0-a7)", (long long)v);
  reg = uint32_t(v);
  return true;
}

bool Exec::flag(int field, const char* name, bool& value) {
  const int64_t v = in.field[field];
  if (v != 0 && v != 1) return fail("%s must be 0 or 1, got %lld", name, (long long)v);
  value = v == 1;
  return true;
}

bool Exec::imm(uint64_t& value) {
  const int64_t v = in.field[isa::kImm];
  if (v < 0) return fail("immediate %lld must not be negative", (long long)v);
  value = uint64_t(v);
  return true;
}

uint32_t Exec::memory_size(Memory m) const {
  switch (m) {
    case Memory::MSRAM: return s.msram.data ? s.msram.size : 0;
    case Memory::VRAM: return s.vram.data ? s.vram.size : 0;
    case Memory::FP_MEM: return s.fp_mem.data ? s.fp_mem.size : 0;
    case Memory::INT_MEM: return s.int_mem.data ? s.int_mem.size : 0;
  }
  return 0;
}

void format_origin(const Origin& o, char* buf, size_t n) {
  if (o.reg2 >= 0)
    std::snprintf(buf, n, "gp%u+gp%d", o.reg, o.reg2);
  else if (o.has_imm)
    std::snprintf(buf, n, "gp%u+%llu", o.reg, (unsigned long long)o.imm);
  else
    std::snprintf(buf, n, "gp%u", o.reg);
}

bool Exec::check_aligned(Memory m, uint64_t addr, uint64_t alignment, const char* label,
                         const char* what, const Origin& o) {
  if (addr % alignment == 0) return true;
  char where[48];
  format_origin(o, where, sizeof where);
  return fail("%s %s address %llu (%s) is not a multiple of %s (%llu)", memory_name(m), what,
              (unsigned long long)addr, where, label, (unsigned long long)alignment);
}

bool Exec::check_fits(Memory m, uint64_t first, uint64_t count, uint64_t rows, uint64_t stride,
                      const char* what, const Origin& o) {
  const uint64_t end = first + (rows - 1) * stride + count;
  const uint64_t size = memory_size(m);
  if (end <= size) return true;
  char where[48];
  format_origin(o, where, sizeof where);
  if (count == 1 && rows == 1)
    return fail("%s %s %llu (%s) is outside %s (%llu entries)", memory_name(m), what,
                (unsigned long long)first, where, memory_name(m), (unsigned long long)size);
  if (rows > 1)
    return fail("%s %s [%llu, %llu) (%s: %llu rows of %llu, stride %llu) exceeds %s (%llu elements)",
                memory_name(m), what, (unsigned long long)first, (unsigned long long)end, where,
                (unsigned long long)rows, (unsigned long long)count, (unsigned long long)stride,
                memory_name(m), (unsigned long long)size);
  return fail("%s %s [%llu, %llu) (%s) exceeds %s (%llu elements)", memory_name(m), what,
              (unsigned long long)first, (unsigned long long)end, where, memory_name(m),
              (unsigned long long)size);
}

bool Exec::check_vram_row(uint64_t addr, const char* what, const Origin& o) {
  return check_aligned(Memory::VRAM, addr, p.vlen, "VLEN", what, o) &&
         check_fits(Memory::VRAM, addr, p.vlen, 1, 0, what, o);
}

}  // namespace detail

void execute(const isa::Instruction& inst, PlenaState& state, StepResult& out) {
  using detail::Exec;
  out.next_pc = state.pc + 1;
  out.halt = false;
  out.has_transfer = false;
  out.n_reads = 0;
  out.n_writes = 0;
  out.fault.clear();
  Exec x(inst, state, out);
  switch (static_cast<Opcode>(inst.opcode)) {
#define CASE(OP, fn) \
  case Opcode::OP:   \
    detail::exec_##fn(x); \
    break;
    CASE(M_MM, m_mm) CASE(M_TMM, m_tmm) CASE(M_BMM, m_bmm) CASE(M_BTMM, m_btmm)
    CASE(M_MV, m_mv) CASE(M_TMV, m_tmv) CASE(M_BMV, m_bmv) CASE(M_BTMV, m_btmv)
    CASE(M_MM_WO, m_mm_wo) CASE(M_MV_WO, m_mv_wo) CASE(M_BMM_WO, m_bmm_wo) CASE(M_BMV_WO, m_bmv_wo)
    CASE(V_ADD_VV, v_add_vv) CASE(V_ADD_VF, v_add_vf) CASE(V_SUB_VV, v_sub_vv)
    CASE(V_SUB_VF, v_sub_vf) CASE(V_MUL_VV, v_mul_vv) CASE(V_MUL_VF, v_mul_vf)
    CASE(V_MAX_VF, v_max_vf) CASE(V_MIN_VF, v_min_vf) CASE(V_EXP_V, v_exp_v)
    CASE(V_RECI_V, v_reci_v) CASE(V_SHFT_V, v_shft_v) CASE(V_RED_SUM, v_red_sum)
    CASE(V_RED_MAX, v_red_max)
    CASE(S_ADD_FP, s_add_fp) CASE(S_SUB_FP, s_sub_fp) CASE(S_MAX_FP, s_max_fp)
    CASE(S_MUL_FP, s_mul_fp) CASE(S_EXP_FP, s_exp_fp) CASE(S_RECI_FP, s_reci_fp)
    CASE(S_SQRT_FP, s_sqrt_fp) CASE(S_LD_FP, s_ld_fp) CASE(S_ST_FP, s_st_fp)
    CASE(S_MAP_V_FP, s_map_v_fp)
    CASE(S_ADD_INT, s_add_int) CASE(S_ADDI_INT, s_addi_int) CASE(S_SUB_INT, s_sub_int)
    CASE(S_MUL_INT, s_mul_int) CASE(S_LUI_INT, s_lui_int) CASE(S_LD_INT, s_ld_int)
    CASE(S_ST_INT, s_st_int)
    CASE(H_PREFETCH_M, h_prefetch_m) CASE(H_PREFETCH_V, h_prefetch_v) CASE(H_STORE_V, h_store_v)
    CASE(C_SET_ADDR_REG, c_set_addr_reg) CASE(C_SET_SCALE_REG, c_set_scale_reg)
    CASE(C_SET_STRIDE_REG, c_set_stride_reg) CASE(C_SET_V_MASK_REG, c_set_v_mask_reg)
    CASE(C_LOOP_START, c_loop_start) CASE(C_LOOP_END, c_loop_end) CASE(C_BREAK, c_break)
#undef CASE
    case Opcode::V_PS_V:
    case Opcode::C_HADAMARD_TRANSFORM:
    case Opcode::V_TOPK:
      x.fail("listed in the PLENA ISA but not implemented on this platform");
      break;
    default:
      x.fail("unknown opcode 0x%02X", unsigned(inst.opcode));
      break;
  }
  if (!out.ok()) {
    // A faulting instruction commits nothing: no pc change, no transfer, no ranges.
    out.next_pc = state.pc;
    out.halt = false;
    out.has_transfer = false;
    out.n_reads = out.n_writes = 0;
    return;
  }
  state.pc = out.next_pc;
  if (out.halt) state.halted = true;
}

StepResult execute(const isa::Instruction& inst, PlenaState& state) {
  StepResult r;
  execute(inst, state, r);
  return r;
}

}  // namespace tlmcraft::isa::plena
