// The search agent end to end on a small PLENA workload through the real toolbox:
// it must keep only correct kernels and submit one faster than the baseline.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "agent/providers.h"
#include "agent/toolbox.h"
#include "tests/agent/search/search_driver.h"

namespace tlmcraft::agent {
namespace {

TEST(SearchAgent, ImprovesSiluC1SeriallyWithACorrectKernel) {
  const test::SearchRun r = test::run_search("plena", "silu", "C1", 5);
  ASSERT_TRUE(r.submitted);
  // info, at least one search round, the submit round; it may stop early when no
  // untried transformation is left
  EXPECT_GE(r.rounds, 3);
  EXPECT_LE(r.rounds, 5);
  // The submitted kernel was evaluated on fresh seeds (3 trials) right before submit.
  EXPECT_EQ(r.last_evaluation.value("status", ""), "pass") << r.last_evaluation.dump();
  const double cycles = r.last_evaluation.value("cycles", 0.0);
  const double baseline = r.last_evaluation.value("baseline_cycles", 0.0);
  ASSERT_GT(baseline, 0);
  EXPECT_LT(cycles, baseline);
  EXPECT_GT(r.last_evaluation.value("speedup", 0.0), 1.0);
}

}  // namespace
}  // namespace tlmcraft::agent
