// The search agent's turn planning from a conversation: first turn, budget reading,
// the baseline evaluated with the first candidates, the final submit turn.
#include <gtest/gtest.h>

#include <set>

#include "agent/search/search_policy.h"
#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search {
namespace {

using nlohmann::json;

const char* kBaseline =
    "S_ADDI_INT gp2, gp0, 0\n"
    "C_LOOP_START gp10, 4\n"
    "  V_EXP_V gp2, gp2, 0\n"
    "  S_ADDI_INT gp2, gp2, 64\n"
    "C_LOOP_END gp10\n";

Message assistant(std::vector<ToolCall> calls) {
  Message m;
  m.role = Role::Assistant;
  m.tool_calls = std::move(calls);
  return m;
}

Message tool(const std::string& id, const std::string& name, json data, bool error = false) {
  Message m;
  m.role = Role::Tool;
  m.tool_call_id = id;
  m.tool_name = name;
  m.data = std::move(data);
  m.is_error = error;
  return m;
}

Message user(const std::string& text) {
  Message m;
  m.role = Role::User;
  m.content = text;
  return m;
}

// A conversation after turn 1 (task level 1, serial mode, the baseline at 20 cycles).
std::vector<Message> after_info() {
  return {user("Optimise the kernel."),
          assistant({{"a", "get_task", "{}"}, {"b", "get_hardware_config", "{}"}, {"c", "get_baseline", "{}"}}),
          tool("a", "get_task", {{"level", 1}}),
          tool("b", "get_hardware_config",
               {{"platform", "plena"}, {"timing_mode", "serial"}, {"config", {{"arch", {{"vlen", 64}}}}}}),
          tool("c", "get_baseline", {{"source", kBaseline}, {"cycles", 20}})};
}

TEST(SearchPolicy, FirstTurnAsksForTaskHardwareAndBaseline) {
  const Turn t = plan_turn(read_history({user("go")}), PolicyOptions{});
  ASSERT_EQ(t.calls.size(), 3u);
  EXPECT_EQ(t.calls[0].first, "get_task");
  EXPECT_EQ(t.calls[1].first, "get_hardware_config");
  EXPECT_EQ(t.calls[2].first, "get_baseline");
}

TEST(SearchPolicy, SecondTurnEvaluatesTheBaselineThenCandidates) {
  const History h = read_history(after_info());
  EXPECT_EQ(h.rounds, 1);
  EXPECT_EQ(h.level, 1);
  EXPECT_EQ(effective_budget(h), 15);  // level 1 default
  PolicyOptions o;
  o.batch = 2;
  const Turn t = plan_turn(h, o);
  // baseline write + evaluate, then two candidates (write + evaluate each)
  ASSERT_EQ(t.calls.size(), 6u);
  EXPECT_EQ(t.calls[0].first, "write_code");
  EXPECT_EQ(t.calls[0].second["code"], kBaseline);
  EXPECT_EQ(t.calls[1].first, "run_evaluation");
  for (size_t i = 2; i < 6; i += 2) {
    EXPECT_EQ(t.calls[i].first, "write_code");
    EXPECT_NE(t.calls[i].second["code"], kBaseline);
    EXPECT_EQ(t.calls[i + 1].first, "run_evaluation");
  }
}

TEST(SearchPolicy, ReadsTheLoopsFirstMessageBudget) {
  std::vector<Message> c = after_info();
  c[0] = user("Write a correct kernel for silu (configuration C1) on plena, then make it as fast as you can. "
              "You have 7 rounds. Start by writing the kernel with write_code.");
  EXPECT_EQ(effective_budget(read_history(c)), 7);
}

TEST(SearchPolicy, BudgetTextFromTheLoopWins) {
  // After one round the loop says 2 rounds remain: a budget of 3, so turn 2 is not last
  // but turn 3 is.
  std::vector<Message> c = after_info();
  c.push_back(user("Budget: 2 rounds remaining."));
  History h = read_history(c);
  EXPECT_EQ(effective_budget(h), 3);
  EXPECT_NE(plan_turn(h, PolicyOptions{}).calls.back().first, "submit");
  c.push_back(assistant({{"d", "write_code", json({{"code", kBaseline}}).dump()}, {"e", "run_evaluation", "{}"}}));
  c.push_back(tool("d", "write_code", {{"success", true}}));
  c.push_back(tool("e", "run_evaluation", {{"status", "pass"}, {"cycles", 20}}));
  h = read_history(c);
  EXPECT_TRUE(h.baseline_evaluated);
  const Turn last = plan_turn(h, PolicyOptions{});
  ASSERT_EQ(last.calls.size(), 3u);
  EXPECT_EQ(last.calls[0].second["code"], kBaseline);  // the only correct kernel
  EXPECT_EQ(last.calls[2].first, "submit");
}

TEST(SearchPolicy, FinalTurnSubmitsTheFastestCorrectKernelNotAFasterWrongOne) {
  std::vector<Message> c = after_info();
  c.push_back(user("budget: 3 rounds"));
  c.push_back(assistant({{"d", "write_code", json({{"code", kBaseline}}).dump()},
                         {"e", "run_evaluation", "{}"},
                         {"f", "write_code", json({{"code", "V_EXP_V gp2, gp2, 0\n"}}).dump()},
                         {"g", "run_evaluation", "{}"},
                         {"h", "write_code", json({{"code", "V_EXP_V gp3, gp3, 0\n"}}).dump()},
                         {"i", "run_evaluation", "{}"}}));
  c.push_back(tool("d", "write_code", {{"success", true}}));
  c.push_back(tool("e", "run_evaluation", {{"status", "pass"}, {"cycles", 20}}));
  c.push_back(tool("f", "write_code", {{"success", true}}));
  c.push_back(tool("g", "run_evaluation", {{"status", "fail"}, {"cycles", 2}}));
  c.push_back(tool("h", "write_code", {{"success", true}}));
  c.push_back(tool("i", "run_evaluation", {{"status", "pass"}, {"cycles", 12}}));
  const History h = read_history(c);
  ASSERT_EQ(h.evaluated.size(), 3u);
  const Turn t = plan_turn(h, PolicyOptions{});
  ASSERT_EQ(t.calls.size(), 3u);
  EXPECT_EQ(t.calls[0].second["code"], "V_EXP_V gp3, gp3, 0\n");
  EXPECT_EQ(t.calls[2].first, "submit");
  EXPECT_NE(t.text.find("12 cycles, baseline 20, speedup 1.667x"), std::string::npos) << t.text;
}

TEST(SearchPolicy, NoBaselineStopsWithoutToolCalls) {
  std::vector<Message> c = {user("go"), assistant({{"c", "get_baseline", "{}"}})};
  Message err = tool("c", "get_baseline", {{"error", "no baseline"}}, true);
  err.content = "no baseline kernel exists for x";
  c.push_back(err);
  const Turn t = plan_turn(read_history(c), PolicyOptions{});
  EXPECT_TRUE(t.calls.empty());
  EXPECT_NE(t.text.find("no baseline kernel exists for x"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::agent::search

namespace tlmcraft::agent::search {
namespace {

TEST(SearchCandidates, DistinctParseableRankedAndDeterministic) {
  using plena::Kernel;
  using plena::parse_kernel;
  SearchContext ctx;
  ctx.platform = "plena";  // the registered PLENA assembly generator
  const auto a = generate_candidates(kBaseline, ctx);
  const auto b = generate_candidates(kBaseline, ctx);
  ASSERT_FALSE(a.empty());
  ASSERT_EQ(a.size(), b.size());
  std::set<std::string> texts;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].text, b[i].text);  // same seed, same order
    EXPECT_NE(a[i].text, kBaseline);
    EXPECT_TRUE(texts.insert(a[i].text).second) << "duplicate candidate " << a[i].name;
    Kernel k;
    std::string error;
    EXPECT_TRUE(parse_kernel(a[i].text, k, error)) << a[i].name << ": " << error;
    if (i > 0) {
      EXPECT_LE(a[i - 1].estimate, a[i].estimate);
    }
  }
  // Baseline estimate: 1 set-up + 1 start + 4 * (exp + add + end) = 14. Full unrolling
  // removes the loop and the dead last increment, and gp2 = 0 is read as gp0:
  // 4 exp + 3 increments = 7, the best estimate.
  EXPECT_EQ(a.front().estimate, 7);
  EXPECT_EQ(generate_candidates("NOT PLENA", ctx).size(), 0u);
}

}  // namespace
}  // namespace tlmcraft::agent::search
