// codesign explore on a two-task toy suite with three PLENA candidates. The
// suite runner is scripted: a kernel's cycles are 10 per instruction line of
// the kernel it is given (so they follow the real rewriting), its energy 2 pJ
// per cycle + 100 pJ. Every figure below is derived by hand from that rule and
// the kernels.
#include "agent/codesign/explorer.h"

#include "toy_suite.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tlmcraft::agent::codesign {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace toy;

struct Explore : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("tlm_explore_" + std::to_string(::getpid()) + "_" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override { fs::remove_all(dir); }
  void TearDown() override { fs::remove_all(dir); }
  ExploreOptions options(double budget) {
    ExploreOptions o;
    o.platform = "plena";
    o.out_dir = dir.string();
    o.base_area_mm2 = 1.0;
    o.area_budget_mm2 = budget;
    o.hardware = kHardware;
    return o;
  }
  std::vector<SuiteCell> cells() { return suite_cells(); }
};

TEST_F(Explore, GreedyFrontDerivedByHand) {
  // base: ta 60, tb 80 cycles. CD0: ta 50 -> speedup sqrt(60/50) = 1.0954; CD1:
  // tb 60 -> sqrt(80/60) = 1.1547; CD2 matches nothing. Budget 0.025 mm2: CD0 +
  // CD1 (0.03) does not fit, so greedy evaluates base, CD0, CD1, CD2. CD2 has
  // base's cycles and energy with more area: dominated. Front: base (least
  // area), CD0, CD1.
  ScriptedSuite suite;
  const auto cands = candidates();
  const ExploreResult r = explore(plena(), cands, cells(), suite.runner(), options(0.025));
  ASSERT_EQ(r.variants.size(), 4u);
  EXPECT_EQ(r.variants[1].id, "CD0");
  EXPECT_NEAR(geomean_speedup(r.variants[0], r.variants[1]), std::sqrt(60.0 / 50.0), 1e-12);
  EXPECT_NEAR(geomean_speedup(r.variants[0], r.variants[2]), std::sqrt(80.0 / 60.0), 1e-12);
  EXPECT_TRUE(r.variants[3].uses.empty());
  EXPECT_EQ(r.pareto, (std::vector<std::string>{"base", "CD0", "CD1"}));
  // CD0 runs once (no loop) and saves 10 cycles at latency 1: it pays up to 1 +
  // 10 / 1.
  EXPECT_EQ(r.summary["instructions"]["CD0"]["break_even_latency"], 11.0);
  EXPECT_EQ(r.variants[1].used_by.at("CD0"), (std::vector<std::string>{"ta/C1"}));
}

TEST_F(Explore, LargerBudgetAddsTheCombination) {
  // Budget 0.05: after CD0, CD1 fits (0.03): sqrt(1.2 x 4/3) = 1.2649 beats
  // CD0's 1.0954.
  ScriptedSuite suite;
  const auto cands = candidates();
  const ExploreResult r = explore(plena(), cands, cells(), suite.runner(), options(0.05));
  ASSERT_EQ(r.variants.size(), 5u);
  EXPECT_EQ(r.variants[4].id, "CD0+CD1");
  EXPECT_NEAR(geomean_speedup(r.variants[0], r.variants[4]), std::sqrt(1.6), 1e-12);
  EXPECT_EQ(r.pareto, (std::vector<std::string>{"base", "CD0", "CD1", "CD0+CD1"}));
}

TEST_F(Explore, FailingCandidateIsRecordedAndExcluded) {
  ScriptedSuite suite;
  suite.failing_overlay_word = "CD1";
  const auto cands = candidates();
  const ExploreResult r = explore(plena(), cands, cells(), suite.runner(), options(0.05));
  const VariantResult& cd1 = r.variants[2];
  EXPECT_EQ(cd1.id, "CD1");
  EXPECT_FALSE(cd1.ok);
  EXPECT_EQ(cd1.failures, (std::vector<std::string>{"tb/C1: fail (\"match 0%\")"}));
  EXPECT_EQ(r.pareto, (std::vector<std::string>{"base", "CD0"}));
}

TEST_F(Explore, RerunEvaluatesNothingTwice) {
  ScriptedSuite suite;
  const auto cands = candidates();
  explore(plena(), cands, cells(), suite.runner(), options(0.025));
  EXPECT_EQ(suite.calls, 4);
  const ExploreResult again = explore(plena(), cands, cells(), suite.runner(), options(0.025));
  EXPECT_EQ(suite.calls, 4);
  EXPECT_EQ(again.pareto, (std::vector<std::string>{"base", "CD0", "CD1"}));
}

TEST_F(Explore, BadInputIsNamed) {
  ScriptedSuite suite;
  const auto cands = candidates();
  EXPECT_THROW(explore(plena(), cands, cells(), suite.runner(), options(0)), std::invalid_argument);
  fs::create_directories(dir);
  const std::string bad = (dir / "bad.yaml").string();
  std::ofstream(bad) << "candidates: [ {name: X} ]\n";
  try {
    load_candidates(bad, "plena");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), bad + ": candidate 1: needs a 'name' and an 'overlay'");
  }
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
