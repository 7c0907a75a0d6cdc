// Post-increment candidates on PLENA (docs/codesign.md, "Registers updated in place"):
// a composed instruction whose gp operand is read and written (a row op on the row the
// register addresses, then the register's increment). The miner finds them in a
// hand-built kernel with their dynamic counts, within the gp file's one write port and
// write-after-read order; the matcher places them (at the last step, or at the first
// when an interleaved op reads what the earlier steps read); the cycles change as
// derived in the comments (PLENA serial timing, default latencies: V_EXP_V, S_ADDI_INT,
// C_LOOP_START and C_LOOP_END 1 cycle each; the fused instruction's estimate is its
// slowest step, 1 cycle).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "agent/codesign/miner.h"
#include "agent/codesign/overlay_yaml.h"
#include "tests/agent/codesign/plena_run_dir.h"

namespace tlmcraft::agent::codesign {
namespace {

const nlohmann::json kHardware = {{"platform", "plena"}, {"config", {{"arch", {{"vlen", 64}}}}}};

// Two loops apply exp in place to a row and step to the next one (rows 0.. and
// 2048..), through different registers: one pattern, 12 + 20 = 32 dynamic instances.
const char* kKernel = R"(S_ADDI_INT gp1, gp0, 0
S_ADDI_INT gp3, gp0, 2048
C_LOOP_START gp6, 12
  V_EXP_V gp1, gp1, 0
  S_ADDI_INT gp1, gp1, 64
C_LOOP_END gp6
C_LOOP_START gp6, 20
  V_EXP_V gp3, gp3, 0
  S_ADDI_INT gp3, gp3, 64
C_LOOP_END gp6
)";

// Source (gp1) and destination (gp2) rows both step, 8 iterations.
const char* kBothStep = R"(S_ADDI_INT gp1, gp0, 0
S_ADDI_INT gp2, gp0, 1024
C_LOOP_START gp6, 8
  V_EXP_V gp2, gp1, 0
  S_ADDI_INT gp1, gp1, 64
  S_ADDI_INT gp2, gp2, 64
C_LOOP_END gp6
)";

std::vector<MinedCandidate> mine_kernel(const std::string& text) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  EXPECT_NE(a, nullptr);
  return mine(*a, {{"hand/C1", "hand.asm", text, kHardware}}, {10});
}

struct Dir : PlenaRunDir {
  Dir() : PlenaRunDir("post-increment") {}
};

TEST(PostIncrement, MinerFindsThePatternWithItsCount) {
  const auto found = mine_kernel(kKernel);
  ASSERT_EQ(found.size(), 1u);
  // The row is read and written through the register the increment updates (io0): no
  // other input or output.
  EXPECT_EQ(found[0].signature, "V_EXP_V out0@io0, in0@io0, 0\nS_ADDI_INT io0, io0, 64\n");
  EXPECT_EQ(found[0].dynamic_instances, 32u);
  EXPECT_EQ(found[0].cycles_saved, 32.0);  // 32 x ((1 + 1) - 1)
  EXPECT_EQ(found[0].kernels.at("hand/C1"), 32u);
  EXPECT_EQ(found[0].pattern.inputs, (std::vector<std::string>{"io0", "in0"}));
  EXPECT_EQ(found[0].pattern.outputs, (std::vector<std::string>{"io0", "out0"}));
  // Area: its own int32 adder (137 um2) and a 2:1 mux per bit of the gp write data
  // (32 x 1.862 um2); the exp reuses the vector unit's: 196.584 um2.
  EXPECT_NEAR(found[0].cost.area_mm2, 196.584e-6, 1e-12);
}

TEST(PostIncrement, OverlayHasOneReadWriteOperand) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  const nlohmann::json doc = candidates_document(*a, "plena", mine_kernel(kKernel), "CD");
  const nlohmann::json& ins = doc["candidates"][0]["overlay"]["instructions"][0];
  EXPECT_EQ(ins["compose"]["steps"], nlohmann::json({"V_EXP_V rd, rd, 0", "S_ADDI_INT rd, rd, 64"}));
  ASSERT_EQ(ins["operands"].size(), 1u);
  EXPECT_EQ(ins["operands"][0],
            nlohmann::json({{"name", "rd"}, {"kind", "gp"}, {"field", "rd"}, {"role", "readwrite"}, {"value", "gp"}}));
}

TEST(PostIncrement, MatcherPlacesItAndTheCyclesDropByOnePerInstance) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  const nlohmann::json overlay =
      candidates_document(*a, "plena", mine_kernel(kKernel), "CD")["candidates"][0]["overlay"];
  const KernelRewrite r = a->use_overlay(kKernel, overlay, kHardware);
  EXPECT_EQ(r.kernel, R"(S_ADDI_INT gp1, gp0, 0
S_ADDI_INT gp3, gp0, 2048
C_LOOP_START gp6, 12
  CD0 gp1
C_LOOP_END gp6
C_LOOP_START gp6, 20
  CD0 gp3
C_LOOP_END gp6
)");
  EXPECT_EQ(r.uses.at("CD0").static_count, 2);
  EXPECT_EQ(r.uses.at("CD0").executions, 32u);
  // Serial timing: 2 set-ups + (1 + 12 x 3) + (1 + 20 x 3) = 100 cycles before;
  // 2 + (1 + 12 x 2) + (1 + 20 x 2) = 68 after: one cycle per instance, 32.
  Dir d;
  EXPECT_EQ(d.cycles(kKernel), 100);
  EXPECT_EQ(d.cycles(r.kernel, to_yaml(overlay)), 68);
}

TEST(PostIncrement, TwoUpdatesExceedTheWritePortAndAReaderBetweenBlocksIt) {
  // Source and destination both step: each increment with the exp is a candidate, never
  // both (two gp writes in one instruction; PLENA's instructions write one).
  const auto two = mine_kernel(kBothStep);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].signature, "V_EXP_V out0, in0@io0, 0\nS_ADDI_INT io0, io0, 64\n");
  EXPECT_EQ(two[1].signature, "V_EXP_V out0@io0, in0, 0\nS_ADDI_INT io0, io0, 64\n");
  EXPECT_EQ(two[0].dynamic_instances, 8u);
  EXPECT_EQ(two[1].dynamic_instances, 8u);
  // An op between the exp and the increment reads gp1 (the old address): one
  // instruction cannot replace the pair there (write-after-read).
  EXPECT_TRUE(mine_kernel(R"(S_ADDI_INT gp1, gp0, 0
C_LOOP_START gp6, 8
  V_EXP_V gp1, gp1, 0
  S_ADD_INT gp7, gp1, gp0
  S_ADDI_INT gp1, gp1, 64
C_LOOP_END gp6
S_ST_INT gp7, gp0, 0
)")
                  .empty());
}

// The destination's increment with the exp, where the source's increment sits between
// them: placing the instruction at the last step would move the exp after gp1 changed,
// so it goes at the first step (the source's increment still follows it).
TEST(PostIncrement, PlacedAtTheFirstStepWhenAnInterleavedOpChangesItsSource) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  const std::string kernel = kBothStep;
  const auto two = mine_kernel(kernel);
  ASSERT_EQ(two.size(), 2u);
  const nlohmann::json overlay = candidates_document(*a, "plena", {two[1]}, "CD")["candidates"][0]["overlay"];
  ASSERT_EQ(overlay["instructions"][0]["compose"]["steps"],
            nlohmann::json({"V_EXP_V rd, rs1, 0", "S_ADDI_INT rd, rd, 64"}));
  const KernelRewrite r = a->use_overlay(kernel, overlay, kHardware);
  EXPECT_EQ(r.kernel, R"(S_ADDI_INT gp1, gp0, 0
S_ADDI_INT gp2, gp0, 1024
C_LOOP_START gp6, 8
  CD0 gp2, gp1
  S_ADDI_INT gp1, gp1, 64
C_LOOP_END gp6
)");
  // 2 + (1 + 8 x 4) = 35 cycles before, 2 + (1 + 8 x 3) = 27 after.
  Dir d;
  EXPECT_EQ(d.cycles(kernel), 35);
  EXPECT_EQ(d.cycles(r.kernel, to_yaml(overlay)), 27);
  // An op between them that reads gp2 (the destination's old address) blocks it:
  // neither place keeps what it reads.
  std::string blocked = kernel;
  blocked.insert(blocked.find("  S_ADDI_INT gp1, gp1"), "  S_ADD_INT gp7, gp2, gp0\n");
  EXPECT_EQ(a->use_overlay(blocked, overlay, kHardware).uses.count("CD0"), 0u);
}

// A chain kept in one row (x * f1, then exp, in place) before the increment: the
// intermediate row stays a temporary of the instruction (a hidden row), so its overlay
// is alias-safe and loads.
TEST(PostIncrement, ChainInOneRowKeepsItsTemporaryAndLoads) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  const std::string kernel = R"(S_ADDI_INT gp1, gp0, 0
C_LOOP_START gp6, 4
  V_MUL_VF gp1, gp1, f1, 0
  V_EXP_V gp1, gp1, 0
  S_ADDI_INT gp1, gp1, 64
C_LOOP_END gp6
)";
  const auto found = mine_kernel(kernel);
  const std::string sig = "V_MUL_VF t0@io0, in0@io0, in1, 0\nV_EXP_V out0@io0, t0@io0, 0\nS_ADDI_INT io0, io0, 64\n";
  auto it = std::find_if(found.begin(), found.end(), [&](const MinedCandidate& c) { return c.signature == sig; });
  ASSERT_NE(it, found.end());
  EXPECT_EQ(it->dynamic_instances, 4u);
  const nlohmann::json overlay = candidates_document(*a, "plena", {*it}, "CD")["candidates"][0]["overlay"];
  EXPECT_EQ(overlay["instructions"][0]["compose"]["steps"],
            nlohmann::json({"V_MUL_VF t0, rd, rs1, 0", "V_EXP_V rd, t0, 0", "S_ADDI_INT rd, rd, 64"}));
  Dir d;
  std::string out, err;
  EXPECT_EQ(d.run("isa check plena --isa-ext '" + d.write("chain.yaml", to_yaml(overlay)) + "'", out, err), 0) << err;
  // 1 + (1 + 4 x 4) = 18 cycles before; 1 + (1 + 4 x 2) = 10 after.
  const KernelRewrite r = a->use_overlay(kernel, overlay, kHardware);
  EXPECT_EQ(r.uses.at("CD0").executions, 4u);
  EXPECT_EQ(d.cycles(kernel), 18);
  EXPECT_EQ(d.cycles(r.kernel, to_yaml(overlay)), 10);
}

// A read-write operand where the instruction cannot have one: `isa check` exits 2 naming
// the file, line and column.
TEST(PostIncrement, BadReadWriteOperandsAreErrorsAtFileLineCol) {
  Dir d;
  const std::string head =
      "isa: plena\ninstructions:\n  - mnemonic: CDX\n    opcode: 0x38\n    class: V\n    unit: vector\n"
      "    latency_class: vector_exp\n    doc: \"x\"\n    operation: \"x\"\n    operands:\n";
  struct Case {
    std::string operand, steps, needle, message;
  };
  const Case cases[] = {
      // Declared updated in place, but no step writes the register.
      {"      - {name: rd, kind: gp, field: rd, role: readwrite, value: gp}\n", "        - \"V_EXP_V rd, rd, 0\"\n",
       "rd, rd, 0",
       "instruction CDX: step 1 ('V_EXP_V rd, rd, 0'): rd is declared role: readwrite (a register updated in "
       "place) but no step writes the register"},
      // An address operand (vrow: the register is only read) incremented.
      {"      - {name: rd, kind: gp, field: rd, role: readwrite, value: vrow}\n",
       "        - \"V_EXP_V rd, rd, 0\"\n        - \"S_ADDI_INT rd, rd, 64\"\n", "rd, rd, 64",
       "instruction CDX: step 2 ('S_ADDI_INT rd, rd, 64'): writes the register rd, whose value class vrow is an "
       "address (only read); to update the register in place declare value: gp, role: readwrite"},
  };
  for (const Case& c : cases) {
    const std::string yaml = head + c.operand + "    compose:\n      steps:\n" + c.steps;
    const std::string file = d.write("bad.yaml", yaml);
    const size_t p = yaml.find(c.needle);
    int line = 1;
    size_t bol = 0;
    for (size_t i = 0; i < p; ++i)
      if (yaml[i] == '\n') ++line, bol = i + 1;
    std::string out, err;
    EXPECT_EQ(d.run("isa check plena --isa-ext '" + file + "'", out, err), 2);
    EXPECT_NE(err.find(file + ":" + std::to_string(line) + ":" + std::to_string(p - bol + 1) + ": " + c.message),
              std::string::npos)
        << err;
  }
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
