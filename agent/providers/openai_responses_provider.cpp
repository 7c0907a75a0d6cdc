// OpenAI Responses API: POST {base_url}/responses. Unlike Chat Completions it returns the
// model's reasoning as `reasoning` output items; with store=false and
// include=["reasoning.encrypted_content"] each carries its encrypted content, and the
// items of a turn that called tools go back verbatim (reasoning, message and function_call
// items, in order) so the model keeps its reasoning across tool calls. Tool results are
// function_call_output items.
#include <chrono>

#include "agent/providers.h"
#include "agent/providers/http_client.h"
#include "agent/providers/provider_util.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

const char* kDefaultBaseUrl = "https://api.openai.com/v1";

json function_call_item(const ToolCall& c) {
  return {{"type", "function_call"}, {"call_id", c.id}, {"name", c.name}, {"arguments", c.arguments}};
}

// The recorded output items with call ids, names and arguments re-synced from the message
// (the loop may have renamed an id or compacted arguments); rebuilt when they do not match.
json assistant_items(const Message& m) {
  if (m.raw_format == "openai-responses" && m.raw.is_array()) {
    json items = m.raw;
    size_t k = 0;
    bool matches = true;
    for (auto& item : items)
      if (item.is_object() && item.value("type", "") == "function_call") {
        if (k >= m.tool_calls.size()) {
          matches = false;
          break;
        }
        item["call_id"] = m.tool_calls[k].id;
        item["name"] = m.tool_calls[k].name;
        item["arguments"] = m.tool_calls[k].arguments;
        ++k;
      }
    if (matches && k == m.tool_calls.size()) return items;
  }
  json items = json::array();
  if (!m.content.empty())
    items.push_back({{"type", "message"}, {"role", "assistant"},
                     {"content", json::array({{{"type", "output_text"}, {"text", m.content}}})}});
  for (const auto& c : m.tool_calls) items.push_back(function_call_item(c));
  return items;
}

json input_items(const std::vector<Message>& conversation) {
  json input = json::array();
  for (const auto& m : conversation) {
    switch (m.role) {
      case Role::System: input.push_back({{"role", "system"}, {"content", m.content}}); break;
      case Role::User: input.push_back({{"role", "user"}, {"content", m.content}}); break;
      case Role::Assistant:
        for (auto& item : assistant_items(m)) input.push_back(std::move(item));
        break;
      case Role::Tool:
        input.push_back({{"type", "function_call_output"}, {"call_id", m.tool_call_id}, {"output", m.content}});
        break;
    }
  }
  return input;
}

json tool_to_wire(const ToolSpec& t) {
  json params = t.parameters.is_object() ? t.parameters : json{{"type", "object"}, {"properties", json::object()}};
  return {{"type", "function"}, {"name", t.name}, {"description", t.description}, {"parameters", params}};
}

uint64_t count(const json& j, const char* object, const char* key) {
  const json* o = &j;
  if (object) {
    if (!j.contains(object) || !j[object].is_object()) return 0;
    o = &j[object];
  }
  return o->contains(key) && (*o)[key].is_number_unsigned() ? (*o)[key].get<uint64_t>() : 0;
}

class OpenAIResponsesProvider : public Provider {
 public:
  explicit OpenAIResponsesProvider(const ProviderOptions& o)
      : options_(o),
        base_url_(option_or_env(o.base_url, {"OPENAI_BASE_URL"}, kDefaultBaseUrl)),
        api_key_(option_or_env(o.api_key, {"OPENAI_API_KEY"})),
        model_(option_or_env(o.model, {"OPENAI_MODEL", "TLMCRAFT_MODEL"})),
        url_(join_url(base_url_, "responses")),
        http_(http_options_for(o, "openai-responses")) {
    if (model_.empty())
      throw ProviderError("openai-responses: no model given (--model, OPENAI_MODEL or TLMCRAFT_MODEL)");
    if (api_key_.empty() && base_url_.find("api.openai.com") != std::string::npos)
      throw ProviderError("openai-responses: no API key for " + base_url_ + " (--api-key or OPENAI_API_KEY)");
    if (o.max_tokens <= 0) throw ProviderError("openai-responses: max_tokens must be positive");
  }

  std::string name() const override { return "openai-responses:" + model_; }

  Completion complete(const std::vector<Message>& conversation, const std::vector<ToolSpec>& tools) override {
    const auto start = std::chrono::steady_clock::now();
    json body = {{"model", model_},
                 {"input", input_items(conversation)},
                 {"max_output_tokens", options_.max_tokens},
                 {"store", false},
                 {"include", json::array({"reasoning.encrypted_content"})}};
    if (!tools.empty()) {
      body["tools"] = json::array();
      for (const auto& t : tools) body["tools"].push_back(tool_to_wire(t));
      body["tool_choice"] = "auto";
    }
    if (options_.temperature >= 0) body["temperature"] = options_.temperature;
    if (!options_.reasoning_effort.empty()) body["reasoning"] = {{"effort", options_.reasoning_effort}};
    if (options_.prompt_cache && !options_.workload.task.empty())
      body["prompt_cache_key"] = "tlmcraft/" + options_.workload.key();
    std::vector<std::string> headers;
    if (!api_key_.empty()) headers.push_back("Authorization: Bearer " + api_key_);
    const HttpResponse r = http_.send(url_, headers, json_text(with_extra_body(std::move(body), options_)));
    if (r.status < 200 || r.status > 299) throw_http_error(http_, url_, r);
    Completion c = parse(parse_response_body("openai-responses", url_, r.body));
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return c;
  }

 private:
  Completion parse(const json& j) const {
    if (j.contains("error") && !j["error"].is_null())
      throw ProviderError("openai-responses: error from " + url_ + ": " + api_error_message(json_text(j)));
    if (!j.contains("output") || !j["output"].is_array())
      throw ProviderError("openai-responses: the response from " + url_ + " has no output array: " +
                          json_text(j).substr(0, 200));
    Completion c;
    c.message.role = Role::Assistant;
    c.message.raw = j["output"];  // reasoning items (encrypted content) included
    c.message.raw_format = "openai-responses";
    for (const auto& item : j["output"]) {
      if (!item.is_object()) continue;
      const std::string type = item.value("type", "");
      if (type == "message" && item.contains("content") && item["content"].is_array()) {
        for (const auto& part : item["content"])
          if (part.is_object() && part.value("type", "") == "output_text" && part.contains("text") &&
              part["text"].is_string()) {
            if (!c.message.content.empty()) c.message.content += "\n";
            c.message.content += part["text"].get<std::string>();
          }
      } else if (type == "function_call") {
        ToolCall call;
        call.id = item.contains("call_id") && item["call_id"].is_string() ? item["call_id"].get<std::string>() : "";
        call.name = item.contains("name") && item["name"].is_string() ? item["name"].get<std::string>() : "";
        if (item.contains("arguments"))
          call.arguments = item["arguments"].is_string() ? item["arguments"].get<std::string>() : json_text(item["arguments"]);
        c.message.tool_calls.push_back(std::move(call));
      }
    }
    c.stop_reason = c.message.tool_calls.empty() ? j.value("status", "completed") : "tool_calls";
    if (j.contains("usage") && j["usage"].is_object()) {
      const json& u = j["usage"];
      c.usage.input_tokens = count(u, nullptr, "input_tokens");
      c.usage.output_tokens = count(u, nullptr, "output_tokens");
      c.usage.cached_input_tokens = count(u, "input_tokens_details", "cached_tokens");
      c.usage.reasoning_tokens = count(u, "output_tokens_details", "reasoning_tokens");
    }
    return c;
  }

  ProviderOptions options_;
  std::string base_url_, api_key_, model_, url_;
  HttpClient http_;
};

}  // namespace

std::unique_ptr<Provider> make_openai_responses_provider(const ProviderOptions& options) {
  return std::make_unique<OpenAIResponsesProvider>(options);
}

}  // namespace tlmcraft::agent
