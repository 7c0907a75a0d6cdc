// The one results JSONL file of a suite run, owned by a driver that does not run the jobs
// itself (the Slurm executor): opened and locked (flock) for the driver's lifetime, a torn
// last line repaired, records indexed by job key, new records appended with one write and
// an fsync each. The first record of a key wins; later ones are never added.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::harness {

class ResultStore {
 public:
  // Throws std::runtime_error naming the file when it cannot be created, read, locked
  // (another run holds it for lock_wait_seconds) or repaired. fresh: truncate it first.
  ResultStore(const std::string& path, bool fresh, double lock_wait_seconds);
  ~ResultStore();
  ResultStore(const ResultStore&) = delete;
  ResultStore& operator=(const ResultStore&) = delete;

  bool contains(const std::string& key) const { return by_key_.count(key) > 0; }
  const nlohmann::json& at(const std::string& key) const { return by_key_.at(key); }
  // Appends a record whose key is not yet stored; returns false (nothing written) when it is.
  bool add(const std::string& key, const nlohmann::json& record);

  const std::string& path() const { return path_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  size_t dropped_torn_bytes() const { return dropped_torn_bytes_; }

 private:
  std::string path_;
  int fd_ = -1;
  std::map<std::string, nlohmann::json> by_key_;
  std::vector<std::string> warnings_;
  size_t dropped_torn_bytes_ = 0;
};

}  // namespace tlmcraft::harness
