// The final verdict of an agent run (agent/verdict.h): the best version evaluated again
// on seeds no development evaluation used, deciding the run's report.
#include <cstdlib>

#include <gtest/gtest.h>

#include "agent/agent_report.h"
#include "agent/verdict.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"
#include "test_support.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

const Workload kW{"plena", "relu", "C1"};

std::string relu_baseline() {
  const tasks::Instance inst = tasks::Registry::builtin().instance("relu", "plena", "C1");
  return tasks::baseline_kernel(inst, make_platform("plena")->config());
}

// A workspace whose version 1 (`kernel`) passed a development evaluation on seeds 7, 8.
LoopResult solved_run(Workspace& ws, const std::string& kernel) {
  const KernelVersion v = ws.write_version(kW, kernel);
  ws.store_report(kW, 1, {{"status", "pass"}, {"cycles", 100}, {"seeds", {7, 8}}});
  LoopResult r;
  r.stop_reason = "submit";
  r.rounds = 2;
  r.budget = 15;
  r.best_version = 1;
  r.best_path = v.path;
  r.best_cycles = 100;
  return r;
}

ToolboxOptions options() {
  ToolboxOptions o;
  o.trials = 2;
  return o;
}

TEST(FinalVerdict, UsesFreshSeedsTheAgentNeverSaw) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  test::TempDir dir("verdict");
  Workspace ws(dir.str());
  const LoopResult r = solved_run(ws, relu_baseline());
  const json v = final_verdict(kW, r, ws, options(), std::nullopt);
  ASSERT_EQ(v["status"], "pass") << v["reason"];
  EXPECT_EQ(v["seed_source"], "os");
  // As `tlmcraft run` reports it: the variant's provenance and the PPA estimates.
  EXPECT_EQ(v["provenance"]["variant"].get<std::string>().size(), 16u);
  EXPECT_GT(v["energy"]["total_pj"].get<double>(), 0.0);
  EXPECT_TRUE(v.contains("area") && v.contains("roofline"));
  ASSERT_EQ(v["verdict"]["seeds"].size(), 2u);
  for (const json& s : v["verdict"]["seeds"]) {
    EXPECT_NE(s.get<uint64_t>(), 7u);
    EXPECT_NE(s.get<uint64_t>(), 8u);
  }
  EXPECT_EQ(v["verdict"]["version"], 1);
  EXPECT_EQ(v["verdict"]["development_seeds"], 2);
  const json rep = agent_report(kW, 1, r, ws, "search", "t.jsonl", v);
  EXPECT_EQ(rep["status"], "pass");
  EXPECT_EQ(rep["seeds"], v["verdict"]["seeds"]);
}

TEST(FinalVerdict, AFixedVerdictSeedMayNotReuseADevelopmentSeed) {
  test::TempDir dir("verdict");
  Workspace ws(dir.str());
  const LoopResult r = solved_run(ws, relu_baseline());
  try {
    final_verdict(kW, r, ws, options(), 6);  // seeds 6, 7: 7 was a development seed
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--verdict-seed 6: its trials' seeds overlap a development evaluation's; choose another");
  }
  const json v = final_verdict(kW, r, ws, options(), 9);
  EXPECT_EQ(v["seeds"], json({9, 10}));
  EXPECT_EQ(v["seed_source"], "fixed");
}

TEST(FinalVerdict, AVersionFailingTheVerdictLeavesTheRunUnsolved) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  test::TempDir dir("verdict");
  Workspace ws(dir.str());
  // Claimed correct during development, but writes no output at all.
  const LoopResult r = solved_run(ws, "S_ADDI_INT gp1, gp0, 0\n");
  const json v = final_verdict(kW, r, ws, options(), std::nullopt);
  EXPECT_EQ(v["status"], "fail");
  const json rep = agent_report(kW, 1, r, ws, "search", "t.jsonl", v);
  EXPECT_EQ(rep["status"], "fail");
  EXPECT_TRUE(rep["speedup"].is_null());
  EXPECT_EQ(rep["reason"].get<std::string>().rfind(
                "version 1 passed its development evaluations but failed the final verdict on fresh inputs: trial seed ", 0),
            0u)
      << rep["reason"];
}

TEST(FinalVerdict, NoCorrectVersionNoVerdict) {
  test::TempDir dir("verdict");
  Workspace ws(dir.str());
  EXPECT_TRUE(final_verdict(kW, LoopResult{}, ws, options(), std::nullopt).is_null());
}

}  // namespace
}  // namespace tlmcraft::agent
