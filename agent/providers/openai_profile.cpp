#include "agent/providers/openai_profile.h"

#include "agent/llm.h"

namespace tlmcraft::agent {

const char* openai_profile_names() { return "openai, gemini-openai, deepseek, vllm, openrouter"; }

OpenAIProfile openai_profile(const std::string& name, const std::string& base_url) {
  std::string n = name;
  if (n.empty()) {
    if (base_url.find("api.deepseek.com") != std::string::npos) n = "deepseek";
    else if (base_url.find("generativelanguage.googleapis.com") != std::string::npos) n = "gemini-openai";
    else if (base_url.find("openrouter.ai") != std::string::npos) n = "openrouter";
    else n = "openai";
  }
  // OpenAI Chat Completions returns no reasoning text; nothing beyond the calls goes back.
  if (n == "openai") return {n, {}, false};
  // Gemini: thought signatures ride on the tool calls (and on a message's extra_content
  // when the turn had no call); all of them go back with the history.
  if (n == "gemini-openai") return {n, {"extra_content"}, false};
  // DeepSeek thinking mode: reasoning_content of the current question's tool-calling
  // sub-turns goes back; that of earlier questions is left out.
  if (n == "deepseek") return {n, {"reasoning_content"}, true};
  // vLLM reasoning parsers return reasoning_content (newer releases: reasoning); chat
  // templates of interleaved-thinking models read it back for the current question.
  if (n == "vllm") return {n, {"reasoning_content", "reasoning"}, true};
  // OpenRouter: reasoning_details go back unmodified, in order, on every turn.
  if (n == "openrouter") return {n, {"reasoning_details"}, false};
  throw ProviderError("openai: unknown provider profile '" + n + "' (" + openai_profile_names() + ")");
}

}  // namespace tlmcraft::agent
