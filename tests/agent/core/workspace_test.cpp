// The workspace: numbered versions that survive a restart, atomic writes, best-so-far.
#include <gtest/gtest.h>

#include <filesystem>

#include "agent/workspace.h"
#include "test_support.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

const Workload kW{"plena", "silu", "C1"};

json passing(uint64_t cycles) { return {{"status", "pass"}, {"cycles", cycles}, {"baseline_cycles", 140}, {"speedup", 140.0 / cycles}}; }

TEST(Workspace, VersionsAreNumberedAndContinueAfterARestart) {
  test::TempDir dir("ws");
  {
    Workspace ws(dir.str());
    EXPECT_FALSE(ws.current(kW).has_value());
    EXPECT_EQ(ws.write_version(kW, "a\n").number, 1);
    const KernelVersion v2 = ws.write_version(kW, "b\n", "c");
    EXPECT_EQ(v2.number, 2);
    EXPECT_EQ(v2.path, dir / "silu_plena_C1/v002.c");
  }
  Workspace again(dir.str());  // a resumed run: nothing is overwritten
  const KernelVersion v3 = again.write_version(kW, "c\n");
  EXPECT_EQ(v3.number, 3);
  EXPECT_EQ(test::read_file(dir / "silu_plena_C1/v001.asm"), "a\n");
  EXPECT_EQ(test::read_file(dir / "silu_plena_C1/v002.c"), "b\n");
  const auto all = again.versions(kW);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[1].extension, "c");
  EXPECT_EQ(again.current(kW)->number, 3);
  EXPECT_EQ(again.read_version(all[2]), "c\n");
  EXPECT_THROW(again.write_version(kW, "x", "py"), std::invalid_argument);
}

TEST(Workspace, AtomicWritesLeaveNoTemporaryFilesAndReplaceWholeFiles) {
  test::TempDir dir("atomic");
  const std::string p = dir / "f.txt";
  write_file_atomic(p, "first version, longer\n");
  write_file_atomic(p, "second\n");
  EXPECT_EQ(test::read_file(p), "second\n");
  size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.str())) ++entries, (void)e;
  EXPECT_EQ(entries, 1u);  // no ".f.txt.tmp.<pid>" left behind
  // A write that cannot happen throws and leaves the old file alone.
  EXPECT_THROW(write_file_atomic(dir / "missing-dir/f.txt", "x"), std::runtime_error);
  EXPECT_EQ(test::read_file(p), "second\n");
}

TEST(Workspace, StrayTemporaryFilesFromACrashAreNotVersions) {
  test::TempDir dir("stray");
  Workspace ws(dir.str());
  ws.write_version(kW, "a");
  // What a crash between create and rename leaves: a hidden temporary file.
  std::ofstream(dir / "silu_plena_C1/.v002.asm.tmp.999") << "partial";
  EXPECT_EQ(ws.versions(kW).size(), 1u);
  EXPECT_EQ(ws.write_version(kW, "b").number, 2);
}

TEST(Workspace, ReportsEvaluationLogAndBest) {
  test::TempDir dir("best");
  Workspace ws(dir.str());
  const auto v1 = ws.write_version(kW, "one");
  const auto v2 = ws.write_version(kW, "two");
  const auto v3 = ws.write_version(kW, "three");
  EXPECT_EQ(ws.evaluations(kW), 0);
  ws.store_report(kW, 1, {{"status", "fail"}});
  EXPECT_FALSE(ws.offer_best(kW, v1, {{"status", "fail"}}));
  EXPECT_FALSE(ws.best(kW).has_value());
  ws.store_report(kW, 2, passing(120));
  EXPECT_TRUE(ws.offer_best(kW, v2, passing(120)));
  ws.store_report(kW, 3, passing(120));
  EXPECT_FALSE(ws.offer_best(kW, v3, passing(120)));  // a tie keeps the earlier version
  EXPECT_EQ(ws.best(kW)->value("version", 0), 2);
  EXPECT_TRUE(ws.offer_best(kW, v3, passing(100)));
  EXPECT_EQ(ws.best(kW)->value("cycles", 0), 100);
  EXPECT_EQ(test::read_file(dir / "silu_plena_C1/best.asm"), "three");
  EXPECT_EQ(ws.evaluations(kW), 3);
  const auto last = ws.last_report(kW);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->first, 3);
  EXPECT_EQ(ws.report(kW, 1)->value("status", ""), "fail");
  ws.mark_submitted(kW, 3, "pass");
  EXPECT_EQ(ws.submitted(kW)->value("version", 0), 3);
  ws.write_metadata(kW, {{"k", 1}});
  EXPECT_EQ(test::read_file(dir / "silu_plena_C1/run.json"), "{\n \"k\": 1\n}\n");
}

}  // namespace
}  // namespace tlmcraft::agent
