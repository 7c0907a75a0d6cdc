// codesign explore on a two-task toy suite with three PLENA candidates. The
// suite runner is scripted: a kernel's cycles are 10 per instruction line of
// the kernel it is given (so they follow the real rewriting), its energy 2 pJ
// per cycle + 100 pJ. Every figure below is derived by hand from that rule and
// the kernels.
#include "agent/codesign/explorer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "toy_suite.h"

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

TEST_F(Explore, FailureTheBaseKernelSharesIsSaidToBeTheBaselines) {
  // CD1's variant fails tb on trial seed 101 (seeds from 100, three trials). The
  // check reruns tb's base kernel on those seeds; when it fails on 101 too the
  // record says so, and the variant stays excluded either way.
  ScriptedSuite suite;
  suite.failing_overlay_word = "CD1";
  ExploreOptions o = options(0.05);
  std::vector<std::string> asked;
  o.base_seed_check = [&](const SuiteCell& cell, const std::string& kernel, uint64_t first, int trials) {
    asked.push_back(cell.task + "/" + cell.config + " " + kernel + " " + std::to_string(first) + " x" +
                    std::to_string(trials));
    return std::vector<uint64_t>{101};
  };
  const ExploreResult r = explore(plena(), candidates(), cells(), suite.runner(), o);
  EXPECT_EQ(r.variants[2].failures,
            (std::vector<std::string>{"tb/C1: fail (\"match 0%\"); the base kernel fails on seed 101 too"}));
  EXPECT_EQ(asked, (std::vector<std::string>{"tb/C1 " + (dir / "variants/base/kernels/plena/tb/C1.asm").string() +
                                             " 100 x3"}));
  EXPECT_EQ(r.pareto, (std::vector<std::string>{"base", "CD0"}));
}

TEST_F(Explore, FailureOnlyTheVariantHasIsNotAnnotated) {
  ScriptedSuite suite;
  suite.failing_overlay_word = "CD1";
  ExploreOptions o = options(0.05);
  o.base_seed_check = [](const SuiteCell&, const std::string&, uint64_t, int) { return std::vector<uint64_t>{}; };
  const ExploreResult r = explore(plena(), candidates(), cells(), suite.runner(), o);
  EXPECT_EQ(r.variants[2].failures, (std::vector<std::string>{"tb/C1: fail (\"match 0%\")"}));
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

TEST_F(Explore, ARerunAtTheVariantLimitReadsTheStoredCombinationsAgain) {
  // Budget 0.05 and --max-variants 5: base, CD0, CD1, CD2, then CD0+CD1 (the 5th). A rerun
  // with the same limit finds 5 stored: it must read CD0+CD1 again, not stop before it.
  ScriptedSuite suite;
  ExploreOptions o = options(0.05);
  o.max_variants = 5;
  explore(plena(), candidates(), cells(), suite.runner(), o);
  EXPECT_EQ(suite.calls, 5);
  const ExploreResult again = explore(plena(), candidates(), cells(), suite.runner(), o);
  EXPECT_EQ(suite.calls, 5);
  ASSERT_EQ(again.variants.size(), 5u);
  EXPECT_EQ(again.variants[4].id, "CD0+CD1");
  EXPECT_EQ(again.pareto, (std::vector<std::string>{"base", "CD0", "CD1", "CD0+CD1"}));
}

TEST_F(Explore, SearchGenerationSearchesEachKernelAndItsInstructionsOnce) {
  // A scripted search_kernel: drops the kernel's first line (10 cycles) and counts the
  // lines naming an instruction of its overlay as uses (1 execution each). Searched pairs
  // (kernel, instructions placed in it), by hand: base ta and tb under the shipped ISA;
  // CD0: ta with CD0 (tb unchanged: base's pair again); CD1: tb with CD1; CD2 matches
  // nothing (both base's); CD0+CD1: ta with CD0 and tb with CD1, the pairs of CD0 and
  // CD1 (each kernel searched with the instructions placed in it only): 4 searches.
  DataflowAdapter a = plena();
  std::vector<std::string> searched;
  a.search_kernel = [&](const std::string& kernel, const json& overlay, const json&) {
    std::string ops;
    for (const json& i : overlay.value("instructions", json::array())) ops += i["mnemonic"].get<std::string>();
    searched.push_back(kernel + "|" + ops);
    KernelRewrite r{kernel.substr(kernel.find('\n') + 1), {}};
    for (const json& i : overlay.value("instructions", json::array())) {
      const std::string m = i["mnemonic"];
      for (size_t at = r.kernel.find(m + " "); at != std::string::npos; at = r.kernel.find(m + " ", at + 1))
        ++r.uses[m].static_count, ++r.uses[m].executions;
    }
    return r;
  };
  ScriptedSuite suite;
  ExploreOptions o = options(0.05);
  o.kernel_generation = "search";
  const ExploreResult r = explore(a, candidates(), cells(), suite.runner(), o);
  EXPECT_EQ(searched.size(), 4u);
  ASSERT_EQ(r.variants.size(), 5u);
  // Base: ta 6 - 1 = 5 lines, tb 8 - 1 = 7; CD0: ta 5 - 1 = 4; CD1: tb 6 - 1 = 5.
  EXPECT_EQ(r.variants[0].cycles.at("ta/C1"), 50.0);
  EXPECT_EQ(r.variants[0].cycles.at("tb/C1"), 70.0);
  EXPECT_TRUE(r.variants[0].uses.empty());
  EXPECT_NEAR(geomean_speedup(r.variants[0], r.variants[1]), std::sqrt(50.0 / 40.0), 1e-12);
  EXPECT_NEAR(geomean_speedup(r.variants[0], r.variants[2]), std::sqrt(70.0 / 50.0), 1e-12);
  EXPECT_EQ(r.variants[4].id, "CD0+CD1");
  EXPECT_NEAR(geomean_speedup(r.variants[0], r.variants[4]), std::sqrt(50.0 / 40.0 * 70.0 / 50.0), 1e-12);
  // The uses are the searched kernels' (one CD0 in ta, one CD1 in tb).
  EXPECT_EQ(r.variants[4].uses.at("CD0").static_count, 1);
  EXPECT_EQ(r.variants[4].uses.at("CD1").executions, 1u);
  EXPECT_EQ(r.summary["kernel_generation"], "search");
  // A new exploration of the same directory reads the searches from DIR/search_cache.
  fs::remove(dir / "explore.jsonl");
  explore(a, candidates(), cells(), suite.runner(), o);
  EXPECT_EQ(searched.size(), 4u);
}

// The ids of the store's lines, in order.
std::vector<std::string> store_ids(const fs::path& dir) {
  std::vector<std::string> ids;
  std::ifstream in(dir / "explore.jsonl");
  for (std::string line; std::getline(in, line);) ids.push_back(json::parse(line)["id"]);
  return ids;
}

// An adapter whose toolchain places the instructions (Coral's peephole) leaves the text
// alone; explore writes the kernels unchanged and takes the uses from the suite run's own
// results (`added_instructions`, as such a platform's runs report them), in the cells'
// order whatever the results' order: no use_overlay call. Here the runner writes tb's
// record first, CD0 with 1 word run 3 times in ta and 2 words run 5 times in tb; the
// cycles stay base's (60 + 80): the text is unchanged.
TEST_F(Explore, UsesOfAnAdapterThatRewritesAtBuildComeFromTheSuiteRunsResults) {
  ScriptedSuite suite;
  std::vector<std::string> events;
  DataflowAdapter a = plena();
  a.rewrites_at_build = true;
  a.use_overlay = [&](const std::string& kernel, const json& overlay, const json& hardware) {
    events.push_back("count");
    KernelRewrite r = plena().use_overlay(kernel, overlay, hardware);
    r.kernel = kernel;
    return r;
  };
  const SuiteRunner run = suite.runner();
  const SuiteRunner reported = [&](const std::string& k, const std::string& o, const std::string& results) {
    events.push_back("run");
    std::ifstream in(run(k, o, results));
    std::vector<json> records;
    for (std::string line; std::getline(in, line);) records.push_back(json::parse(line));
    in.close();
    records.at(0)["added_instructions"] = {{"CD0", {{"static", 1}, {"executions", 3}}}};  // ta
    records.at(1)["added_instructions"] = {{"CD0", {{"static", 2}, {"executions", 5}}}};  // tb
    std::ofstream out(results);
    out << records.at(1).dump() << "\n" << records.at(0).dump() << "\n";
    return results;
  };
  Exploration e(a, candidates(), cells(), reported, options(0.01));
  const VariantResult& v = e.evaluate(std::vector<std::string>{"CD0"});
  EXPECT_EQ(events, (std::vector<std::string>{"run"}));
  EXPECT_EQ(v.uses.at("CD0").static_count, 3);  // 1 + 2
  EXPECT_EQ(v.uses.at("CD0").executions, 8u);   // 3 + 5
  EXPECT_EQ(v.used_by.at("CD0"), (std::vector<std::string>{"ta/C1", "tb/C1"}));
  EXPECT_EQ(v.cycles.at("ta/C1"), 60.0);
  EXPECT_EQ(v.cycles.at("tb/C1"), 80.0);
}

TEST_F(Explore, Nsga2FrontDerivedByHandEachVariantOnce) {
  // The singles first (as every strategy): base, CD0, CD1, CD2. CD2 is used by
  // no kernel, so NSGA-II searches the sets of {CD0, CD1}; at 0.05 mm2 all four
  // fit and the only new one is CD0+CD1 (sqrt(1.6), as above). The front is the
  // greedy one: base, CD0, CD1, CD0+CD1 (CD2 has base's cycles at more area).
  ScriptedSuite suite;
  ExploreOptions o = options(0.05);
  o.strategy = "nsga2";
  o.population = 4;
  const ExploreResult r = explore(plena(), candidates(), cells(), suite.runner(), o);
  EXPECT_EQ(store_ids(dir), (std::vector<std::string>{"base", "CD0", "CD1", "CD2", "CD0+CD1"}));
  EXPECT_EQ(suite.calls, 5);
  EXPECT_EQ(r.pareto, (std::vector<std::string>{"base", "CD0", "CD1", "CD0+CD1"}));
  EXPECT_EQ(r.summary["nsga2"]["population"], 4);
  // A rerun (another seed even) evaluates nothing again and finds the same front.
  o.seed = 99;
  const ExploreResult again = explore(plena(), candidates(), cells(), suite.runner(), o);
  EXPECT_EQ(suite.calls, 5);
  EXPECT_EQ(store_ids(dir).size(), 5u);
  EXPECT_EQ(again.pareto, r.pareto);
}

TEST_F(Explore, Nsga2NeverEvaluatesOverTheBudget) {
  // At 0.025 mm2 CD0+CD1 (0.03) does not fit: the repair drops one of them, so
  // only the singles run and the front is the greedy one at that budget.
  ScriptedSuite suite;
  ExploreOptions o = options(0.025);
  o.strategy = "nsga2";
  const ExploreResult r = explore(plena(), candidates(), cells(), suite.runner(), o);
  EXPECT_EQ(store_ids(dir), (std::vector<std::string>{"base", "CD0", "CD1", "CD2"}));
  EXPECT_EQ(r.pareto, (std::vector<std::string>{"base", "CD0", "CD1"}));
}

TEST_F(Explore, Nsga2ExcludesAFailingCandidate) {
  // CD1 breaks tb: it is recorded with that kernel and never combined.
  ScriptedSuite suite;
  suite.failing_overlay_word = "CD1";
  ExploreOptions o = options(0.05);
  o.strategy = "nsga2";
  const ExploreResult r = explore(plena(), candidates(), cells(), suite.runner(), o);
  EXPECT_EQ(store_ids(dir), (std::vector<std::string>{"base", "CD0", "CD1", "CD2"}));
  EXPECT_EQ(r.variants[2].failures, (std::vector<std::string>{"tb/C1: fail (\"match 0%\")"}));
  EXPECT_EQ(r.pareto, (std::vector<std::string>{"base", "CD0"}));
}

TEST_F(Explore, BadInputIsNamed) {
  ScriptedSuite suite;
  const auto cands = candidates();
  EXPECT_THROW(explore(plena(), cands, cells(), suite.runner(), options(0)), std::invalid_argument);
  ExploreOptions unknown = options(0.05);
  unknown.strategy = "anneal";
  try {
    explore(plena(), cands, cells(), suite.runner(), unknown);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "unknown strategy 'anneal' (greedy, beam or nsga2)");
  }
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
