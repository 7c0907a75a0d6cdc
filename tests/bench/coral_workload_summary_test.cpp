// The fidelity campaign's task-kernel parts: reading DIR/<task>/<config>/ and the per-workload
// summary of the search agent's versions (bench/coral_fidelity/task_kernels.*, workload_summary.*).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "bench/coral_fidelity/task_kernels.h"
#include "bench/coral_fidelity/workload_summary.h"
#include "tests/unique_temp_dir.h"

namespace tlmcraft::bench {
namespace {

std::vector<CaseResult> gemm_c1() {
  return {{"task", "gemm/C1", 1000, 1100},
          {"agent", "gemm/C1/v1.c", 1000, 1100},  // the baseline's text
          {"agent", "gemm/C1/v2.c", 400, 500},
          {"agent", "gemm/C1/v3.c", 450, 440},
          {"agent", "relu/C2/v1.c", 90, 100}};  // no relu/C2 baseline result: left out
}

TEST(CoralWorkloadSummary, ComparesTheModelsBestWithTheRtlsBest) {
  const std::vector<WorkloadSummary> ws = summarise_workloads(gemm_c1(), "agent");
  ASSERT_EQ(ws.size(), 1u);
  const WorkloadSummary& w = ws[0];
  EXPECT_EQ(w.workload, "gemm/C1");
  EXPECT_EQ(w.versions, 3u);
  EXPECT_EQ(w.model_best, "v2.c");          // 400 model cycles, the fewest
  EXPECT_DOUBLE_EQ(w.model_speedup, 2.5);   // 1000 / 400
  EXPECT_DOUBLE_EQ(w.rtl_speedup, 2.2);     // 1100 / 500, the same kernel on the RTL
  EXPECT_FALSE(w.same_best);                // the RTL's best is v3 (440)
  EXPECT_DOUBLE_EQ(w.rtl_best_gain, 0.12);  // (500 - 440) / 500
}

// Equal model cycles: the agent submits the version it evaluated first (best_correct keeps
// the first of equally fast ones), v2 before v10, though "v10.c" sorts before "v2.c" as text.
TEST(CoralWorkloadSummary, OnEqualModelCyclesTheEarliestVersionIsTheModelsBest) {
  const std::vector<CaseResult> results = {{"task", "relu/C1", 1464, 1445},
                                           {"agent", "relu/C1/v10.c", 1448, 1434},
                                           {"agent", "relu/C1/v2.c", 1448, 1433},
                                           {"agent", "relu/C1/v9.c", 1450, 1440}};
  const std::vector<WorkloadSummary> ws = summarise_workloads(results, "agent");
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(ws[0].model_best, "v2.c");
  EXPECT_TRUE(ws[0].same_best);  // v2's 1433 is the RTL's fewest
  EXPECT_DOUBLE_EQ(ws[0].rtl_best_gain, 0.0);
  EXPECT_EQ(version_number("relu/C1/v10.c"), 10u);
  EXPECT_EQ(version_number("relu/C1/baseline.c"), UINT64_MAX);
}

// Two versions with the RTL's fewest cycles: the model's pick is one of them, so it is the RTL's best.
TEST(CoralWorkloadSummary, ATieOnTheRtlCountsAsTheRtlsBest) {
  const std::vector<CaseResult> results = {
      {"task", "gemm/C1", 1000, 1000}, {"agent", "gemm/C1/v2.c", 500, 450}, {"agent", "gemm/C1/v3.c", 510, 450}};
  const std::vector<WorkloadSummary> ws = summarise_workloads(results, "agent");
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(ws[0].model_best, "v2.c");
  EXPECT_TRUE(ws[0].same_best);
}

// v4 is the same program as v2 (equal hash of what the RTL sees): it counts once, as v2.
// Versions of other workloads and results of other kinds are kept whatever their hash.
TEST(CoralWorkloadSummary, VersionsThatAreTheSameProgramCountOnce) {
  const std::vector<CaseResult> results = {
      {"task", "gemm/C1", 1000, 1100, true, 7},     {"agent", "gemm/C1/v4.c", 400, 500, true, 7},
      {"agent", "gemm/C1/v2.c", 400, 500, true, 7}, {"agent", "gemm/C1/v3.c", 450, 440, true, 8},
      {"agent", "gemm/C1/v5.c", 460, 470, true, 0},  // hash unknown: kept
      {"agent", "gemm/C1/v6.c", 460, 470, true, 0}, {"agent", "gemm/C2/v9.c", 400, 500, true, 7}};
  const std::vector<CaseResult> distinct = distinct_versions(results, "agent");
  ASSERT_EQ(distinct.size(), 6u);
  EXPECT_EQ(distinct[0].name, "gemm/C1");
  EXPECT_EQ(distinct[1].name, "gemm/C1/v2.c");  // the input order is kept
  EXPECT_EQ(distinct[2].name, "gemm/C1/v3.c");
  EXPECT_EQ(distinct[5].name, "gemm/C2/v9.c");
  const std::vector<WorkloadSummary> ws = summarise_workloads(distinct, "agent");
  ASSERT_EQ(ws.size(), 1u);  // no gemm/C2 baseline
  EXPECT_EQ(ws[0].versions, 4u);
  EXPECT_EQ(ws[0].model_best, "v2.c");
}

TEST(CoralWorkloadSummary, RegroupsVersionsByTaskAndKindOfTask) {
  const std::vector<CaseResult> tasks = by_task(gemm_c1(), "agent");
  ASSERT_EQ(tasks.size(), 4u);  // the baseline result is not a version
  EXPECT_EQ(tasks[0].kind, "gemm");
  EXPECT_EQ(tasks[3].kind, "relu");
  const std::vector<CaseResult> families = by_family(gemm_c1(), "agent");
  EXPECT_EQ(families[0].kind, "gemm-like");
  EXPECT_EQ(families[3].kind, "elementwise");
  EXPECT_EQ(task_family("depthwise_conv"), "conv");
  EXPECT_EQ(task_family("softmax"), "normalisation");
  EXPECT_EQ(task_family("dhrystone"), "cpu");
}

TEST(CoralTaskKernels, ReadsTaskConfigDirectoriesAndRefusesOtherNames) {
  const tlmcraft::test::UniqueTempDir tmp("coral_task_kernels");
  const std::filesystem::path root(tmp.path());
  std::filesystem::create_directories(root / "relu" / "C1");
  std::ofstream(root / "relu" / "C1" / "v2.c") << "int main(void) { return 0; }\n";
  std::ofstream(root / "relu" / "C1" / "notes.txt") << "not a kernel\n";
  const std::vector<FidelityCase> cases = task_kernel_cases(root.string(), "agent");
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].name, "relu/C1/v2.c");
  EXPECT_EQ(cases[0].task, "relu");
  EXPECT_EQ(cases[0].config, "C1");
  EXPECT_EQ(cases[0].source, "int main(void) { return 0; }\n");

  std::filesystem::create_directories(root / "nosuchtask" / "C1");
  try {
    task_kernel_cases(root.string(), "agent");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              (root / "nosuchtask").string() + ": not a task name (expected DIR/<task>/<config>)");
  }
}

}  // namespace
}  // namespace tlmcraft::bench
