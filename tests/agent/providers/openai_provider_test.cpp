// The OpenAI-compatible provider against a scripted Chat Completions server on loopback.
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

class OpenAIProviderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("NO_PROXY", "127.0.0.1,localhost", 1);
    for (const char* v : {"OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL", "TLMCRAFT_MODEL"}) unsetenv(v);
  }
  ProviderOptions options() const {
    ProviderOptions o;
    o.kind = "openai";
    o.base_url = server.url() + "/v1";
    o.model = "test-model";
    o.api_key = "sk-test";
    o.timeout_seconds = 5;
    o.max_retries = 2;
    o.backoff_seconds = 0.001;
    o.max_tokens = 512;
    return o;
  }
  static std::vector<Message> hello() { return {Message::text(Role::User, "hi")}; }
  static json body_of(const test::RecordedRequest& r) { return json::parse(r.body); }

  ScriptedHttpServer server;
};

TEST_F(OpenAIProviderTest, PlainTextReply) {
  server.push(200, R"({"id":"c1","choices":[{"index":0,"message":{"role":"assistant","content":"Hello there"},
                       "finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}})");
  auto p = make_openai_provider(options());
  EXPECT_EQ(p->name(), "openai:test-model");
  const Completion c = p->complete(hello(), {});
  EXPECT_EQ(c.message.role, Role::Assistant);
  EXPECT_EQ(c.message.content, "Hello there");
  EXPECT_TRUE(c.message.tool_calls.empty());
  EXPECT_EQ(c.stop_reason, "stop");
  EXPECT_EQ(c.usage.input_tokens, 12u);
  EXPECT_EQ(c.usage.output_tokens, 3u);
  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].path, "/v1/chat/completions");
  EXPECT_EQ(reqs[0].headers.at("authorization"), "Bearer sk-test");
  // No tools declared: neither tools nor tool_choice are sent; a non-OpenAI host gets max_tokens.
  EXPECT_EQ(body_of(reqs[0]),
            json::parse(R"({"model":"test-model","messages":[{"role":"user","content":"hi"}],"max_tokens":512})"));
}

TEST_F(OpenAIProviderTest, OneToolCallWithNullContent) {
  server.push(200, R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
      {"id":"call_a","type":"function","function":{"name":"write_code","arguments":"{\"code\":\"S_ADDI_INT gp1, gp0, 1\"}"}}]},
      "finish_reason":"tool_calls"}],"usage":{"prompt_tokens":100,"completion_tokens":20}})");
  const Completion c = make_openai_provider(options())->complete(hello(), {});
  EXPECT_EQ(c.message.content, "");
  ASSERT_EQ(c.message.tool_calls.size(), 1u);
  EXPECT_EQ(c.message.tool_calls[0].id, "call_a");
  EXPECT_EQ(c.message.tool_calls[0].name, "write_code");
  EXPECT_EQ(c.message.tool_calls[0].arguments, R"({"code":"S_ADDI_INT gp1, gp0, 1"})");
  EXPECT_EQ(c.stop_reason, "tool_calls");
}

TEST_F(OpenAIProviderTest, ParallelToolCallsKeepOrderAndMissingIdsAreGenerated) {
  server.push(200, R"({"choices":[{"message":{"role":"assistant","content":"Checking both.","tool_calls":[
      {"id":"call_1","type":"function","function":{"name":"check_syntax","arguments":"{}"}},
      {"id":"call_2","type":"function","function":{"name":"get_instruction_size","arguments":"{}"}},
      {"type":"function","function":{"name":"get_task","arguments":{"task":"silu"}}}]},
      "finish_reason":"tool_calls"}]})");
  const Completion c = make_openai_provider(options())->complete(hello(), {});
  EXPECT_EQ(c.message.content, "Checking both.");
  ASSERT_EQ(c.message.tool_calls.size(), 3u);
  EXPECT_EQ(c.message.tool_calls[0].name, "check_syntax");
  EXPECT_EQ(c.message.tool_calls[1].id, "call_2");
  EXPECT_EQ(c.message.tool_calls[1].name, "get_instruction_size");
  // A call without id gets one; arguments sent as an object are serialised to text.
  EXPECT_EQ(c.message.tool_calls[2].id, "tlmcraft_call_1");
  EXPECT_EQ(c.message.tool_calls[2].arguments, R"({"task":"silu"})");
  EXPECT_EQ(c.usage.input_tokens, 0u);  // no usage block: zero, not an error
}

TEST_F(OpenAIProviderTest, MalformedArgumentsArePassedThroughVerbatim) {
  server.push(200, R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
      {"id":"call_x","type":"function","function":{"name":"write_code","arguments":"{\"code\": \"S_ADD_INT gp1,"}}]},
      "finish_reason":"tool_calls"}]})");
  const Completion c = make_openai_provider(options())->complete(hello(), {});
  ASSERT_EQ(c.message.tool_calls.size(), 1u);
  EXPECT_EQ(c.message.tool_calls[0].arguments, R"({"code": "S_ADD_INT gp1,)");
}

TEST_F(OpenAIProviderTest, RateLimitThenSuccessRetriesOnce) {
  server.push(ScriptedResponse{429, R"({"error":{"message":"Rate limit reached","type":"requests"}})",
                               {{"Retry-After", "0"}}, 0});
  server.push(200, R"({"choices":[{"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]})");
  const Completion c = make_openai_provider(options())->complete(hello(), {});
  EXPECT_EQ(c.message.content, "ok");
  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);  // one retry
  EXPECT_EQ(reqs[0].body, reqs[1].body);
}

TEST_F(OpenAIProviderTest, ServerErrorThreeTimesIsAProviderError) {
  for (int i = 0; i < 3; ++i) server.push(500, R"({"error":{"message":"upstream failure"}})");
  auto p = make_openai_provider(options());  // max_retries 2: 3 attempts in all
  try {
    p->complete(hello(), {});
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()), "openai: " + server.url() +
                                         "/v1/chat/completions failed after 3 attempts; last: HTTP 500: upstream failure");
  }
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST_F(OpenAIProviderTest, TimeoutIsAProviderError) {
  server.push(ScriptedResponse{200, "{}", {}, 3000});
  ProviderOptions o = options();
  o.timeout_seconds = 0.25;
  o.max_retries = 0;
  try {
    make_openai_provider(o)->complete(hello(), {});
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_NE(std::string(e.what()).find("timed out after 0.25 s"), std::string::npos) << e.what();
  }
}

TEST_F(OpenAIProviderTest, UnauthorizedNamesStatusAndApiMessageWithoutRetry) {
  server.push(401, R"({"error":{"message":"Incorrect API key provided: sk-test.","type":"invalid_request_error",
                       "param":null,"code":"invalid_api_key"}})");
  try {
    make_openai_provider(options())->complete(hello(), {});
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()), "openai: HTTP 401 from " + server.url() +
                                         "/v1/chat/completions: Incorrect API key provided: sk-test. "
                                         "(invalid_request_error)");
  }
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST_F(OpenAIProviderTest, UnsupportedMaxTokensSwitchesToMaxCompletionTokens) {
  server.push(400, R"({"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}})");
  server.push(200, R"({"choices":[{"message":{"role":"assistant","content":"a"},"finish_reason":"stop"}]})");
  server.push(200, R"({"choices":[{"message":{"role":"assistant","content":"b"},"finish_reason":"stop"}]})");
  auto p = make_openai_provider(options());
  EXPECT_EQ(p->complete(hello(), {}).message.content, "a");
  EXPECT_EQ(p->complete(hello(), {}).message.content, "b");  // remembered: no second 400
  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_TRUE(body_of(reqs[0]).contains("max_tokens"));
  for (int i : {1, 2}) {
    EXPECT_FALSE(body_of(reqs[i]).contains("max_tokens"));
    EXPECT_EQ(body_of(reqs[i])["max_completion_tokens"], 512);
  }
}

TEST_F(OpenAIProviderTest, ExactRequestForAConversationWithToolResults) {
  server.push(200, R"({"choices":[{"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}]})");
  ProviderOptions o = options();
  o.temperature = 0.5;
  std::vector<Message> conv;
  conv.push_back({Role::System, "You write PLENA kernels.", {}, "", "", false, {}});
  conv.push_back({Role::User, "Write SiLU.", {}, "", "", false, {}});
  conv.push_back({Role::Assistant, "", {{"c1", "write_code", R"({"code":"x"})"}, {"c2", "check_syntax", "{}"}}, "", "",
                  false, {}});
  conv.push_back({Role::Tool, "ok: 1 line, version 1", {}, "c1", "write_code", false, json{{"version", 1}}});
  conv.push_back({Role::Tool, "kernel.asm:1:1: error: unknown mnemonic 'x'", {}, "c2", "check_syntax", true, {}});
  conv.push_back({Role::Assistant, "Fixing.", {{"c3", "write_code", "{bad"}}, "", "", false, {}});
  const std::vector<ToolSpec> tools = {
      {"write_code", "Store a kernel version.",
       json::parse(R"({"type":"object","properties":{"code":{"type":"string"}},"required":["code"]})")},
      {"check_syntax", "Assemble the current version.", json()}};
  make_openai_provider(o)->complete(conv, tools);
  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  // Tool messages carry only tool_call_id and content (is_error and data are not part of
  // the wire format); a tool without a schema gets an empty object schema.
  const json expected = json::parse(R"({
    "model": "test-model",
    "messages": [
      {"role": "system", "content": "You write PLENA kernels."},
      {"role": "user", "content": "Write SiLU."},
      {"role": "assistant", "content": null, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "write_code", "arguments": "{\"code\":\"x\"}"}},
        {"id": "c2", "type": "function", "function": {"name": "check_syntax", "arguments": "{}"}}]},
      {"role": "tool", "tool_call_id": "c1", "content": "ok: 1 line, version 1"},
      {"role": "tool", "tool_call_id": "c2", "content": "kernel.asm:1:1: error: unknown mnemonic 'x'"},
      {"role": "assistant", "content": "Fixing.", "tool_calls": [
        {"id": "c3", "type": "function", "function": {"name": "write_code", "arguments": "{bad"}}]}
    ],
    "tools": [
      {"type": "function", "function": {"name": "write_code", "description": "Store a kernel version.",
        "parameters": {"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]}}},
      {"type": "function", "function": {"name": "check_syntax", "description": "Assemble the current version.",
        "parameters": {"type": "object", "properties": {}}}}
    ],
    "tool_choice": "auto",
    "max_tokens": 512,
    "temperature": 0.5
  })");
  EXPECT_EQ(body_of(reqs[0]), expected) << reqs[0].body;
}

TEST_F(OpenAIProviderTest, ConfigurationErrors) {
  ProviderOptions o = options();
  o.model = "";
  EXPECT_THROW(make_openai_provider(o), ProviderError);
  setenv("OPENAI_MODEL", "from-env", 1);
  EXPECT_EQ(make_openai_provider(o)->name(), "openai:from-env");
  o = options();
  o.base_url = "";  // the default endpoint needs a key
  o.api_key = "";
  try {
    make_openai_provider(o);
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()), "openai: no API key for https://api.openai.com/v1 (--api-key or OPENAI_API_KEY)");
  }
  // A local server needs no key and gets no Authorization header.
  o = options();
  o.api_key = "";
  server.push(200, R"({"choices":[{"message":{"role":"assistant","content":"x"},"finish_reason":"stop"}]})");
  make_openai_provider(o)->complete(hello(), {});
  EXPECT_EQ(server.requests().at(0).headers.count("authorization"), 0u);
}

TEST_F(OpenAIProviderTest, ResponsesWithoutChoicesOrWithErrorsAreProviderErrors) {
  server.push(200, R"({"error":{"message":"Provider returned error","code":502}})");
  server.push(200, R"({"choices":[]})");
  server.push(200, "not json");
  auto p = make_openai_provider(options());
  EXPECT_THROW(
      {
        try {
          p->complete(hello(), {});
        } catch (const ProviderError& e) {
          EXPECT_NE(std::string(e.what()).find("Provider returned error"), std::string::npos);
          throw;
        }
      },
      ProviderError);
  EXPECT_THROW(p->complete(hello(), {}), ProviderError);
  try {
    p->complete(hello(), {});
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_NE(std::string(e.what()).find("is not a JSON object: not json"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tlmcraft::agent
