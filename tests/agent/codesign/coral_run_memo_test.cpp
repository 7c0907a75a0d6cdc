// The memo of the co-design tools' Coral runs (platforms/coral/pack/agent/coral_run_memo.h):
// a run is taken from it only when everything the run depends on is the same (the built
// image, the task, the platform configuration, the definitions of the added instructions
// the image holds), so an overlay that changes no image costs no simulation and gives the
// shipped ISA's cycles exactly. dotprod C1's shipped C baseline (a scalar multiply-
// accumulate loop) with cmac (mul then add: the peephole places it) and xsub (xor then
// sub: placed nowhere).
#include "platforms/coral/pack/agent/coral_run_memo.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "platforms/coral/pack/agent/coral_dataflow.h"
#include "platforms/coral/pack/agent/coral_kernel_run.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"
#include "tests/agent/codesign/coral_codesign_fixture.h"
#include "tests/unique_temp_dir.h"

namespace tlmcraft::agent::search::coral {
namespace {

namespace fs = std::filesystem;
using codesign::coral_test::cmac_overlay;
using codesign::coral_test::kHardware;
using codesign::coral_test::platform_with;
using codesign::coral_test::xsub_overlay;
using nlohmann::json;

// The memo in a folder of the test's own (the environment is this test process's).
struct MemoDir {
  test::UniqueTempDir dir{"coral-run-memo"};
  MemoDir() { ::setenv("TLMCRAFT_CORAL_RUN_CACHE", dir.path().c_str(), 1); }
  ~MemoDir() { ::unsetenv("TLMCRAFT_CORAL_RUN_CACHE"); }
};

json dotprod_hardware() {
  json h = kHardware;
  h["task"] = "dotprod";
  h["task_config"] = "C1";
  h["file"] = "C1.c";
  return h;
}

std::string dotprod_baseline() {
  const auto inst = tasks::Registry::builtin().instance("dotprod", "coral", "C1");
  return tasks::baseline_kernel(inst, platform_with("")->config());
}

// One run and the simulations it cost.
struct Counted {
  CoralKernelRun run;
  uint64_t simulations = 0;
};

Counted run_counted(const std::string& kernel, const json& hardware, const json& overlay) {
  const uint64_t before = coral_kernel_simulations();
  const bool custom = !overlay.value("instructions", json::array()).empty();
  Counted c;
  c.run = run_coral_kernel(kernel, "C1.c", hardware, custom ? load_overlay_json(overlay) : nullptr, overlay);
  c.simulations = coral_kernel_simulations() - before;
  return c;
}

TEST(CoralRunMemo, AnImageTheOverlayLeavesUnchangedIsTheShippedIsasRun) {
  MemoDir memo;
  const std::string kernel = dotprod_baseline();
  // dotprod C1 on the shipped ISA (tests/baselines/coral_custom_insn_test.cpp derives it from
  // the timing rules): 6 + 255 x 61 + 81 = 15642 cycles. The first run simulates.
  const Counted shipped = run_counted(kernel, dotprod_hardware(), json::object());
  EXPECT_EQ(shipped.simulations, 1u);
  EXPECT_EQ(shipped.run.status, "pass");
  EXPECT_EQ(shipped.run.cycles, 15642.0);
  EXPECT_TRUE(shipped.run.added.empty());
  // xsub is placed nowhere: the same image, so the shipped ISA's run, with no simulation.
  const Counted xsub = run_counted(kernel, dotprod_hardware(), xsub_overlay());
  EXPECT_EQ(xsub.simulations, 0u);
  EXPECT_EQ(xsub.run.cycles, 15642.0);
  EXPECT_EQ(xsub.run.executions, shipped.run.executions);
  EXPECT_EQ(xsub.run.hot_lines, shipped.run.hot_lines);
  EXPECT_TRUE(xsub.run.added.empty());
  // cmac changes the image (one cmac in the loop): simulated, the loop's period the LSU's 56
  // cycles and the tail 6 shorter: 6 + 255 x 56 + 75 = 14361; one cmac word, run once
  // per element (DIM_N = 256), counted by the run itself.
  const Counted cmac = run_counted(kernel, dotprod_hardware(), cmac_overlay());
  EXPECT_EQ(cmac.simulations, 1u);
  EXPECT_EQ(cmac.run.cycles, 14361.0);
  ASSERT_EQ(cmac.run.added.count("cmac"), 1u);
  EXPECT_EQ(cmac.run.added.at("cmac").static_count, 1u);
  EXPECT_EQ(cmac.run.added.at("cmac").executions, 256u);
  // The same image again: memoised, with its uses.
  const Counted again = run_counted(kernel, dotprod_hardware(), cmac_overlay());
  EXPECT_EQ(again.simulations, 0u);
  EXPECT_EQ(again.run.cycles, 14361.0);
  EXPECT_EQ(again.run.added.at("cmac").executions, 256u);
  // The same image bytes with another definition of cmac (latency 9): the key differs, so
  // it is simulated again, and the result is that of a run without the memo.
  json slow = cmac_overlay();
  slow["instructions"][0]["timing"]["latency"] = 9;
  const Counted redefined = run_counted(kernel, dotprod_hardware(), slow);
  EXPECT_EQ(redefined.simulations, 1u);
  ::setenv("TLMCRAFT_CORAL_RUN_CACHE", "0", 1);
  const Counted fresh = run_counted(kernel, dotprod_hardware(), slow);
  EXPECT_EQ(fresh.simulations, 1u);
  EXPECT_EQ(redefined.run.cycles, fresh.run.cycles);
  EXPECT_GT(fresh.run.cycles, 14362.0);  // the loop's chain through cmac is now longer than the LSU's period
}

TEST(CoralRunMemo, AnotherPlatformConfigurationIsSimulatedAgain) {
  MemoDir memo;
  const std::string kernel = dotprod_baseline();
  EXPECT_EQ(run_counted(kernel, dotprod_hardware(), json::object()).simulations, 1u);
  EXPECT_EQ(run_counted(kernel, dotprod_hardware(), json::object()).simulations, 0u);
  // A slower AXI port: the same image, another timing, so a new simulation, and slower
  // (the loop waits for its loads over AXI).
  json slow_axi = dotprod_hardware();
  slow_axi["overrides"] = {"memory.axi.read_latency=80"};
  const Counted slow = run_counted(kernel, slow_axi, json::object());
  EXPECT_EQ(slow.simulations, 1u);
  EXPECT_GT(slow.run.cycles, 15900.0);
}

TEST(CoralRunMemo, EvictionRemovesTheOldestBeyondTheBounds) {
  test::UniqueTempDir dir("coral-run-memo-evict");
  const auto t0 = fs::file_time_type::clock::now();
  for (int i = 0; i < 5; ++i) {  // e0 the oldest, 10 bytes each
    const std::string path = dir.write("e" + std::to_string(i) + ".json", "0123456789");
    fs::last_write_time(path, t0 - std::chrono::hours(5 - i));
  }
  dir.write("notes.txt", "not an entry");
  evict_run_memo(dir.path(), 3, 1000);  // more than 3 entries: e0 and e1 go
  EXPECT_FALSE(fs::exists(dir.file("e0.json")));
  EXPECT_FALSE(fs::exists(dir.file("e1.json")));
  EXPECT_TRUE(fs::exists(dir.file("e2.json")));
  evict_run_memo(dir.path(), 3, 15);  // 30 bytes over a 15-byte bound: e2 and e3 go
  EXPECT_FALSE(fs::exists(dir.file("e3.json")));
  EXPECT_TRUE(fs::exists(dir.file("e4.json")));
  EXPECT_TRUE(fs::exists(dir.file("notes.txt")));
}

}  // namespace
}  // namespace tlmcraft::agent::search::coral
