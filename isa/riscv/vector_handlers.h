// How decode_vector() finds the handler of a vector instruction: one lookup per
// semantic group (one .cpp each). A lookup returns {nullptr, ...} for encodings that are
// not its own or that are reserved.
#pragma once
#include "isa/riscv/hart.h"
#include "isa/riscv/vector_loops.h"

namespace tlmcraft::isa::riscv::vec {

struct VecImpl {
  Handler exec = nullptr;
  OpClass cls = OpClass::VecAlu;
};

// funct3 values of OP-V.
enum : unsigned { kOPIVV = 0, kOPFVV = 1, kOPMVV = 2, kOPIVI = 3, kOPIVX = 4, kOPFVF = 5,
                  kOPMVX = 6, kOPCFG = 7 };

// OP-V arithmetic groups (funct3 is OPIVV/OPIVX/OPIVI/OPMVV/OPMVX).
VecImpl integer_impl(unsigned f3, unsigned f6, uint32_t raw);       // vector_integer.cpp
VecImpl multiply_impl(unsigned f3, unsigned f6, uint32_t raw);      // vector_multiply.cpp
VecImpl fixed_point_impl(unsigned f3, unsigned f6, uint32_t raw);   // vector_fixed_point.cpp
VecImpl reduction_impl(unsigned f3, unsigned f6, uint32_t raw);     // vector_reduction.cpp
VecImpl mask_impl(unsigned f3, unsigned f6, uint32_t raw);          // vector_mask.cpp
VecImpl permute_impl(unsigned f3, unsigned f6, uint32_t raw);       // vector_permute.cpp
// vset{i}vl{i} (funct3 OPCFG).                                      vector_config.cpp
VecImpl config_impl(uint32_t raw);
// Loads (LOAD-FP) and stores (STORE-FP) with a vector width.        vector_memory.cpp
VecImpl memory_impl(uint32_t raw, DecodedInsn& out);  // sets out.aux

// Which operand forms an OP-V instruction has, and the handler for the form of `f3`.
enum FormBits : unsigned { kFormV = 1, kFormX = 2, kFormI = 4 };
inline bool is_v_form(unsigned f3) { return f3 == kOPIVV || f3 == kOPMVV; }
inline bool is_x_form(unsigned f3) { return f3 == kOPIVX || f3 == kOPMVX; }

#define TLM_VEC_FORM_PICKER(picker, handler_template)                                     \
  template <class Op> inline Handler picker(unsigned f3, unsigned forms) {               \
    if (is_v_form(f3)) return (forms & kFormV) ? &handler_template<Op, Src::V> : nullptr; \
    if (is_x_form(f3)) return (forms & kFormX) ? &handler_template<Op, Src::X> : nullptr; \
    if (f3 == kOPIVI) return (forms & kFormI) ? &handler_template<Op, Src::I> : nullptr;  \
    return nullptr;                                                                       \
  }
TLM_VEC_FORM_PICKER(pick_binary, exec_binary)
TLM_VEC_FORM_PICKER(pick_ternary, exec_ternary)
TLM_VEC_FORM_PICKER(pick_compare, exec_compare)
TLM_VEC_FORM_PICKER(pick_widening_ternary, exec_widening_ternary)
TLM_VEC_FORM_PICKER(pick_narrowing, exec_narrowing)
#undef TLM_VEC_FORM_PICKER

template <class Op, bool WideA> inline Handler pick_widening(unsigned f3) {
  if (is_v_form(f3)) return &exec_widening<Op, Src::V, WideA>;
  if (is_x_form(f3)) return &exec_widening<Op, Src::X, WideA>;
  return nullptr;
}

}  // namespace tlmcraft::isa::riscv::vec
