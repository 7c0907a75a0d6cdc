#include "agent/llm.h"

namespace tlmcraft::agent {

const char* to_string(Role r) {
  switch (r) {
    case Role::System: return "system";
    case Role::User: return "user";
    case Role::Assistant: return "assistant";
    case Role::Tool: return "tool";
  }
  return "?";
}

static Role role_from(const std::string& s) {
  if (s == "system") return Role::System;
  if (s == "user") return Role::User;
  if (s == "assistant") return Role::Assistant;
  if (s == "tool") return Role::Tool;
  throw std::invalid_argument("unknown message role '" + s + "'");
}

nlohmann::json Message::to_json() const {
  nlohmann::json j = {{"role", to_string(role)}, {"content", content}};
  if (!tool_calls.empty()) {
    j["tool_calls"] = nlohmann::json::array();
    for (const auto& c : tool_calls) j["tool_calls"].push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
  }
  if (role == Role::Tool) {
    j["tool_call_id"] = tool_call_id;
    j["tool_name"] = tool_name;
    j["is_error"] = is_error;
    if (!data.is_null()) j["data"] = data;
  }
  if (!raw.is_null()) {
    j["raw"] = raw;
    j["raw_format"] = raw_format;
  }
  return j;
}

Message Message::from_json(const nlohmann::json& j) {
  Message m;
  m.role = role_from(j.at("role").get<std::string>());
  m.content = j.value("content", "");
  if (j.contains("tool_calls"))
    for (const auto& c : j["tool_calls"])
      m.tool_calls.push_back({c.value("id", ""), c.at("name").get<std::string>(), c.value("arguments", "")});
  m.tool_call_id = j.value("tool_call_id", "");
  m.tool_name = j.value("tool_name", "");
  m.is_error = j.value("is_error", false);
  if (j.contains("data")) m.data = j["data"];
  if (j.contains("raw") && !j["raw"].is_null()) {
    m.raw = j["raw"];
    m.raw_format = j.value("raw_format", "");
  }
  return m;
}

Usage& Usage::operator+=(const Usage& o) {
  input_tokens += o.input_tokens;
  output_tokens += o.output_tokens;
  cached_input_tokens += o.cached_input_tokens;
  cache_write_tokens += o.cache_write_tokens;
  reasoning_tokens += o.reasoning_tokens;
  return *this;
}

nlohmann::json Usage::to_json() const {
  return {{"input_tokens", input_tokens},
          {"output_tokens", output_tokens},
          {"cached_input_tokens", cached_input_tokens},
          {"cache_write_tokens", cache_write_tokens},
          {"reasoning_tokens", reasoning_tokens}};
}

Usage Usage::from_json(const nlohmann::json& j) {
  Usage u;
  if (!j.is_object()) return u;
  auto get = [&](const char* k) {
    return j.contains(k) && j[k].is_number_unsigned() ? j[k].get<uint64_t>() : uint64_t(0);
  };
  u.input_tokens = get("input_tokens");
  u.output_tokens = get("output_tokens");
  u.cached_input_tokens = get("cached_input_tokens");
  u.cache_write_tokens = get("cache_write_tokens");
  u.reasoning_tokens = get("reasoning_tokens");
  return u;
}

}  // namespace tlmcraft::agent
