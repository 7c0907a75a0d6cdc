// Anthropic Messages API: POST {base_url}/v1/messages. The system prompt is a top-level
// field; assistant tool calls are tool_use content blocks; tool results travel back as
// tool_result blocks inside a user message (consecutive results merged into one).
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
        json blocks = json::array();
        if (!m.content.empty()) blocks.push_back(text_block(m.content));
        for (const auto& c : m.tool_calls)
          blocks.push_back({{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", input_object(c.arguments)}});
        append("assistant", std::move(blocks));
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
    // Accept a base URL given with or without the /v1 suffix.
    std::string base = base_url_;
    while (!base.empty() && base.back() == '/') base.pop_back();
    url_ = base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0 ? join_url(base, "messages")
                                                                           : join_url(base, "v1/messages");
  }

  std::string name() const override { return "anthropic:" + model_; }

  Completion complete(const std::vector<Message>& conversation, const std::vector<ToolSpec>& tools) override {
    const auto start = std::chrono::steady_clock::now();
    std::string system;
    json body = {{"model", model_}, {"max_tokens", options_.max_tokens}};
    body["messages"] = messages_to_wire(conversation, system);
    if (!system.empty()) body["system"] = system;
    if (!tools.empty()) {
      body["tools"] = json::array();
      for (const auto& t : tools) body["tools"].push_back(tool_to_wire(t));
    }
    if (options_.temperature >= 0) body["temperature"] = options_.temperature;

    std::vector<std::string> headers = {std::string("anthropic-version: ") + kApiVersion};
    if (!api_key_.empty()) headers.push_back("x-api-key: " + api_key_);
    const HttpResponse r = http_.post_json(url_, headers, json_text(body));
    Completion c = parse(parse_response_body("anthropic", url_, r.body));
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return c;
  }

 private:
  Completion parse(const json& j) const {
    if (j.value("type", "") == "error" || (j.contains("error") && !j["error"].is_null()))
      throw ProviderError("anthropic: error from " + url_ + ": " + api_error_message(json_text(j)));
    if (!j.contains("content") || !j["content"].is_array())
      throw ProviderError("anthropic: the response from " + url_ + " has no content array: " +
                          json_text(j).substr(0, 200));
    Completion c;
    c.message.role = Role::Assistant;
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
      }  // thinking and other block types carry nothing the loop uses
    }
    if (j.contains("stop_reason") && j["stop_reason"].is_string()) c.stop_reason = j["stop_reason"].get<std::string>();
    if (j.contains("usage") && j["usage"].is_object()) {
      const json& u = j["usage"];
      // Cached prompt tokens are input too (billed at other rates, counted here alike).
      c.usage.input_tokens =
          count(u, "input_tokens") + count(u, "cache_creation_input_tokens") + count(u, "cache_read_input_tokens");
      c.usage.output_tokens = count(u, "output_tokens");
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
