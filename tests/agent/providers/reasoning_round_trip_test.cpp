// Reasoning models over HTTP: a 25-round scripted agent run through the real toolbox passes
// against the fake server of every provider profile, which rejects any request that drops
// or alters the reasoning state it issued (model_fakes.h); the fakes' own rejections for a
// missing thinking block, a modified signature and a missing thought signature; context
// windows enforced with each provider's error shape (compaction, recorded in the
// transcript); 429 with Retry-After; a resumed run sends the recorded turns' same bytes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "agent/loop.h"
#include "agent/providers.h"
#include "agent/system_prompt.h"
#include "agent/toolbox.h"
#include "agent/transcript.h"
#include "model_fakes.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;
using test::FakeOptions;
using test::ModelFake;
using test::ToolCalls;

class ReasoningRoundTrip : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("NO_PROXY", "127.0.0.1,localhost", 1);
    setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    dir = std::filesystem::temp_directory_path() /
          ("tlmcraft-reasoning-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir);
    ToolboxOptions t;
    t.workspace_dir = (dir / "ws").string();
    t.workload = workload;
    t.trials = 1;
    t.seed = 7;
    toolbox = make_toolbox(t);
    const ToolResult base = toolbox->call("get_baseline", "{}");
    ASSERT_FALSE(base.is_error) << base.text;
    baseline = base.data.at("source").get<std::string>();
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  // Rounds 1..24 write a kernel and check it (every 6th round, from the first, evaluates
  // it too); round 25 submits.
  test::ModelScript script() const {
    const std::string code = baseline;
    return [code](int turn) -> ToolCalls {
      if (turn >= 25) return {{"submit", json::object()}};
      ToolCalls calls = {{"write_code", {{"code", code}}}};
      calls.push_back({turn % 6 == 1 ? "run_evaluation" : "check_syntax", json::object()});
      return calls;
    };
  }

  LoopResult run(Provider& p, int budget, const std::string& transcript = "", bool resume = false,
                 size_t context_tokens = 0) {
    LoopOptions o;
    o.workload = workload;
    o.budget = budget;
    o.transcript_path = transcript;
    o.resume = resume;
    o.context_tokens = context_tokens;
    PromptOptions po;
    po.workload = workload;
    po.budget_rounds = budget;
    o.prompt = build_system_prompt(po);
    return run_agent_loop(p, *toolbox, o);
  }

  static ProviderOptions options(const std::string& kind, const std::string& url, const std::string& profile = "") {
    ProviderOptions o;
    o.kind = kind;
    o.base_url = url;
    o.model = "fake";
    o.api_key = "k";
    o.timeout_seconds = 30;
    o.max_retries = 1;
    o.backoff_seconds = 0.001;
    o.profile = profile;
    if (kind == "anthropic") {
      o.thinking = "enabled";
      o.thinking_budget = 2048;
      o.prompt_cache = true;
    }
    return o;
  }

  static std::unique_ptr<Provider> make(const ProviderOptions& o) {
    if (o.kind == "openai-responses") return make_openai_responses_provider(o);
    return o.kind == "anthropic" ? make_anthropic_provider(o) : make_openai_provider(o);
  }

  // The provider kind and profile a fake of `profile` speaks to.
  static ProviderOptions options_for(const std::string& profile, const std::string& url) {
    if (profile == "anthropic" || profile == "openai-responses") return options(profile, url);
    return options("openai", url, profile);
  }

  Workload workload{"plena", "silu", "C1"};
  std::filesystem::path dir;
  std::unique_ptr<Toolbox> toolbox;
  std::string baseline;
};

// --- 25 rounds against each profile's validating fake --------------------------------

class EveryProfile : public ReasoningRoundTrip, public ::testing::WithParamInterface<const char*> {};

TEST_P(EveryProfile, TwentyFiveRoundRunKeepsTheReasoningStateTheProviderRequires) {
  const std::string profile = GetParam();
  FakeOptions fo;
  if (profile == "openai") fo.expect_reasoning_effort = "high";
  ModelFake fake(profile, script(), fo);
  ProviderOptions o = options_for(profile, fake.url());
  if (profile == "openai") o.reasoning_effort = "high";
  auto provider = make(o);
  const LoopResult r = run(*provider, 25);
  EXPECT_TRUE(fake.rejections().empty()) << fake.rejections()[0];
  EXPECT_EQ(r.stop_reason, "submit") << r.error;
  EXPECT_EQ(r.rounds, 25);
  EXPECT_EQ(fake.turns(), 25);
  EXPECT_TRUE(r.solved());
  EXPECT_EQ(r.phase, 2);  // the phase-2 user message came after round 1 (DeepSeek's rule then drops round 1's reasoning)
}

INSTANTIATE_TEST_SUITE_P(Profiles, EveryProfile,
                         ::testing::Values("anthropic", "openai", "gemini-openai", "deepseek", "vllm", "openrouter",
                                           "openai-responses"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// --- the fakes reject what the providers reject ---------------------------------------

// One round against the fake, then the conversation as the loop would send it next.
std::vector<Message> after_one_round(Provider& p, const std::vector<Message>& start) {
  std::vector<Message> conv = start;
  const Completion c = p.complete(conv, {});
  conv.push_back(c.message);
  for (const auto& call : c.message.tool_calls) {
    Message m = Message::text(Role::Tool, "ok");
    m.tool_call_id = call.id;
    m.tool_name = call.name;
    conv.push_back(m);
  }
  return conv;
}

TEST_F(ReasoningRoundTrip, AnthropicFakeRejectsAToolTurnWithoutItsThinkingBlock) {
  ModelFake fake("anthropic", script());
  auto p = make(options("anthropic", fake.url()));
  std::vector<Message> conv = after_one_round(*p, {Message::text(Role::System, "s"), Message::text(Role::User, "go")});
  conv[2].raw = nullptr;  // as before this change: text and tool_use only
  try {
    p->complete(conv, {});
    FAIL() << "accepted";
  } catch (const ProviderError& e) {
    EXPECT_NE(std::string(e.what()).find("messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but "
                                         "found `text`"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(ReasoningRoundTrip, AnthropicFakeRejectsAModifiedSignature) {
  ModelFake fake("anthropic", script());
  auto p = make(options("anthropic", fake.url()));
  std::vector<Message> conv = after_one_round(*p, {Message::text(Role::User, "go")});
  ASSERT_EQ(conv[1].raw[0]["type"], "thinking");
  conv[1].raw[0]["signature"] = conv[1].raw[0]["signature"].get<std::string>() + "x";
  try {
    p->complete(conv, {});
    FAIL() << "accepted";
  } catch (const ProviderError& e) {
    EXPECT_NE(std::string(e.what()).find("messages.1.content.0: Invalid `signature` in `thinking` block"), std::string::npos)
        << e.what();
  }
  // Unmodified, the same conversation goes through, thinking block first and verbatim.
  conv[1].raw[0]["signature"] = conv[1].raw[0]["signature"].get<std::string>().substr(
      0, conv[1].raw[0]["signature"].get<std::string>().size() - 1);
  EXPECT_NO_THROW(p->complete(conv, {}));
  const json sent = json::parse(fake.server().requests().back().body);
  EXPECT_EQ(sent["messages"][1]["content"][0], conv[1].raw[0]);
  EXPECT_EQ(sent["thinking"], (json{{"type", "enabled"}, {"budget_tokens", 2048}}));
}

TEST_F(ReasoningRoundTrip, GeminiFakeRejectsAFunctionCallWithoutItsThoughtSignature) {
  ModelFake fake("gemini-openai", script());
  auto p = make(options("openai", fake.url(), "gemini-openai"));
  std::vector<Message> conv = after_one_round(*p, {Message::text(Role::User, "go")});
  ASSERT_TRUE(conv[1].raw["tool_calls"][0].contains("extra_content"));
  const json kept = conv[1].raw;
  conv[1].raw = nullptr;  // id, name and arguments only
  try {
    p->complete(conv, {});
    FAIL() << "accepted";
  } catch (const ProviderError& e) {
    EXPECT_NE(std::string(e.what()).find("Function call is missing a thought_signature"), std::string::npos) << e.what();
  }
  conv[1].raw = kept;
  EXPECT_NO_THROW(p->complete(conv, {}));
  const json sent = json::parse(fake.server().requests().back().body);
  EXPECT_EQ(sent["messages"][1]["tool_calls"][0]["extra_content"], kept["tool_calls"][0]["extra_content"]);
}

TEST_F(ReasoningRoundTrip, DeepSeekProfileSendsReasoningOnlyForTheCurrentQuestion) {
  ModelFake fake("deepseek", script());
  auto p = make(options("openai", fake.url(), "deepseek"));
  std::vector<Message> conv = after_one_round(*p, {Message::text(Role::User, "go")});
  conv = after_one_round(*p, conv);  // turn 2: turn 1's reasoning_content went back
  json sent = json::parse(fake.server().requests().back().body);
  EXPECT_EQ(sent["messages"][1]["reasoning_content"], "Thinking about round 1.");
  conv.push_back(Message::text(Role::User, "a new question"));
  EXPECT_NO_THROW(p->complete(conv, {}));
  sent = json::parse(fake.server().requests().back().body);
  EXPECT_FALSE(sent["messages"][1].contains("reasoning_content"));  // before the last user message: dropped
  // The vLLM profile fake is the same rule; a wrong profile (openai) loses the reasoning.
  ModelFake strict("deepseek", script());
  auto wrong = make(options("openai", strict.url(), "openai"));
  std::vector<Message> c2 = after_one_round(*wrong, {Message::text(Role::User, "go")});
  EXPECT_THROW(wrong->complete(c2, {}), ProviderError);
  EXPECT_EQ(strict.rejections().at(0), "Missing `reasoning_content` field in the assistant message at message index 1");
}

TEST_F(ReasoningRoundTrip, ResponsesFakeRejectsAFunctionCallWithoutItsReasoningItem) {
  ModelFake fake("openai-responses", script());
  ProviderOptions o = options("openai-responses", fake.url());
  o.reasoning_effort = "high";
  auto p = make(o);
  std::vector<Message> conv = after_one_round(*p, {Message::text(Role::User, "go")});
  ASSERT_EQ(conv[1].raw[0]["type"], "reasoning");
  const json kept = conv[1].raw;
  conv[1].raw = nullptr;  // function calls only
  try {
    p->complete(conv, {});
    FAIL() << "accepted";
  } catch (const ProviderError& e) {
    EXPECT_NE(std::string(e.what()).find("Item '' of type 'function_call' was provided without its required 'reasoning' "
                                         "item: 'rs_1'."),
              std::string::npos)
        << e.what();
  }
  conv[1].raw = kept;
  EXPECT_NO_THROW(p->complete(conv, {}));
  const json sent = json::parse(fake.server().requests().back().body);
  EXPECT_EQ(sent["input"][1], kept[0]);  // the reasoning item, encrypted content included
  EXPECT_EQ(sent["input"][2]["call_id"], "call_1_1");
  EXPECT_EQ(sent["reasoning"], (json{{"effort", "high"}}));
  EXPECT_EQ(sent["store"], false);
  EXPECT_EQ(sent["include"], json::array({"reasoning.encrypted_content"}));
  EXPECT_EQ(fake.server().requests().back().path, "/v1/responses");
}

// --- extra body, reasoning effort and usage fields ------------------------------------

TEST_F(ReasoningRoundTrip, ExtraBodyIsMergedIntoEveryRequest) {
  ModelFake fake("openai", script());
  ProviderOptions o = options("openai", fake.url(), "openai");
  o.extra_body = json::parse(R"({"service_tier":"flex","tool_choice":null,"metadata":{"run":"t"}})");
  auto p = make(o);
  (void)p->complete({Message::text(Role::User, "go")}, {{"t", "d", json::object()}});
  const json sent = json::parse(fake.server().requests().back().body);
  EXPECT_EQ(sent["service_tier"], "flex");
  EXPECT_FALSE(sent.contains("tool_choice"));  // null removes (RFC 7386)
  EXPECT_EQ(sent["metadata"], (json{{"run", "t"}}));

  ModelFake anthropic("anthropic", script());
  ProviderOptions a = options("anthropic", anthropic.url());
  a.extra_body = json::parse(R"({"thinking":{"budget_tokens":3000},"top_k":5})");
  auto pa = make(a);
  (void)pa->complete({Message::text(Role::User, "go")}, {});
  const json sa = json::parse(anthropic.server().requests().back().body);
  EXPECT_EQ(sa["thinking"], (json{{"type", "enabled"}, {"budget_tokens", 3000}}));  // merged key by key
  EXPECT_EQ(sa["top_k"], 5);
}

TEST_F(ReasoningRoundTrip, UsageSplitFromEachProvidersFields) {
  FakeOptions fo;
  fo.usage = {json::parse(R"({"prompt_tokens":5000,"completion_tokens":800,
      "prompt_tokens_details":{"cached_tokens":4096},"completion_tokens_details":{"reasoning_tokens":512}})")};
  ModelFake fake("openai", script(), fo);
  const Completion c = make(options("openai", fake.url(), "openai"))->complete({Message::text(Role::User, "go")}, {});
  EXPECT_EQ(c.usage.input_tokens, 5000u);
  EXPECT_EQ(c.usage.cached_input_tokens, 4096u);
  EXPECT_EQ(c.usage.output_tokens, 800u);
  EXPECT_EQ(c.usage.reasoning_tokens, 512u);

  FakeOptions fd;
  fd.usage = {json::parse(R"({"prompt_tokens":3000,"completion_tokens":90,"prompt_cache_hit_tokens":2560,
      "prompt_cache_miss_tokens":440})")};
  ModelFake ds("deepseek", script(), fd);
  const Completion d = make(options("openai", ds.url(), "deepseek"))->complete({Message::text(Role::User, "go")}, {});
  EXPECT_EQ(d.usage.cached_input_tokens, 2560u);

  FakeOptions fa;
  fa.usage = {json::parse(R"({"input_tokens":50,"cache_creation_input_tokens":1000,"cache_read_input_tokens":20000,
      "output_tokens":700})")};
  ModelFake an("anthropic", script(), fa);
  const Completion a = make(options("anthropic", an.url()))->complete({Message::text(Role::User, "go")}, {});
  EXPECT_EQ(a.usage.input_tokens, 21050u);  // 50 + 1000 + 20000
  EXPECT_EQ(a.usage.cached_input_tokens, 20000u);
  EXPECT_EQ(a.usage.cache_write_tokens, 1000u);
  EXPECT_EQ(a.usage.output_tokens, 700u);
}

TEST_F(ReasoningRoundTrip, AnthropicCacheBreakpointsOnSystemToolsAndNewestMessage) {
  ModelFake fake("anthropic", script());
  auto p = make(options("anthropic", fake.url()));
  (void)p->complete({Message::text(Role::System, "sys"), Message::text(Role::User, "go")},
                    {{"a", "first", json::object()}, {"b", "second", json::object()}});
  const json sent = json::parse(fake.server().requests().back().body);
  const json cache = {{"type", "ephemeral"}};
  EXPECT_EQ(sent["system"], json::parse(R"([{"type":"text","text":"sys","cache_control":{"type":"ephemeral"}}])"));
  EXPECT_FALSE(sent["tools"][0].contains("cache_control"));
  EXPECT_EQ(sent["tools"][1]["cache_control"], cache);
  EXPECT_EQ(sent["messages"][0]["content"][0]["cache_control"], cache);
}

TEST_F(ReasoningRoundTrip, OpenRouterAnthropicModelsGetACacheBreakpointOnTheSystemPrompt) {
  ModelFake fake("openrouter", script());
  ProviderOptions o = options("openai", fake.url(), "openrouter");
  o.model = "anthropic/claude-sonnet-4.5";
  o.prompt_cache = true;
  (void)make(o)->complete({Message::text(Role::System, "sys"), Message::text(Role::User, "go")}, {});
  json sent = json::parse(fake.server().requests().back().body);
  EXPECT_EQ(sent["messages"][0]["content"],
            json::parse(R"([{"type":"text","text":"sys","cache_control":{"type":"ephemeral"}}])"));
  EXPECT_FALSE(sent.contains("prompt_cache_key"));  // OpenAI's own endpoint only
  o.prompt_cache = false;
  (void)make(o)->complete({Message::text(Role::System, "sys"), Message::text(Role::User, "go")}, {});
  sent = json::parse(fake.server().requests().back().body);
  EXPECT_EQ(sent["messages"][0]["content"], "sys");
}

// --- cost by hand ---------------------------------------------------------------------

TEST_F(ReasoningRoundTrip, RunCostDerivedByHandFromUsageFieldsAndThePriceTable) {
  // Two Anthropic turns (write + evaluate, then submit) with these usage fields:
  //   turn 1: input 2000, cache write 16000, cache read 0,     output 1200
  //   turn 2: input 300,  cache write 1500,  cache read 16000, output 100
  // Price table entry "fake": input $3, cached input $0.30, cache write $3.75, output $15 per
  // million tokens. Cost = (2300 x 3 + 17500 x 3.75 + 16000 x 0.30 + 1300 x 15) / 1e6
  //                      = (6900 + 65625 + 4800 + 19500) / 1e6 = 0.096825 dollars.
  FakeOptions fo;
  fo.usage = {json::parse(R"({"input_tokens":2000,"cache_creation_input_tokens":16000,"cache_read_input_tokens":0,"output_tokens":1200})"),
              json::parse(R"({"input_tokens":300,"cache_creation_input_tokens":1500,"cache_read_input_tokens":16000,"output_tokens":100})")};
  const std::string code = baseline;
  ModelFake fake("anthropic",
                 [code](int turn) -> ToolCalls {
                   if (turn == 1) return {{"write_code", {{"code", code}}}, {"run_evaluation", json::object()}};
                   return {{"submit", json::object()}};
                 },
                 fo);
  const std::string table = (dir / "prices.json").string();
  std::filesystem::create_directories(dir);
  std::ofstream(table) << R"({"models":{"fake":{"input":3,"cached_input":0.30,"cache_write":3.75,"output":15}}})";
  auto p = make(options("anthropic", fake.url()));
  LoopOptions o;
  o.workload = workload;
  o.budget = 5;
  o.transcript_path = (dir / "t.jsonl").string();
  o.price = PriceTable::load(table).find("fake");
  PromptOptions po;
  po.workload = workload;
  po.budget_rounds = 5;
  o.prompt = build_system_prompt(po);
  const LoopResult r = run_agent_loop(*p, *toolbox, o);
  ASSERT_EQ(r.stop_reason, "submit") << r.error;
  EXPECT_EQ(r.usage.input_tokens, 35800u);  // 2000 + 16000 + 0 + 300 + 1500 + 16000
  EXPECT_EQ(r.usage.cached_input_tokens, 16000u);
  EXPECT_EQ(r.usage.cache_write_tokens, 17500u);
  EXPECT_EQ(r.usage.output_tokens, 1300u);
  ASSERT_TRUE(r.cost_usd.has_value());
  EXPECT_NEAR(*r.cost_usd, 0.096825, 1e-12);
  // The transcript's result carries the same split and cost.
  const TranscriptState st = read_transcript(o.transcript_path);
  ASSERT_TRUE(st.result.has_value());
  EXPECT_EQ((*st.result)["result"]["tokens"],
            (json{{"input", 35800}, {"output", 1300}, {"cached_input", 16000}, {"cache_write", 17500}, {"reasoning", 0}}));
  EXPECT_NEAR((*st.result)["result"]["cost_usd"].get<double>(), 0.096825, 1e-12);
}

// --- context windows --------------------------------------------------------------------

// Per profile: the fake's window fits the first request plus a few rounds, never all 25.
class ContextWindow : public ReasoningRoundTrip, public ::testing::WithParamInterface<const char*> {};

TEST_P(ContextWindow, ProviderContextErrorCompactsAndTheRunCompletes) {
  const std::string profile = GetParam();
  // Measure one uncompacted round against a roomy fake first, to size the window.
  size_t first = 0, third = 0;
  {
    ModelFake probe(profile, script());
    auto p = make(options_for(profile, probe.url()));
    (void)run(*p, 3);
    const auto reqs = probe.server().requests();
    ASSERT_EQ(reqs.size(), 3u);
    first = reqs[0].body.size() / 4;
    third = reqs[2].body.size() / 4;
  }
  // Room for the first request and about twelve uncompacted rounds (third - first is two).
  FakeOptions fo;
  fo.context_window_tokens = first + 6 * (third - first);
  ModelFake fake(profile, script(), fo);
  auto p = make(options_for(profile, fake.url()));
  std::filesystem::remove_all(dir / "ws");
  const std::string transcript = (dir / "t.jsonl").string();
  const LoopResult r = run(*p, 25, transcript);
  EXPECT_EQ(r.stop_reason, "submit") << r.error;
  EXPECT_EQ(r.rounds, 25);
  EXPECT_GE(fake.context_errors(), 1);
  EXPECT_GE(r.compactions, 1);
  EXPECT_TRUE(fake.rejections().empty());
  // The transcript shows what was compacted and why.
  std::ifstream in(transcript);
  int events = 0;
  bool kernel_compacted = false;
  for (std::string line; std::getline(in, line);) {
    const json ev = json::parse(line);
    if (ev["type"] != "compaction") continue;
    ++events;
    EXPECT_EQ(ev["reason"], "context_length_error");
    EXPECT_LT(ev["tokens_after"].get<size_t>(), ev["tokens_before"].get<size_t>());
    for (const auto& c : ev["changes"])
      if (c.contains("tool_call") &&
          c["text"].get<std::string>().find("[compacted: kernel version ") != std::string::npos)
        kernel_compacted = true;
  }
  EXPECT_EQ(events, r.compactions);
  EXPECT_TRUE(kernel_compacted);
}

INSTANTIATE_TEST_SUITE_P(Profiles, ContextWindow,
                         ::testing::Values("anthropic", "openai", "gemini-openai", "deepseek", "vllm", "openrouter",
                                           "openai-responses"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST_F(ReasoningRoundTrip, ContextBudgetCompactsBeforeTheRequestWouldOverflow) {
  // Against a fake whose window is the budget: compaction happens ahead, no error is seen.
  size_t first = 0, third = 0;
  {
    ModelFake probe("anthropic", script());
    auto p = make(options("anthropic", probe.url()));
    (void)run(*p, 3);
    first = probe.server().requests()[0].body.size() / 4;
    third = probe.server().requests()[2].body.size() / 4;
  }
  std::filesystem::remove_all(dir / "ws");
  FakeOptions fo;
  fo.context_window_tokens = first + 6 * (third - first);
  ModelFake fake("anthropic", script(), fo);
  auto p = make(options("anthropic", fake.url()));
  // The loop's estimate counts fewer tokens than the fake's bytes / 4 (JSON syntax); a budget
  // of 3/4 of the window keeps inside it.
  const LoopResult r = run(*p, 25, (dir / "t.jsonl").string(), false, fo.context_window_tokens * 3 / 4);
  EXPECT_EQ(r.stop_reason, "submit") << r.error;
  EXPECT_EQ(fake.context_errors(), 0);
  EXPECT_GE(r.compactions, 1);
  const TranscriptState st = read_transcript((dir / "t.jsonl").string());
  size_t compacted = 0;
  for (const auto& m : st.conversation)
    for (const auto& c : m.tool_calls) compacted += c.arguments.find("[compacted: kernel version") != std::string::npos;
  EXPECT_GE(compacted, 1u);  // the reader applied the recorded compaction
}

// --- 429 with Retry-After and resume ---------------------------------------------------

TEST_F(ReasoningRoundTrip, RateLimitedRequestIsRetriedAfterRetryAfter) {
  FakeOptions fo;
  fo.answer_429_on_request = 2;
  fo.retry_after = "0";
  ModelFake fake("gemini-openai", script(), fo);
  auto p = make(options("openai", fake.url(), "gemini-openai"));
  const LoopResult r = run(*p, 3);
  EXPECT_EQ(r.rounds, 3);
  EXPECT_EQ(fake.turns(), 3);
  EXPECT_EQ(fake.server().requests().size(), 4u);  // 3 turns + the refused one
  EXPECT_TRUE(fake.rejections().empty());
}

TEST_F(ReasoningRoundTrip, ResumedRunSendsTheRecordedTurnsBytesUnchanged) {
  ModelFake fake("anthropic", script());
  const std::string transcript = (dir / "t.jsonl").string();
  {
    auto p = make(options("anthropic", fake.url()));
    (void)run(*p, 2, transcript);  // stops on the budget after round 2
  }
  // As if interrupted before the result was written: keep the lines up to the last round_end.
  std::string kept;
  {
    std::ifstream in(transcript);
    for (std::string line; std::getline(in, line);)
      if (json::parse(line)["type"] != "result") kept += line + "\n";
  }
  std::ofstream(transcript, std::ios::trunc) << kept;
  auto p = make(options("anthropic", fake.url()));
  const LoopResult r = run(*p, 4, transcript, true);
  EXPECT_TRUE(r.resumed);
  EXPECT_TRUE(fake.rejections().empty());
  const auto reqs = fake.server().requests();
  ASSERT_GE(reqs.size(), 3u);
  // Round 2's request (first run) and round 3's (resumed run) carry round 1's assistant turn:
  // the same bytes, thinking blocks and signatures included.
  const json before = json::parse(reqs[1].body)["messages"][1];
  const json after = json::parse(reqs[2].body)["messages"][1];
  EXPECT_EQ(before.dump(), after.dump());
  EXPECT_EQ(after["content"][0]["type"], "thinking");
}

}  // namespace
}  // namespace tlmcraft::agent
