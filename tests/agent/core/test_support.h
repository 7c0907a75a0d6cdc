// Shared helpers of the agent core tests: a fresh temporary directory per test, the
// reference PLENA SiLU C1 kernel, and JSON-argument shorthands.
#pragma once
#include <filesystem>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace tlmcraft::agent::test {

// A directory under the system temp dir, removed when the object goes away.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    path_ = std::filesystem::temp_directory_path() /
            ("tlmcraft-agent-test-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string str() const { return path_.string(); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::filesystem::path path_;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The repository's hand-written PLENA SiLU kernel for C1 (n = 256), which passes.
inline std::string silu_c1_kernel() { return read_file(std::string(TLMCRAFT_SOURCE_DIR) + "/platforms/plena/kernels/silu_c1.asm"); }

// The same kernel with the sigmoid's reciprocal left out (computes x * (1 + exp(-x))):
// it assembles and runs but every output is wrong.
inline std::string silu_c1_wrong_kernel() {
  std::string k = silu_c1_kernel();
  const auto p = k.find("V_RECI_V");
  if (p == std::string::npos) return k;
  const auto begin = k.rfind('\n', p) + 1;
  k.erase(begin, k.find('\n', p) + 1 - begin);
  return k;
}

inline std::string args(const nlohmann::json& j) { return j.dump(); }

}  // namespace tlmcraft::agent::test
