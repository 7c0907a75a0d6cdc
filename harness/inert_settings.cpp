#include "harness/inert_settings.h"

namespace tlmcraft::harness {
namespace {

using nlohmann::json;

// The config's value at a dotted key as text ("" when absent).
std::string value_at(const json& config, const std::string& key) {
  const json* node = &config;
  size_t start = 0;
  while (start <= key.size()) {
    const size_t dot = key.find('.', start);
    const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_object() || !node->contains(part)) return "";
    node = &(*node)[part];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return node->is_string() ? node->get<std::string>() : node->dump();
}

bool under(const std::string& key, const std::string& prefix) {
  return key == prefix || (key.size() > prefix.size() && key.compare(0, prefix.size(), prefix) == 0 && key[prefix.size()] == '.');
}

}  // namespace

std::vector<std::string> inert_setting_warnings(const json& config, const std::vector<std::string>& overrides) {
  std::vector<std::string> out;
  if (!config.is_object() || !config.contains("inert_settings") || !config["inert_settings"].is_array()) return out;
  for (const auto& o : overrides) {
    const std::string key = o.substr(0, o.find('='));
    for (const auto& rule : config["inert_settings"]) {
      if (!rule.is_object() || !rule.contains("when") || !rule["when"].is_object() || !rule.contains("keys")) continue;
      std::string condition;
      bool holds = true;
      for (const auto& [k, v] : rule["when"].items()) {
        const std::string want = v.is_string() ? v.get<std::string>() : v.dump();
        holds = holds && value_at(config, k) == want;
        condition += (condition.empty() ? "" : " and ") + k + " is " + want;
      }
      if (!holds || !rule["keys"].is_array()) continue;
      for (const auto& k : rule["keys"])
        if (k.is_string() && under(key, k.get<std::string>())) {
          out.push_back("--set " + key + " has no effect: " + k.get<std::string>() + " is not used while " + condition);
          break;
        }
    }
  }
  return out;
}

}  // namespace tlmcraft::harness
