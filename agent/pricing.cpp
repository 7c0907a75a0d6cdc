#include "agent/pricing.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/data_dir.h"

namespace tlmcraft::agent {

using nlohmann::json;

std::string PriceTable::default_path() { return data::data_path("agent/data/prices.json"); }

PriceTable PriceTable::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw PriceTableError(path + ": cannot open the price table");
  std::ostringstream ss;
  ss << in.rdbuf();
  json j;
  try {
    j = json::parse(ss.str());
  } catch (const json::parse_error& e) {
    throw PriceTableError(path + ": not JSON: " + json_error_text(e));
  }
  if (!j.is_object() || !j.contains("models") || !j["models"].is_object())
    throw PriceTableError(path + ": expected an object with a \"models\" object");
  PriceTable t;
  t.path_ = path;
  for (const auto& [key, v] : j["models"].items()) {
    const std::string where = path + ": models." + key;
    if (!v.is_object()) throw PriceTableError(where + ": expected an object");
    ModelPrice p;
    p.key = key;
    auto rate = [&](const char* field, double& out, bool required) {
      if (!v.contains(field)) {
        if (required) throw PriceTableError(where + ": missing \"" + field + "\"");
        return false;
      }
      if (!v[field].is_number() || v[field].get<double>() < 0)
        throw PriceTableError(where + ": \"" + field + "\" must be a number >= 0");
      out = v[field].get<double>();
      return true;
    };
    rate("input", p.input, true);
    rate("output", p.output, true);
    if (!rate("cached_input", p.cached_input, false)) p.cached_input = p.input;
    if (!rate("cache_write", p.cache_write, false)) p.cache_write = p.input;
    if (v.contains("context_tokens")) {
      if (!v["context_tokens"].is_number_unsigned())
        throw PriceTableError(where + ": \"context_tokens\" must be a whole number >= 0");
      p.context_tokens = v["context_tokens"].get<uint64_t>();
    }
    t.models_[key] = p;
  }
  return t;
}

std::optional<ModelPrice> PriceTable::find(const std::string& model) const {
  if (const auto it = models_.find(model); it != models_.end()) return it->second;
  const ModelPrice* best = nullptr;
  for (const auto& [key, p] : models_) {
    if (key.empty() || key.back() != '*') continue;
    const std::string prefix = key.substr(0, key.size() - 1);
    if (model.compare(0, prefix.size(), prefix) == 0 && (!best || prefix.size() + 1 > best->key.size())) best = &p;
  }
  if (best) return *best;
  return std::nullopt;
}

std::string json_error_text(const std::exception& e) {
  std::string s = e.what();
  // "[json.exception.parse_error.101] parse error at line 2, column 5: ..." -> from "parse error"
  if (!s.empty() && s[0] == '[') {
    const auto close = s.find("] ");
    if (close != std::string::npos) s = s.substr(close + 2);
  }
  return s;
}

double cost_usd(const Usage& u, const ModelPrice& p) {
  const uint64_t special = u.cached_input_tokens + u.cache_write_tokens;
  const uint64_t fresh = u.input_tokens > special ? u.input_tokens - special : 0;
  return (double(fresh) * p.input + double(u.cached_input_tokens) * p.cached_input +
          double(u.cache_write_tokens) * p.cache_write + double(u.output_tokens) * p.output) /
         1e6;
}

}  // namespace tlmcraft::agent
