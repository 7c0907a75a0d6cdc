// A small ordered bag of named counters for models and platforms, exported as JSON.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::models {

class Stats {
 public:
  // Adds to (creating at zero) the named counter; names keep their first-use order.
  void add(const std::string& name, uint64_t v = 1) { slot(name) += v; }
  void set(const std::string& name, uint64_t v) { slot(name) = v; }
  void max(const std::string& name, uint64_t v) {
    uint64_t& s = slot(name);
    if (v > s) s = v;
  }
  uint64_t get(const std::string& name) const {
    for (const auto& kv : items_)
      if (kv.first == name) return kv.second;
    return 0;
  }
  void clear() { items_.clear(); }
  nlohmann::json to_json() const {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& kv : items_) j[kv.first] = kv.second;
    return j;
  }

 private:
  uint64_t& slot(const std::string& name) {
    for (auto& kv : items_)
      if (kv.first == name) return kv.second;
    items_.emplace_back(name, 0);
    return items_.back().second;
  }
  std::vector<std::pair<std::string, uint64_t>> items_;
};

// busy / window as a fraction in [0, 1]; 0 for an empty window.
inline double utilisation(uint64_t busy, uint64_t window) {
  return window ? static_cast<double>(busy) / static_cast<double>(window) : 0.0;
}

}  // namespace tlmcraft::models
