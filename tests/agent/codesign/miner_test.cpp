// `codesign mine` on hand-built PLENA kernels: the candidates, their dynamic
// counts and their inputs/outputs follow from the kernels by hand (comments),
// with PLENA's default latencies (vector_mul = vector_add = 1 cycle; the fused
// estimate is the slowest step).
#include "agent/codesign/miner.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tlmcraft::agent::codesign {
namespace {

const nlohmann::json kHardware = {
    {"platform", "plena"},
    {"config", {{"arch", {{"vlen", 64}}}, {"timing", {{"latency", {{"vector_mul", 1}, {"vector_add", 1}}}}}}}};

// Loop A (16 iterations): row 192 = row0 * row64 + row0 through the temporary
// row 128, which nothing reads afterwards: one candidate, inputs row0 and
// row64, output row 192. Loop B (8 iterations): row 448 = row256 * row320 +
// row384 * row512 (temporaries rows 2048 and 2112, which the store of rows
// 448..640 does not read): the whole tree has four inputs (more than PLENA's
// three source fields rs1..rs3), so only each multiply with the add is proposed
// (three inputs each), in two operand orders.
const char* kKernel = R"(S_ADDI_INT gp1, gp0, 0
S_ADDI_INT gp2, gp0, 64
S_ADDI_INT gp3, gp0, 128
S_ADDI_INT gp4, gp0, 192
C_LOOP_START gp6, 16
  V_MUL_VV gp3, gp1, gp2, 0
  V_ADD_VV gp4, gp3, gp1, 0
C_LOOP_END gp6
H_STORE_V gp4, gp0, a1, 0, 2
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 320
S_ADDI_INT gp3, gp0, 384
S_ADDI_INT gp4, gp0, 512
S_ADDI_INT gp5, gp0, 2048
S_ADDI_INT gp7, gp0, 2112
S_ADDI_INT gp8, gp0, 448
C_LOOP_START gp6, 8
  V_MUL_VV gp5, gp1, gp2, 0
  V_MUL_VV gp7, gp3, gp4, 0
  V_ADD_VV gp8, gp5, gp7, 0
C_LOOP_END gp6
H_STORE_V gp8, gp0, a1, 0, 2
)";

std::vector<MinedCandidate> mine_kernel(const std::string& text) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  EXPECT_NE(a, nullptr);
  return mine(*a, {{"hand/C1", "hand.asm", text, kHardware}}, {10});
}

TEST(CodesignMiner, FindsTheRepeatedPatternWithItsCountAndPorts) {
  const auto found = mine_kernel(kKernel);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].signature, "V_MUL_VV t0, in0, in1, 0\nV_ADD_VV out0, t0, in0, 0\n");
  EXPECT_EQ(found[0].dynamic_instances, 16u);
  EXPECT_EQ(found[0].cycles_saved, 16.0);  // 16 x ((1 + 1) - 1)
  EXPECT_EQ(found[0].pattern.inputs, (std::vector<std::string>{"in0", "in1"}));
  EXPECT_EQ(found[0].pattern.outputs, (std::vector<std::string>{"out0"}));
  EXPECT_EQ(found[0].pattern.temps, (std::vector<std::string>{"t0"}));
  EXPECT_EQ(found[0].kernels.at("hand/C1"), 16u);
  // Loop B: the two multiply-add halves, 8 instances each; never the four-input
  // tree.
  EXPECT_EQ(found[1].signature, "V_MUL_VV t0, in0, in1, 0\nV_ADD_VV out0, in2, t0, 0\n");
  EXPECT_EQ(found[2].signature, "V_MUL_VV t0, in0, in1, 0\nV_ADD_VV out0, t0, in2, 0\n");
  EXPECT_EQ(found[1].dynamic_instances, 8u);
  EXPECT_EQ(found[2].dynamic_instances, 8u);
}

// row 192 = row0 * row64; row 256 = exp(row 192); row 320 = row192 + row256.
const char* const kMinerNonConvexKernel = R"(S_ADDI_INT gp1, gp0, 0
S_ADDI_INT gp2, gp0, 64
S_ADDI_INT gp3, gp0, 192
S_ADDI_INT gp4, gp0, 256
S_ADDI_INT gp5, gp0, 320
V_MUL_VV gp3, gp1, gp2, 0
V_EXP_V gp4, gp3, 0
V_ADD_VV gp5, gp3, gp4, 0
H_STORE_V gp5, gp0, a1, 0, 2
)";

TEST(CodesignMiner, NonConvexSubgraphIsNotProposed) {
  // The pair {mul, add} would need the exp's result, computed from the mul, inside: not
  // convex.
  const auto found = mine_kernel(kMinerNonConvexKernel);
  bool whole = false;
  for (const MinedCandidate& c : found) {
    EXPECT_NE(c.signature, "V_MUL_VV t0, in0, in1, 0\nV_ADD_VV out0, t0, in2, 0\n") << c.signature;
    whole = whole || c.signature ==
                         "V_MUL_VV t0, in0, in1, 0\nV_EXP_V t1, t0, "
                         "0\nV_ADD_VV out0, t0, t1, 0\n";
  }
  EXPECT_TRUE(whole);  // the convex whole is proposed
}

TEST(CodesignMiner, MaxOpsBoundsTheCandidates) {
  // The non-convex example's convex whole has three ops. With at most two per
  // candidate one pair remains: {exp, add} (input row 192, output row 320);
  // {mul, add} is not convex and {mul, exp} has two outputs (row 192 is read by
  // the add outside it, row 256 too), more than rd. With at most three the whole
  // is back.
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  MineOptions two{10, 2};
  const auto pairs = mine(*a, {{"hand/C1", "hand.asm", kMinerNonConvexKernel, kHardware}}, two);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].signature, "V_EXP_V t0, in0, 0\nV_ADD_VV out0, in0, t0, 0\n");
  MineOptions three{10, 3};
  bool whole = false;
  for (const MinedCandidate& c : mine(*a, {{"hand/C1", "hand.asm", kMinerNonConvexKernel, kHardware}}, three))
    whole = whole || c.pattern.steps.size() == 3;
  EXPECT_TRUE(whole);
}

TEST(CodesignMiner, OverlayEntryNamesOperandsAndSteps) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  const auto found = mine_kernel(kKernel);
  const nlohmann::json doc = candidates_document(*a, "plena", found, "CD");
  const nlohmann::json& ins = doc["candidates"][0]["overlay"]["instructions"][0];
  EXPECT_EQ(ins["mnemonic"], "CD0");
  EXPECT_EQ(ins["compose"]["steps"], nlohmann::json({"V_MUL_VV t0, rs1, rs2, 0", "V_ADD_VV rd, t0, rs1, 0"}));
  EXPECT_EQ(ins["operands"][0]["name"], "rd");
  EXPECT_EQ(ins["operands"][0]["value"], "vrow");
  EXPECT_EQ(ins["opcode"],
            0);  // PLENA's first free opcode (0x01..0x37 are taken)
  EXPECT_EQ(doc["candidates"][0]["overlay"]["latency_classes"][0]["cycles"], 1);
}

TEST(CodesignMiner, KernelThatDoesNotAssembleIsNamed) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  try {
    mine(*a, {{"bad/C1", "bad.asm", "V_FROB gp1\n", kHardware}}, {10});
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bad.asm"), std::string::npos) << e.what();
  }
}

// Ranking: a small kernel where one candidate saves 4 of 14 cycles, a large one where
// another saves 20 of 464 (estimated cycles: each op's executions x 1 cycle, the loop
// starts and ends included). The geometric mean over the two kernels puts the first
// ahead, sqrt(14 / 10) = 1.1832 against sqrt(464 / 444) = 1.0223; cycles saved over the
// suite the second, 20 against 4.
TEST(CodesignMiner, RanksByTheGeometricMeanGainOrByCyclesSaved) {
  const char* small = "S_ADDI_INT gp1, gp0, 0\nC_LOOP_START gp6, 4\n  V_EXP_V gp1, gp1, 0\n"
                      "  S_ADDI_INT gp1, gp1, 64\nC_LOOP_END gp6\n";  // 1 + 1 + 4 x 3
  const char* large =
      "S_ADDI_INT gp2, gp0, 0\nS_ADDI_INT gp3, gp0, 4096\nC_LOOP_START gp6, 20\n  V_RECI_V gp2, gp2, 0\n"
      "  S_ADDI_INT gp2, gp2, 64\nC_LOOP_END gp6\nC_LOOP_START gp7, 200\n  V_ADD_VV gp3, gp3, gp3, 0\n"
      "C_LOOP_END gp7\n";  // 2 + (1 + 20 x 3) + (1 + 200 x 2)
  const nlohmann::json hw = {{"platform", "plena"}, {"config", {{"arch", {{"vlen", 64}}}}}};
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  const std::vector<MinedKernel> kernels = {{"small/C1", "s.asm", small, hw}, {"large/C1", "l.asm", large, hw}};
  MineOptions o;
  const auto by_geomean = mine(*a, kernels, o);
  ASSERT_EQ(by_geomean.size(), 2u);
  EXPECT_EQ(by_geomean[0].signature, "V_EXP_V out0@io0, in0@io0, 0\nS_ADDI_INT io0, io0, 64\n");
  EXPECT_NEAR(by_geomean[0].geomean_speedup, std::sqrt(14.0 / 10.0), 1e-12);
  EXPECT_NEAR(by_geomean[1].geomean_speedup, std::sqrt(464.0 / 444.0), 1e-12);
  o.rank = "cycles";
  const auto by_cycles = mine(*a, kernels, o);
  ASSERT_EQ(by_cycles.size(), 2u);
  EXPECT_EQ(by_cycles[0].signature, "V_RECI_V out0@io0, in0@io0, 0\nS_ADDI_INT io0, io0, 64\n");
  EXPECT_EQ(by_cycles[0].cycles_saved, 20.0);
  EXPECT_EQ(by_cycles[1].cycles_saved, 4.0);
  o.rank = "area";
  EXPECT_THROW(mine(*a, kernels, o), std::invalid_argument);
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
