#include "model_fakes.h"

#include <functional>

namespace tlmcraft::test {
namespace {

using nlohmann::json;

std::string text_of(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// A stable stand-in for the provider's encrypted signature over `text`.
std::string signature_of(const std::string& text) { return "sig" + std::to_string(std::hash<std::string>{}(text)); }

bool is_openai_compatible(const std::string& profile) { return profile != "anthropic"; }

// The field of an assistant message that carries this profile's per-turn reasoning state.
const char* reasoning_field(const std::string& profile) {
  if (profile == "deepseek" || profile == "vllm") return "reasoning_content";
  if (profile == "openrouter") return "reasoning_details";
  return nullptr;
}

}  // namespace

ModelFake::ModelFake(std::string profile, ModelScript script, FakeOptions options)
    : profile_(std::move(profile)), script_(std::move(script)), options_(std::move(options)) {
  server_.set_handler([this](const RecordedRequest& r) { return handle(r); });
}

std::string ModelFake::url() const { return is_openai_compatible(profile_) ? server_.url() + "/v1" : server_.url(); }

int ModelFake::turns() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return turns_;
}

std::vector<std::string> ModelFake::rejections() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rejections_;
}

int ModelFake::context_errors() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return context_errors_;
}

ScriptedResponse ModelFake::rejection(const std::string& message) {
  rejections_.push_back(message);
  if (profile_ == "anthropic")
    return {400, text_of({{"type", "error"}, {"error", {{"type", "invalid_request_error"}, {"message", message}}}}), {}, 0};
  if (profile_ == "gemini-openai")
    return {400, text_of({{"error", {{"code", 400}, {"message", message}, {"status", "INVALID_ARGUMENT"}}}}), {}, 0};
  return {400, text_of({{"error", {{"message", message}, {"type", "invalid_request_error"}, {"param", nullptr},
                                   {"code", "invalid_request_error"}}}}),
          {}, 0};
}

ScriptedResponse ModelFake::context_error(size_t tokens) const {
  const std::string w = std::to_string(options_.context_window_tokens), n = std::to_string(tokens);
  if (profile_ == "anthropic")
    return {400, text_of({{"type", "error"}, {"error", {{"type", "invalid_request_error"},
                                                        {"message", "prompt is too long: " + n + " tokens > " + w + " maximum"}}}}),
            {}, 0};
  if (profile_ == "gemini-openai")
    return {400, text_of({{"error", {{"code", 400},
                                     {"message", "The input token count (" + n + ") exceeds the maximum number of tokens allowed (" + w + ")."},
                                     {"status", "INVALID_ARGUMENT"}}}}),
            {}, 0};
  if (profile_ == "vllm")
    return {400, text_of({{"object", "error"},
                          {"message", "This model's maximum context length is " + w + " tokens. However, you requested " + n +
                                          " tokens in the messages, Please reduce the length of the messages."},
                          {"type", "BadRequestError"}, {"param", nullptr}, {"code", 400}}),
            {}, 0};
  if (profile_ == "openrouter")
    return {400, text_of({{"error", {{"message", "This endpoint's maximum context length is " + w +
                                                     " tokens. However, you requested about " + n + " tokens."},
                                     {"code", 400}}}}),
            {}, 0};
  if (profile_ == "openai-responses")
    return {400, text_of({{"error", {{"message", "Your input exceeds the context window of this model. Please adjust your input and try again."},
                                     {"type", "invalid_request_error"}, {"param", "input"}, {"code", "context_length_exceeded"}}}}),
            {}, 0};
  const std::string code = profile_ == "openai" ? "context_length_exceeded" : "invalid_request_error";
  return {400, text_of({{"error", {{"message", "This model's maximum context length is " + w +
                                                   " tokens. However, your messages resulted in " + n + " tokens."},
                                   {"type", "invalid_request_error"}, {"param", "messages"}, {"code", code}}}}),
          {}, 0};
}

ScriptedResponse ModelFake::handle(const RecordedRequest& r) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++requests_;
  if (options_.answer_429_on_request == requests_)
    return {429, R"({"error":{"message":"rate limited","type":"rate_limit_error"}})", {{"retry-after", options_.retry_after}}, 0};
  const json body = json::parse(r.body, nullptr, false);
  if (!body.is_object()) return rejection("the body is not a JSON object");
  const std::string problem = profile_ == "openai-responses" ? validate_responses(body)
                              : is_openai_compatible(profile_) ? validate_openai(body)
                                                               : validate_anthropic(body);
  if (!problem.empty()) return rejection(problem);
  const size_t tokens = r.body.size() / 4;
  if (options_.context_window_tokens && tokens > options_.context_window_tokens) {
    ++context_errors_;
    return context_error(tokens);
  }
  const int turn = ++turns_;
  const ToolCalls calls = script_(turn);
  const json reply = profile_ == "openai-responses" ? reply_responses(turn, calls, tokens)
                     : is_openai_compatible(profile_) ? reply_openai(turn, calls, tokens)
                                                      : reply_anthropic(turn, calls, tokens);
  previous_tokens_ = tokens;
  return {200, text_of(reply), {}, 0};
}

// Anthropic: roles alternate from the user; each tool_use is answered by a tool_result at the
// start of the next user message; an assistant turn that called tools starts with the
// thinking (or redacted_thinking) blocks issued with it, unmodified.
std::string ModelFake::validate_anthropic(const json& body) const {
  if (!body.contains("thinking") || body["thinking"].value("type", "") == "disabled")
    return "this fake model thinks: the request must turn thinking on";
  const json& msgs = body.at("messages");
  for (size_t i = 0; i < msgs.size(); ++i) {
    const json& m = msgs[i];
    if (m["role"] != (i % 2 == 0 ? "user" : "assistant")) return "messages: roles must alternate user/assistant";
    if (m["role"] != "assistant") continue;
    const json& content = m["content"];
    std::vector<std::string> ids;
    for (const auto& b : content)
      if (b.value("type", "") == "tool_use") ids.push_back(b.value("id", ""));
    if (ids.empty()) continue;
    const std::string at = "messages." + std::to_string(i) + ".content.0";
    const std::string first = content[0].value("type", "");
    if (first != "thinking" && first != "redacted_thinking")
      return at + ".type: Expected `thinking` or `redacted_thinking`, but found `" + first +
             "`. When `thinking` is enabled, a final `assistant` message must start with a thinking block.";
    const auto it = issued_.find(ids[0]);
    if (it == issued_.end()) return at + ": tool_use id " + ids[0] + " was never issued";
    for (size_t k = 0; k < it->second.size(); ++k)
      if (k >= content.size() || content[k] != it->second[k])
        return "messages." + std::to_string(i) + ".content." + std::to_string(k) + ": Invalid `signature` in `thinking` block";
    if (i + 1 < msgs.size()) {
      const json& next = msgs[i + 1]["content"];
      for (size_t k = 0; k < ids.size(); ++k)
        if (!next.is_array() || k >= next.size() || next[k].value("tool_use_id", "") != ids[k])
          return "messages." + std::to_string(i + 1) + ": `tool_use` ids were found without `tool_result` blocks immediately after: " + ids[k];
    }
  }
  return "";
}

json ModelFake::reply_anthropic(int turn, const ToolCalls& calls, size_t tokens) {
  json content = json::array();
  const std::string thought = "Round " + std::to_string(turn) + ": plan the next kernel change.";
  content.push_back({{"type", "thinking"}, {"thinking", thought}, {"signature", signature_of(thought)}});
  if (turn % 5 == 0) content.push_back({{"type", "redacted_thinking"}, {"data", "EnCrYpTeD" + std::to_string(turn)}});
  const json thinking = content;
  content.push_back({{"type", "text"}, {"text", "Round " + std::to_string(turn) + "."}});
  for (size_t i = 0; i < calls.size(); ++i) {
    const std::string id = "toolu_" + std::to_string(turn) + "_" + std::to_string(i + 1);
    content.push_back({{"type", "tool_use"}, {"id", id}, {"name", calls[i].first}, {"input", calls[i].second}});
    issued_[id] = thinking;
  }
  json usage = size_t(turn) <= options_.usage.size() ? options_.usage[size_t(turn) - 1]
                                                   : json{{"input_tokens", tokens}, {"output_tokens", 100},
                                                          {"cache_creation_input_tokens", 0}, {"cache_read_input_tokens", 0}};
  return {{"id", "msg_" + std::to_string(turn)}, {"type", "message"}, {"role", "assistant"}, {"model", "fake"},
          {"content", content}, {"stop_reason", calls.empty() ? "end_turn" : "tool_use"}, {"usage", usage}};
}

// OpenAI-compatible: every tool call is answered by a tool message; the reasoning state the
// profile issues comes back as that provider documents (see model_fakes.h).
std::string ModelFake::validate_openai(const json& body) const {
  if (!options_.expect_reasoning_effort.empty() && body.value("reasoning_effort", "") != options_.expect_reasoning_effort)
    return "reasoning_effort must be " + options_.expect_reasoning_effort;
  const json& msgs = body.at("messages");
  size_t last_user = 0;
  for (size_t i = 0; i < msgs.size(); ++i)
    if (msgs[i]["role"] == "user") last_user = i;
  const char* field = reasoning_field(profile_);
  for (size_t i = 0; i < msgs.size(); ++i) {
    const json& m = msgs[i];
    if (m["role"] != "assistant" || !m.contains("tool_calls")) continue;
    const json& calls = m["tool_calls"];
    const std::string id = calls.at(0).value("id", "");
    const auto it = issued_.find(id);
    if (it == issued_.end()) return "messages[" + std::to_string(i) + "]: tool call id " + id + " was never issued";
    for (size_t k = 0; k < calls.size(); ++k) {
      bool answered = false;
      for (size_t j = i + 1; j < msgs.size() && msgs[j]["role"] == "tool"; ++j)
        answered |= msgs[j].value("tool_call_id", "") == calls[k].value("id", "");
      if (!answered) return "messages[" + std::to_string(i) + "]: tool call " + calls[k].value("id", "") + " has no tool message";
    }
    if (profile_ == "gemini-openai") {
      const json sig = calls[0].contains("extra_content") ? calls[0]["extra_content"] : json();
      if (sig != it->second)
        return "Function call is missing a thought_signature in functionCall parts. This is required for tools to work "
               "correctly. Additional data, function call `default_api:" +
               calls[0]["function"].value("name", "") + "`, position " + std::to_string(i + 1) + ".";
    }
    if (profile_ == "openai" || profile_ == "gemini-openai") {
      for (const char* f : {"reasoning_content", "reasoning_details", "reasoning"})
        if (m.contains(f)) return std::string("messages[") + std::to_string(i) + "]: unrecognized field '" + f + "'";
    }
    if (field) {
      const bool wanted = profile_ == "openrouter" || i > last_user;
      if (wanted && (!m.contains(field) || m[field] != it->second))
        return "Missing `" + std::string(field) + "` field in the assistant message at message index " + std::to_string(i);
      if (!wanted && m.contains(field))
        return "messages[" + std::to_string(i) + "]: `" + field + "` of an earlier question must be removed";
    }
  }
  return "";
}

json ModelFake::reply_openai(int turn, const ToolCalls& calls, size_t tokens) {
  json message = {{"role", "assistant"}, {"content", nullptr}, {"tool_calls", json::array()}};
  const std::string t = std::to_string(turn);
  json state;  // what must come back
  if (profile_ == "gemini-openai") state = {{"google", {{"thought_signature", "gsig" + signature_of(t)}}}};
  if (profile_ == "deepseek" || profile_ == "vllm") state = "Thinking about round " + t + ".";
  if (profile_ == "openrouter")
    state = json::array({{{"type", "reasoning.encrypted"}, {"data", "enc" + signature_of(t)}, {"id", "rd_" + t},
                          {"format", "anthropic-claude-v1"}, {"index", 0}}});
  for (size_t i = 0; i < calls.size(); ++i) {
    const std::string id = "call_" + t + "_" + std::to_string(i + 1);
    json call = {{"id", id}, {"type", "function"}, {"function", {{"name", calls[i].first}, {"arguments", text_of(calls[i].second)}}}};
    // Gemini: only the first call of a parallel set carries the signature.
    if (profile_ == "gemini-openai" && i == 0) call["extra_content"] = state;
    message["tool_calls"].push_back(call);
    issued_[id] = state;
  }
  if (const char* field = reasoning_field(profile_)) message[field] = state;
  if (profile_ == "openrouter") message["reasoning"] = "Round " + t + " reasoning summary.";
  json usage = size_t(turn) <= options_.usage.size()
                   ? options_.usage[size_t(turn) - 1]
                   : json{{"prompt_tokens", tokens}, {"completion_tokens", 100},
                          {"prompt_tokens_details", {{"cached_tokens", previous_tokens_ < tokens ? previous_tokens_ : 0}}},
                          {"completion_tokens_details", {{"reasoning_tokens", 40}}}};
  return {{"id", "chatcmpl-" + t}, {"object", "chat.completion"}, {"model", "fake"},
          {"choices", json::array({{{"index", 0}, {"message", message}, {"finish_reason", calls.empty() ? "stop" : "tool_calls"}}})},
          {"usage", usage}};
}

// Responses API with store=false: a function_call item comes back after the reasoning item
// issued with it (encrypted content unmodified), and every call has its output.
std::string ModelFake::validate_responses(const json& body) const {
  if (body.value("store", true)) return "this fake serves store=false only";
  const json& items = body.at("input");
  for (size_t i = 0; i < items.size(); ++i) {
    const json& item = items[i];
    if (item.value("type", "") != "function_call") continue;
    const std::string call = item.value("call_id", "");
    const auto it = issued_.find(call);
    if (it == issued_.end()) return "input[" + std::to_string(i) + "]: call_id " + call + " was never issued";
    bool reasoning_before = false;
    for (size_t k = 0; k < i; ++k) reasoning_before |= items[k] == it->second;
    if (!reasoning_before)
      return "Item '" + item.value("id", "") + "' of type 'function_call' was provided without its required 'reasoning' item: '" +
             it->second.value("id", "") + "'.";
    bool answered = false;
    for (size_t k = i + 1; k < items.size(); ++k)
      answered |= items[k].value("type", "") == "function_call_output" && items[k].value("call_id", "") == call;
    if (!answered) return "No tool output found for function call " + call + ".";
  }
  return "";
}

json ModelFake::reply_responses(int turn, const ToolCalls& calls, size_t tokens) {
  const std::string t = std::to_string(turn);
  const json reasoning = {{"type", "reasoning"}, {"id", "rs_" + t}, {"summary", json::array()},
                          {"encrypted_content", "gAAAA" + signature_of(t)}};
  json output = json::array({reasoning});
  for (size_t i = 0; i < calls.size(); ++i) {
    const std::string id = "call_" + t + "_" + std::to_string(i + 1);
    output.push_back({{"type", "function_call"}, {"id", "fc_" + t + "_" + std::to_string(i + 1)}, {"call_id", id},
                      {"name", calls[i].first}, {"arguments", text_of(calls[i].second)}, {"status", "completed"}});
    issued_[id] = reasoning;
  }
  json usage = size_t(turn) <= options_.usage.size()
                   ? options_.usage[size_t(turn) - 1]
                   : json{{"input_tokens", tokens}, {"output_tokens", 100},
                          {"input_tokens_details", {{"cached_tokens", previous_tokens_ < tokens ? previous_tokens_ : 0}}},
                          {"output_tokens_details", {{"reasoning_tokens", 60}}}};
  return {{"id", "resp_" + t}, {"object", "response"}, {"status", "completed"}, {"model", "fake"}, {"output", output},
          {"usage", usage}};
}

}  // namespace tlmcraft::test
