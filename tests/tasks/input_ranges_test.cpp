// The input-range schedule (tasks/generator.h, docs/tasks.md "Input ranges"): trial 0
// draws from the init, trial k >= 1 from the adversarial range ranges[seed mod count];
// ordinary inputs are the ones the seed always gave (pinned cycles stay valid).
#include <algorithm>
#include <stdexcept>

#include <gtest/gtest.h>

#include "tasks/generator.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks {
namespace {

TEST(InputRanges, SoftmaxScheduleOnPlena) {
  const Instance in = Registry::builtin().instance("softmax", "plena", "C1");
  // spec order in tasks/specs/softmax.yaml
  EXPECT_EQ(in.input_ranges(), (std::vector<std::string>{"large_max", "negative_max", "small_max"}));
  EXPECT_EQ(in.range_for_trial(7, 0), "ordinary");
  EXPECT_EQ(in.range_for_trial(7, 1), "negative_max");  // 7 mod 3 = 1
  EXPECT_EQ(in.range_for_trial(9, 2), "large_max");     // 9 mod 3 = 0
  EXPECT_EQ(in.range_for_trial(11, 1), "small_max");    // 11 mod 3 = 2
}

TEST(InputRanges, PlatformsWithTheirOwnInitHaveTheirOwnRanges) {
  const Registry& reg = Registry::builtin();
  EXPECT_EQ(reg.instance("softmax", "coral", "C1").input_ranges(), (std::vector<std::string>{"negative_max", "small_max"}));
  EXPECT_EQ(reg.instance("softmax", "aie_ml", "C1").input_ranges(),
            (std::vector<std::string>{"high_max", "negative_max", "small_max"}));
  // relu has no ranges: every trial is ordinary
  EXPECT_TRUE(reg.instance("relu", "plena", "C1").input_ranges().empty());
  EXPECT_EQ(reg.instance("relu", "plena", "C1").range_for_trial(5, 2), "ordinary");
}

TEST(InputRanges, OrdinaryIsTheDefaultAndRangesChangeOnlyTheirTensors) {
  const Instance in = Registry::builtin().instance("softmax", "plena", "C1");
  const TensorSet a = in.generate_inputs(4), b = in.generate_inputs(4, "ordinary");
  EXPECT_EQ(a[0].data, b[0].data);
  // large_max: peaks in [190, 215] (stored as MXFP8: 192 or 208), so the maximum is >= 190
  const TensorSet big = in.generate_inputs(4, "large_max");
  EXPECT_GE(*std::max_element(big[0].data.begin(), big[0].data.end()), 190.0);
  // negative_max: every value below -100
  const TensorSet neg = in.generate_inputs(4, "negative_max");
  EXPECT_LT(*std::max_element(neg[0].data.begin(), neg[0].data.end()), -100.0);
  // ordinary peaks lie in [10, 14] (the range the constant-12 cheat relied on)
  EXPECT_LE(*std::max_element(a[0].data.begin(), a[0].data.end()), 14.0);
}

// The agent is told that later trials test the numerics, and which ranges exist.
TEST(InputRanges, TheTaskTextNamesTheRanges) {
  const Registry& reg = Registry::builtin();
  EXPECT_NE(reg.instance("softmax", "plena", "C1").describe().find(
                "The first trial draws ordinary inputs; every later trial draws from one of these input ranges, "
                "chosen to test the numerics: large_max negative_max small_max (docs/tasks.md, \"Input ranges\").\n"),
            std::string::npos);
  EXPECT_EQ(reg.instance("relu", "plena", "C1").describe().find("input ranges"), std::string::npos);
}

TEST(InputRanges, AnUnknownRangeIsRejectedByName) {
  const Instance in = Registry::builtin().instance("softmax", "plena", "C1");
  try {
    in.generate_inputs(1, "huge");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "task 'softmax' has no input range 'huge' on plena");
  }
}

}  // namespace
}  // namespace tlmcraft::tasks
