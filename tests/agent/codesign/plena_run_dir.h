// A temporary folder per test for PLENA co-design tests that run the tlmcraft binary:
// files written into it, tlmcraft run with its output captured, a kernel's cycles.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/unique_temp_dir.h"

namespace tlmcraft::agent::codesign {

// The folder itself is a test::UniqueTempDir (mkdtemp, removed at scope end).
struct PlenaRunDir : test::UniqueTempDir {
  explicit PlenaRunDir(const std::string& tag) : UniqueTempDir(tag) {}
  // Runs tlmcraft with `args`: its exit code, stdout in `out`, stderr in `err`.
  int run(const std::string& args, std::string& out, std::string& err) const {
    const std::string exe = std::string(TLMCRAFT_BINARY_DIR) + "/harness/tlmcraft";
    const std::string o = file("stdout"), e = file("stderr");
    const int status = std::system(("'" + exe + "' " + args + " > '" + o + "' 2> '" + e + "'").c_str());
    std::ifstream so(o), se(e);
    out.assign(std::istreambuf_iterator<char>(so), {});
    err.assign(std::istreambuf_iterator<char>(se), {});
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  // The kernel's cycles on PLENA (serial timing), with `overlay` when given.
  int64_t cycles(const std::string& kernel, const std::string& overlay = "") const {
    std::string out, err;
    const std::string args = "run --platform plena --json '" + write("k.asm", kernel) + "'" +
                             (overlay.empty() ? "" : " --isa-ext '" + write("o.yaml", overlay) + "'");
    EXPECT_EQ(run(args, out, err), 0) << err;
    return nlohmann::json::parse(out).value("cycles", int64_t(-1));
  }
};

}  // namespace tlmcraft::agent::codesign
