// The PLENA reference-timing oracle (../shared/oracles/plena-ref): `plena-ref KERNEL.asm`
// prints "TOTAL cycles=... nonhbm=..."; for programs with H_STORE_V (which it does not
// replay) its walker `python3 refwalk.py KERNEL.asm` gives the non-HBM cycles.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace tlmcraft::bench {

struct OracleResult {
  bool ok = false;
  uint64_t total = 0, nonhbm = 0;
  std::string error;  // when !ok: the oracle's message
};

class PlenaOracle {
 public:
  explicit PlenaOracle(std::string plena_ref) : path_(std::move(plena_ref)) {}
  // The oracle path from --oracle, else $PLENA_REF, else the shared default; empty when
  // none of them is an executable file.
  static std::string locate(const std::string& flag);
  const std::string& path() const { return path_; }
  std::string command(const std::string& kernel_file, bool total) const;
  OracleResult measure(const std::string& kernel_file, bool total) const;

 private:
  std::string path_;
};

}  // namespace tlmcraft::bench
