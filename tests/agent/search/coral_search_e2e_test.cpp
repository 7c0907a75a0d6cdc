// The search agent end to end on a small Coral workload (ReLU C1, 512 int8) through the
// real toolbox: the C baseline is transformed at source level, every candidate is
// compiled by clang-16 and evaluated on 3 seeds, and the submitted kernel must be
// correct and faster than the baseline.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "agent/providers.h"
#include "agent/toolbox.h"
#include "tests/agent/search/search_driver.h"

namespace tlmcraft::agent {
namespace {

TEST(CoralSearchAgent, ImprovesReluC1WithACorrectCKernel) {
  // Round 1 reads the task, round 2 evaluates the baseline and 4 candidates, round 3
  // writes, re-evaluates and submits the best one.
  const test::SearchRun r = test::run_search("coral", "relu", "C1", 3);
  ASSERT_TRUE(r.submitted);
  EXPECT_EQ(r.rounds, 3);
  EXPECT_EQ(r.evaluations, 6);
  EXPECT_EQ(r.last_evaluation.value("status", ""), "pass") << r.last_evaluation.dump();
  const double cycles = r.last_evaluation.value("cycles", 0.0);
  const double baseline = r.last_evaluation.value("baseline_cycles", 0.0);
  ASSERT_GT(baseline, 0);
  EXPECT_LT(cycles, baseline);
  EXPECT_GT(r.last_evaluation.value("speedup", 0.0), 1.0);
  // The kept kernel is a source-level transformation of the C baseline: relu_int8's e8m4
  // strip loop (elementwise_int8.c) at LMUL 8 (the first preference: fewer strip iterations).
  EXPECT_NE(r.submitted_code.find("__riscv_vsetvl_e8m8(n - i)"), std::string::npos) << r.submitted_code;
  EXPECT_NE(r.submitted_code.find("int main(void)"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::agent
