// Anthropic Messages API: POST {base_url}/v1/messages. The system prompt is a top-level
// field; assistant tool calls are tool_use content blocks; tool results travel back as
// tool_result blocks inside a user message (consecutive results merged into one).
// An assistant turn goes back as the content blocks it arrived with (Message::raw):
// thinking and redacted_thinking blocks verbatim, signatures included, which the API
// requires for a turn that called tools while thinking is on. With prompt caching on,
// cache_control breakpoints mark the system prompt, the tools and the newest message.
#include <chrono>

#include "agent/providers.h"
#include "agent/providers/http_client.h"
#include "agent/providers/provider_util.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

const char* kDefaultBaseUrl = "https://api.anthropic.com";
const char* kApiVersion = "2023-06-01";

// tool_use.input must be an object; arguments that are not a JSON object (possible only
// for a conversation recorded with another provider) are sent as an empty input.
json input_object(const std::string& arguments) {
  json j = json::parse(arguments, nullptr, false);
  return j.is_object() ? j : json::object();
}

json tool_use_block(const ToolCall& c) {
  return {{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", input_object(c.arguments)}};
}

// The recorded blocks when the turn came from this API and its tool_use blocks match the
// calls one for one (ids and inputs re-synced: the loop may have renamed an id or compacted
// an input); otherwise blocks rebuilt from the text and the calls.
json assistant_blocks(const Message& m) {
  if (m.raw_format == "anthropic" && m.raw.is_array()) {
    json blocks = m.raw;
    size_t k = 0;
    bool matches = true;
    for (auto& b : blocks)
      if (b.is_object() && b.value("type", "") == "tool_use") {
        if (k >= m.tool_calls.size()) {
          matches = false;
          break;
        }
        b = tool_use_block(m.tool_calls[k++]);
      }
    if (matches && k == m.tool_calls.size()) return blocks;
  }
  json blocks = json::array();
  if (!m.content.empty()) blocks.push_back({{"type", "text"}, {"text", m.content}});
  for (const auto& c : m.tool_calls) blocks.push_back(tool_use_block(c));
  return blocks;
}

// The wire messages: text and tool_use/tool_result blocks, with neighbouring messages of
// the same role merged (the API wants user and assistant turns to alternate) and empty
// text blocks left out (the API rejects them).
json messages_to_wire(const std::vector<Message>& conversation, std::string& system) {
  json out = json::array();
  auto append = [&](const std::string& role, json blocks) {
    if (blocks.empty()) return;
    if (!out.empty() && out.back()["role"] == role) {
      json& content = out.back()["content"];
      // tool_result blocks must come first in a user message
      if (role == "user" && blocks[0]["type"] == "tool_result") {
        json merged = json::array();
        for (const auto& b : content)
          if (b["type"] == "tool_result") merged.push_back(b);
        for (const auto& b : blocks) merged.push_back(b);
        for (const auto& b : content)
          if (b["type"] != "tool_result") merged.push_back(b);
        content = merged;
      } else {
        for (auto& b : blocks) content.push_back(std::move(b));
      }
      return;
    }
    out.push_back({{"role", role}, {"content", std::move(blocks)}});
  };
  auto text_block = [](const std::string& text) { return json{{"type", "text"}, {"text", text}}; };

  for (const auto& m : conversation) {
    switch (m.role) {
      case Role::System:
        if (!m.content.empty()) system += (system.empty() ? "" : "\n\n") + m.content;
        break;
      case Role::User: {
        json blocks = json::array();
        if (!m.content.empty()) blocks.push_back(text_block(m.content));
        append("user", std::move(blocks));
        break;
      }
      case Role::Assistant: {
        append("assistant", assistant_blocks(m));
        break;
      }
      case Role::Tool: {
        json block = {{"type", "tool_result"}, {"tool_use_id", m.tool_call_id}, {"content", m.content}};
        if (m.is_error) block["is_error"] = true;
        append("user", json::array({block}));
        break;
      }
    }
  }
  return out;
}

json tool_to_wire(const ToolSpec& t) {
  json schema = t.parameters.is_object() ? t.parameters : json{{"type", "object"}, {"properties", json::object()}};
  return {{"name", t.name}, {"description", t.description}, {"input_schema", schema}};
}

uint64_t count(const json& usage, const char* key) {
  return usage.contains(key) && usage[key].is_number_unsigned() ? usage[key].get<uint64_t>() : 0;
}

class AnthropicProvider : public Provider {
 public:
  explicit AnthropicProvider(const ProviderOptions& o)
      : options_(o),
        base_url_(option_or_env(o.base_url, {"ANTHROPIC_BASE_URL"}, kDefaultBaseUrl)),
        api_key_(option_or_env(o.api_key, {"ANTHROPIC_API_KEY"})),
        model_(option_or_env(o.model, {"ANTHROPIC_MODEL", "TLMCRAFT_MODEL"})),
        http_(http_options_for(o, "anthropic")) {
    if (model_.empty()) throw ProviderError("anthropic: no model given (--model, ANTHROPIC_MODEL or TLMCRAFT_MODEL)");
    if (api_key_.empty() && base_url_.find("api.anthropic.com") != std::string::npos)
      throw ProviderError("anthropic: no API key for " + base_url_ + " (--api-key or ANTHROPIC_API_KEY)");
    if (o.max_tokens <= 0) throw ProviderError("anthropic: max_tokens must be positive");
    if (!o.thinking.empty() && o.thinking != "adaptive" && o.thinking != "enabled" && o.thinking != "off")
      throw ProviderError("anthropic: thinking '" + o.thinking + "' is not adaptive, enabled or off");
    if (o.thinking == "enabled" && (o.thinking_budget < 1024 || o.thinking_budget >= o.max_tokens))
      throw ProviderError("anthropic: thinking budget " + std::to_string(o.thinking_budget) +
                          " must be at least 1024 and below max_tokens " + std::to_string(o.max_tokens));
    // Accept a base URL given with or without the /v1 suffix.
    std::string base = base_url_;
    while (!base.empty() && base.back() == '/') base.pop_back();
    url_ = base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0 ? join_url(base, "messages")
                                                                           : join_url(base, "v1/messages");
  }

  std::string name() const override { return "anthropic:" + model_; }

  Completion complete(const std::vector<Message>& conversation, const std::vector<ToolSpec>& tools) override {
    const auto start = std::chrono::steady_clock::now();
    const json body = with_extra_body(request_body(conversation, tools), options_);
    std::vector<std::string> headers = {std::string("anthropic-version: ") + kApiVersion};
    if (!api_key_.empty()) headers.push_back("x-api-key: " + api_key_);
    const HttpResponse r = http_.send(url_, headers, json_text(body));
    if (r.status < 200 || r.status > 299) throw_http_error(http_, url_, r);
    Completion c = parse(parse_response_body("anthropic", url_, r.body));
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return c;
  }

 private:
  json request_body(const std::vector<Message>& conversation, const std::vector<ToolSpec>& tools) const {
    const json cache = {{"type", "ephemeral"}};
    std::string system;
    json body = {{"model", model_}, {"max_tokens", options_.max_tokens}};
    body["messages"] = messages_to_wire(conversation, system);
    if (!system.empty())
      body["system"] = options_.prompt_cache ? json::array({{{"type", "text"}, {"text", system}, {"cache_control", cache}}})
                                             : json(system);
    if (!tools.empty()) {
      body["tools"] = json::array();
      for (const auto& t : tools) body["tools"].push_back(tool_to_wire(t));
      if (options_.prompt_cache) body["tools"].back()["cache_control"] = cache;
    }
    if (options_.prompt_cache) mark_newest_message(body["messages"], cache);
    if (options_.temperature >= 0) body["temperature"] = options_.temperature;
    if (options_.thinking == "adaptive") body["thinking"] = {{"type", "adaptive"}};
    if (options_.thinking == "enabled") body["thinking"] = {{"type", "enabled"}, {"budget_tokens", options_.thinking_budget}};
    if (options_.thinking == "off") body["thinking"] = {{"type", "disabled"}};
    if (!options_.reasoning_effort.empty()) body["output_config"] = {{"effort", options_.reasoning_effort}};
    return body;
  }

  // A breakpoint on the newest message's last cacheable block: each round then reads the
  // conversation so far from the cache and writes only what the round added.
  static void mark_newest_message(json& messages, const json& cache) {
    if (messages.empty()) return;
    json& content = messages.back()["content"];
    for (auto it = content.rbegin(); it != content.rend(); ++it) {
      const std::string type = it->value("type", "");
      if (type == "text" || type == "tool_result" || type == "tool_use") {
        (*it)["cache_control"] = cache;
        return;
      }
    }
  }

  Completion parse(const json& j) const {
    if (j.value("type", "") == "error" || (j.contains("error") && !j["error"].is_null()))
      throw ProviderError("anthropic: error from " + url_ + ": " + api_error_message(json_text(j)));
    if (!j.contains("content") || !j["content"].is_array())
      throw ProviderError("anthropic: the response from " + url_ + " has no content array: " +
                          json_text(j).substr(0, 200));
    Completion c;
    c.message.role = Role::Assistant;
    c.message.raw = j["content"];  // thinking blocks included: sent back as they came
    c.message.raw_format = "anthropic";
    for (const auto& block : j["content"]) {
      if (!block.is_object()) continue;
      const std::string type = block.value("type", "");
      if (type == "text" && block.contains("text") && block["text"].is_string()) {
        if (!c.message.content.empty()) c.message.content += "\n";
        c.message.content += block["text"].get<std::string>();
      } else if (type == "tool_use") {
        ToolCall call;
        call.id = block.contains("id") && block["id"].is_string() ? block["id"].get<std::string>() : "";
        call.name = block.contains("name") && block["name"].is_string() ? block["name"].get<std::string>() : "";
        call.arguments = block.contains("input") ? json_text(block["input"]) : "{}";
        if (call.id.empty()) call.id = "tlmcraft_call_" + std::to_string(c.message.tool_calls.size() + 1);
        c.message.tool_calls.push_back(std::move(call));
      }  // thinking blocks reach the loop only through raw
    }
    if (j.contains("stop_reason") && j["stop_reason"].is_string()) c.stop_reason = j["stop_reason"].get<std::string>();
    if (j.contains("usage") && j["usage"].is_object()) {
      const json& u = j["usage"];
      // Cached prompt tokens are input too (billed at other rates, counted here alike).
      c.usage.input_tokens =
          count(u, "input_tokens") + count(u, "cache_creation_input_tokens") + count(u, "cache_read_input_tokens");
      c.usage.output_tokens = count(u, "output_tokens");  // thinking included (not reported apart)
      c.usage.cached_input_tokens = count(u, "cache_read_input_tokens");
      c.usage.cache_write_tokens = count(u, "cache_creation_input_tokens");
    }
    return c;
  }

  ProviderOptions options_;
  std::string base_url_, api_key_, model_, url_;
  HttpClient http_;
};

}  // namespace

std::unique_ptr<Provider> make_anthropic_provider(const ProviderOptions& options) {
  return std::make_unique<AnthropicProvider>(options);
}

}  // namespace tlmcraft::agent
