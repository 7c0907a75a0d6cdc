// `tlmcraft agent` and `tlmcraft agent-bench` through the real executable.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <sys/wait.h>

#include "test_support.h"
#include "tests/harness/unsupported_cell_specs.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

const std::string kExe = std::string(TLMCRAFT_BINARY_DIR) + "/harness/tlmcraft";

struct CliRun {
  int code = -1;
  std::string out;
};

// Runs the CLI with stdout captured (stderr to /dev/null) and the environment free of
// provider keys, so the default provider is the search agent.
// `env`: more VAR=value settings ("" for none).
CliRun tlmcraft(const std::string& args, const std::string& env = "") {
  const std::string cmd = "env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u ANTHROPIC_API_KEY SYSC_DISABLE_COPYRIGHT_MESSAGE=1 " +
                          env + " " + kExe + " " + args + " 2>/dev/null";
  CliRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kExe)) GTEST_SKIP() << kExe << " is not built (cmake --build ... --target tlmcraft)";
  }
  test::TempDir dir{"cli"};
};

TEST_F(CliTest, AgentWithTheDefaultSearchProviderSolvesSiluC1) {
  const CliRun r = tlmcraft("agent -p plena --task silu --config C1 --json --workspace " + dir.str());
  ASSERT_EQ(r.code, 0) << r.out;
  const json rep = json::parse(r.out);
  EXPECT_EQ(rep["status"], "pass");
  EXPECT_EQ(rep["schema"], "tlmcraft.report/1");
  EXPECT_EQ(rep["agent"]["provider"], "search");
  EXPECT_EQ(rep["agent"]["stop_reason"], "submit");
  EXPECT_TRUE(std::filesystem::exists(dir / "silu_plena_C1.jsonl"));
  EXPECT_TRUE(std::filesystem::exists(dir / "silu_plena_C1/best.json"));

  // Replaying that transcript into a fresh workspace gives the same best cycles.
  const CliRun again = tlmcraft("agent -p plena --task silu --config C1 --json --provider replay --replay " +
                             (dir / "silu_plena_C1.jsonl") + " --workspace " + (dir / "replayed"));
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_EQ(json::parse(again.out)["cycles"], rep["cycles"]);
}

TEST_F(CliTest, UsageErrorsExitTwo) {
  EXPECT_EQ(tlmcraft("agent -p plena --task silu").code, 2);                          // no --config
  EXPECT_EQ(tlmcraft("agent -p plena --task nosuch --config C1").code, 2);             // unknown task
  EXPECT_EQ(tlmcraft("agent -p plena --task silu --config C1 --provider gpt").code, 2);  // unknown provider
  EXPECT_EQ(tlmcraft("agent -p plena --task silu --config C1 --provider replay").code, 2);
  EXPECT_EQ(tlmcraft("agent-bench -p plena").code, 2);                                // no --out
  const CliRun help = tlmcraft("agent --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("examples:"), std::string::npos);
}

TEST_F(CliTest, ReplayThatRunsOutIsNotSolved) {
  {
    std::ofstream out(dir / "script.jsonl");
    out << R"({"role":"assistant","content":"","tool_calls":[{"id":"a","name":"get_task","arguments":"{}"}]})" << "\n";
  }
  const CliRun r = tlmcraft("agent -p plena --task silu --config C1 --json --provider replay --replay " + (dir / "script.jsonl") +
                         " --workspace " + dir.str());
  EXPECT_EQ(r.code, 1) << r.out;
  const json rep = json::parse(r.out);
  EXPECT_EQ(rep["status"], "fail");
  EXPECT_EQ(rep["agent"]["stop_reason"], "provider_error");
  EXPECT_EQ(rep["agent"]["rounds"], 1);
}

TEST_F(CliTest, AgentBenchWritesResultsSummaryAndPassAtK) {
  const std::string specs = "TLMCRAFT_TASKS_DIR='" + test_specs::specs_with_plena_conv2d_unsupported(dir.str()) + "'";
  const CliRun r =
      tlmcraft("agent-bench -p plena --tasks silu,conv2d --configs C1 --samples 2 --jobs 2 --json -q --out " + dir.str(),
               specs);
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["agent"]["runs"], 2);        // conv2d is unsupported on PLENA in these specs: no runs
  EXPECT_EQ(j["agent"]["solved_runs"], 2);
  EXPECT_TRUE(std::filesystem::exists(dir / "summary.json"));
  EXPECT_TRUE(std::filesystem::exists(dir / "transcripts/silu_plena_C1_s2.jsonl"));
  size_t lines = 0;
  std::ifstream in(dir / "results.jsonl");
  for (std::string l; std::getline(in, l);) ++lines;
  EXPECT_EQ(lines, 4u);  // 2 samples x (silu, conv2d)
  // Rerunning finds every job recorded and runs nothing.
  const CliRun again =
      tlmcraft("agent-bench -p plena --tasks silu,conv2d --configs C1 --samples 2 --json -q --out " + dir.str(), specs);
  EXPECT_EQ(again.code, 0);
  EXPECT_EQ(json::parse(again.out)["agent"]["runs"], 2);
}

TEST_F(CliTest, AgentBenchSelectsTheCpuProgramsLikeBench) {
  // --level cpu on Coral: the ten programs of tasks/specs/cpu/ less pmp (unsupported on
  // Coral: recorded, never run, so not in the dry run) x C1..C5 = 9 x 5 = 45 runs.
  const CliRun cpu = tlmcraft("agent-bench -p coral --level cpu --dry-run --json --out " + dir.str());
  ASSERT_EQ(cpu.code, 0) << cpu.out;
  const json runs = json::parse(cpu.out)["runs"];
  EXPECT_EQ(runs.size(), 45u);
  EXPECT_EQ(runs[0]["task"], "multiply");  // tasks/specs/cpu.yaml's order
  EXPECT_EQ(runs[0]["rounds"], 25);        // level 0 gets the default budget of the levels above 2
  // Without --tasks and --level, Coral's ML cells (23 x 5) and the programs: 160 runs.
  const CliRun all = tlmcraft("agent-bench -p coral --dry-run --json --out " + dir.str());
  ASSERT_EQ(all.code, 0) << all.out;
  EXPECT_EQ(json::parse(all.out)["runs"].size(), 160u);
  // PLENA runs no CPU programs: nothing is selected (exit 2), as is an unknown level.
  EXPECT_EQ(tlmcraft("agent-bench -p plena --level cpu --dry-run --out " + dir.str()).code, 2);
  EXPECT_EQ(tlmcraft("agent-bench -p coral --level 4 --dry-run --out " + dir.str()).code, 2);
}

}  // namespace
}  // namespace tlmcraft::agent
