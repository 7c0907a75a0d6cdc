// An agent run as a report line, and the agent metrics over many of them.
#include <gtest/gtest.h>

#include "agent/agent_report.h"
#include "agent/bench_metrics.h"
#include "test_support.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

const Workload kW{"plena", "silu", "C1"};

TEST(AgentReport, SolvedRunIsTheBestVersionsReport) {
  test::TempDir dir("report");
  Workspace ws(dir.str());
  ws.write_version(kW, "k1");
  ws.write_version(kW, "k2");
  ws.store_report(kW, 1, {{"status", "pass"}, {"cycles", 130}, {"speedup", 1.0}});
  ws.store_report(kW, 2, {{"status", "fail"}, {"reason", "trial seed 4: match 50.00%"}});
  LoopResult r;
  r.stop_reason = "budget";
  r.rounds = 15;
  r.budget = 15;
  r.best_version = 1;
  r.first_correct_round = 4;
  r.usage = {1000, 200};
  const json rep = agent_report(kW, 1, r, ws, "openai:m", "t.jsonl");
  EXPECT_EQ(rep["status"], "pass");
  EXPECT_EQ(rep["cycles"], 130);
  EXPECT_EQ(rep["agent"]["first_correct_round"], 4);
  EXPECT_EQ(rep["agent"]["tokens"],
            (json{{"input", 1000}, {"output", 200}, {"cached_input", 0}, {"cache_write", 0}, {"reasoning", 0}}));
  EXPECT_TRUE(rep["agent"]["cost_usd"].is_null());  // no price given
  EXPECT_EQ(rep["agent"]["provider"], "openai:m");
}

TEST(AgentReport, UnsolvedRunCarriesTheLastEvaluationAndWhy) {
  test::TempDir dir("report2");
  Workspace ws(dir.str());
  LoopResult r;
  r.stop_reason = "no_tool_call";
  r.rounds = 2;
  r.budget = 15;
  json rep = agent_report(kW, 1, r, ws, "x", "t.jsonl");  // nothing evaluated
  EXPECT_EQ(rep["status"], "fail");
  EXPECT_EQ(rep["level"], 1);
  EXPECT_EQ(rep["reason"], "no correct kernel in 2 of 15 rounds (stop: no_tool_call)");
  ws.write_version(kW, "k1");
  ws.store_report(kW, 1, {{"status", "assemble_error"}, {"reason", "1 assembly error(s)"}});
  rep = agent_report(kW, 1, r, ws, "x", "t.jsonl");
  EXPECT_EQ(rep["status"], "assemble_error");
  EXPECT_EQ(rep["reason"], "no correct kernel in 2 of 15 rounds (stop: no_tool_call); last evaluation: 1 assembly error(s)");
}

TEST(AgentMetrics, RoundsToFirstCorrectAndTokens) {
  auto line = [](const std::string& task, const std::string& config, const std::string& status, json first, int in) {
    return json{{"platform", "plena"}, {"task", task}, {"config", config}, {"level", 1}, {"status", status},
                {"agent", {{"stop_reason", status == "pass" ? "submit" : "budget"}, {"first_correct_round", first},
                           {"tokens", {{"input", in}, {"output", 1}}}, {"tool_calls", 3}, {"tool_errors", 1}}}};
  };
  const std::vector<json> records = {line("silu", "C1", "pass", 2, 10), line("silu", "C1", "fail", nullptr, 20),
                                     line("silu", "C2", "pass", 5, 30), line("relu", "C1", "fail", nullptr, 40),
                                     {{"platform", "plena"}, {"task", "conv2d"}, {"status", "unsupported"}}};
  const json m = agent_bench_metrics(records);
  EXPECT_EQ(m["runs"], 4);
  EXPECT_EQ(m["solved_runs"], 2);
  EXPECT_EQ(m["mean_first_correct_round"], 3.5);  // (2 + 5) / 2
  EXPECT_EQ(m["tokens"]["input"], 100);
  EXPECT_EQ(m["tool_calls"], 12);
  EXPECT_EQ(m["stop_reasons"], (json{{"budget", 2}, {"submit", 2}}));
  ASSERT_EQ(m["tasks"].size(), 2u);
  EXPECT_EQ(m["tasks"][0]["task"], "silu");
  EXPECT_EQ(m["tasks"][0]["configs_solved"], 2);
  EXPECT_EQ(m["tasks"][0]["configs_run"], 2);
  EXPECT_EQ(m["tasks"][0]["runs"], 3);
  EXPECT_TRUE(m["tasks"][1]["mean_first_correct_round"].is_null());
  const std::string text = agent_bench_metrics_text(m);
  EXPECT_NE(text.find("  plena/silu: 2/2, 2/3, 3.5, 60/3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  plena/relu: 0/1, 0/1, -, 40/1\n"), std::string::npos) << text;
}

TEST(AgentMetrics, CampaignCostIsTheSumOfPricedRuns) {
  // Runs costing $0.25, $0.125 and one unpriced (null): the campaign costs $0.375 over 2
  // priced runs; cached input 300 + 0 + 50 = 350, reasoning 7 + 0 + 0 = 7.
  auto line = [](json cost, int cached, int reasoning) {
    return json{{"platform", "plena"}, {"task", "silu"}, {"config", "C1"}, {"level", 1}, {"status", "pass"},
                {"agent", {{"stop_reason", "submit"}, {"first_correct_round", 1}, {"cost_usd", cost},
                           {"tokens", {{"input", 1000}, {"output", 10}, {"cached_input", cached}, {"cache_write", 0},
                                       {"reasoning", reasoning}}}}}};
  };
  const json m = agent_bench_metrics({line(0.25, 300, 7), line(0.125, 0, 0), line(nullptr, 50, 0)});
  EXPECT_EQ(m["cost_usd"], 0.375);
  EXPECT_EQ(m["priced_runs"], 2);
  EXPECT_EQ(m["tokens"]["cached_input"], 350);
  EXPECT_EQ(m["tokens"]["reasoning"], 7);
  EXPECT_EQ(m["tasks"][0]["cost_usd"], 0.375);
  EXPECT_NE(agent_bench_metrics_text(m).find("tokens: 350 cached input, 0 cache writes, 7 reasoning; cost $0.3750 over 2 "
                                             "priced run(s)\n"),
            std::string::npos)
      << agent_bench_metrics_text(m);
  EXPECT_TRUE(agent_bench_metrics({line(nullptr, 0, 0)})["cost_usd"].is_null());
}

}  // namespace
}  // namespace tlmcraft::agent
