// The latency of a chain of AIE-ML ops executed as one added op: one pass through the
// core's datapath (docs/codesign.md, "AIE-ML", "The fused latency"), against the same
// steps issued back to back.
//
// Stages, per step (AMD's AIE2 scheduling model, Xilinx/llvm-aie AIE2Schedule.td, which
// gives every op the stage it reads each operand in and the stage its result goes through
// a register-file write port; the model's values are the ISA's latency classes and the
// configuration's read stages, isa/aie_ml/read_stages.h):
//   - an operand is read from the register file in its read stage R (1, at issue; the
//     accumulator input of a multiply-accumulate in stage 1 + compute.acc_read_cycles);
//   - the result is written to the register file in its result stage W (the latency);
//   - so one operand's path through the step spans W - R + 1 stages, its read stage and
//     its write stage included.
// Back to back, a step issues when its last operand can be read: W_j - (R - 1) cycles
// after the producer j issued. In one pass, a value handed from one step to the next
// does not go through the register file: the producer's write stage and the consumer's
// read stage are left out of the path (the AIE2 model's register-port stages; the bf16
// and fp32 ops involved carry no bypass there, so no bypass is left out twice). A step
// whose result is also an output of the chain keeps its write for that output and hands
// the value on beside it. Every step keeps at least one stage: its operator's own logic
// (an op whose read, execute and write share one stage, the scalar ALU's, saves
// nothing). Assumption: a port stage holds no other work of the op (AMD does not publish
// the operators' depths).
#pragma once
#include <cstdint>
#include <vector>

#include "isa/aie_ml/aie_core.h"
#include "isa/aie_ml/read_stages.h"

namespace tlmcraft::isa::aie_ml {

struct ChainStep {
  uint32_t result_stage = 1;  // W: the op's latency
  struct Read {
    int from = -1;       // the earlier step whose result it reads; -1: an input of the chain
    uint32_t stage = 1;  // R: the stage it is read in
  };
  std::vector<Read> reads;
  bool output = true;  // its result leaves the chain (is written to the register file)
};

struct ChainLatency {
  uint32_t back_to_back = 0;  // the steps issued one after another, each as early as it may
  uint32_t one_pass = 0;      // the chain as one op (the rule above)
};

// Along the longest path to any output step; steps in program order (a read's `from` is
// an earlier step). Throws std::invalid_argument on a read from a later step.
ChainLatency chain_latency(const std::vector<ChainStep>& steps);

// The stage in which `spec` reads its operand `index`: 1, or 1 + acc_read_cycles for the
// accumulator input of a multiply-accumulate (read_stages.h).
uint32_t operand_read_stage(const OpSpec& spec, size_t index, const ReadStages& stages);

}  // namespace tlmcraft::isa::aie_ml
