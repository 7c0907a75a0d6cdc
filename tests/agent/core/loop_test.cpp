// The refinement loop driven by scripted model turns: a full run to a correct PLENA SiLU
// kernel, the stop rules, malformed tool calls, resume and replay.
#include <gtest/gtest.h>

#include <fstream>

#include "agent/loop.h"
#include "agent/providers.h"
#include "agent/transcript.h"
#include "test_support.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

// Returns prepared assistant turns in order; records every conversation it was shown.
class ScriptedProvider : public Provider {
 public:
  explicit ScriptedProvider(std::vector<Message> turns, size_t fail_at = SIZE_MAX)
      : turns_(std::move(turns)), fail_at_(fail_at) {}
  std::string name() const override { return "scripted"; }
  Completion complete(const std::vector<Message>& conversation, const std::vector<ToolSpec>& tools) override {
    seen.push_back(conversation);
    tool_count = tools.size();
    if (calls_ == fail_at_) {
      ++calls_;
      throw ProviderError("HTTP 401: invalid API key");
    }
    if (next_ >= turns_.size()) throw ProviderError("script exhausted");
    ++calls_;
    Completion c;
    c.message = turns_[next_++];
    c.usage = {100, 10};
    return c;
  }
  std::vector<std::vector<Message>> seen;
  size_t tool_count = 0;

 private:
  std::vector<Message> turns_;
  size_t next_ = 0, calls_ = 0, fail_at_;
};

Message turn(std::vector<std::pair<std::string, json>> calls, const std::string& text = "") {
  Message m = Message::text(Role::Assistant, text);
  for (auto& [name, args] : calls) m.tool_calls.push_back({"", name, args.dump()});
  return m;
}
Message raw_turn(const std::string& name, const std::string& raw_args) {
  Message m = Message::text(Role::Assistant, "");
  m.tool_calls.push_back({"c1", name, raw_args});
  return m;
}

std::vector<json> read_events(const std::string& path) {
  std::vector<json> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) out.push_back(json::parse(line));
  return out;
}

std::vector<std::string> types_of(const std::vector<json>& events) {
  std::vector<std::string> t;
  for (const auto& e : events) t.push_back(e["type"]);
  return t;
}

class LoopTest : public ::testing::Test {
 protected:
  LoopOptions options(int budget = 0) {
    LoopOptions o;
    o.workload = {"plena", "silu", "C1"};
    o.budget = budget;
    o.transcript_path = dir / "transcript.jsonl";
    o.prompt.parts = {{"role", "you write kernels", 5}, {"task", "silu", 1}};
    return o;
  }
  std::unique_ptr<Toolbox> toolbox() {
    ToolboxOptions t;
    t.workspace_dir = dir / "ws";
    t.workload = {"plena", "silu", "C1"};
    return make_toolbox(t);
  }
  test::TempDir dir{"loop"};
};

// The scripted session of the brief: a wrong kernel, its failure, the correct kernel,
// its evaluation, submit.
std::vector<Message> silu_session() {
  return {turn({{"write_code", {{"code", test::silu_c1_wrong_kernel()}}}, {"run_evaluation", json::object()}}),
          turn({{"view_output", json::object()}}),
          turn({{"write_code", {{"code", test::silu_c1_kernel()}}}, {"check_syntax", json::object()},
                {"run_evaluation", json::object()}}),
          turn({{"submit", json::object()}})};
}

TEST_F(LoopTest, ScriptedSessionReachesACorrectPlenaKernel) {
  ScriptedProvider p(silu_session());
  auto tools = toolbox();
  const LoopResult r = run_agent_loop(p, *tools, options());
  EXPECT_EQ(r.stop_reason, "submit");
  EXPECT_EQ(r.rounds, 4);
  EXPECT_EQ(r.budget, 15);  // level 1
  ASSERT_TRUE(r.solved());
  EXPECT_EQ(r.best_version, 2);
  EXPECT_EQ(r.first_correct_round, 3);
  EXPECT_EQ(r.evaluations, 2);
  EXPECT_EQ(r.tool_calls, 7);
  EXPECT_EQ(r.tool_errors, 0);
  EXPECT_EQ(r.usage.input_tokens, 400u);  // 4 turns x 100
  EXPECT_EQ(r.usage.output_tokens, 40u);
  EXPECT_EQ(r.best_kernel, test::silu_c1_kernel());
  ASSERT_TRUE(r.baseline_cycles.has_value());
  ASSERT_TRUE(r.speedup.has_value());
  EXPECT_DOUBLE_EQ(*r.speedup, double(*r.baseline_cycles) / double(r.best_cycles));
  EXPECT_EQ(p.tool_count, 12u);

  // The model saw the failure of round 1 as the tool answer to its run_evaluation call.
  const auto& round2 = p.seen[1];
  ASSERT_EQ(round2.size(), 5u);  // system, user, assistant, 2 tool answers
  EXPECT_EQ(round2[0].role, Role::System);
  EXPECT_EQ(round2[4].role, Role::Tool);
  EXPECT_EQ(round2[4].tool_name, "run_evaluation");
  EXPECT_EQ(round2[4].tool_call_id, round2[2].tool_calls[1].id);
  EXPECT_NE(round2[4].content.find("status: fail"), std::string::npos) << round2[4].content;
  // After round 3 the phase-2 note follows the tool answers.
  const auto& round4 = p.seen[3];
  EXPECT_EQ(round4.back().role, Role::User);
  EXPECT_EQ(round4.back().content.rfind("Phase 2: version 2 is correct with " + std::to_string(r.best_cycles) + " cycles", 0), 0u);

  const auto events = read_events(dir / "transcript.jsonl");
  // start, prompt parts, system + user messages, round 0 end; then per round the
  // assistant message, tool_call + tool message per call, (phase + user), round_end.
  const std::vector<std::string> expected = {
      "start", "prompt_parts", "message", "message", "round_end",
      "message", "tool_call", "message", "tool_call", "message", "round_end",
      "message", "tool_call", "message", "round_end",
      "message", "tool_call", "message", "tool_call", "message", "tool_call", "message", "phase", "message", "round_end",
      "message", "tool_call", "message", "round_end",
      "result"};
  EXPECT_EQ(types_of(events), expected);
  EXPECT_EQ(events[0]["workload"]["key"], "silu/plena/C1");
  EXPECT_EQ(events[1]["parts"][0], (json{{"name", "role"}, {"tokens", 5}, {"bytes", 17}}));
  EXPECT_EQ(events[6]["name"], "write_code");
  EXPECT_EQ(events[22]["phase"], 2);
  EXPECT_EQ(events.back()["result"]["stop_reason"], "submit");
  EXPECT_EQ(events.back()["result"]["best"]["version"], 2);
}

TEST_F(LoopTest, BudgetStopsTheRun) {
  ScriptedProvider p({turn({{"get_task", json::object()}}), turn({{"get_task", json::object()}}),
                      turn({{"get_task", json::object()}})});
  auto tools = toolbox();
  const LoopResult r = run_agent_loop(p, *tools, options(2));
  EXPECT_EQ(r.stop_reason, "budget");
  EXPECT_EQ(r.rounds, 2);
  EXPECT_FALSE(r.solved());
  EXPECT_EQ(p.seen.size(), 2u);
}

TEST_F(LoopTest, TurnWithoutToolCallGetsOneReminderThenStops) {
  ScriptedProvider p({turn({}, "I think the kernel should..."), turn({}, "Here is my answer in prose.")});
  auto tools = toolbox();
  const LoopResult r = run_agent_loop(p, *tools, options());
  EXPECT_EQ(r.stop_reason, "no_tool_call");
  EXPECT_EQ(r.rounds, 2);
  ASSERT_EQ(p.seen.size(), 2u);
  EXPECT_EQ(p.seen[1].back().role, Role::User);
  EXPECT_EQ(p.seen[1].back().content.rfind("Your last reply had no tool call.", 0), 0u);
}

TEST_F(LoopTest, MalformedToolCallsGoBackAsToolErrors) {
  ScriptedProvider p({raw_turn("write_code", "{\"code\": "), raw_turn("compile_kernel", "{}"),
                      raw_turn("write_code", "{\"kode\": \"x\"}"), turn({{"get_task", json::object()}})});
  auto tools = toolbox();
  const LoopResult r = run_agent_loop(p, *tools, options(4));
  EXPECT_EQ(r.stop_reason, "budget");
  EXPECT_EQ(r.tool_calls, 4);
  EXPECT_EQ(r.tool_errors, 3);
  // Ids the model gave are kept (each turn may reuse an id of an earlier turn).
  EXPECT_EQ(p.seen[1][2].tool_calls[0].id, "c1");
  EXPECT_EQ(p.seen[3].back().tool_call_id, "c1");
  const Message& bad_json = p.seen[1].back();
  EXPECT_TRUE(bad_json.is_error);
  EXPECT_EQ(bad_json.content.rfind("write_code: arguments are not valid JSON", 0), 0u) << bad_json.content;
  EXPECT_EQ(p.seen[2].back().content.rfind("unknown tool 'compile_kernel'", 0), 0u);
  EXPECT_NE(p.seen[3].back().content.find("missing required field 'code'"), std::string::npos);
  EXPECT_NE(p.seen[3].back().content.find("unexpected field 'kode'"), std::string::npos);
}

TEST_F(LoopTest, DuplicateAndMissingCallIdsAreMadeUnique) {
  Message m = Message::text(Role::Assistant, "");
  m.tool_calls = {{"same", "get_task", "{}"}, {"same", "get_task", "{}"}, {"", "get_task", "{}"}};
  ScriptedProvider p({m});
  auto tools = toolbox();
  run_agent_loop(p, *tools, options(1));
  const auto events = read_events(dir / "transcript.jsonl");
  std::vector<std::string> ids;
  for (const auto& e : events)
    if (e["type"] == "tool_call") ids.push_back(e["id"]);
  // round 1: the second "same" and the empty id become call_1_2 and call_1_3
  EXPECT_EQ(ids, (std::vector<std::string>{"same", "call_1_2", "call_1_3"}));
}

TEST_F(LoopTest, ProviderErrorIsRecorded) {
  ScriptedProvider p({turn({{"get_task", json::object()}})}, 1);
  auto tools = toolbox();
  const LoopResult r = run_agent_loop(p, *tools, options());
  EXPECT_EQ(r.stop_reason, "provider_error");
  EXPECT_EQ(r.error, "HTTP 401: invalid API key");
  EXPECT_EQ(r.rounds, 1);
  const auto events = read_events(dir / "transcript.jsonl");
  EXPECT_EQ(events[events.size() - 2]["type"], "provider_error");
  EXPECT_EQ(events.back()["result"]["stop_reason"], "provider_error");
}

TEST_F(LoopTest, ResumeContinuesFromTheLastCompleteRound) {
  const auto session = silu_session();
  {  // First run: the provider fails in round 3 (a network failure, say).
    ScriptedProvider p({session[0], session[1]}, 2);
    auto tools = toolbox();
    const LoopResult r = run_agent_loop(p, *tools, options());
    EXPECT_EQ(r.stop_reason, "provider_error");
  }
  {  // Simulate a crash while round 3's first line was being written: a torn tail.
    std::ofstream out(dir / "transcript.jsonl", std::ios::app);
    out << "{\"type\":\"message\",\"round\":3,\"mess";
  }
  ScriptedProvider p({session[2], session[3]});
  auto tools = toolbox();
  LoopOptions o = options();
  o.resume = true;
  const LoopResult r = run_agent_loop(p, *tools, o);
  EXPECT_TRUE(r.resumed);
  EXPECT_EQ(r.stop_reason, "submit");
  EXPECT_EQ(r.rounds, 4);
  EXPECT_EQ(r.usage.input_tokens, 400u);
  EXPECT_EQ(r.best_version, 2);  // the workspace's version 1 (wrong kernel) was reused
  EXPECT_EQ(r.first_correct_round, 3);
  ASSERT_FALSE(p.seen.empty());
  // The rebuilt conversation: system, user, round 1 (assistant + 2 tools), round 2
  // (assistant + 1 tool).
  EXPECT_EQ(p.seen[0].size(), 7u);
  EXPECT_EQ(p.seen[0][6].tool_name, "view_output");

  const auto events = read_events(dir / "transcript.jsonl");  // the torn line was cut
  size_t resumes = 0;
  for (const auto& e : events) resumes += e["type"] == "resume";
  EXPECT_EQ(resumes, 1u);
  const TranscriptState st = read_transcript(dir / "transcript.jsonl");
  ASSERT_TRUE(st.result.has_value());
  EXPECT_EQ((*st.result)["result"]["stop_reason"], "submit");
  EXPECT_EQ(st.assistant_turns.size(), 4u);

  // Resuming a finished run returns its result without asking the provider.
  ScriptedProvider none({});
  const LoopResult again = run_agent_loop(none, *tools, o);
  EXPECT_EQ(again.stop_reason, "submit");
  EXPECT_TRUE(none.seen.empty());
}

TEST_F(LoopTest, ResumeRejectsATranscriptOfAnotherWorkload) {
  {
    ScriptedProvider p({turn({{"get_task", json::object()}})});
    auto tools = toolbox();
    run_agent_loop(p, *tools, options(1));
  }
  LoopOptions o = options();
  o.resume = true;
  o.workload.config = "C2";
  ScriptedProvider p({});
  auto tools = toolbox();
  try {
    run_agent_loop(p, *tools, o);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("transcript of silu/plena/C1, not of silu/plena/C2"), std::string::npos);
  }
}

TEST_F(LoopTest, ReplayProviderPlaysBackARecordedRun) {
  {
    ScriptedProvider p(silu_session());
    auto tools = toolbox();
    run_agent_loop(p, *tools, options());
  }
  ProviderOptions po;
  po.replay_path = dir / "transcript.jsonl";
  auto replay = make_replay_provider(po);
  EXPECT_EQ(replay->name(), "replay");
  ToolboxOptions t;
  t.workspace_dir = dir / "ws2";
  t.workload = {"plena", "silu", "C1"};
  auto tools = make_toolbox(t);
  LoopOptions o = options();
  o.transcript_path = dir / "replayed.jsonl";
  const LoopResult r = run_agent_loop(*replay, *tools, o);
  EXPECT_EQ(r.stop_reason, "submit");
  EXPECT_EQ(r.best_version, 2);
  EXPECT_EQ(r.usage.input_tokens, 400u);  // the recorded usage is played back too
  try {
    replay->complete({}, {});
    FAIL() << "expected the replay to run out";
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()), "replay: " + po.replay_path + " has no more assistant messages (4 played)");
  }
}

TEST_F(LoopTest, ReplayProviderReadsPlainScriptsAndNamesBadLines) {
  {
    std::ofstream out(dir / "script.jsonl");
    out << R"({"role":"assistant","content":"","tool_calls":[{"id":"a","name":"get_task","arguments":"{}"}]})" << "\n\n"
        << "{oops\n";
  }
  ProviderOptions po;
  po.replay_path = dir / "script.jsonl";
  try {
    make_replay_provider(po);
    FAIL() << "expected a parse error";
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()), "replay: " + po.replay_path + ":3: not a JSON object");
  }
  {
    std::ofstream out(dir / "script.jsonl");
    out << R"({"role":"assistant","content":"","tool_calls":[{"id":"a","name":"get_task","arguments":"{}"}]})" << "\n";
  }
  auto replay = make_replay_provider(po);
  const Completion c = replay->complete({}, {});
  ASSERT_EQ(c.message.tool_calls.size(), 1u);
  EXPECT_EQ(c.message.tool_calls[0].name, "get_task");
  EXPECT_EQ(c.stop_reason, "tool_calls");
  po.replay_path = dir / "missing.jsonl";
  EXPECT_THROW(make_replay_provider(po), ProviderError);
}

}  // namespace
}  // namespace tlmcraft::agent
