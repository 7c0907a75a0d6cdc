// `codesign mine` on hand-built Coral kernels (the ReLU task, C1: 512 int8 values at
// 0x20000000, results at 0x20000200): each kernel is built by the Coral toolchain and run
// on seed 1 with per-PC execution counts, so every count below follows from the loop by
// hand. Default timing: scalar ALU latency 1 cycle; the fused estimate is the slowest
// step (1 cycle).
#include <gtest/gtest.h>

#include "agent/codesign/miner.h"
#include "isa/riscv/custom_ext.h"

namespace tlmcraft::agent::codesign {
namespace {

const nlohmann::json kHardware = {
    {"platform", "coral"}, {"platform_config", "default"}, {"task", "relu"}, {"task_config", "C1"}};

// The ReLU task's loop (C1: a0 walks the 512 inputs, a1 the outputs, a2 counts down), one
// element per iteration: `before_loop` after the pointers are set, `body` between the load
// of x into a5 and the store of a5.
std::string miner_relu_kernel(const std::string& before_loop, const std::string& body) {
  return R"(        .text
        .globl  main
main:
        li      a0, 0x20000000
        li      a1, 0x20000200
        li      a2, 512
)" + before_loop +
         "1:      lb      a5, 0(a0)\n" + body + R"(        sb      a5, 0(a1)
        addi    a0, a0, 1
        addi    a1, a1, 1
        addi    a2, a2, -1
        bnez    a2, 1b
        li      a0, 0
        ret
)";
}

// relu(x) = x - (x & (x >> 31)), x in a5.
const std::string kMinerReluChainSteps = R"(        srai    a6, a5, 31
        and     a6, a6, a5
        sub     a5, a5, a6
)";

// relu(x) = x - (x & (x >> 31)) per element, one element per iteration: 512 iterations.
const std::string kReluChain = miner_relu_kernel("", kMinerReluChainSteps);

std::vector<MinedCandidate> mine_kernel(const std::string& text) {
  const DataflowAdapter* a = find_dataflow_adapter("coral");
  EXPECT_NE(a, nullptr);
  return mine(*a, {{"relu/C1", "hand.s", text, kHardware}}, {1000});
}

TEST(CoralCodesignMiner, FindsTheRepeatedChainWithItsDynamicCount) {
  // The loop body's fusable ops: srai -> and -> sub (one value x = a5 from the load in,
  // a5 out to the store) and three independent addi. Convex connected subgraphs: the
  // chain (x in, one output: 2 cycles saved per iteration, 3 steps of 1 cycle -> 1) and
  // its two pairs (1 cycle each). The addi are not connected to anything in the block.
  // 512 iterations: 1024 and 512 cycles.
  // With the load (one memory port: isa/riscv/load_step.h) the chain is a fourth candidate
  // reading x from memory (below); ranked after it: the same saving for more area.
  auto found = mine_kernel(kReluChain);
  ASSERT_EQ(found.size(), 4u);
  EXPECT_EQ(found[0].signature, "srai t0, in0, 0x1f\nand t1, t0, in0\nsub out0, in0, t1\n");
  EXPECT_EQ(found[1].signature, "lb t0, 0, in0\nsrai t1, t0, 0x1f\nand t2, t1, t0\nsub out0, t0, t2\n");
  EXPECT_EQ(found[1].cycles_saved, 1024.0);
  found.erase(found.begin() + 1);
  EXPECT_EQ(found[0].dynamic_instances, 512u);
  EXPECT_EQ(found[0].cycles_saved, 1024.0);
  EXPECT_EQ(found[0].pattern.inputs, (std::vector<std::string>{"in0"}));
  EXPECT_EQ(found[0].pattern.outputs, (std::vector<std::string>{"out0"}));
  EXPECT_EQ(found[0].pattern.temps, (std::vector<std::string>{"t0", "t1"}));
  EXPECT_EQ(found[0].kernels.at("relu/C1"), 512u);
  // The pairs: `and` reads the srai's result (in0) and x (in1); srai+and reads x only.
  EXPECT_EQ(found[1].signature, "and t0, in0, in1\nsub out0, in1, t0\n");
  EXPECT_EQ(found[2].signature, "srai t0, in0, 0x1f\nand out0, t0, in0\n");
  EXPECT_EQ(found[1].dynamic_instances, 512u);
  EXPECT_EQ(found[2].dynamic_instances, 512u);
  EXPECT_EQ(found[1].cycles_saved, 512.0);
}

TEST(CoralCodesignMiner, TheCandidateIsAValidOverlayInCustom3) {
  const DataflowAdapter* a = find_dataflow_adapter("coral");
  ASSERT_NE(a, nullptr);
  const auto found = mine_kernel(kReluChain);
  ASSERT_FALSE(found.empty());
  const nlohmann::json doc = candidates_document(*a, "coral", found, "CD");
  const nlohmann::json& ins = doc["candidates"][0]["overlay"]["instructions"][0];
  EXPECT_EQ(ins["mnemonic"], "cd0");
  EXPECT_EQ(ins["encoding"], (nlohmann::json{{"opcode", "custom-3"}, {"format", "r"}, {"funct3", 4}, {"funct7", 0}}));
  EXPECT_EQ(ins["compose"]["steps"], (nlohmann::json{"srai t0, rs1, 0x1f", "and t1, t0, rs1", "sub rd, rs1, t1"}));
  EXPECT_EQ(ins["timing"]["unit"], "alu");
  EXPECT_EQ(ins["timing"]["latency"], 1);
  // Area: three 32-bit operators (two adders' worth for and/shift as logic, one adder for
  // sub: 3 x 137 um2) and two 32-bit temps (64 x (4.522 + 1.862) um2) = 411 + 408.576 um2.
  EXPECT_NEAR(found[0].cost.area_mm2, (3 * 137 + 64 * (4.522 + 1.862)) * 1e-6, 1e-12);
  EXPECT_NEAR(a->overlay_area(doc["candidates"][0]["overlay"], kHardware), found[0].cost.area_mm2, 1e-12);
}

// The same ReLU with s2..s5 = 0 added to x first through a tree: t5 = (s2 + s3) +
// (s4 + s5), a5 = a5 + t5. The tree has four inputs: more than R4's three source fields.
const std::string kReluTree = miner_relu_kernel(R"(        li      s2, 0
        li      s3, 0
        li      s4, 0
        li      s5, 0
)",
                                                R"(        add     t3, s2, s3
        add     t4, s4, s5
        add     t5, t3, t4
        add     a5, a5, t5
)" + kMinerReluChainSteps);

TEST(CoralCodesignMiner, APatternWithMoreThanThreeSourcesIsNotProposed) {
  const auto found = mine_kernel(kReluTree);
  ASSERT_FALSE(found.empty());
  for (const MinedCandidate& c : found) {
    EXPECT_LE(c.pattern.inputs.size(), 3u) << c.signature;
    EXPECT_EQ(c.pattern.outputs.size(), 1u) << c.signature;
  }
  bool tree = false, half = false;
  for (const MinedCandidate& c : found) {
    tree = tree || c.signature == "add t0, in0, in1\nadd t1, in2, in3\nadd out0, t0, t1\n";
    // One add of the tree with the final add: three inputs, 512 instances.
    if (c.signature == "add t0, in0, in1\nadd out0, t0, in2\n") {
      half = true;
      EXPECT_EQ(c.dynamic_instances, 512u);
    }
  }
  EXPECT_FALSE(tree);
  EXPECT_TRUE(half);
}

TEST(CoralCodesignMiner, ALoadFeedingTheChainIsProposedWithItsCountAndOverlay) {
  // lb -> srai -> and -> sub: the address a0 in, a5 out (stored), 512 iterations. The load's
  // cycles (operand read 1 + one block 1 + load_tail 3) are the same fused or not: the
  // saving is the chain's, 3 steps of 1 cycle -> 1, 2 x 512 = 1024.
  const DataflowAdapter* a = find_dataflow_adapter("coral");
  ASSERT_NE(a, nullptr);
  const auto found = mine_kernel(kReluChain);
  const MinedCandidate* load = nullptr;
  for (const MinedCandidate& c : found)
    if (c.signature.rfind("lb ", 0) == 0) load = &c;
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->dynamic_instances, 512u);
  EXPECT_EQ(load->cycles_saved, 1024.0);
  EXPECT_EQ(load->cost.step_cycles, 5 + 3.0);
  EXPECT_EQ(load->cost.fused_cycles, 5 + 1.0);
  EXPECT_EQ(load->pattern.inputs, (std::vector<std::string>{"in0"}));
  EXPECT_EQ(load->pattern.outputs, (std::vector<std::string>{"out0"}));
  // Area: the chain's 3 operators and 3 temps (x, x >> 31, the and) plus the load path
  // (address adder 137 + 64 x MUX2 1.862 um2).
  EXPECT_NEAR(load->cost.area_mm2, (3 * 137 + 96 * (4.522 + 1.862) + 137 + 64 * 1.862) * 1e-6, 1e-12);
  // Its overlay writes the load step as the ISA does, the latency after the load (1).
  const nlohmann::json doc = candidates_document(*a, "coral", {*load}, "CD");
  const nlohmann::json& ins = doc["candidates"][0]["overlay"]["instructions"][0];
  EXPECT_EQ(ins["compose"]["steps"],
            (nlohmann::json{"lb t0, 0(rs1)", "srai t1, t0, 0x1f", "and t2, t1, t0", "sub rd, t0, t2"}));
  EXPECT_EQ(ins["timing"]["latency"], 1);
}

// The same ReLU with a store between the load and the chain (0 into the output, then the
// result over it): the loaded x would be read after that store at the chain's end.
const std::string kReluStoreBetween = miner_relu_kernel("", "        sb      zero, 0(a1)\n" + kMinerReluChainSteps);

TEST(CoralCodesignMiner, AStoreBetweenTheLoadAndTheChainRefusesTheLoad) {
  const auto found = mine_kernel(kReluStoreBetween);
  ASSERT_EQ(found.size(), 3u);  // the chain and its two pairs, as without the load
  for (const MinedCandidate& c : found) EXPECT_EQ(c.signature.find("lb "), std::string::npos) << c.signature;
  EXPECT_EQ(found[0].signature, "srai t0, in0, 0x1f\nand t1, t0, in0\nsub out0, in0, t1\n");
  EXPECT_EQ(found[0].dynamic_instances, 512u);
}

TEST(CoralCodesignMiner, PortLimitsAreTheCustomFormatsFields) {
  const DataflowAdapter* a = find_dataflow_adapter("coral");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->limits.read_ports, 3);  // R4: rs1, rs2, rs3
  EXPECT_EQ(a->limits.write_ports, 1);
  EXPECT_EQ(a->limits.memory, "mem");
  EXPECT_EQ(a->limits.max_memory_reads, 1);  // custom_memory_ports(): one load
  EXPECT_EQ(a->isa, "riscv");
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
