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
  // Assistant only: the provider's own message as it arrived (Anthropic: the content block
  // array, thinking and redacted_thinking blocks with their signatures included; OpenAI-
  // compatible: the choice's message object, tool calls with their extra_content). The
  // provider that wrote it sends it back verbatim (ids and arguments re-synced from
  // tool_calls), so resumed and replayed runs send the same bytes. Null: none recorded.
  nlohmann::json raw;
  std::string raw_format;            // whose wire form `raw` is: "anthropic" or "openai"
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

// Token counts of one or more requests. input_tokens counts every prompt token, the ones
// read from or written to a prompt cache included; output_tokens every completion token,
// reasoning included. The split fields are parts of those totals.
struct Usage {
  uint64_t input_tokens = 0;
  uint64_t output_tokens = 0;
  uint64_t cached_input_tokens = 0;  // read from the prompt cache (part of input_tokens)
  uint64_t cache_write_tokens = 0;   // written to the prompt cache (part of input_tokens)
  uint64_t reasoning_tokens = 0;     // thinking (part of output_tokens; 0 where not reported)
  Usage& operator+=(const Usage& other);
  // {"input_tokens", "output_tokens", "cached_input_tokens", "cache_write_tokens", "reasoning_tokens"}
  nlohmann::json to_json() const;
  static Usage from_json(const nlohmann::json&);  // missing fields are 0
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

// The request did not fit the model's context window (the provider said so): the loop
// compacts the conversation once and retries.
struct ContextLengthError : ProviderError {
  using ProviderError::ProviderError;
};

class Provider {
 public:
  virtual ~Provider() = default;
  virtual std::string name() const = 0;     // "openai:gpt-5.2", "anthropic:...", "replay", "search"
  // One model turn for the conversation so far. Throws ProviderError.
  virtual Completion complete(const std::vector<Message>& conversation, const std::vector<ToolSpec>& tools) = 0;
};

}  // namespace tlmcraft::agent
