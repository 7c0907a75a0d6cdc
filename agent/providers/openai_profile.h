// What an OpenAI-compatible server wants back of an assistant turn it produced, per serving
// stack (docs/providers.md has one section per profile). Tool calls always go back as they
// came (id, type, function and any extra fields such as Gemini's
// extra_content.google.thought_signature); a profile names the message-level fields that go
// back too, and whether only for the turns since the last user message (the tool-calling
// sub-turns of the current question, DeepSeek's rule) or for every turn.
#pragma once
#include <string>
#include <vector>

namespace tlmcraft::agent {

struct OpenAIProfile {
  std::string name;                        // openai, gemini-openai, deepseek, vllm, openrouter
  std::vector<std::string> message_fields; // raw assistant message fields sent back
  bool current_turn_only = false;          // only on assistant turns after the last user message
};

// The profile called `name`; "" picks one from the base URL (api.deepseek.com: deepseek,
// generativelanguage.googleapis.com: gemini-openai, openrouter.ai: openrouter, otherwise
// openai). Throws ProviderError for an unknown name.
OpenAIProfile openai_profile(const std::string& name, const std::string& base_url);

// The profile names, for messages and the help text.
const char* openai_profile_names();

}  // namespace tlmcraft::agent
