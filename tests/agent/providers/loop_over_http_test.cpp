// The refinement loop driven by a model behind HTTP: scripted Chat Completions and Messages
// responses (write the PLENA SiLU C1 baseline and evaluate it as parallel calls, then
// submit) reach a correct kernel through the real toolbox, and the second request carries
// the tool results in each protocol's shape.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "agent/loop.h"
#include "agent/providers.h"
#include "agent/system_prompt.h"
#include "agent/toolbox.h"
#include "scripted_http_server.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;
using test::ScriptedHttpServer;

class LoopOverHttp : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("NO_PROXY", "127.0.0.1,localhost", 1);
    setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    dir = std::filesystem::temp_directory_path() /
          ("tlmcraft-loop-http-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir);
    ToolboxOptions t;
    t.workspace_dir = dir.string();
    t.workload = workload;
    t.trials = 1;
    toolbox = make_toolbox(t);
    const ToolResult base = toolbox->call("get_baseline", "{}");
    ASSERT_FALSE(base.is_error) << base.text;
    baseline = base.data.at("source").get<std::string>();
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  LoopResult run(Provider& p) {
    LoopOptions o;
    o.workload = workload;
    o.budget = 4;
    PromptOptions po;
    po.workload = workload;
    po.budget_rounds = 4;
    o.prompt = build_system_prompt(po);
    return run_agent_loop(p, *toolbox, o);
  }
  ProviderOptions options(const std::string& base_url) const {
    ProviderOptions o;
    o.base_url = base_url;
    o.model = "scripted";
    o.timeout_seconds = 30;
    o.max_retries = 0;
    return o;
  }

  Workload workload{"plena", "silu", "C1"};
  std::filesystem::path dir;
  std::unique_ptr<Toolbox> toolbox;
  std::string baseline;
  ScriptedHttpServer server;
};

TEST_F(LoopOverHttp, OpenAIProtocolReachesACorrectKernel) {
  json first = json::parse(R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
      {"id":"w1","type":"function","function":{"name":"write_code","arguments":""}},
      {"id":"e1","type":"function","function":{"name":"run_evaluation","arguments":"{}"}}]},
      "finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1000,"completion_tokens":200}})");
  first["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = json{{"code", baseline}}.dump();
  server.push(200, first.dump());
  server.push(200, R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
      {"id":"s1","type":"function","function":{"name":"submit","arguments":"{}"}}]},"finish_reason":"tool_calls"}],
      "usage":{"prompt_tokens":1500,"completion_tokens":10}})");
  auto provider = make_openai_provider(options(server.url() + "/v1"));
  const LoopResult r = run(*provider);
  EXPECT_EQ(r.stop_reason, "submit");
  EXPECT_TRUE(r.solved());
  EXPECT_EQ(r.best_version, 1);
  EXPECT_EQ(r.first_correct_round, 1);
  EXPECT_EQ(r.rounds, 2);
  EXPECT_EQ(r.usage.input_tokens, 2500u);   // 1000 + 1500
  EXPECT_EQ(r.usage.output_tokens, 210u);   // 200 + 10

  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  const json second = json::parse(reqs[1].body);
  const json& msgs = second["messages"];
  EXPECT_EQ(msgs[0]["role"], "system");
  // The assistant's two calls, then one tool message per call, in order (the loop may add
  // a user note, e.g. the phase change, after them).
  size_t a = 0;
  while (a < msgs.size() && !msgs[a].contains("tool_calls")) ++a;
  ASSERT_LT(a + 2, msgs.size()) << msgs;
  EXPECT_EQ(msgs[a]["role"], "assistant");
  EXPECT_EQ(msgs[a]["tool_calls"].size(), 2u);
  EXPECT_EQ(msgs[a + 1]["role"], "tool");
  EXPECT_EQ(msgs[a + 1]["tool_call_id"], "w1");
  EXPECT_EQ(msgs[a + 2]["tool_call_id"], "e1");
  EXPECT_NE(msgs[a + 2]["content"].get<std::string>().find("status: pass"), std::string::npos) << msgs[a + 2];
  EXPECT_EQ(second["tool_choice"], "auto");
}

TEST_F(LoopOverHttp, AnthropicProtocolReachesACorrectKernel) {
  json first = json::parse(R"({"content":[{"type":"text","text":"Writing the baseline."},
      {"type":"tool_use","id":"tu_w","name":"write_code","input":{}},
      {"type":"tool_use","id":"tu_e","name":"run_evaluation","input":{}}],
      "stop_reason":"tool_use","usage":{"input_tokens":900,"output_tokens":150}})");
  first["content"][1]["input"]["code"] = baseline;
  server.push(200, first.dump());
  server.push(200, R"({"content":[{"type":"tool_use","id":"tu_s","name":"submit","input":{}}],"stop_reason":"tool_use",
                       "usage":{"input_tokens":1400,"output_tokens":5}})");
  auto provider = make_anthropic_provider(options(server.url()));
  const LoopResult r = run(*provider);
  EXPECT_EQ(r.stop_reason, "submit");
  EXPECT_TRUE(r.solved());
  EXPECT_EQ(r.usage.input_tokens, 2300u);
  EXPECT_EQ(r.usage.output_tokens, 155u);

  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  const json second = json::parse(reqs[1].body);
  EXPECT_TRUE(second["system"].is_string());
  const json& msgs = second["messages"];
  // Roles alternate, starting with the user.
  for (size_t i = 0; i < msgs.size(); ++i) EXPECT_EQ(msgs[i]["role"], i % 2 == 0 ? "user" : "assistant") << i;
  const json& results = msgs.back()["content"];
  ASSERT_GE(results.size(), 2u);
  EXPECT_EQ(results[0]["type"], "tool_result");
  EXPECT_EQ(results[0]["tool_use_id"], "tu_w");
  EXPECT_EQ(results[1]["tool_use_id"], "tu_e");
  EXPECT_NE(results[1]["content"].get<std::string>().find("status: pass"), std::string::npos) << results[1];
}

}  // namespace
}  // namespace tlmcraft::agent
