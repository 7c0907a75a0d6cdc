// A second gp write port as a hardware change of a PLENA variant (docs/codesign.md, "A
// second gp write port"): with it (`codesign mine --hardware GPW2`) a composed
// instruction may update two gp registers (both post-increments of a V_SHFT_V loop) and
// an update may be fused into the loop end; without it neither is proposed, an overlay
// writing two gp registers does not load, and the explorer counts the port's area once.
// Cycles: PLENA serial timing, default latencies (V_SHFT_V, S_ADDI_INT, C_LOOP_START and
// C_LOOP_END 1 cycle each; a fused instruction's estimate is its slowest step, 1 cycle).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "agent/codesign/explorer.h"
#include "agent/codesign/miner.h"
#include "agent/codesign/overlay_yaml.h"
#include "isa/isa_spec.h"
#include "tests/agent/codesign/plena_run_dir.h"
#include "tests/agent/codesign/shift_loop.h"

namespace tlmcraft::agent::codesign {
namespace {

const nlohmann::json kHardware = {{"platform", "plena"}, {"config", {{"arch", {{"vlen", 64}}}}}};

// The update is read (by the exp, through gp1) before the loop end: moving it into the
// loop end would give the exp the old address.
const char* kReadBeforeEnd = R"(S_ADDI_INT gp1, gp0, 0
S_ADDI_INT gp4, gp0, 2048
C_LOOP_START gp6, 8
  S_ADDI_INT gp1, gp1, 64
  V_EXP_V gp4, gp1, 0
C_LOOP_END gp6
)";

std::vector<MinedCandidate> mine_kernel(const std::string& text, std::vector<std::string> hardware) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  EXPECT_NE(a, nullptr);
  MineOptions o;
  o.hardware = std::move(hardware);
  return mine(*a, {{"hand/C1", "hand.asm", text, kHardware}}, o);
}

const MinedCandidate* find(const std::vector<MinedCandidate>& found, const std::string& signature) {
  for (const MinedCandidate& c : found)
    if (c.signature == signature) return &c;
  return nullptr;
}

const char* kBoth = "V_SHFT_V out0@io0, in0@io1, in1, 0\nS_ADDI_INT io0, io0, 64\nS_ADDI_INT io1, io1, 64\n";
const char* kLoopEnd = "S_ADDI_INT io0, io0, 64\nC_LOOP_END\n";

struct Dir : PlenaRunDir {
  Dir() : PlenaRunDir("gp-port") {}
  // The error of loading `overlay` over the shipped PLENA ISA ("" when it loads).
  std::string load_error(const std::string& overlay) const {
    try {
      isa::IsaSpec::load(isa::isa_yaml_path("plena"), {write("bad.yaml", overlay)});
    } catch (const isa::IsaSpecError& e) {
      return e.what();
    }
    return "";
  }
};

TEST(GpWritePort, TwoUpdatesAndLoopEndFusionAreMinedOnlyWithThePort) {
  // Without the port: the shift with one post-increment each (gp1's, gp2's), nothing more.
  const auto without = mine_kernel(kShiftLoop, {});
  ASSERT_EQ(without.size(), 2u);
  EXPECT_EQ(find(without, kBoth), nullptr);
  EXPECT_EQ(find(without, kLoopEnd), nullptr);
  for (const MinedCandidate& c : without) EXPECT_TRUE(c.needs.empty());
  // With it: also both post-increments in one instruction and gp2's update (the last one
  // of the body; gp1's has the same signature) fused into the loop end, both needing it.
  const auto with = mine_kernel(kShiftLoop, {"GPW2"});
  ASSERT_EQ(with.size(), 4u);
  const MinedCandidate* both = find(with, kBoth);
  ASSERT_NE(both, nullptr);
  EXPECT_EQ(both, &with[0]);  // 36 / (36 - 8 x 2) = 1.8: the largest geometric-mean gain
  EXPECT_EQ(both->dynamic_instances, 8u);
  EXPECT_EQ(both->cycles_saved, 16.0);  // 8 x ((1 + 1 + 1) - 1)
  EXPECT_DOUBLE_EQ(both->geomean_speedup, 1.8);
  EXPECT_EQ(both->needs, std::vector<std::string>{"GPW2"});
  const MinedCandidate* end = find(with, kLoopEnd);
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end->dynamic_instances, 8u);
  EXPECT_EQ(end->cycles_saved, 8.0);  // 8 x ((1 + 1) - 1)
  EXPECT_DOUBLE_EQ(end->geomean_speedup, 36.0 / 28.0);
  EXPECT_EQ(end->needs, std::vector<std::string>{"GPW2"});
  // Its area: the update's int32 adder and the gp write mux (137 + 32 x 1.862 um2).
  EXPECT_NEAR(end->cost.area_mm2, 196.584e-6, 1e-12);
}

TEST(GpWritePort, BothUpdatesFusedTakeTheLoopFromFourCyclesPerIterationToTwo) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  const auto with = mine_kernel(kShiftLoop, {"GPW2"});
  const nlohmann::json doc = candidates_document(*a, "plena", with, "CD");
  // The document lists the port once, with its area: 16 registers x 32 bits x a 2:1
  // multiplexer (1.862 um2) = 953.344 um2.
  ASSERT_EQ(doc["hardware"].size(), 1u);
  EXPECT_EQ(doc["hardware"][0]["name"], "GPW2");
  EXPECT_NEAR(doc["hardware"][0]["area_mm2"].get<double>(), 953.344e-6, 1e-12);
  const nlohmann::json& overlay = doc["candidates"][0]["overlay"];
  EXPECT_EQ(overlay["register_ports"][0]["write_ports"], 2);
  EXPECT_EQ(overlay["instructions"][0]["compose"]["steps"],
            nlohmann::json({"V_SHFT_V rd, rs1, rs2, 0", "S_ADDI_INT rd, rd, 64", "S_ADDI_INT rs1, rs1, 64"}));
  const KernelRewrite r = a->use_overlay(kShiftLoop, overlay, kHardware);
  EXPECT_EQ(r.uses.at("CD0").executions, 8u);
  Dir d;
  // 3 + 1 + 8 x 4 = 36 before; 3 + 1 + 8 x 2 = 20 after (the instruction, C_LOOP_END).
  EXPECT_EQ(d.cycles(kShiftLoop), 36);
  EXPECT_EQ(d.cycles(r.kernel, to_yaml(overlay)), 20);
}

TEST(GpWritePort, OnePostIncrementAndALoopEndFusionAlsoGiveTwoCyclesPerIteration) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  const auto with = mine_kernel(kShiftLoop, {"GPW2"});
  std::vector<MinedCandidate> pair;
  for (const MinedCandidate& c : with)
    if (c.signature == kLoopEnd || c.signature == "V_SHFT_V out0@io0, in0, in1, 0\nS_ADDI_INT io0, io0, 64\n")
      pair.push_back(c);
  ASSERT_EQ(pair.size(), 2u);
  const nlohmann::json doc = candidates_document(*a, "plena", pair, "CD");
  nlohmann::json overlay = {{"isa", "plena"}};
  for (const nlohmann::json& c : doc["candidates"])
    for (const char* key : {"instructions", "latency_classes"})
      for (const nlohmann::json& e : c["overlay"][key]) overlay[key].push_back(e);
  overlay["register_ports"] = doc["hardware"][0]["overlay"]["register_ports"];
  const std::string end = pair[0].signature == kLoopEnd ? "CD0" : "CD1", shift = end == "CD0" ? "CD1" : "CD0";
  const KernelRewrite r = a->use_overlay(kShiftLoop, overlay, kHardware);
  // gp2's post-increment goes with the shift (at its first step: gp1's update follows),
  // gp1's update, now last in the body, into the loop end.
  EXPECT_EQ(r.kernel,
            "S_ADDI_INT gp1, gp0, 0\nS_ADDI_INT gp2, gp0, 1024\nS_ADDI_INT gp8, gp0, 3\n"
            "C_LOOP_START gp6, 8\n  " +
                shift + " gp2, gp1, gp8\n" + end + " gp6, gp1  ; C_LOOP_END with S_ADDI_INT gp1, gp1, 64\n");
  EXPECT_EQ(r.uses.at(end).static_count, 1);
  EXPECT_EQ(r.uses.at(end).executions, 8u);
  Dir d;
  EXPECT_EQ(d.cycles(r.kernel, to_yaml(overlay)), 20);  // 3 + 1 + 8 x 2
}

TEST(GpWritePort, AnUpdateReadBeforeTheLoopEndIsNeverFused) {
  EXPECT_TRUE(mine_kernel(kReadBeforeEnd, {"GPW2"}).empty());
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  std::vector<MinedCandidate> end;
  for (const MinedCandidate& c : mine_kernel(kShiftLoop, {"GPW2"}))
    if (c.signature == kLoopEnd) end.push_back(c);
  const nlohmann::json overlay = candidates_document(*a, "plena", end, "CD")["candidates"][0]["overlay"];
  const KernelRewrite r = a->use_overlay(kReadBeforeEnd, overlay, kHardware);
  EXPECT_EQ(r.kernel, kReadBeforeEnd);
  EXPECT_TRUE(r.uses.empty());
}

TEST(GpWritePort, OverlaysBeyondThePortOrTouchingTheCounterDoNotLoad) {
  Dir d;
  const std::string two_updates = R"(isa: plena
instructions:
  - mnemonic: SHFT2
    opcode: 0x38
    class: V
    unit: vector
    latency_class: vector_add
    doc: "shift, both rows' registers stepped"
    operation: "see steps"
    operands:
      - {name: rd, kind: gp, field: rd, role: readwrite, value: gp}
      - {name: rs1, kind: gp, field: rs1, role: readwrite, value: gp}
      - {name: rs2, kind: gp, field: rs2}
    compose:
      steps:
        - V_SHFT_V rd, rs1, rs2, 0
        - S_ADDI_INT rs1, rs1, 64
        - S_ADDI_INT rd, rd, 64
)";
  const std::string file = d.file("bad.yaml");
  // The second update (rd, step 3: line 18, column 22) is one gp write too many for one port.
  EXPECT_EQ(d.load_error(two_updates),
            file +
                ":18:22: instruction SHFT2: step 3 ('S_ADDI_INT rd, rd, 64'): writes 2 gp registers (rs1, rd) in "
                "one instruction, but the gp register file has 1 write port (register_ports:); another port is a "
                "hardware change the overlay declares: register_ports: [{name: gp, write_ports: 2, replace: true}]");
  // With the port declared it loads.
  EXPECT_EQ(d.load_error(two_updates + "register_ports:\n  - {name: gp, write_ports: 2, replace: true}\n"), "");
  // A loop end's composed step may not touch its counter (line 18, column 22: its first rd).
  const std::string counter = R"(isa: plena
register_ports:
  - {name: gp, write_ports: 2, replace: true}
instructions:
  - mnemonic: END2
    opcode: 0x38
    class: C
    unit: control
    latency_class: control
    loop: end
    loop_counter: rd
    doc: "a loop end updating its own counter"
    operation: "see steps"
    operands:
      - {name: rd, kind: gp, field: rd, role: readwrite}
    compose:
      steps:
        - S_ADDI_INT rd, rd, 64
)";
  EXPECT_EQ(d.load_error(counter), file +
                                       ":18:22: instruction END2: step 1 ('S_ADDI_INT rd, rd, 64'): names the "
                                       "loop counter rd: the loop end updates its counter itself, its composed "
                                       "steps may not read or write it");
}

TEST(GpWritePort, ExploreCountsThePortsAreaOncePerVariant) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  Dir d;
  ExploreOptions o;
  o.platform = "plena";
  o.out_dir = d.path();
  o.area_budget_mm2 = 1;
  o.hardware_changes = {{"GPW2", {{"isa", "plena"}}, 0.001}};
  std::vector<ExploreCandidate> cands = {{"A", {{"isa", "plena"}}, 0.0002, {"GPW2"}},
                                         {"B", {{"isa", "plena"}}, 0.0003, {"GPW2"}},
                                         {"C", {{"isa", "plena"}}, 0.0004}};
  const Exploration ex(
      *a, cands, {}, [](const std::string&, const std::string&, const std::string&) { return ""; }, o);
  EXPECT_DOUBLE_EQ(ex.added_area(std::vector<std::string>{"A", "B"}), 0.0002 + 0.0003 + 0.001);
  EXPECT_DOUBLE_EQ(ex.added_area(std::vector<std::string>{"A", "C"}), 0.0002 + 0.0004 + 0.001);
  EXPECT_DOUBLE_EQ(ex.added_area(std::vector<std::string>{"C"}), 0.0004);
  // A candidates file whose candidate needs hardware it does not list is refused.
  const std::string file = d.write("c.yaml", R"(isa: plena
candidates:
  - {name: CD0, needs: [GPW3], overlay: {isa: plena}}
)");
  try {
    load_candidates(file, "plena");
    FAIL() << "loaded";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              file + ": candidate 1 (CD0): needs hardware 'GPW3', which the file's 'hardware' list does not have");
  }
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
