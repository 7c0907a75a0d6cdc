// Constructors of every Provider, so the CLI can pick one by name. Each is defined in
// the part that implements it (agent/providers/, agent/replay_provider.cpp, agent/search/).
#pragma once
#include <memory>
#include <string>

#include "agent/llm.h"
#include "agent/toolbox.h"

namespace tlmcraft::agent {

struct ProviderOptions {
  std::string kind;                 // "openai", "openai-responses", "anthropic", "replay", "search"
  std::string base_url;             // e.g. https://api.openai.com/v1, http://localhost:8080/v1
  std::string model;
  std::string api_key;              // from --api-key or OPENAI_API_KEY / ANTHROPIC_API_KEY
  double timeout_seconds = 300;     // per HTTP request
  int max_retries = 5;              // on 429 and 5xx, with exponential backoff
  double backoff_seconds = 1.0;     // first backoff; doubles each retry (Retry-After wins)
  int max_tokens = 8192;
  double temperature = -1;          // < 0: provider default
  std::string replay_path;          // replay: the transcript JSONL to play back
  Workload workload;                // search: what to optimise
  uint64_t seed = 1;                // search: candidate order

  // Reasoning models (docs/providers.md).
  std::string thinking;             // anthropic: "" (send nothing), "adaptive", "enabled", "off"
  int thinking_budget = 0;          // anthropic "enabled": budget_tokens (>= 1024, < max_tokens)
  std::string reasoning_effort;     // openai-compatible: reasoning_effort; anthropic: output_config.effort
  std::string profile;              // openai-compatible: openai, gemini-openai, deepseek, vllm, openrouter
                                    // ("" = guessed from the base URL, see openai_profile.h)
  nlohmann::json extra_body;        // object merged (RFC 7386 merge patch) into every request body
  bool prompt_cache = false;        // anthropic: cache_control breakpoints (the CLI turns it on)

  // Shared rate limit (agent/providers/rate_limiter.h); 0 = no limit.
  double requests_per_minute = 0;
  double tokens_per_minute = 0;
  double rate_window_seconds = 60;  // the window the two limits count over
  std::string rate_limit_file;      // state shared by processes (agent-bench workers); "" = this process only
};

std::unique_ptr<Provider> make_openai_provider(const ProviderOptions& options);     // agent/providers/
std::unique_ptr<Provider> make_openai_responses_provider(const ProviderOptions& options);  // agent/providers/
std::unique_ptr<Provider> make_anthropic_provider(const ProviderOptions& options);  // agent/providers/
std::unique_ptr<Provider> make_replay_provider(const ProviderOptions& options);     // agent/replay_provider.cpp
std::unique_ptr<Provider> make_search_provider(const ProviderOptions& options);     // agent/search/

}  // namespace tlmcraft::agent
