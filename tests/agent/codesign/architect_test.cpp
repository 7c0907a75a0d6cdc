// The architect agent on the toy suite (toy_suite.h), scripted: a replayed model lists the
// candidates, proposes its own instruction, evaluates it with CD0 and reads the front.
// Figures follow from the toy suite's rule (10 cycles per instruction line):
//   base: ta 60, tb 80. CD0 takes ta to 50. MYMA (x*x then + x, the first two steps of
//   tb) takes tb to 70. Together: sqrt(60/50 x 80/70) = sqrt(1.3714...) = 1.1711x.
// MYMA's area is computed from its steps (PLENA's model, docs/codesign.md): no operator
// used twice, one temporary: 64 lanes x 16 bits x (4.522 + 1.862) um2 = 0.006537 mm2.
#include "agent/codesign/architect.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "agent/mcp/mcp_server.h"
#include "agent/providers.h"
#include "agent/transcript.h"
#include "toy_suite.h"

namespace tlmcraft::agent::codesign {
namespace {

using namespace toy;

const char* kMyMa = R"(isa: plena
instructions:
  - mnemonic: MYMA
    opcode: 0x38
    class: V
    unit: vector
    latency_class: codesign_MYMA
    doc: "x * x + x, row-wise"
    operation: "VRAM[gp[rd]] = VRAM[gp[rs1]] * VRAM[gp[rs1]] + VRAM[gp[rs1]]"
    operands:
      - {name: rd, kind: gp, field: rd, role: write, value: vrow}
      - {name: rs1, kind: gp, field: rs1, role: read, value: vrow}
    compose:
      temps: [t0]
      steps: ["V_MUL_VV t0, rs1, rs1, 0", "V_ADD_VV rd, t0, rs1, 0"]
latency_classes:
  - {name: codesign_MYMA, cycles: 1}
)";

json call(const std::string& id, const std::string& name, const json& args) {
  return {{"id", id}, {"name", name}, {"arguments", args.dump()}};
}

struct Architect : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("tlm_architect_" + std::to_string(::getpid()) + "_" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
  ScriptedSuite suite;
  std::unique_ptr<Exploration> ex;
  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir);
    ExploreOptions o;
    o.platform = "plena";
    o.out_dir = dir.string();
    o.base_area_mm2 = 1.0;
    o.area_budget_mm2 = 0.05;
    o.hardware = kHardware;
    ex = std::make_unique<Exploration>(plena(), candidates(), suite_cells(), suite.runner(), o);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string script(const std::vector<json>& turns) {
    const std::string path = (dir / "script.jsonl").string();
    std::ofstream out(path);
    for (const json& t : turns) out << t.dump() << "\n";
    return path;
  }
};

TEST_F(Architect, ProposesEvaluatesAndReadsTheFront) {
  const std::string path = script({
      {{"role", "assistant"}, {"tool_calls", {call("1", "list_candidates", json::object())}}},
      {{"role", "assistant"}, {"tool_calls", {call("2", "propose_instruction", {{"name", "MYMA"}, {"overlay_yaml", kMyMa}})}}},
      {{"role", "assistant"},
       {"tool_calls", {call("3", "evaluate_isa_variant", {{"candidates", {"CD0", "MYMA"}}})}}},
      {{"role", "assistant"}, {"tool_calls", {call("4", "get_pareto", json::object())}}},
      {{"role", "assistant"}, {"content", "Recommend CD0+MYMA."}},
  });
  ProviderOptions po;
  po.kind = "replay";
  po.replay_path = path;
  auto provider = make_replay_provider(po);
  ArchitectToolbox tools(*ex, plena(), kHardware);
  ArchitectOptions o;
  o.budget = 10;
  o.transcript_path = (dir / "architect.jsonl").string();
  o.system_prompt = architect_prompt(*ex, "plena");
  const ArchitectResult r = run_architect(*provider, tools, *ex, o);
  EXPECT_EQ(r.stop_reason, "answer");
  EXPECT_EQ(r.rounds, 5);
  EXPECT_EQ(r.tool_errors, 0);
  EXPECT_EQ(r.answer, "Recommend CD0+MYMA.");
  EXPECT_EQ(suite.calls, 2);  // base and CD0+MYMA, nothing else
  const ExploreResult res = ex->result();
  ASSERT_EQ(res.variants.size(), 2u);
  EXPECT_EQ(res.variants[1].id, "CD0+MYMA");
  EXPECT_NEAR(geomean_speedup(res.variants[0], res.variants[1]), std::sqrt(1.2 * 80.0 / 70.0), 1e-12);
  EXPECT_NEAR(res.variants[1].area_mm2, 1.0 + 0.01 + 64 * 16 * (4.522 + 1.862) * 1e-6, 1e-12);
  EXPECT_EQ(r.pareto, (std::vector<std::string>{"base", "CD0+MYMA"}));
  // The transcript holds every round; the tool answers carry the figures the model read.
  const TranscriptState st = read_transcript(o.transcript_path);
  EXPECT_EQ(st.last_round_end.value("rounds", 0), 5);
  bool saw = false;
  for (const Message& m : st.conversation)
    if (m.role == Role::Tool && m.tool_name == "evaluate_isa_variant")
      saw = m.content.find("pass, suite speedup 1.1711x") != std::string::npos;
  EXPECT_TRUE(saw);
}

TEST_F(Architect, VariantUsesNameAnInstructionNoKernelHas) {
  // x + x then exp: neither toy kernel holds it. Its area by PLENA's model: no operator used
  // twice, one temporary: 64 x 16 x (4.522 + 1.862) um2 = 0.006537 mm2 (as MYMA's above).
  std::string overlay = kMyMa;
  overlay.replace(overlay.find("MYMA"), 4, "ADDX");
  overlay.replace(overlay.find("codesign_MYMA"), 13, "codesign_ADDX");
  overlay.replace(overlay.find("codesign_MYMA"), 13, "codesign_ADDX");
  overlay.replace(overlay.find("V_MUL_VV t0, rs1, rs1, 0"), 24, "V_ADD_VV t0, rs1, rs1, 0");
  overlay.replace(overlay.find("V_ADD_VV rd, t0, rs1, 0"), 23, "V_EXP_V rd, t0, 0");
  ArchitectToolbox tools(*ex, plena(), kHardware);
  ASSERT_FALSE(tools.call("propose_instruction", json{{"name", "ADDX"}, {"overlay_yaml", overlay}}.dump()).is_error);
  const ToolResult r = tools.call("evaluate_isa_variant", R"({"candidates":["ADDX"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.text, "ADDX: pass, suite speedup 1.0000x, area 1.0065 mm2 (+0.65%); ADDX: added, 0 uses in 2 runs "
                    "(area +0.006537 mm2 with no effect on cycles)");
}

TEST_F(Architect, BadProposalsAreToolErrors) {
  ArchitectToolbox tools(*ex, plena(), kHardware);
  EXPECT_EQ(tools.call("propose_instruction", R"({"name":"x","overlay_yaml":"isa: plena"})").text,
            "propose_instruction: name 'x' must be upper case letters, digits and _");
  EXPECT_EQ(tools.call("propose_instruction", R"({"name":"X","overlay_yaml":"isa: riscv\ninstructions: []"})").text,
            "propose_instruction: the overlay must be a map with isa: plena");
  EXPECT_EQ(tools.call("propose_instruction", R"({"name":"X","overlay_yaml":"isa: [plena"})").is_error, true);
  EXPECT_EQ(tools.call("evaluate_isa_variant", R"({"candidates":["NOPE"]})").text,
            "evaluate_isa_variant: no candidate named 'NOPE'");
  EXPECT_EQ(tools.call("evaluate_isa_variant", R"({"candidates":["CD0","CD0"]})").text,
            "evaluate_isa_variant: candidate 'CD0' named twice");
  ExploreOptions tight = ex->options();
  tight.area_budget_mm2 = 0.025;
  Exploration small(plena(), candidates(), suite_cells(), suite.runner(), tight);
  ArchitectToolbox small_tools(small, plena(), kHardware);
  EXPECT_EQ(small_tools.call("evaluate_isa_variant", R"({"candidates":["CD0","CD1"]})").text,
            "evaluate_isa_variant: 0.0300 mm2 added is over the budget of 0.0250 mm2");
  EXPECT_EQ(suite.calls, 0);  // nothing was run for any of these
  EXPECT_TRUE(tools.call("frobnicate", "{}").is_error);
}

TEST_F(Architect, ToolsOverMcp) {
  ArchitectToolbox tools(*ex, plena(), kHardware);
  McpServer server(tools);
  auto send = [&](const json& m) {
    const auto r = server.handle_line(m.dump());
    return r ? json::parse(*r) : json();
  };
  send({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
        {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                    {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}});
  send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  const json list = send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}});
  ASSERT_EQ(list["result"]["tools"].size(), 4u);
  const json ev = send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"},
                        {"params", {{"name", "evaluate_isa_variant"}, {"arguments", {{"candidates", {"CD0"}}}}}}});
  EXPECT_EQ(ev["result"]["isError"], false);
  EXPECT_NE(ev["result"]["content"][0]["text"].get<std::string>().find("CD0: pass, suite speedup 1.0954x"),
            std::string::npos);
  // CD0 (exp then reciprocal) is in ta once, run once (toy_suite.h); its area 0.01 mm2.
  const std::string cd0 = "CD0: executed 1 time in 1 of 2 runs (ta/C1), placed 1 time (area +0.010000 mm2)";
  EXPECT_NE(ev["result"]["content"][0]["text"].get<std::string>().find("(+1.00%); " + cd0), std::string::npos);
  EXPECT_EQ(ev["result"]["structuredContent"]["isa_variant_uses"][0]["text"], cd0);
  const json front = send({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"},
                           {"params", {{"name", "get_pareto"}, {"arguments", json::object()}}}});
  EXPECT_NE(front["result"]["content"][0]["text"].get<std::string>().find("CD0: speedup 1.0954x"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
