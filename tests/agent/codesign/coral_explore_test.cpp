// codesign explore on Coral with the real toolchain and ISS: two tasks (dotprod and relu,
// C1, their shipped C baselines) and one candidate, the multiply-accumulate cmac of
// examples/isa_ext/coral/mac.yaml (mul then add). The suite runner evaluates each
// variant's kernels in-process with the variant's overlay (evaluate(), a fresh seed), so
// the kernels are rewritten by the toolchain's peephole pass exactly as `bench
// --isa-ext` rewrites them. The figures are derived by hand below.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "agent/codesign/explorer.h"
#include "harness/evaluate.h"
#include "platforms/coral/coral_config.h"
#include "platforms/coral/coral_platform.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"
#include "tests/agent/codesign/coral_codesign_fixture.h"

namespace tlmcraft::agent::codesign {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using coral_test::cmac_overlay;
using coral_test::kHardware;
using coral_test::platform_with;

// Evaluates DIR/coral/<task>/C1.c of each task with the overlay, one results line each.
SuiteRunner in_process_runner() {
  return [](const std::string& kernels, const std::string& overlay, const std::string& results) {
    std::ofstream out(results);
    for (const char* task : {"dotprod", "relu"}) {
      auto p = platform_with(overlay);
      EvalOptions o;
      o.platform = "coral";
      o.task = task;
      o.config = "C1";
      o.kernel_path = (fs::path(kernels) / "coral" / task / "C1.c").string();
      o.trials = 1;
      o.seed = 20261129;  // fresh inputs, not the miner's seed 1
      o.compare_baseline = false;
      json r = evaluate(*p, o);
      json line = {
          {"task", task}, {"config", "C1"}, {"status", r["status"]}, {"cycles", r["cycles"]}, {"energy", r["energy"]}};
      if (r.contains("added_instructions")) line["added_instructions"] = r["added_instructions"];  // the uses
      out << line.dump() << "\n";
    }
    return results;
  };
}

std::vector<SuiteCell> cells() {
  std::vector<SuiteCell> out;
  for (const char* task : {"dotprod", "relu"}) {
    const auto inst = tasks::Registry::builtin().instance(task, "coral", "C1");
    out.push_back({task, "C1", tasks::baseline_kernel(inst, platform_with("")->config()), ".c"});
  }
  return out;
}

TEST(CoralExplore, OneCandidateOnTwoTasksDerivedByHand) {
  const fs::path dir = fs::temp_directory_path() / ("tlm_coral_explore_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const DataflowAdapter* a = find_dataflow_adapter("coral");
  ASSERT_NE(a, nullptr);
  // Area: a 32-bit multiplier 3495 + adder 137 um2 [H14] and the temp's pipeline register
  // (32 x (4.522 + 1.862) um2) = 3836.288 um2.
  const double area = a->overlay_area(cmac_overlay(), kHardware);
  EXPECT_NEAR(area, 3836.288e-6, 1e-12);
  ExploreOptions o;
  o.platform = "coral";
  o.out_dir = dir.string();
  o.base_area_mm2 = 1.0;
  o.area_budget_mm2 = 0.01;
  o.hardware = kHardware;
  const ExploreResult r = explore(*a, {{"CD0", cmac_overlay(), area}}, cells(), in_process_runner(), o);
  ASSERT_EQ(r.variants.size(), 2u);
  const VariantResult &base = r.variants[0], &cd0 = r.variants[1];
  ASSERT_TRUE(base.ok) << (base.failures.empty() ? "" : base.failures[0]);
  ASSERT_TRUE(cd0.ok) << (cd0.failures.empty() ? "" : cd0.failures[0]);  // the rewritten kernels pass
  // dotprod C1 (tests/baselines/coral_custom_insn_test.cpp derives both from the timing
  // rules): 6 + 255 x 61 + 81 = 15642 cycles; with cmac the loop's period is the
  // LSU's 56 cycles and the tail 6 shorter: 6 + 255 x 56 + 75 = 14361.
  EXPECT_EQ(base.cycles.at("dotprod/C1"), 15642.0);
  EXPECT_EQ(cd0.cycles.at("dotprod/C1"), 14361.0);
  // relu's kernel is vector code without a scalar mul+add: unchanged.
  EXPECT_EQ(cd0.cycles.at("relu/C1"), base.cycles.at("relu/C1"));
  // One cmac in the compiled loop, run once per element: DIM_N = 256.
  ASSERT_EQ(cd0.uses.count("cmac"), 1u);
  EXPECT_EQ(cd0.uses.at("cmac").static_count, 1);
  EXPECT_EQ(cd0.uses.at("cmac").executions, 256u);
  EXPECT_EQ(cd0.used_by.at("cmac"), (std::vector<std::string>{"dotprod/C1"}));
  EXPECT_NEAR(geomean_speedup(base, cd0), std::sqrt(15642.0 / 14361.0), 1e-12);
  // Break-even latency: declared 2 + 1281 cycles saved / 256 executions.
  EXPECT_DOUBLE_EQ(r.summary["instructions"]["CD0"]["break_even_latency"].get<double>(), 2 + 1281.0 / 256);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
