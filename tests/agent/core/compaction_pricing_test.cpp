// Context compaction on a hand-built conversation (exact replacement texts), the price
// table's lookup and cost formula, and the dry-run estimate, each derived by hand.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "agent/context_compaction.h"
#include "agent/cost_estimate.h"
#include "agent/pricing.h"
#include "test_support.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

Message assistant_writing(const std::string& id, const std::string& code) {
  Message m = Message::text(Role::Assistant, "");
  m.tool_calls.push_back({id, "write_code", json{{"code", code}}.dump()});
  m.tool_calls.push_back({id + "e", "run_evaluation", "{}"});
  return m;
}

Message result(const std::string& id, const std::string& tool, const std::string& text, json data) {
  Message m = Message::text(Role::Tool, text);
  m.tool_call_id = id;
  m.tool_name = tool;
  m.data = std::move(data);
  return m;
}

// Rounds 1..4 each write version k and evaluate it: v1 fails, v2 passes at 900 cycles (the
// best), v3 passes at 1000, v4 (the latest) passes at 950.
std::vector<Message> four_rounds() {
  std::vector<Message> c = {Message::text(Role::System, "system prompt"), Message::text(Role::User, "task")};
  const std::string status[] = {"fail", "pass", "pass", "pass"};
  const uint64_t cycles[] = {0, 900, 1000, 950};
  for (int v = 1; v <= 4; ++v) {
    const std::string id = "c" + std::to_string(v);
    c.push_back(assistant_writing(id, std::string(400, char('a' + v))));
    c.push_back(result(id, "write_code", "stored version " + std::to_string(v), {{"version", v}}));
    c.push_back(result(id + "e", "run_evaluation", "version " + std::to_string(v) + ": " + status[v - 1] + "\n" +
                                                       std::string(400, '.'),
                       {{"version", v}, {"status", status[v - 1]}, {"cycles", cycles[v - 1]}}));
  }
  return c;
}

TEST(Compaction, OlderKernelsAndLongResultsBecomeSummaries) {
  std::vector<Message> c = four_rounds();
  const std::vector<Message> before = c;
  const auto changes = compact_conversation(c, {});  // keep the 2 newest rounds (v3, v4)
  // Rounds 1 and 2 are older: v1's kernel is compacted, v2's (the best) stays; their
  // evaluation results (over 300 bytes) become summaries; short results stay.
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].index, 2u);
  EXPECT_EQ(changes[0].tool_call, 0);
  EXPECT_EQ(c[2].tool_calls[0].arguments,
            R"({"code":"[compacted: kernel version 1, fail; its source is no longer shown]"})");
  EXPECT_EQ(c[4].content, "[compacted: run_evaluation result for kernel version 1, fail] version 1: fail");
  EXPECT_EQ(c[7].content, "[compacted: run_evaluation result for kernel version 2, pass, 900 cycles] version 2: pass");
  EXPECT_EQ(c[5].tool_calls[0].arguments, before[5].tool_calls[0].arguments);  // the best kernel, verbatim
  for (size_t i = 8; i < c.size(); ++i) EXPECT_EQ(c[i].to_json(), before[i].to_json()) << i;  // newest rounds
  EXPECT_EQ(c[0].content, "system prompt");
  EXPECT_LT(estimate_request_tokens(c, {}), estimate_request_tokens(before, {}));
  // Replaying the recorded changes on the original gives the same conversation.
  std::vector<Message> replayed = before;
  std::vector<CompactionChange> recorded;
  for (const auto& ch : changes) recorded.push_back(CompactionChange::from_json(ch.to_json()));
  apply_compaction(replayed, recorded);
  for (size_t i = 0; i < c.size(); ++i) EXPECT_EQ(replayed[i].to_json(), c[i].to_json()) << i;
  // A second pass finds nothing more; keeping one round compacts v3's kernel and result.
  EXPECT_TRUE(compact_conversation(c, {}).empty());
  CompactionOptions one;
  one.keep_recent_rounds = 1;
  EXPECT_EQ(compact_conversation(c, one).size(), 2u);
  EXPECT_EQ(c[8].tool_calls[0].arguments,
            R"({"code":"[compacted: kernel version 3, pass, 1000 cycles; its source is no longer shown]"})");
}

TEST(Pricing, LongestPrefixWinsAndCostFollowsTheUsageSplit) {
  test::TempDir dir("prices");
  const std::string path = dir / "p.json";
  std::ofstream(path) << R"({"models":{"gpt-5*":{"input":1.25,"cached_input":0.125,"output":10,"context_tokens":400000},
                                      "gpt-5-mini*":{"input":0.25,"output":2},"exact":{"input":1,"output":1}}})";
  const PriceTable t = PriceTable::load(path);
  EXPECT_EQ(t.find("gpt-5-mini-2025")->key, "gpt-5-mini*");
  EXPECT_EQ(t.find("gpt-5.1")->key, "gpt-5*");
  EXPECT_EQ(t.find("exact")->key, "exact");
  EXPECT_FALSE(t.find("exactly").has_value());
  EXPECT_EQ(t.find("gpt-5-mini")->cache_write, 0.25);  // defaults to the input rate
  // 10000 input of which 8000 cached, 1000 output at gpt-5 prices:
  // (2000 x 1.25 + 8000 x 0.125 + 1000 x 10) / 1e6 = (2500 + 1000 + 10000) / 1e6 = 0.0135
  Usage u;
  u.input_tokens = 10000;
  u.cached_input_tokens = 8000;
  u.output_tokens = 1000;
  EXPECT_NEAR(cost_usd(u, *t.find("gpt-5")), 0.0135, 1e-15);
  EXPECT_EQ(t.find("gpt-5")->context_tokens, 400000u);
  // The shipped table parses and prices the families it names.
  const PriceTable shipped = PriceTable::load(std::string(TLMCRAFT_SOURCE_DIR) + "/agent/data/prices.json");
  for (const char* m : {"claude-sonnet-4-5", "claude-opus-4-5-20251101", "gpt-5", "gemini-3-pro-preview", "deepseek-chat"})
    EXPECT_TRUE(shipped.find(m).has_value()) << m;
}

TEST(Pricing, BadTablesNameTheFileAndCause) {
  test::TempDir dir("prices-bad");
  const std::string path = dir / "p.json";
  std::ofstream(path) << R"({"models":{"m":{"output":2}}})";
  try {
    PriceTable::load(path);
    FAIL();
  } catch (const PriceTableError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": models.m: missing \"input\"");
  }
  std::ofstream(path, std::ios::trunc) << R"([1])";
  try {
    PriceTable::load(path);
    FAIL();
  } catch (const PriceTableError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": expected an object with a \"models\" object");
  }
}

TEST(CostEstimate, GrowthCachingAndTheContextCap) {
  // P = 10000, R = 3, O = 1000, T = 500: prompts 10000, 11500, 13000 -> input 34500;
  // cached 0 + 10000 + 11500 = 21500; writes 34500 - 21500 = 13000; output 3000.
  RunEstimateInput in;
  in.prompt_tokens = 10000;
  in.rounds = 3;
  in.output_per_round = 1000;
  in.results_per_round = 500;
  Usage u = estimate_run_usage(in);
  EXPECT_EQ(u.input_tokens, 34500u);
  EXPECT_EQ(u.cached_input_tokens, 21500u);
  EXPECT_EQ(u.cache_write_tokens, 13000u);
  EXPECT_EQ(u.output_tokens, 3000u);
  // Capped at 11000: prompts 10000, 11000, 11000 -> 32000; cached 0 + 10000 + 11000.
  in.context_tokens = 11000;
  u = estimate_run_usage(in);
  EXPECT_EQ(u.input_tokens, 32000u);
  EXPECT_EQ(u.cached_input_tokens, 21000u);
  in.prompt_cache = false;
  EXPECT_EQ(estimate_run_usage(in).cached_input_tokens, 0u);
}

}  // namespace
}  // namespace tlmcraft::agent
