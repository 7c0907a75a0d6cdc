// Constructors of every Provider, so the CLI can pick one by name. Each is defined in
// the part that implements it (agent/providers/, agent/replay_provider.cpp, agent/search/).
#pragma once
#include <memory>
#include <string>

#include "agent/llm.h"
#include "agent/toolbox.h"

namespace tlmcraft::agent {

struct ProviderOptions {
  std::string kind;                 // "openai", "anthropic", "replay", "search"
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
};

std::unique_ptr<Provider> make_openai_provider(const ProviderOptions& options);     // agent/providers/
std::unique_ptr<Provider> make_anthropic_provider(const ProviderOptions& options);  // agent/providers/
std::unique_ptr<Provider> make_replay_provider(const ProviderOptions& options);     // agent/replay_provider.cpp
std::unique_ptr<Provider> make_search_provider(const ProviderOptions& options);     // agent/search/

}  // namespace tlmcraft::agent
