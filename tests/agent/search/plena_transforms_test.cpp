// Each transformation on small kernels: text in, exact text out, and the legality
// checks that refuse a transformation which would break a dependence.
#include <gtest/gtest.h>

#include "platforms/plena/pack/agent/plena_kernel.h"
#include "platforms/plena/pack/agent/plena_transforms.h"
#include "tests/agent/search/plena_test_kernels.h"

namespace tlmcraft::agent::search::plena {
namespace {

TEST(SearchKernel, ParsePrintRoundTripKeepsLoopsCommentsAndHeader) {
  const std::string text =
      "; header line\n"
      "S_ADDI_INT gp2, gp0, 0 ; first row\n"
      "C_LOOP_START gp10, 4 ; rows\n"
      "    V_SUB_VF gp4, gp2, f0, 0, 1\n"
      "    V_RED_SUM f2, gp4, 0\n"
      "    S_ADDI_INT gp2, gp2, 64\n"
      "C_LOOP_END gp10\n";
  const Kernel k = parse(text);
  ASSERT_EQ(k.code.size(), 2u);
  ASSERT_TRUE(k.code[1].is_loop);
  EXPECT_EQ(k.code[1].count, 4);
  EXPECT_EQ(k.code[1].counter, 10);
  // V_RED_SUM's optional rmask at its default 0 is left out; comments align at col 38.
  EXPECT_EQ(print_kernel(k),
            "; header line\n"
            "S_ADDI_INT gp2, gp0, 0               ; first row\n"
            "C_LOOP_START gp10, 4                 ; rows\n"
            "  V_SUB_VF gp4, gp2, f0, 0, 1\n"
            "  V_RED_SUM f2, gp4\n"
            "  S_ADDI_INT gp2, gp2, 64\n"
            "C_LOOP_END gp10\n");
  // 1 + 1 start + 4 * (3 body + 1 end)
  EXPECT_EQ(dynamic_size(k.code), 18u);
  EXPECT_EQ(static_size(k.code), 6u);
}

TEST(SearchKernel, ParseErrorNamesLineAndCause) {
  Kernel k;
  std::string error;
  EXPECT_FALSE(parse_kernel("S_ADDI_INT gp1, gp0, 1\nV_FOO gp1\n", k, error));
  EXPECT_NE(error.find("kernel.asm:2:1: error"), std::string::npos) << error;
}

TEST(SearchUnroll, FullUnrollThenSimplifyPropagatesZeroAndDropsDeadSetUp) {
  Kernel k = parse(
      "S_ADDI_INT gp2, gp0, 0\n"
      "C_LOOP_START gp10, 2\n"
      "V_EXP_V gp2, gp2, 0\n"
      "S_ADDI_INT gp2, gp2, 64\n"
      "C_LOOP_END gp10\n");
  std::string why;
  ASSERT_TRUE(unroll(k, 0, 2, why)) << why;
  EXPECT_EQ(print_kernel(k),
            "S_ADDI_INT gp2, gp0, 0\n"
            "V_EXP_V gp2, gp2, 0\n"
            "S_ADDI_INT gp2, gp2, 64\n"
            "V_EXP_V gp2, gp2, 0\n"
            "S_ADDI_INT gp2, gp2, 64\n");
  // gp2 is known to be 0 in the first copy: its reads become gp0, so the set-up of
  // gp2 = 0 is dead; the last increment is never read (the program ends): 2 removed.
  EXPECT_EQ(simplify(k), 2);
  EXPECT_EQ(print_kernel(k),
            "V_EXP_V gp0, gp0, 0\n"
            "S_ADDI_INT gp2, gp0, 64\n"
            "V_EXP_V gp2, gp2, 0\n");
}

TEST(SearchUnroll, PartialUnrollDividesTheCount) {
  Kernel k = parse(
      "C_LOOP_START gp10, 6\n"
      "V_EXP_V gp2, gp2, 0\n"
      "C_LOOP_END gp10\n");
  std::string why;
  EXPECT_FALSE(unroll(k, 0, 4, why));
  EXPECT_EQ(why, "factor 4 does not divide the count 6");
  ASSERT_TRUE(unroll(k, 0, 3, why)) << why;
  EXPECT_EQ(print_kernel(k),
            "C_LOOP_START gp10, 2\n"
            "  V_EXP_V gp2, gp2, 0\n"
            "  V_EXP_V gp2, gp2, 0\n"
            "  V_EXP_V gp2, gp2, 0\n"
            "C_LOOP_END gp10\n");
}

TEST(SearchUnroll, RefusedWhenTheCounterIsReadAfterTheLoop) {
  // After the loop gp10 is 0 (C_LOOP_END clears it); unrolled, gp10 would keep its old value.
  Kernel k = parse(
      "C_LOOP_START gp10, 2\n"
      "V_EXP_V gp2, gp2, 0\n"
      "C_LOOP_END gp10\n"
      "V_EXP_V gp10, gp10, 0\n");
  std::string why;
  EXPECT_FALSE(unroll(k, 0, 2, why));
  EXPECT_EQ(why, "the counter gp10 is read after the loop");
}

TEST(SearchUnroll, RefusedWhenTheBodyReadsTheCounter) {
  Kernel k = parse(
      "C_LOOP_START gp10, 4\n"
      "V_EXP_V gp10, gp10, 0\n"
      "C_LOOP_END gp10\n");
  std::string why;
  EXPECT_FALSE(unroll(k, 0, 2, why));
  EXPECT_EQ(why, "the body uses the loop counter gp10");
}

TEST(SearchUnroll, RefusedBeyondTheSizeLimit) {
  Kernel k = parse(
      "C_LOOP_START gp10, 100\n"
      "V_EXP_V gp2, gp2, 0\n"
      "C_LOOP_END gp10\n");
  std::string why;
  EXPECT_FALSE(unroll(k, 0, 100, why, 50));
  EXPECT_EQ(why, "the unrolled kernel would have 100 instructions (limit 50)");
}

TEST(SearchSimplify, RemovesRewritesOfTheSameValueAndTheirDeadInputs) {
  Kernel k = parse(
      "S_ADDI_INT gp1, gp0, 64\n"
      "C_SET_STRIDE_REG gp1\n"
      "S_ADDI_INT gp2, gp0, 64\n"
      "C_SET_STRIDE_REG gp2\n"        // STRIDE already 64
      "H_PREFETCH_V gp0, gp0, a0, 1, 0\n"
      "S_ADDI_INT gp1, gp0, 64\n"     // gp1 already 64
      "V_EXP_V gp1, gp1, 0\n");
  // redundant STRIDE set, redundant gp1 set, then gp2's set-up is dead: 3 removed
  EXPECT_EQ(simplify(k), 3);
  EXPECT_EQ(print_kernel(k),
            "S_ADDI_INT gp1, gp0, 64\n"
            "C_SET_STRIDE_REG gp1\n"
            "H_PREFETCH_V gp0, gp0, a0, 1, 0\n"
            "V_EXP_V gp1, gp1, 0\n");
}

TEST(SearchSimplify, SymbolicValuesMatchOnlyWhileTheirInputsAreUnchanged) {
  Kernel k = parse(
      "S_ADD_INT gp1, gp4, gp7\n"
      "M_MM 0, gp1, gp2\n"
      "S_ADD_INT gp1, gp7, gp4\n"     // the same sum: removed
      "M_MM 0, gp1, gp3\n"
      "S_ADDI_INT gp4, gp4, 1\n"
      "S_ADD_INT gp1, gp4, gp7\n"     // gp4 changed: kept
      "M_MM 0, gp1, gp3\n");
  EXPECT_EQ(simplify(k), 1);
  EXPECT_EQ(print_kernel(k),
            "S_ADD_INT gp1, gp4, gp7\n"
            "M_MM 0, gp1, gp2\n"
            "M_MM 0, gp1, gp3\n"
            "S_ADDI_INT gp4, gp4, 1\n"
            "S_ADD_INT gp1, gp4, gp7\n"
            "M_MM 0, gp1, gp3\n");
}

TEST(SearchSimplify, InsideALoopOnlyValuesStableAcrossIterationsCount) {
  // gp2 is incremented each iteration: the first set-up of gp3 from gp2 is not
  // redundant on the second iteration even though it equals gp3's value after the first.
  Kernel k = parse(
      "S_ADDI_INT gp2, gp0, 0\n"
      "C_LOOP_START gp10, 2\n"
      "S_ADDI_INT gp3, gp2, 0\n"
      "V_EXP_V gp3, gp3, 0\n"
      "S_ADDI_INT gp2, gp2, 64\n"
      "C_LOOP_END gp10\n"
      "V_EXP_V gp2, gp2, 0\n");
  EXPECT_EQ(simplify(k), 0);
}

TEST(SearchSimplify, SingleIterationLoopBecomesItsBody) {
  Kernel k = parse(
      "C_LOOP_START gp10, 1\n"
      "V_EXP_V gp2, gp2, 0\n"
      "C_LOOP_END gp10\n");
  EXPECT_EQ(simplify(k), 2);
  EXPECT_EQ(print_kernel(k), "V_EXP_V gp2, gp2, 0\n");
}

TEST(SearchHoist, InvariantSetUpLeavesTheLoopWithRenaming) {
  Kernel k = parse(
      "S_ADDI_INT gp6, gp0, 0\n"
      "S_ADDI_INT gp7, gp0, 0\n"
      "C_LOOP_START gp11, 4\n"
      "S_ADDI_INT gp2, gp6, 0\n"
      "M_MM 0, gp7, gp2\n"
      "S_ADDI_INT gp2, gp6, 512\n"
      "M_MM 0, gp7, gp2\n"
      "M_MM_WO gp7, gp0, 0\n"
      "S_ADDI_INT gp7, gp7, 4\n"
      "C_LOOP_END gp11\n");
  // gp2 is written twice in the body: its first value moves to gp1, the lowest
  // register the kernel does not use; then both set-ups are invariant (gp6 is).
  EXPECT_EQ(hoist_invariants(k, 0), 2);
  EXPECT_EQ(print_kernel(k),
            "S_ADDI_INT gp6, gp0, 0\n"
            "S_ADDI_INT gp7, gp0, 0\n"
            "S_ADDI_INT gp1, gp6, 0\n"
            "S_ADDI_INT gp2, gp6, 512\n"
            "C_LOOP_START gp11, 4\n"
            "  M_MM 0, gp7, gp1\n"
            "  M_MM 0, gp7, gp2\n"
            "  M_MM_WO gp7, gp0, 0\n"
            "  S_ADDI_INT gp7, gp7, 4\n"
            "C_LOOP_END gp11\n");
}

TEST(SearchHoist, RefusedForVariantInputsAndForReadsBeforeTheDefinition) {
  Kernel variant = parse(
      "C_LOOP_START gp11, 2\n"
      "S_ADDI_INT gp2, gp7, 0\n"       // gp7 changes every iteration
      "V_EXP_V gp2, gp2, 0\n"
      "S_ADDI_INT gp7, gp7, 64\n"
      "C_LOOP_END gp11\n");
  EXPECT_EQ(hoist_invariants(variant, 0), 0);
  Kernel read_first = parse(
      "C_LOOP_START gp11, 2\n"
      "V_EXP_V gp2, gp2, 0\n"          // iteration 1 reads gp2's value from before the loop
      "S_ADDI_INT gp2, gp0, 64\n"
      "C_LOOP_END gp11\n");
  EXPECT_EQ(hoist_invariants(read_first, 0), 0);
}

TEST(SearchSchedule, PrefetchAndItsSetUpMoveAboveIndependentCompute) {
  Kernel k = parse(
      "S_ADDI_INT gp1, gp0, 0\n"
      "V_EXP_V gp1, gp1, 0\n"
      "S_ADDI_INT gp2, gp0, 256\n"
      "H_PREFETCH_V gp2, gp0, a0, 0, 0\n"
      "V_EXP_V gp2, gp2, 0\n");
  EXPECT_TRUE(schedule_prefetch_first(k, Arch{}));
  EXPECT_EQ(print_kernel(k),
            "S_ADDI_INT gp2, gp0, 256\n"
            "H_PREFETCH_V gp2, gp0, a0, 0, 0\n"
            "S_ADDI_INT gp1, gp0, 0\n"
            "V_EXP_V gp1, gp1, 0\n"
            "V_EXP_V gp2, gp2, 0\n");
}

TEST(SearchSchedule, PrefetchStaysBelowAReadOfTheRowsItOverwrites) {
  // The prefetch writes VRAM rows 0..255, which the first V_EXP_V reads and writes
  // (row 0): a WAR/WAW dependence, so the prefetch and everything it waits for keep
  // their order; the last V_EXP_V reads what the prefetch wrote.
  const std::string text =
      "S_ADDI_INT gp1, gp0, 0\n"
      "V_EXP_V gp1, gp1, 0\n"
      "S_ADDI_INT gp2, gp0, 0\n"
      "H_PREFETCH_V gp2, gp0, a0, 0, 0\n"
      "V_EXP_V gp2, gp2, 0\n";
  Kernel k = parse(text);
  EXPECT_FALSE(schedule_prefetch_first(k, Arch{}));
  EXPECT_EQ(print_kernel(k), text);
}

}  // namespace
}  // namespace tlmcraft::agent::search::plena
