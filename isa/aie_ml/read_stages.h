// When an AIE-ML operation reads its register operands, in cycles after its issue: every
// operand at issue, except the accumulator input of a multiply-accumulate (`acc, acc, a,
// b`), read `acc_read_cycles` later (AMD's AIE2 scheduling model, Xilinx/llvm-aie
// AIE2Schedule.td: stage 3, so 2). The platform's configuration states the value
// (compute.acc_read_cycles); its timing (interlock, exposed pipeline) and the waits a
// kernel needs (wait_insertion.h) both take it from there.
#pragma once
#include <cstdint>

#include "isa/aie_ml/aie_core.h"

namespace tlmcraft::isa::aie_ml {

struct ReadStages {
  uint32_t acc_read_cycles;  // no default: the caller's configuration says
};

// Whether op reads its accumulator input (operand 1) late: a multiply-accumulate (a `vmac`
// class op of four operands whose second is an accumulator).
bool reads_accumulator_late(const SlotOp& op);

// Cycles after issue at which op reads the storage unit (storage_units(); 0: at issue).
uint32_t read_offset(const SlotOp& op, uint16_t storage_unit, const ReadStages& stages);

}  // namespace tlmcraft::isa::aie_ml
