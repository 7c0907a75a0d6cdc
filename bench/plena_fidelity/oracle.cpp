#include "bench/plena_fidelity/oracle.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include <nlohmann/json.hpp>
#include <unistd.h>

namespace tlmcraft::bench {

namespace {

std::string run_capture(const std::string& cmd, int& status) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) {
    status = -1;
    return "cannot start: " + cmd;
  }
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  status = pclose(p);
  return out;
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

}  // namespace

std::string PlenaOracle::locate(const std::string& flag) {
  std::string p = flag;
  if (p.empty() && std::getenv("PLENA_REF")) p = std::getenv("PLENA_REF");
  if (p.empty()) p = "/work/shared/oracles/plena-ref/plena-ref";
  return std::filesystem::is_regular_file(p) && access(p.c_str(), X_OK) == 0 ? p : std::string();
}

std::string PlenaOracle::command(const std::string& kernel_file, bool total) const {
  if (total) return quote(path_) + " " + quote(kernel_file);
  const std::string walker = (std::filesystem::path(path_).parent_path() / "refwalk.py").string();
  return "python3 " + quote(walker) + " " + quote(kernel_file);
}

OracleResult PlenaOracle::measure(const std::string& kernel_file, bool total) const {
  OracleResult r;
  int status = 0;
  const std::string out = run_capture(command(kernel_file, total), status);
  std::smatch m;
  if (total) {
    if (status == 0 && std::regex_search(out, m, std::regex("TOTAL cycles=(\\d+) nonhbm=(\\d+)"))) {
      r.ok = true;
      r.total = std::stoull(m[1]);
      r.nonhbm = std::stoull(m[2]);
    }
  } else {
    try {
      const auto j = nlohmann::json::parse(out.substr(0, out.find('\n')));
      if (j.contains("nonhbm")) {
        r.ok = true;
        r.nonhbm = j["nonhbm"].get<uint64_t>();
      }
    } catch (const std::exception&) {
    }
  }
  if (!r.ok) r.error = out.substr(0, 300);
  return r;
}

}  // namespace tlmcraft::bench
