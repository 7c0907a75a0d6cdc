// Fake model servers for the reasoning-model tests, one per provider profile. Each plays a
// scripted model (tool calls per round) in its provider's wire format, attaches the
// reasoning state that provider issues (Anthropic thinking/redacted_thinking blocks with
// signatures, Gemini thought signatures on tool calls, DeepSeek/vLLM reasoning_content,
// OpenRouter reasoning_details), and validates every request the way the provider
// documents: a request that drops or alters that state is answered with the provider's
// own 400 error. Optionally a context window (request bytes / 4 as tokens) answered with
// the provider's context-length error shape, and a 429 with Retry-After.
#pragma once
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "scripted_http_server.h"

namespace tlmcraft::test {

using ToolCalls = std::vector<std::pair<std::string, nlohmann::json>>;  // (name, arguments)
using ModelScript = std::function<ToolCalls(int turn)>;                 // turn 1, 2, ...

struct FakeOptions {
  size_t context_window_tokens = 0;   // 0 = none
  int answer_429_on_request = 0;      // the n-th request (1-based) gets 429 + retry-after
  std::string retry_after = "1";
  std::vector<nlohmann::json> usage;  // per turn: the usage object to report (else computed)
  std::string expect_reasoning_effort;  // openai-compatible: the reasoning_effort every request must carry
};

class ModelFake {
 public:
  // profile: anthropic, openai, gemini-openai, deepseek, vllm, openrouter, openai-responses
  ModelFake(std::string profile, ModelScript script, FakeOptions options = {});
  virtual ~ModelFake() = default;
  std::string url() const;                 // base URL for ProviderOptions (with /v1 for OpenAI-compatible)
  int turns() const;                       // model turns answered
  std::vector<std::string> rejections() const;  // the 400 messages sent for invalid requests
  int context_errors() const;
  ScriptedHttpServer& server() { return server_; }

 private:
  ScriptedResponse handle(const RecordedRequest& r);
  std::string validate_anthropic(const nlohmann::json& body) const;
  std::string validate_openai(const nlohmann::json& body) const;
  std::string validate_responses(const nlohmann::json& body) const;
  nlohmann::json reply_responses(int turn, const ToolCalls& calls, size_t tokens);
  nlohmann::json reply_anthropic(int turn, const ToolCalls& calls, size_t tokens);
  nlohmann::json reply_openai(int turn, const ToolCalls& calls, size_t tokens);
  ScriptedResponse context_error(size_t tokens) const;
  ScriptedResponse rejection(const std::string& message);

  std::string profile_;
  ModelScript script_;
  FakeOptions options_;
  mutable std::mutex mutex_;
  int requests_ = 0, turns_ = 0, context_errors_ = 0;
  size_t previous_tokens_ = 0;
  std::vector<std::string> rejections_;
  std::map<std::string, nlohmann::json> issued_;  // tool call id -> the reasoning state issued with it
  ScriptedHttpServer server_;
};

}  // namespace tlmcraft::test
