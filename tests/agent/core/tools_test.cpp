// The harness-backed tools: every tool with good and bad arguments.
#include <gtest/gtest.h>

#include "agent/toolbox.h"
#include "test_support.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;
using test::args;

class ToolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ToolboxOptions o;
    o.workspace_dir = dir.str();
    o.workload = {"plena", "silu", "C1"};
    o.seed = 1;  // evaluation k uses seeds 1 + 3k ..
    tools = make_toolbox(o);
  }
  ToolResult call(const std::string& name, const json& a = json::object()) { return tools->call(name, args(a)); }

  test::TempDir dir{"tools"};
  std::unique_ptr<Toolbox> tools;
};

TEST_F(ToolsTest, DeclaresEveryToolWithAClosedObjectSchema) {
  std::vector<std::string> names;
  for (const auto& s : tools->specs()) {
    names.push_back(s.name);
    EXPECT_EQ(s.parameters["type"], "object") << s.name;
    EXPECT_EQ(s.parameters["additionalProperties"], false) << s.name;
    EXPECT_TRUE(s.parameters["required"].is_array()) << s.name;
    EXPECT_FALSE(s.description.empty()) << s.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"write_code", "check_syntax", "run_evaluation", "view_output",
                                             "get_instruction_size", "grep_docs", "profile", "get_task",
                                             "get_hardware_config", "list_tasks", "get_baseline", "submit"}));
}

TEST_F(ToolsTest, WriteCodeStoresNumberedVersions) {
  const auto r1 = call("write_code", {{"code", "S_ADDI_INT gp1, gp0, 1\nS_ADDI_INT gp2, gp0, 2\n"}});
  ASSERT_FALSE(r1.is_error) << r1.text;
  EXPECT_EQ(r1.data["version"], 1);
  EXPECT_EQ(r1.data["lines"], 2);
  EXPECT_EQ(r1.data["success"], true);
  EXPECT_EQ(r1.text, "stored version 1 (2 lines) for silu/plena/C1");
  const auto r2 = call("write_code", {{"code", "x"}});  // one line without a newline
  EXPECT_EQ(r2.data["version"], 2);
  EXPECT_EQ(r2.data["lines"], 1);
  EXPECT_EQ(test::read_file(dir / "silu_plena_C1/v001.asm"), "S_ADDI_INT gp1, gp0, 1\nS_ADDI_INT gp2, gp0, 2\n");
}

TEST_F(ToolsTest, SchemaViolationsNameTheField) {
  auto r = call("write_code", json::object());
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.text, "write_code: invalid arguments: missing required field 'code'");
  r = call("write_code", {{"code", 5}});
  EXPECT_EQ(r.text, "write_code: invalid arguments: field 'code': expected a string, got an integer");
  r = call("write_code", {{"code", "x"}, {"colour", "red"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("unexpected field 'colour'"), std::string::npos) << r.text;
  r = call("grep_docs", {{"query", "V_EXP"}, {"max_results", 0}});
  EXPECT_EQ(r.text, "grep_docs: invalid arguments: field 'max_results': 0 is below the minimum 1");
  r = call("write_code", {{"code", "x"}, {"language", "fortran"}});
  EXPECT_EQ(r.text, "write_code: invalid arguments: field 'language': \"fortran\" is not one of \"asm\", \"c\"");
  r = tools->call("check_syntax", "{not json");
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.text.rfind("check_syntax: arguments are not valid JSON: ", 0), 0u) << r.text;
  r = tools->call("check_syntax", "[1]");
  EXPECT_EQ(r.text, "check_syntax: arguments must be a JSON object, got an array");
  r = tools->call("check_syntax", "");  // empty arguments are the empty object
  EXPECT_EQ(r.text, "check_syntax: no kernel written yet for silu/plena/C1: call write_code first");
}

TEST_F(ToolsTest, UnknownToolAndWorkloadAreErrors) {
  auto r = call("compile");
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.text.rfind("unknown tool 'compile' (tools: write_code, check_syntax,", 0), 0u) << r.text;
  r = call("get_task", {{"task", "nosuchtask"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.text.rfind("get_task: no workload nosuchtask/plena/C1: ", 0), 0u) << r.text;
  r = call("run_evaluation", {{"task", "multiply"}});  // a CPU program: no cell on PLENA
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.text.rfind("run_evaluation: no workload multiply/plena/C1: ", 0), 0u) << r.text;
  r = call("get_task", {{"config", "C9"}});
  EXPECT_TRUE(r.is_error);
  r = call("get_hardware_config", {{"platform", "tpu"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("unknown platform 'tpu'"), std::string::npos);
}

TEST_F(ToolsTest, CheckSyntaxReportsDiagnosticsWithLocation) {
  call("write_code", {{"code", "S_ADDI_INT gp1, gp0, 1\nV_FOO gp1, gp2\n"}});
  const auto r = call("check_syntax");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.data["success"], false);
  ASSERT_EQ(r.data["errors"].size(), 1u);
  // line 2, column 1: the unknown mnemonic
  EXPECT_EQ(r.data["errors"][0].get<std::string>().rfind("v1.asm:2:1: error: unknown mnemonic 'V_FOO'", 0), 0u)
      << r.data["errors"][0];
  EXPECT_EQ(r.text.rfind("version 1: 1 error(s)\nv1.asm:2:1: error:", 0), 0u) << r.text;

  call("write_code", {{"code", test::silu_c1_kernel()}});
  const auto ok = call("check_syntax");
  EXPECT_EQ(ok.data["success"], true);
  // silu_c1.asm: 19 instruction lines (comments and blank lines do not count)
  EXPECT_EQ(ok.data["instructions"], 19);
  EXPECT_EQ(ok.text, "ok: version 2 assembles, 19 instructions");
}

TEST_F(ToolsTest, EvaluationOfTheCorrectKernelPassesAndBecomesBest) {
  EXPECT_TRUE(call("run_evaluation").is_error);  // nothing written yet
  EXPECT_TRUE(call("view_output").is_error);     // nothing evaluated yet
  call("write_code", {{"code", test::silu_c1_kernel()}});
  const auto r = call("run_evaluation");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.data["status"], "pass") << r.text;
  EXPECT_EQ(r.data["match_rate"], 1.0);
  EXPECT_EQ(r.data["is_best"], true);
  EXPECT_EQ(r.data["version"], 1);
  EXPECT_TRUE(r.data["baseline_cycles"].is_number());
  EXPECT_EQ(r.text.rfind("version 1: status: pass  match_rate: 100.00%  cycles: " + r.data["cycles"].dump() +
                             " (baseline " + r.data["baseline_cycles"].dump() + ", speedup ",
                         0),
            0u)
      << r.text;
  EXPECT_TRUE(std::filesystem::exists(dir / "silu_plena_C1/v001.report.json"));
  EXPECT_EQ(test::read_file(dir / "silu_plena_C1/best.asm"), test::silu_c1_kernel());

  const auto prof = call("profile");
  ASSERT_FALSE(prof.is_error) << prof.text;
  EXPECT_NE(prof.text.find("units (instructions, busy, stall, utilisation):"), std::string::npos) << prof.text;
  EXPECT_NE(prof.text.find("hottest lines"), std::string::npos) << prof.text;

  const auto size = call("get_instruction_size");
  ASSERT_FALSE(size.is_error) << size.text;
  EXPECT_EQ(size.data["instructions"], 19);
  // Static classes of silu_c1.asm by hand: S_ADDI_INT x7, S_LD_FP x1 (S = 8); V_* x5 (V);
  // H_PREFETCH_V, H_STORE_V (H = 2); C_SET_SCALE_REG, C_SET_ADDR_REG, C_LOOP_START,
  // C_LOOP_END (C = 4); M = 0.
  EXPECT_EQ(size.data["by_class"], (json{{"S", 8}, {"V", 5}, {"H", 2}, {"C", 4}}));
  EXPECT_TRUE(size.data.contains("executed_by_class"));
}

TEST_F(ToolsTest, WrongKernelFailsAndViewOutputShowsMismatches) {
  call("write_code", {{"code", test::silu_c1_wrong_kernel()}});
  const auto r = call("run_evaluation");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.data["status"], "fail");
  EXPECT_NE(r.text.find("\nreason: trial seed 1: match "), std::string::npos) << r.text;
  EXPECT_FALSE(std::filesystem::exists(dir / "silu_plena_C1/best.json"));
  const auto v = call("view_output");
  ASSERT_FALSE(v.is_error) << v.text;
  EXPECT_EQ(v.data["check"]["elements"], 256);
  EXPECT_GT(v.data["check"]["mismatches"].get<int>(), 0);
  EXPECT_NE(v.text.find("rows (got min..max nonzero | want min..max nonzero | mismatches):\n  y[0]: "), std::string::npos)
      << v.text;
  EXPECT_NE(v.text.find("first mismatches:\n  y["), std::string::npos) << v.text;
}

TEST_F(ToolsTest, GrepDocsSearchesIsaPlatformAndTask) {
  auto r = call("grep_docs", {{"query", "v_exp_v"}, {"max_results", 3}});
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.data["mode"], "regex");
  ASSERT_FALSE(r.data["matches"].empty());
  EXPECT_EQ(r.data["matches"][0]["file"], "isa/plena.md");
  EXPECT_LE(r.data["matches"].size(), 3u);
  r = call("grep_docs", {{"query", "sigmoid(x)"}});  // the task text; '(' makes a regex group
  ASSERT_FALSE(r.data["matches"].empty()) << r.text;
  EXPECT_EQ(r.data["matches"][0]["file"], "task/silu_C1.txt");
  r = call("grep_docs", {{"query", "[unclosed"}});  // not a regex: word search
  EXPECT_EQ(r.data["mode"], "words");
  EXPECT_EQ(r.data["total"], 0);
  EXPECT_EQ(r.text.rfind("no match for '[unclosed' in isa/plena.md", 0), 0u) << r.text;
}

TEST_F(ToolsTest, TaskHardwareListAndBaseline) {
  auto r = call("get_task");
  EXPECT_EQ(r.text.rfind("Task silu (level 1): SiLU activation", 0), 0u) << r.text;
  EXPECT_EQ(r.data["shape"], (json{{"n", 256}}));
  r = call("get_hardware_config");
  EXPECT_EQ(r.data["timing_mode"], "serial");
  EXPECT_NE(r.text.find("  vlen: 64\n"), std::string::npos) << r.text;
  r = call("list_tasks");
  EXPECT_NE(r.text.find("silu (level 1): C1(n=256) C2(n=1024) C3(n=2048) C4(n=8192) C5(n=16384)"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("conv2d (level 1): C1(H=8,c_in=8,c_out=8,k=1)"), std::string::npos) << r.text;
  r = call("get_baseline");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.data["cycles"].is_number());
  EXPECT_FALSE(r.data["source"].get<std::string>().empty());
}

TEST_F(ToolsTest, WithoutASeedEveryEvaluationDrawsFreshSeeds) {
  ToolboxOptions o;
  o.workspace_dir = dir / "fresh";
  o.workload = {"plena", "silu", "C1"};
  auto fresh = make_toolbox(o);
  ASSERT_FALSE(fresh->call("write_code", args({{"code", test::silu_c1_kernel()}})).is_error);
  const auto a = fresh->call("run_evaluation", "{}");
  const auto b = fresh->call("run_evaluation", "{}");
  ASSERT_EQ(a.data["status"], "pass") << a.text;
  EXPECT_EQ(a.data["seed_source"], "os");
  EXPECT_EQ(b.data["seed_source"], "os");
  EXPECT_EQ(a.data["seeds"].size(), 3u);
  EXPECT_NE(a.data["seeds"], b.data["seeds"]);
}

TEST_F(ToolsTest, AFixedSeedGivesEachEvaluationTheNextSeeds) {
  call("write_code", {{"code", test::silu_c1_kernel()}});
  EXPECT_EQ(call("run_evaluation").data["seeds"], json({1, 2, 3}));
  EXPECT_EQ(call("run_evaluation").data["seeds"], json({4, 5, 6}));
}

TEST_F(ToolsTest, LongTextsAreCutAtALineEndButDataIsComplete) {
  ToolboxOptions o;
  o.workspace_dir = dir / "cut";
  o.workload = {"plena", "silu", "C1"};
  o.max_text_chars = 200;
  auto small = make_toolbox(o);
  const auto b = small->call("get_baseline", "{}");
  ASSERT_FALSE(b.is_error) << b.text;
  EXPECT_EQ(b.data["text_truncated"], true);
  EXPECT_NE(b.text.find("\n... (cut: "), std::string::npos) << b.text;
  EXPECT_EQ(b.text.substr(b.text.size() - 21), "characters not shown)");
  // The kept part ends at a line end within the limit; the data keeps the whole source.
  EXPECT_LE(b.text.find("\n... (cut: "), 200u);
  EXPECT_GT(b.data["source"].get<std::string>().size(), 200u);
}

TEST_F(ToolsTest, SubmitMarksTheNewestVersion) {
  EXPECT_TRUE(call("submit").is_error);
  call("write_code", {{"code", test::silu_c1_kernel()}});
  call("run_evaluation");
  const auto r = call("submit");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.data["submitted"], true);
  EXPECT_EQ(r.data["status"], "pass");
  EXPECT_TRUE(std::filesystem::exists(dir / "silu_plena_C1/submitted.json"));
}

}  // namespace
}  // namespace tlmcraft::agent
