// The fused-latency rule (isa/aie_ml/fused_latency.h) on chains the co-design miner
// proposes, every figure derived by hand from the documented stages: the ISA's latency
// classes (isa/aie_ml/aie_ml.yaml: srs 4, vacc 3, vmac 6, alu 1, mul 2) as each op's
// result stage W, operands read in stage 1 except a multiply-accumulate's accumulator
// input, read in stage 1 + compute.acc_read_cycles (2 by default: stage 3).
#include "isa/aie_ml/fused_latency.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace tlmcraft::isa::aie_ml {
namespace {

const ReadStages kDefaultStages{2};  // platforms/aie_ml/configs/default.yaml

const OpSpec& spec(const std::string& mnemonic) {
  const OpSpec* s = AieIsa::get().find(mnemonic);
  if (!s) throw std::runtime_error("no op " + mnemonic);
  return *s;
}

uint32_t latency(const std::string& mnemonic) { return AieIsa::get().latency.at(spec(mnemonic).latency_class); }

TEST(AieFusedLatency, TheStagesTheDerivationsUse) {
  EXPECT_EQ(latency("VCONV.FP32.BF16"), 4u);  // srs
  EXPECT_EQ(latency("VCONV.BF16.FP32"), 4u);  // srs
  EXPECT_EQ(latency("VSUB.F"), 3u);           // vacc
  EXPECT_EQ(latency("VMUL.E.BF16"), 6u);      // vmac
  EXPECT_EQ(latency("VMAC.E.BF16"), 6u);      // vmac
  EXPECT_EQ(latency("ADD"), 1u);              // alu
  EXPECT_EQ(latency("MUL"), 2u);              // mul
  // VMAC.E.BF16 d, acc, a, b: the accumulator (operand 1) in stage 3, the factors in 1.
  EXPECT_EQ(operand_read_stage(spec("VMAC.E.BF16"), 1, kDefaultStages), 3u);
  EXPECT_EQ(operand_read_stage(spec("VMAC.E.BF16"), 2, kDefaultStages), 1u);
  EXPECT_EQ(operand_read_stage(spec("VMAC.E.BF16"), 1, ReadStages{0}), 1u);
  // VMUL has no accumulator input; VSUB.F's accumulators are read at issue in the model.
  EXPECT_EQ(operand_read_stage(spec("VMUL.E.BF16"), 1, kDefaultStages), 1u);
  EXPECT_EQ(operand_read_stage(spec("VSUB.F"), 1, kDefaultStages), 1u);
}

TEST(AieFusedLatency, TheSplitLowHalfInOnePassIsSeven) {
  // lo = bf16(x - fp32(hi)): VCONV.FP32.BF16 t0, hi; VSUB.F t1, x, t0; VCONV.BF16.FP32 lo, t1.
  // Back to back: 4 + 3 + 4 = 11. One pass: the first VCONV keeps stages 1..3 of its 4
  // (its write stage left out): 3; VSUB.F's 3 stages less its read and its write: 1 (its
  // other input x, read at issue, is there at 0 + 3 - 1 = 2 < 3 + 1); the last VCONV's 4
  // less its read: 3. 3 + 1 + 3 = 7.
  const std::vector<ChainStep> chain = {
      {4, {{-1, 1}}, false},
      {3, {{-1, 1}, {0, 1}}, false},
      {4, {{1, 1}}, true},
  };
  const ChainLatency l = chain_latency(chain);
  EXPECT_EQ(l.back_to_back, 11u);
  EXPECT_EQ(l.one_pass, 7u);
}

TEST(AieFusedLatency, TheSplitProductCountsTheLateAccumulatorRead) {
  // VMUL.E.BF16 t0, a, b; VMAC.E.BF16 out, t0, a, c (the product as the accumulator).
  // Back to back: the VMAC may issue 6 - 2 = 4 cycles after the VMUL (it reads t0 in stage
  // 3): 4 + 6 = 10. One pass: the VMUL's 6 stages less its write: 5; the VMAC from its
  // accumulator read (stage 3) to its write (6): 4 stages, less the read: 3. 5 + 3 = 8;
  // its factors, read at issue, reach the result at 6.
  std::vector<ChainStep> chain = {
      {6, {{-1, 1}, {-1, 1}}, false},
      {6, {{0, 3}, {-1, 1}, {-1, 1}}, true},
  };
  ChainLatency l = chain_latency(chain);
  EXPECT_EQ(l.back_to_back, 10u);
  EXPECT_EQ(l.one_pass, 8u);
  // With the accumulator read at issue (compute.acc_read_cycles 0): 6 + 6 = 12 back to
  // back; one pass 5 + (6 - 1) = 10.
  chain[1].reads[0].stage = 1;
  l = chain_latency(chain);
  EXPECT_EQ(l.back_to_back, 12u);
  EXPECT_EQ(l.one_pass, 10u);
}

TEST(AieFusedLatency, SingleStageScalarStepsSaveNothing) {
  // ADD then ADD: each step's read, add and write share its one stage: 1 + 1 both ways.
  const ChainLatency adds = chain_latency({{1, {{-1, 1}, {-1, 1}}, false}, {1, {{0, 1}, {-1, 1}}, true}});
  EXPECT_EQ(adds.back_to_back, 2u);
  EXPECT_EQ(adds.one_pass, 2u);
  // MUL then ADD: back to back 2 + 1 = 3; one pass the MUL without its write stage, 1,
  // then the ADD's one stage: 2.
  const ChainLatency mul_add = chain_latency({{2, {{-1, 1}, {-1, 1}}, false}, {1, {{0, 1}, {-1, 1}}, true}});
  EXPECT_EQ(mul_add.back_to_back, 3u);
  EXPECT_EQ(mul_add.one_pass, 2u);
}

TEST(AieFusedLatency, AStepThatIsAlsoAnOutputHandsItsValueOnBeforeItsWrite) {
  // Two outputs: VMUL (6) written out and fed to a VSUB.F (3). The VMUL's own result is
  // written at 6 both ways; the VSUB.F gets the product from the datapath at 6 - 1 = 5
  // (the write to the register file goes on beside it): back to back 6 + 3 = 9, one pass
  // 5 + (3 - 1) = 7 (the VSUB.F's read left out).
  const ChainLatency l = chain_latency({{6, {{-1, 1}, {-1, 1}}, true}, {3, {{0, 1}, {-1, 1}}, true}});
  EXPECT_EQ(l.back_to_back, 9u);
  EXPECT_EQ(l.one_pass, 7u);
}

TEST(AieFusedLatency, AReadOfALaterStepIsRefused) {
  EXPECT_THROW(chain_latency({{1, {{0, 1}}, true}}), std::invalid_argument);
}

}  // namespace
}  // namespace tlmcraft::isa::aie_ml
