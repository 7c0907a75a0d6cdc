// OpenAI-compatible Chat Completions (OpenAI, OpenRouter, vLLM, llama.cpp server, ...):
// POST {base_url}/chat/completions with messages, function tools and tool_choice "auto".
// An assistant turn goes back from the message it arrived as (Message::raw): its tool calls
// verbatim (Gemini's thought signatures included) plus the reasoning fields the provider
// profile names (openai_profile.h).
#include <atomic>
#include <chrono>
#include <mutex>

#include "agent/providers.h"
#include "agent/providers/http_client.h"
#include "agent/providers/openai_profile.h"
#include "agent/providers/provider_util.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

const char* kDefaultBaseUrl = "https://api.openai.com/v1";

// OpenAI's own API rejects max_tokens for its reasoning models and documents
// max_completion_tokens instead; OpenRouter, vLLM and llama.cpp servers have long read
// max_tokens (newer ones read both). So: max_completion_tokens for api.openai.com, max_tokens
// elsewhere, and if a server answers 400 naming the field as unsupported, the other one.
std::string token_field_for(const std::string& base_url) {
  return base_url.find("api.openai.com") != std::string::npos ? "max_completion_tokens" : "max_tokens";
}

json function_call(const ToolCall& c) {
  return {{"id", c.id}, {"type", "function"}, {"function", {{"name", c.name}, {"arguments", c.arguments}}}};
}

// The recorded tool calls with id, name and arguments re-synced from the message (the loop
// may have renamed an id or compacted arguments); null when they do not match one for one.
json recorded_tool_calls(const Message& m) {
  if (!m.raw.contains("tool_calls") || !m.raw["tool_calls"].is_array() || m.raw["tool_calls"].size() != m.tool_calls.size())
    return nullptr;
  json calls = m.raw["tool_calls"];
  for (size_t i = 0; i < calls.size(); ++i) {
    if (!calls[i].is_object()) return nullptr;
    calls[i]["id"] = m.tool_calls[i].id;
    calls[i]["type"] = "function";
    if (!calls[i].contains("function") || !calls[i]["function"].is_object()) calls[i]["function"] = json::object();
    calls[i]["function"]["name"] = m.tool_calls[i].name;
    calls[i]["function"]["arguments"] = m.tool_calls[i].arguments;
  }
  return calls;
}

// `send_reasoning`: whether the profile's message fields go back on this turn.
json assistant_to_wire(const Message& m, const OpenAIProfile& profile, bool send_reasoning) {
  json j = {{"role", "assistant"}};
  // Content may be null only when the turn carries tool calls.
  j["content"] = m.content.empty() && !m.tool_calls.empty() ? json(nullptr) : json(m.content);
  const bool recorded = m.raw_format == "openai" && m.raw.is_object();
  if (recorded && m.raw.contains("content") && (m.raw["content"].is_string() || m.raw["content"].is_array()))
    j["content"] = m.raw["content"];
  if (!m.tool_calls.empty()) {
    json calls = recorded ? recorded_tool_calls(m) : json(nullptr);
    if (calls.is_null()) {
      calls = json::array();
      for (const auto& c : m.tool_calls) calls.push_back(function_call(c));
    }
    j["tool_calls"] = std::move(calls);
  }
  if (recorded && send_reasoning)
    for (const auto& field : profile.message_fields)
      if (m.raw.contains(field) && !m.raw[field].is_null()) j[field] = m.raw[field];
  return j;
}

json message_to_wire(const Message& m) {
  switch (m.role) {
    case Role::System: return {{"role", "system"}, {"content", m.content}};
    case Role::User: return {{"role", "user"}, {"content", m.content}};
    case Role::Tool: return {{"role", "tool"}, {"tool_call_id", m.tool_call_id}, {"content", m.content}};
    case Role::Assistant: return assistant_to_wire(m, OpenAIProfile{}, false);
  }
  return {};
}

json tool_to_wire(const ToolSpec& t) {
  json params = t.parameters.is_object() ? t.parameters : json{{"type", "object"}, {"properties", json::object()}};
  return {{"type", "function"},
          {"function", {{"name", t.name}, {"description", t.description}, {"parameters", params}}}};
}

// Message content is a string, null, or (some servers) an array of {type:"text", text} parts.
std::string content_text(const json& c) {
  if (c.is_string()) return c.get<std::string>();
  std::string out;
  if (c.is_array())
    for (const auto& part : c)
      if (part.is_object() && part.value("type", "") == "text" && part.contains("text") && part["text"].is_string())
        out += part["text"].get<std::string>();
  return out;
}

uint64_t count(const json& j, const char* object, const char* key) {
  const json* o = &j;
  if (object) {
    if (!j.contains(object) || !j[object].is_object()) return 0;
    o = &j[object];
  }
  return o->contains(key) && (*o)[key].is_number_unsigned() ? (*o)[key].get<uint64_t>() : 0;
}

// prompt_tokens includes the cached ones (prompt_tokens_details.cached_tokens; DeepSeek:
// prompt_cache_hit_tokens); completion_tokens includes completion_tokens_details.reasoning_tokens.
Usage usage_of(const json& u) {
  Usage r;
  r.input_tokens = count(u, nullptr, "prompt_tokens");
  r.output_tokens = count(u, nullptr, "completion_tokens");
  r.cached_input_tokens = count(u, "prompt_tokens_details", "cached_tokens");
  if (!r.cached_input_tokens) r.cached_input_tokens = count(u, nullptr, "prompt_cache_hit_tokens");
  r.cache_write_tokens = count(u, "prompt_tokens_details", "cache_write_tokens");  // OpenRouter
  r.reasoning_tokens = count(u, "completion_tokens_details", "reasoning_tokens");
  return r;
}

class OpenAIProvider : public Provider {
 public:
  explicit OpenAIProvider(const ProviderOptions& o)
      : options_(o),
        base_url_(option_or_env(o.base_url, {"OPENAI_BASE_URL"}, kDefaultBaseUrl)),
        api_key_(option_or_env(o.api_key, {"OPENAI_API_KEY"})),
        model_(option_or_env(o.model, {"OPENAI_MODEL", "TLMCRAFT_MODEL"})),
        http_(http_options_for(o, "openai")),
        token_field_(token_field_for(base_url_)),
        profile_(openai_profile(o.profile, base_url_)) {
    if (model_.empty()) throw ProviderError("openai: no model given (--model, OPENAI_MODEL or TLMCRAFT_MODEL)");
    if (api_key_.empty() && base_url_.find("api.openai.com") != std::string::npos)
      throw ProviderError("openai: no API key for " + base_url_ + " (--api-key or OPENAI_API_KEY)");
    if (o.max_tokens <= 0) throw ProviderError("openai: max_tokens must be positive");
  }

  std::string name() const override { return "openai:" + model_; }

  Completion complete(const std::vector<Message>& conversation, const std::vector<ToolSpec>& tools) override {
    const auto start = std::chrono::steady_clock::now();
    const std::string url = join_url(base_url_, "chat/completions");
    std::vector<std::string> headers;
    if (!api_key_.empty()) headers.push_back("Authorization: Bearer " + api_key_);

    std::string field = current_token_field();
    HttpResponse r = http_.send(url, headers, json_text(request_body(conversation, tools, field)));
    if (r.status == 400 && names_unsupported_field(r.body, field)) {
      field = field == "max_tokens" ? "max_completion_tokens" : "max_tokens";
      set_token_field(field);
      r = http_.send(url, headers, json_text(request_body(conversation, tools, field)));
    }
    if (r.status < 200 || r.status > 299) throw_http_error(http_, url, r);

    Completion c = parse(url, parse_response_body("openai", url, r.body));
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return c;
  }

 private:
  json request_body(const std::vector<Message>& conversation, const std::vector<ToolSpec>& tools,
                    const std::string& token_field) const {
    json body = {{"model", model_}, {"messages", json::array()}};
    size_t last_user = 0;
    for (size_t i = 0; i < conversation.size(); ++i)
      if (conversation[i].role == Role::User) last_user = i;
    for (size_t i = 0; i < conversation.size(); ++i) {
      const Message& m = conversation[i];
      const bool send_reasoning = !profile_.current_turn_only || i > last_user;
      body["messages"].push_back(m.role == Role::Assistant ? assistant_to_wire(m, profile_, send_reasoning)
                                                           : message_to_wire(m));
    }
    if (!tools.empty()) {  // tool_choice without tools is an error on OpenAI
      body["tools"] = json::array();
      for (const auto& t : tools) body["tools"].push_back(tool_to_wire(t));
      body["tool_choice"] = "auto";
    }
    body[token_field] = options_.max_tokens;
    if (options_.temperature >= 0) body["temperature"] = options_.temperature;
    if (!options_.reasoning_effort.empty()) body["reasoning_effort"] = options_.reasoning_effort;
    if (options_.prompt_cache) add_cache_hints(body);
    return with_extra_body(std::move(body), options_);
  }

  // The OpenAI-compatible equivalents of Anthropic's breakpoints, where they exist: OpenAI
  // caches prefixes by itself and routes requests with one prompt_cache_key to the same
  // cache; OpenRouter passes cache_control in content parts through to Anthropic models.
  void add_cache_hints(json& body) const {
    if (base_url_.find("api.openai.com") != std::string::npos && !options_.workload.task.empty())
      body["prompt_cache_key"] = "tlmcraft/" + options_.workload.key();
    if (profile_.name == "openrouter" && model_.rfind("anthropic/", 0) == 0)
      for (auto& m : body["messages"])
        if (m["role"] == "system" && m["content"].is_string())
          m["content"] = json::array(
              {{{"type", "text"}, {"text", m["content"]}, {"cache_control", {{"type", "ephemeral"}}}}});
  }

  static bool names_unsupported_field(const std::string& body, const std::string& field) {
    const std::string msg = api_error_message(body);
    return msg.find(field) != std::string::npos &&
           (msg.find("nsupported") != std::string::npos || msg.find("not supported") != std::string::npos);
  }

  Completion parse(const std::string& url, const json& j) {
    if (j.contains("error") && !j["error"].is_null())  // some gateways answer 200 with an error object
      throw ProviderError("openai: error from " + url + ": " + api_error_message(json_text(j)));
    if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty())
      throw ProviderError("openai: the response from " + url + " has no choices: " + json_text(j).substr(0, 200));
    const json& choice = j["choices"][0];
    if (!choice.is_object() || !choice.contains("message") || !choice["message"].is_object())
      throw ProviderError("openai: the first choice from " + url + " has no message");
    const json& msg = choice["message"];
    Completion c;
    c.message.role = Role::Assistant;
    c.message.raw = msg;  // tool calls' extra_content and reasoning fields included
    c.message.raw_format = "openai";
    if (msg.contains("content")) c.message.content = content_text(msg["content"]);
    if (msg.contains("tool_calls") && msg["tool_calls"].is_array()) {
      for (const auto& tc : msg["tool_calls"]) {
        if (!tc.is_object()) continue;
        ToolCall call;
        call.id = tc.contains("id") && tc["id"].is_string() ? tc["id"].get<std::string>() : "";
        if (call.id.empty()) call.id = "tlmcraft_call_" + std::to_string(++generated_ids_);
        const json fn = tc.contains("function") && tc["function"].is_object() ? tc["function"] : json::object();
        call.name = fn.contains("name") && fn["name"].is_string() ? fn["name"].get<std::string>() : "";
        // Arguments stay raw text (the toolbox reports malformed JSON to the model);
        // a server that sends an object gets it serialised.
        if (fn.contains("arguments"))
          call.arguments = fn["arguments"].is_string() ? fn["arguments"].get<std::string>() : json_text(fn["arguments"]);
        c.message.tool_calls.push_back(std::move(call));
      }
    }
    if (choice.contains("finish_reason") && choice["finish_reason"].is_string())
      c.stop_reason = choice["finish_reason"].get<std::string>();
    if (j.contains("usage") && j["usage"].is_object()) c.usage = usage_of(j["usage"]);
    return c;
  }

  std::string current_token_field() {
    std::lock_guard<std::mutex> lock(mutex_);
    return token_field_;
  }
  void set_token_field(const std::string& f) {
    std::lock_guard<std::mutex> lock(mutex_);
    token_field_ = f;
  }

  ProviderOptions options_;
  std::string base_url_, api_key_, model_;
  HttpClient http_;
  std::mutex mutex_;
  std::string token_field_;
  OpenAIProfile profile_;
  std::atomic<uint64_t> generated_ids_{0};
};

}  // namespace

std::unique_ptr<Provider> make_openai_provider(const ProviderOptions& options) {
  return std::make_unique<OpenAIProvider>(options);
}

}  // namespace tlmcraft::agent
