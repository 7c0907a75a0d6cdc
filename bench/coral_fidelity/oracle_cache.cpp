#include "bench/coral_fidelity/oracle_cache.h"

#include <fstream>

#include <nlohmann/json.hpp>

namespace tlmcraft::bench {

uint64_t fnv1a64(const void* data, size_t len, uint64_t h) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < len; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

OracleCache::OracleCache(std::string path, const std::vector<std::string>& extra) : path_(std::move(path)) {
  for (const std::string& e : extra) load(e);
  if (!path_.empty()) load(path_);
}

void OracleCache::load(const std::string& path) {
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("key")) continue;  // a torn last line after a kill
    CachedOracle c;
    c.ok = j.value("ok", false);
    c.error = j.value("error", "");
    c.cycles = j.value("cycles", 0ull);
    c.dispatched = j.value("dispatched", 0ull);
    c.dump_hashes = j.value("dumps", std::vector<uint64_t>{});
    entries_[std::stoull(j["key"].get<std::string>(), nullptr, 16)] = c;
  }
}

bool OracleCache::find(uint64_t key, CachedOracle& out) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = entries_.find(key);
  if (it == entries_.end()) return false;
  out = it->second;
  return true;
}

void OracleCache::store(uint64_t key, const CachedOracle& c) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_[key] = c;
  if (path_.empty()) return;
  char hex[20];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
  const nlohmann::json j = {{"key", hex}, {"ok", c.ok}, {"error", c.error}, {"cycles", c.cycles},
                            {"dispatched", c.dispatched}, {"dumps", c.dump_hashes}};
  std::ofstream(path_, std::ios::app) << j.dump() << "\n";
}

}  // namespace tlmcraft::bench
