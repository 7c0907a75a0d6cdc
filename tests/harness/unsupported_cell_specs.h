// A copy of the task specs in which PLENA does not support conv2d, for tests of how the
// CLI treats an unsupported cell (every benchmark cell is supported by the shipped specs).
// Use: TLMCRAFT_TASKS_DIR=<the returned folder> tlmcraft ...
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tlmcraft::test_specs {

inline std::string specs_with_plena_conv2d_unsupported(const std::filesystem::path& into) {
  namespace fs = std::filesystem;
  const fs::path specs = into / "specs";
  fs::copy(fs::path(TLMCRAFT_SOURCE_DIR) / "tasks" / "specs", specs, fs::copy_options::recursive);
  std::ifstream in(specs / "conv2d.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  const size_t b = text.find("  plena:\n"), e = text.find("  aie_ml:\n");
  if (b == std::string::npos || e == std::string::npos || e < b)
    throw std::runtime_error("conv2d.yaml: no plena section before aie_ml");
  text.replace(b, e - b, "  plena:\n    supported: false\n    reason: \"no convolution unit (test specs)\"\n");
  std::ofstream(specs / "conv2d.yaml") << text;
  return specs.string();
}

}  // namespace tlmcraft::test_specs
