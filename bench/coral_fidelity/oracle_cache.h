// A results file of RTL oracle runs keyed by a hash of everything the RTL sees (image,
// inputs, dumped regions, latencies), so a rerun after a model change only simulates the
// model: the RTL's cycles of an unchanged program cannot change.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "bench/coral_fidelity/rtl_oracle.h"

namespace tlmcraft::bench {

struct CachedOracle {
  bool ok = false;
  std::string error;
  uint64_t cycles = 0, dispatched = 0;
  std::vector<uint64_t> dump_hashes;  // FNV-1a 64 of each dumped region
};

uint64_t fnv1a64(const void* data, size_t len, uint64_t h = 0xcbf29ce484222325ull);

class OracleCache {
 public:
  // `path` ("" = no file: nothing is kept) is read and appended to; `extra` files (results
  // of runs elsewhere: run_oracle_jobs.py) are only read.
  explicit OracleCache(std::string path, const std::vector<std::string>& extra = {});
  bool find(uint64_t key, CachedOracle& out) const;
  void store(uint64_t key, const CachedOracle& value);  // appended to the file at once

 private:
  void load(const std::string& path);
  std::string path_;
  mutable std::mutex mutex_;
  std::map<uint64_t, CachedOracle> entries_;
};

}  // namespace tlmcraft::bench
