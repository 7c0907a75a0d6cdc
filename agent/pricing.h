// The price table (agent/data/prices.json, or a user's file): per model, US dollars per
// million input, cached-input, cache-write and output tokens, and the context window that
// is the model's default --context-tokens. A run's cost is priced from its usage split:
// fresh input (input - cached - cache writes) at the input rate, cache reads at the cached
// rate, cache writes at the cache-write rate, all output (reasoning included) at the
// output rate.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "agent/llm.h"

namespace tlmcraft::agent {

struct ModelPrice {
  std::string key;                 // the table key that matched ("claude-sonnet-4-5*")
  double input = 0, cached_input = 0, cache_write = 0, output = 0;  // USD per million tokens
  uint64_t context_tokens = 0;     // 0 = unknown
};

// A price table that cannot be used: the message names the file and the cause.
struct PriceTableError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class PriceTable {
 public:
  // Reads a table; PriceTableError "path: cause" (JSON errors with their line and column).
  static PriceTable load(const std::string& path);
  // The table shipped in the data folder (agent/data/prices.json).
  static std::string default_path();
  // The entry for `model`: its exact key, else the longest "prefix*" key it starts with.
  std::optional<ModelPrice> find(const std::string& model) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::map<std::string, ModelPrice> models_;
};

// A JSON parse error's message without nlohmann's "[json.exception...] " prefix: "parse
// error at line L, column C: reason".
std::string json_error_text(const std::exception& e);

// US dollars for `usage` at `price`.
double cost_usd(const Usage& usage, const ModelPrice& price);

}  // namespace tlmcraft::agent
