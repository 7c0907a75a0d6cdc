// The search agent end to end on a small AIE-ML workload (silu C1) through the real
// toolbox: it must submit a correct kernel (3 trials) faster than the baseline, made of
// compacted bundles.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "agent/providers.h"
#include "agent/toolbox.h"
#include "tests/agent/search/search_driver.h"
#include "isa/aie_ml/program_text.h"

namespace tlmcraft::agent {
namespace {

TEST(AieSearchAgent, SpeedsUpSiluC1WithACorrectCompactedKernel) {
  const test::SearchRun r = test::run_search("aie_ml", "silu", "C1", 4);
  ASSERT_TRUE(r.submitted);
  // The submitted kernel passed 3 trials on fresh seeds and beats the baseline.
  EXPECT_EQ(r.last_evaluation.value("status", ""), "pass") << r.last_evaluation.dump();
  EXPECT_GT(r.last_evaluation.value("speedup", 0.0), 1.0) << r.last_evaluation.dump();
  EXPECT_LT(r.last_evaluation.value("cycles", 0.0), r.last_evaluation.value("baseline_cycles", 0.0));
  // It is built of multi-op bundles (the baseline has one op per bundle in its loop).
  isa::aie_ml::AieKernel k;
  std::string error;
  ASSERT_TRUE(isa::aie_ml::parse_aie_kernel(r.last_code, k, error)) << error;
  size_t multi = 0;
  for (const auto& t : k.tiles)
    for (const auto& l : t.lines) multi += l.kind == isa::aie_ml::AieLine::Kind::Bundle && l.ops.size() > 1;
  EXPECT_GT(multi, 10u);
}

}  // namespace
}  // namespace tlmcraft::agent
