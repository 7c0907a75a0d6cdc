// Golden tests against the Coral NPU RTL, without the RTL: each program in
// tests/platforms/coral_rtl_programs/ stores the mcycle difference around its body at
// 0x17F00 (DTCM); its first line pins what coral-rtl measured for it, the second names the
// command. The model must give the same count, or, where a line `# model: N (why)` records a
// known gap (docs/FIDELITY.md), exactly N, so neither an improvement nor a regression passes
// silently.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/platforms/coral_test_util.h"

namespace tlmcraft::coral {
namespace {

const std::string kDir = std::string(TLMCRAFT_SOURCE_DIR) + "/tests/platforms/coral_rtl_programs";
constexpr uint32_t kResultAddress = 0x17F00;

struct Golden {
  std::string source;
  long rtl = -1, model = -1;
};

Golden read_golden(const std::string& path) {
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  Golden g{text.str()};
  std::istringstream lines(g.source);
  for (std::string line; std::getline(lines, line) && line.rfind('#', 0) == 0;) {
    if (line.rfind("# coral-rtl: ", 0) == 0) g.rtl = std::stol(line.substr(13));
    if (line.rfind("# model: ", 0) == 0) g.model = std::stol(line.substr(9));
  }
  return g;
}

class CoralRtlGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(CoralRtlGolden, ModelReproducesTheRtlCount) {
  const Golden g = read_golden(kDir + "/" + GetParam());
  ASSERT_GT(g.rtl, 0) << GetParam() << ": no '# coral-rtl: N' line";
  CoralPlatform p = testing::make_platform();
  const RunResult r = testing::run(p, testing::build(p, g.source, GetParam()));
  ASSERT_TRUE(r.ok()) << r.message;
  const long model = testing::read_u32(p, kResultAddress);
  if (g.model < 0) EXPECT_EQ(model, g.rtl) << GetParam() << " (RTL " << g.rtl << ")";
  else EXPECT_EQ(model, g.model) << GetParam() << ": the recorded gap changed (RTL " << g.rtl << ")";
}

std::vector<std::string> programs() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(kDir))
    if (e.path().extension() == ".s") names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Programs, CoralRtlGolden, ::testing::ValuesIn(programs()),
                         [](const auto& info) { return info.param.substr(0, info.param.size() - 2); });

}  // namespace
}  // namespace tlmcraft::coral
