// PLENA opcode numbers (from the PLENA compiler's doc/operation.svh; the contract with
// isa/plena/plena.yaml). The semantics dispatch on these numbers, not on YAML ids.
#pragma once
#include <cstdint>

namespace tlmcraft::isa::plena {

enum class Opcode : uint32_t {
  M_MM = 0x01, M_TMM = 0x02, M_BMM = 0x03, M_BTMM = 0x04, M_BMM_WO = 0x05, M_MM_WO = 0x06,
  M_MV = 0x07, M_TMV = 0x08, M_BMV = 0x09, M_BTMV = 0x0A, M_MV_WO = 0x0B, M_BMV_WO = 0x0C,
  V_ADD_VV = 0x0D, V_ADD_VF = 0x0E, V_SUB_VV = 0x0F, V_SUB_VF = 0x10, V_MUL_VV = 0x11,
  V_MUL_VF = 0x12, V_EXP_V = 0x13, V_RECI_V = 0x14, V_RED_SUM = 0x15, V_RED_MAX = 0x16,
  S_ADD_FP = 0x17, S_SUB_FP = 0x18, S_MAX_FP = 0x19, S_MUL_FP = 0x1A, S_EXP_FP = 0x1B,
  S_RECI_FP = 0x1C, S_SQRT_FP = 0x1D, S_LD_FP = 0x1E, S_ST_FP = 0x1F, S_MAP_V_FP = 0x20,
  S_ADD_INT = 0x21, S_ADDI_INT = 0x22, S_SUB_INT = 0x23, S_MUL_INT = 0x24, S_LUI_INT = 0x25,
  S_LD_INT = 0x26, S_ST_INT = 0x27,
  H_PREFETCH_M = 0x28, H_PREFETCH_V = 0x29, H_STORE_V = 0x2A,
  C_SET_ADDR_REG = 0x2B, C_SET_SCALE_REG = 0x2C, C_SET_STRIDE_REG = 0x2D,
  C_SET_V_MASK_REG = 0x2E, C_LOOP_START = 0x2F, C_LOOP_END = 0x30,
  V_PS_V = 0x31, V_SHFT_V = 0x32, C_HADAMARD_TRANSFORM = 0x33, C_BREAK = 0x34,
  V_MAX_VF = 0x35, V_MIN_VF = 0x36, V_TOPK = 0x37,
};

constexpr uint32_t kMaxOpcode = 0x37;

// Mnemonic of an opcode number ("?" for numbers outside the table), for fault messages.
const char* mnemonic(uint32_t opcode);

}  // namespace tlmcraft::isa::plena
