// The Anthropic Messages provider against a scripted /v1/messages server on loopback.
#include <gtest/gtest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "agent/providers.h"
#include "scripted_http_server.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;
using test::ScriptedHttpServer;
using test::ScriptedResponse;

class AnthropicProviderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("NO_PROXY", "127.0.0.1,localhost", 1);
    for (const char* v : {"ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_MODEL", "TLMCRAFT_MODEL"}) unsetenv(v);
  }
  ProviderOptions options() const {
    ProviderOptions o;
    o.kind = "anthropic";
    o.base_url = server.url();
    o.model = "claude-test";
    o.api_key = "ak-test";
    o.timeout_seconds = 5;
    o.max_retries = 2;
    o.backoff_seconds = 0.001;
    o.max_tokens = 1024;
    return o;
  }
  static std::vector<Message> hello() { return {Message::text(Role::User, "hi")}; }
  static json body_of(const test::RecordedRequest& r) { return json::parse(r.body); }

  ScriptedHttpServer server;
};

TEST_F(AnthropicProviderTest, PlainTextReplyWithHeaders) {
  server.push(200, R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-test",
      "content":[{"type":"text","text":"Hello"},{"type":"text","text":"again"}],
      "stop_reason":"end_turn","usage":{"input_tokens":20,"output_tokens":4,"cache_read_input_tokens":100}})");
  auto p = make_anthropic_provider(options());
  EXPECT_EQ(p->name(), "anthropic:claude-test");
  const Completion c = p->complete(hello(), {});
  EXPECT_EQ(c.message.content, "Hello\nagain");  // text blocks joined by a newline
  EXPECT_TRUE(c.message.tool_calls.empty());
  EXPECT_EQ(c.stop_reason, "end_turn");
  EXPECT_EQ(c.usage.input_tokens, 120u);  // 20 fresh + 100 read from the prompt cache
  EXPECT_EQ(c.usage.output_tokens, 4u);
  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].path, "/v1/messages");
  EXPECT_EQ(reqs[0].headers.at("x-api-key"), "ak-test");
  EXPECT_EQ(reqs[0].headers.at("anthropic-version"), "2023-06-01");
  EXPECT_EQ(reqs[0].headers.count("authorization"), 0u);
  EXPECT_EQ(body_of(reqs[0]), json::parse(R"({"model":"claude-test","max_tokens":1024,
      "messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]})"));
}

TEST_F(AnthropicProviderTest, BaseUrlWithV1SuffixIsAccepted) {
  server.push(200, R"({"content":[{"type":"text","text":"x"}],"stop_reason":"end_turn"})");
  ProviderOptions o = options();
  o.base_url = server.url() + "/v1/";
  make_anthropic_provider(o)->complete(hello(), {});
  EXPECT_EQ(server.requests().at(0).path, "/v1/messages");
}

TEST_F(AnthropicProviderTest, OneToolUse) {
  server.push(200, R"({"content":[{"type":"text","text":"I'll write it."},
      {"type":"tool_use","id":"toolu_01","name":"write_code","input":{"code":"S_ADDI_INT gp1, gp0, 1"}}],
      "stop_reason":"tool_use","usage":{"input_tokens":50,"output_tokens":30}})");
  const Completion c = make_anthropic_provider(options())->complete(hello(), {});
  EXPECT_EQ(c.message.content, "I'll write it.");
  ASSERT_EQ(c.message.tool_calls.size(), 1u);
  EXPECT_EQ(c.message.tool_calls[0].id, "toolu_01");
  EXPECT_EQ(c.message.tool_calls[0].name, "write_code");
  EXPECT_EQ(c.message.tool_calls[0].arguments, R"({"code":"S_ADDI_INT gp1, gp0, 1"})");
  EXPECT_EQ(c.stop_reason, "tool_use");
}

TEST_F(AnthropicProviderTest, ParallelToolUseAndWrongArgumentTypesPassThrough) {
  // input is always an object on this API; a wrongly typed field is serialised as given and
  // left for the toolbox's schema check to report.
  server.push(200, R"({"content":[
      {"type":"thinking","thinking":"...","signature":"s"},
      {"type":"tool_use","id":"toolu_a","name":"check_syntax","input":{}},
      {"type":"tool_use","id":"toolu_b","name":"write_code","input":{"code":5}}],
      "stop_reason":"tool_use"})");
  const Completion c = make_anthropic_provider(options())->complete(hello(), {});
  EXPECT_EQ(c.message.content, "");
  ASSERT_EQ(c.message.tool_calls.size(), 2u);
  EXPECT_EQ(c.message.tool_calls[0].id, "toolu_a");
  EXPECT_EQ(c.message.tool_calls[0].arguments, "{}");
  EXPECT_EQ(c.message.tool_calls[1].name, "write_code");
  EXPECT_EQ(c.message.tool_calls[1].arguments, R"({"code":5})");
}

TEST_F(AnthropicProviderTest, RateLimitThenSuccess) {
  server.push(ScriptedResponse{429, R"({"type":"error","error":{"type":"rate_limit_error","message":"slow down"}})",
                               {{"retry-after", "0"}}, 0});
  server.push(200, R"({"content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn"})");
  EXPECT_EQ(make_anthropic_provider(options())->complete(hello(), {}).message.content, "ok");
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST_F(AnthropicProviderTest, OverloadedThreeTimesIsAProviderError) {
  for (int i = 0; i < 3; ++i)
    server.push(529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})");
  try {
    make_anthropic_provider(options())->complete(hello(), {});
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()), "anthropic: " + server.url() +
                                         "/v1/messages failed after 3 attempts; last: HTTP 529: Overloaded "
                                         "(overloaded_error)");
  }
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST_F(AnthropicProviderTest, TimeoutIsAProviderError) {
  server.push(ScriptedResponse{200, "{}", {}, 3000});
  ProviderOptions o = options();
  o.timeout_seconds = 0.25;
  o.max_retries = 0;
  try {
    make_anthropic_provider(o)->complete(hello(), {});
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_NE(std::string(e.what()).find("timed out after 0.25 s"), std::string::npos) << e.what();
  }
}

TEST_F(AnthropicProviderTest, UnauthorizedNamesStatusAndApiMessage) {
  server.push(401, R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}})");
  try {
    make_anthropic_provider(options())->complete(hello(), {});
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()),
              "anthropic: HTTP 401 from " + server.url() + "/v1/messages: invalid x-api-key (authentication_error)");
  }
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST_F(AnthropicProviderTest, ExactRequestForAConversationWithToolResults) {
  server.push(200, R"({"content":[{"type":"text","text":"done"}],"stop_reason":"end_turn"})");
  ProviderOptions o = options();
  o.temperature = 0;
  std::vector<Message> conv;
  conv.push_back({Role::System, "You write PLENA kernels.", {}, "", "", false, {}});
  conv.push_back({Role::User, "Write SiLU.", {}, "", "", false, {}});
  conv.push_back({Role::Assistant, "Two checks.", {{"t1", "write_code", R"({"code":"x"})"}, {"t2", "check_syntax", ""}},
                  "", "", false, {}});
  conv.push_back({Role::Tool, "ok: version 1", {}, "t1", "write_code", false, json{{"version", 1}}});
  conv.push_back({Role::Tool, "kernel.asm:1:1: error: unknown mnemonic 'x'", {}, "t2", "check_syntax", true, {}});
  conv.push_back({Role::User, "Phase 2: make it faster.", {}, "", "", false, {}});
  conv.push_back({Role::Assistant, "", {{"t3", "write_code", "{not json"}}, "", "", false, {}});
  conv.push_back({Role::Tool, "error: arguments are not JSON", {}, "t3", "write_code", true, {}});
  const std::vector<ToolSpec> tools = {
      {"write_code", "Store a kernel version.",
       json::parse(R"({"type":"object","properties":{"code":{"type":"string"}},"required":["code"]})")}};
  make_anthropic_provider(o)->complete(conv, tools);
  // System is top-level; both tool results share one user message, followed by the user's
  // text; empty arguments and arguments that are not a JSON object become {}.
  const json expected = json::parse(R"({
    "model": "claude-test",
    "max_tokens": 1024,
    "system": "You write PLENA kernels.",
    "messages": [
      {"role": "user", "content": [{"type": "text", "text": "Write SiLU."}]},
      {"role": "assistant", "content": [
        {"type": "text", "text": "Two checks."},
        {"type": "tool_use", "id": "t1", "name": "write_code", "input": {"code": "x"}},
        {"type": "tool_use", "id": "t2", "name": "check_syntax", "input": {}}]},
      {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "ok: version 1"},
        {"type": "tool_result", "tool_use_id": "t2", "content": "kernel.asm:1:1: error: unknown mnemonic 'x'",
         "is_error": true},
        {"type": "text", "text": "Phase 2: make it faster."}]},
      {"role": "assistant", "content": [{"type": "tool_use", "id": "t3", "name": "write_code", "input": {}}]},
      {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t3", "content": "error: arguments are not JSON", "is_error": true}]}
    ],
    "tools": [{"name": "write_code", "description": "Store a kernel version.",
               "input_schema": {"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]}}],
    "temperature": 0.0
  })");
  EXPECT_EQ(body_of(server.requests().at(0)), expected) << server.requests().at(0).body;
}

TEST_F(AnthropicProviderTest, ConfigurationAndResponseErrors) {
  ProviderOptions o = options();
  o.base_url = "";
  o.api_key = "";
  try {
    make_anthropic_provider(o);
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()), "anthropic: no API key for https://api.anthropic.com (--api-key or ANTHROPIC_API_KEY)");
  }
  setenv("ANTHROPIC_API_KEY", "from-env", 1);
  setenv("ANTHROPIC_BASE_URL", server.url().c_str(), 1);
  o.model = "";
  EXPECT_THROW(make_anthropic_provider(o), ProviderError);  // no model anywhere
  o.model = "m";
  server.push(200, R"({"type":"message"})");
  try {
    make_anthropic_provider(o)->complete(hello(), {});
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_NE(std::string(e.what()).find("has no content array"), std::string::npos) << e.what();
  }
  EXPECT_EQ(server.requests().at(0).headers.at("x-api-key"), "from-env");
}

}  // namespace
}  // namespace tlmcraft::agent
