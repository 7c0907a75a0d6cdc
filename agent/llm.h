// The conversation model every LLM provider speaks: messages with text and tool calls,
// tool declarations with JSON Schema parameters, and one completion per request.
// Providers translate this to and from their wire protocol (OpenAI Chat Completions,
// Anthropic Messages, a replayed transcript, the built-in search agent).
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::agent {

enum class Role { System, User, Assistant, Tool };
const char* to_string(Role);

struct ToolCall {
  std::string id;            // provider's call id (generated when the provider has none)
  std::string name;
  std::string arguments;     // raw JSON text as the model wrote it (may be malformed)
};

struct Message {
  Role role = Role::User;
  std::string content;               // text (may be empty for an assistant turn with tool calls)
  std::vector<ToolCall> tool_calls;  // assistant only
  std::string tool_call_id;          // tool only: which call this answers
  std::string tool_name;             // tool only
  bool is_error = false;             // tool only: the call failed (bad arguments, unknown tool, ...)
  nlohmann::json data;               // tool only: the structured result (kept in transcripts,
                                     // never sent to a remote model; the search agent reads it)
  nlohmann::json to_json() const;
  static Message from_json(const nlohmann::json&);
  static Message text(Role role, std::string content) {
    Message m;
    m.role = role;
    m.content = std::move(content);
    return m;
  }
};

struct ToolSpec {
  std::string name;
  std::string description;
  nlohmann::json parameters;         // JSON Schema object
};

struct Usage {
  uint64_t input_tokens = 0;
  uint64_t output_tokens = 0;
};

struct Completion {
  Message message;                   // role Assistant
  Usage usage;
  std::string stop_reason;           // provider's finish reason ("tool_calls", "end_turn", ...)
  double seconds = 0;                // wall time of the request, retries included
};

// A provider failure that retrying will not fix (4xx other than 429, bad configuration,
// exhausted retries). what() is a message for the user.
struct ProviderError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Provider {
 public:
  virtual ~Provider() = default;
  virtual std::string name() const = 0;     // "openai:gpt-5.2", "anthropic:...", "replay", "search"
  // One model turn for the conversation so far. Throws ProviderError.
  virtual Completion complete(const std::vector<Message>& conversation, const std::vector<ToolSpec>& tools) = 0;
};

}  // namespace tlmcraft::agent
