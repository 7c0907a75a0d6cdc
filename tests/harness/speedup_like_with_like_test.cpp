// Speedup against the baseline compares like with like (issue 22): the baseline runs on the
// same trials' inputs as the kernel and counts by the same rule, the slowest trial. Coral's
// cycles depend on the data, and the baseline used to run on the first trial only, so the
// unchanged SiLU baseline reported 10225 cycles against 9825 (0.96x against itself).
// Every platform and task at C1: the baseline's own source, evaluated as a kernel,
// reports exactly its own cycles as the baseline's, a speedup of 1: with a blank line
// added (another text: the baseline runs on the kernel's seeds) and as it is (the same
// build on the same seeds: evaluate() takes the kernel's own cycles, codesign explore's
// case).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft {
namespace {

using nlohmann::json;

struct Cell {
  std::string platform, task;
};

std::vector<Cell> cells() {
  std::vector<Cell> out;
  for (const char* platform : {"plena", "coral", "aie_ml"})
    for (const auto& t : tasks::Registry::builtin().tasks()) {
      try {
        const tasks::Instance inst = tasks::Registry::builtin().instance(t.name, platform, "C1");
        if (tasks::has_baseline(inst)) out.push_back({platform, t.name});
      } catch (const std::exception&) {
        // not supported at C1 on this platform
      }
    }
  return out;
}

class BaselineAgainstItself : public ::testing::TestWithParam<Cell> {};

TEST_P(BaselineAgainstItself, ReportsASpeedupOfExactlyOne) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const Cell& c = GetParam();
  auto platform = make_platform(c.platform);
  const tasks::Instance inst = tasks::Registry::builtin().instance(c.task, c.platform, "C1");
  std::string source;
  try {
    source = tasks::baseline_kernel(inst, platform->config());
  } catch (const std::invalid_argument& e) {
    GTEST_SKIP() << "no baseline for this platform configuration: " << e.what();
  }
  // The kernel goes through a file named like the baseline's (Coral's are C).
  const std::string path = ::testing::TempDir() + "speedup_" + std::to_string(getpid()) + "_" + c.platform + "_" +
                           tasks::baseline_file_name(inst);
  std::ofstream(path) << source << "\n";
  EvalOptions o;
  o.platform = c.platform;
  o.task = c.task;
  o.config = "C1";
  o.kernel_path = path;
  o.seed = 7;     // three trials with different inputs: the slowest counts for both
  o.trials = 3;
  const json rep = evaluate(*platform, o);
  ASSERT_EQ(rep["status"], "pass") << rep["reason"];
  EXPECT_EQ(rep["baseline_cycles"], rep["cycles"]) << rep["cycles_over_trials"];
  EXPECT_EQ(rep["speedup"].get<double>(), 1.0);
  // The baseline's exact text: the same figures without running the baseline again.
  std::ofstream(path, std::ios::trunc) << source;
  const json same = evaluate(*platform, o);
  ASSERT_EQ(same["status"], "pass") << same["reason"];
  EXPECT_EQ(same["cycles"], rep["cycles"]);
  EXPECT_EQ(same["baseline_cycles"], rep["cycles"]);
  EXPECT_EQ(same["speedup"].get<double>(), 1.0);
  std::remove(path.c_str());
  // And `--baseline` itself.
  o.kernel_path.clear();
  o.use_baseline = true;
  const json base = evaluate(*platform, o);
  ASSERT_EQ(base["status"], "pass") << base["reason"];
  EXPECT_EQ(base["cycles"], rep["cycles"]);
  EXPECT_EQ(base["speedup"].get<double>(), 1.0);
}

INSTANTIATE_TEST_SUITE_P(EveryPlatformAndTaskAtC1, BaselineAgainstItself, ::testing::ValuesIn(cells()),
                         [](const ::testing::TestParamInfo<Cell>& i) { return i.param.platform + "_" + i.param.task; });

}  // namespace
}  // namespace tlmcraft
