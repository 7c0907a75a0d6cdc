// simd_accel's search-agent transformations on kernel text: unrolling an innermost loop,
// exact text out, the refusals, and the candidates' ranking by executed instructions.
#include <gtest/gtest.h>

#include "search.h"

namespace simd_accel {
namespace {

const std::vector<std::string> kRelu = {
    "S_LI s4, 0          ; scratchpad offset",
    "LOOP s10, 16",
    "V_LD v1, s4",
    "V_RELU v1, v1",
    "V_ST v1, s4",
    "S_ADDI s4, s4, 32",
    "LOOP_END s10",
};

TEST(SimdSearch, UnrollsTheLoopBodyUnderFewerIterations) {
  const auto loops = innermost_loops(kRelu);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].start, 1u);
  EXPECT_EQ(loops[0].end, 6u);
  EXPECT_EQ(loops[0].counter, "s10");
  EXPECT_EQ(loops[0].count, 16);
  std::string out, why;
  ASSERT_TRUE(unroll_loop(kRelu, loops[0], 2, 4096, out, why)) << why;
  EXPECT_EQ(out,
            "S_LI s4, 0          ; scratchpad offset\n"
            "LOOP s10, 8\n"
            "V_LD v1, s4\nV_RELU v1, v1\nV_ST v1, s4\nS_ADDI s4, s4, 32\n"
            "V_LD v1, s4\nV_RELU v1, v1\nV_ST v1, s4\nS_ADDI s4, s4, 32\n"
            "LOOP_END s10\n");
}

TEST(SimdSearch, RefusesACounterReadInTheBodyAFactorThatDoesNotDivideAndTheSizeLimit) {
  std::vector<std::string> reads_counter = kRelu;
  reads_counter[5] = "S_ADD s4, s4, s10";
  const auto loops = innermost_loops(reads_counter);
  std::string out, why;
  EXPECT_FALSE(unroll_loop(reads_counter, loops[0], 2, 4096, out, why));
  EXPECT_EQ(why, "the body names the counter s10 (line 6)");
  EXPECT_FALSE(unroll_loop(kRelu, innermost_loops(kRelu)[0], 3, 4096, out, why));
  EXPECT_EQ(why, "factor 3 does not divide the 16 iterations");
  EXPECT_FALSE(unroll_loop(kRelu, innermost_loops(kRelu)[0], 8, 20, out, why));
  EXPECT_EQ(why, "35 instructions, more than the limit 20");
}

TEST(SimdSearch, OnlyInnermostLoopsAndUnbalancedKernelsGiveNone) {
  const std::vector<std::string> nested = {"LOOP s10, 4", "LOOP s11, 2", "V_ADD v1, v1, v2", "LOOP_END s11",
                                           "LOOP_END s10"};
  const auto loops = innermost_loops(nested);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].counter, "s11");
  EXPECT_TRUE(innermost_loops({"LOOP s10, 4", "V_ADD v1, v1, v2"}).empty());
  EXPECT_TRUE(innermost_loops({"LOOP s10, 4", "LOOP_END s11"}).empty());
}

TEST(SimdSearch, CandidatesRankedByExecutedInstructions) {
  std::string parent;
  for (const auto& line : kRelu) parent += line + "\n";
  tlmcraft::agent::search::SearchContext context;
  const auto candidates = simd_candidates(parent, context);
  // Executed instructions: 2 + 16 * 5 = 82 for the parent; x2: 2 + 8 * 9 = 74;
  // x4: 2 + 4 * 17 = 70; x8: 2 + 2 * 33 = 68.
  ASSERT_EQ(candidates.size(), 3u);
  EXPECT_EQ(candidates[0].name, "unroll loop 0 x8");
  EXPECT_EQ(candidates[0].estimate, 68);
  EXPECT_EQ(candidates[1].name, "unroll loop 0 x4");
  EXPECT_EQ(candidates[1].estimate, 70);
  EXPECT_EQ(candidates[2].name, "unroll loop 0 x2");
  EXPECT_EQ(candidates[2].estimate, 74);
}

}  // namespace
}  // namespace simd_accel
