// The composed-instruction matcher on hand-written op lists; each expectation
// follows from the rules in isa/dataflow/pattern_match.h.
#include "isa/dataflow/pattern_match.h"

#include <gtest/gtest.h>

#include "ops_text.h"

namespace tlmcraft::isa::dataflow {
namespace {
using testing::ops;
using testing::step;

// mac out, a, b, c = (a * b) + c, through the temporary t0.
Pattern mac() {
  Pattern p;
  p.name = "mac";
  p.inputs = {"a", "b", "c"};
  p.outputs = {"out"};
  p.temps = {"t0"};
  p.steps = {step("mul w:t0 r:a r:b"), step("add w:out r:t0 r:c")};
  return p;
}

TEST(PatternMatch, RenamedRegistersMatch) {
  auto m = find_matches(ops({"mul w:x5 r:x1 r:x2", "add w:x6 r:x5 r:x3"}), mac());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].ops, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(m[0].storage.at("a"), "x1");
  EXPECT_EQ(m[0].storage.at("c"), "x3");
  EXPECT_EQ(m[0].storage.at("out"), "x6");
}

TEST(PatternMatch, IndependentOpInBetweenIsAllowed) {
  auto m = find_matches(ops({"mul w:x5 r:x1 r:x2", "sub w:x9 r:x8 r:x7", "add w:x6 r:x5 r:x3"}), mac());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].ops, (std::vector<size_t>{0, 2}));
}

TEST(PatternMatch, OpBetweenThatReadsTheTemporaryBlocks) {
  EXPECT_TRUE(find_matches(ops({"mul w:x5 r:x1 r:x2", "sub w:x9 r:x5 r:x7", "add w:x6 r:x5 r:x3"}), mac()).empty());
}

TEST(PatternMatch, OpBetweenThatWritesAnInputBlocks) {
  // The addi changes x1 after the mul read it: placed at the add, the fused
  // instruction would read the new x1.
  EXPECT_TRUE(find_matches(ops({"mul w:x5 r:x1 r:x2", "addi w:x1 r:x1 #1", "add w:x6 r:x5 r:x3"}), mac()).empty());
}

TEST(PatternMatch, TemporaryLiveAfterwardsBlocks) {
  EXPECT_TRUE(find_matches(ops({"mul w:x5 r:x1 r:x2", "add w:x6 r:x5 r:x3", "sw r:x5 r:x2"}), mac()).empty());
  // Overwritten before any read: dead, so it matches.
  EXPECT_EQ(find_matches(ops({"mul w:x5 r:x1 r:x2", "add w:x6 r:x5 r:x3", "li w:x5 #0", "sw r:x5 r:x2"}), mac()).size(),
            1u);
}

TEST(PatternMatch, TemporaryReadAroundALoopIsLive) {
  // Op 3 jumps back to op 0, whose first read of x5 sees the mul's value.
  auto kernel = ops({"sw r:x5 r:x2", "mul w:x5 r:x1 r:x2", "add w:x6 r:x5 r:x3", "bnez r:x6 jump:0"});
  kernel[3].barrier = true;
  EXPECT_TRUE(find_matches(kernel, mac()).empty());
}

TEST(PatternMatch, InPlaceCodeMatchesWithAliasedOperands) {
  // mul x1, x1, x2; add x1, x1, x3: the fused "mac x1, x1, x2, x3" reads x1
  // before writing it, so it computes the same.
  auto m = find_matches(ops({"mul w:x1 r:x1 r:x2", "add w:x1 r:x1 r:x3"}), mac());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].storage.at("a"), "x1");
  EXPECT_EQ(m[0].storage.at("out"), "x1");
}

TEST(PatternMatch, InputOverwrittenByAnEarlierStepBlocks) {
  // add x6, x3, x3 reads x3 as t0 and as the input c, but the mul overwrote c
  // first.
  EXPECT_TRUE(find_matches(ops({"mul w:x3 r:x1 r:x2", "add w:x6 r:x3 r:x3"}), mac()).empty());
}

TEST(PatternMatch, BarrierBetweenBlocks) {
  EXPECT_TRUE(find_matches(ops({"mul w:x5 r:x1 r:x2", "| ", "add w:x6 r:x5 r:x3"}), mac()).empty());
}

TEST(PatternMatch, IndependentStepsInAnotherOrderMatch) {
  Pattern p;
  p.inputs = {"a", "b", "c", "d"};
  p.outputs = {"out"};
  p.temps = {"t0", "t1"};
  p.steps = {step("mul w:t0 r:a r:b"), step("mul w:t1 r:c r:d"), step("add w:out r:t0 r:t1")};
  auto m = find_matches(ops({"mul w:x6 r:x3 r:x4", "mul w:x5 r:x1 r:x2", "add w:x7 r:x5 r:x6"}), p);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].storage.at("a"), "x1");
  EXPECT_EQ(m[0].storage.at("c"), "x3");
}

TEST(PatternMatch, LiteralsAndParameters) {
  Pattern p;
  p.inputs = {"a"};
  p.outputs = {"out"};
  p.temps = {"t0"};
  p.parameters = {"mask"};
  p.steps = {step("exp w:t0 r:a $mask"), step("reci w:out r:t0 $mask")};
  auto kernel = ops({"exp w:v1 r:v0 #1", "reci w:v2 r:v1 #1", "exp w:v1 r:v0 #1", "reci w:v2 r:v1 #0"});
  auto m = find_matches(kernel, p);
  ASSERT_EQ(m.size(), 1u);  // the second pair disagrees on the mask
  EXPECT_EQ(m[0].text.at("mask"), "1");
}

TEST(PatternMatch, MatchesDoNotOverlapAndAreAllFound) {
  auto m = find_matches(ops({"mul w:x5 r:x1 r:x2", "add w:x6 r:x5 r:x3", "mul w:x5 r:x6 r:x2", "add w:x7 r:x5 r:x3"}),
                        mac());
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[1].ops, (std::vector<size_t>{2, 3}));
}

TEST(PatternMatch, BadPatternsAreNamed) {
  Pattern p = mac();
  p.steps.push_back(step("add w:a r:zz r:t9"));
  const auto problems = check_pattern(p);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0], "step 3 (add): input 'a' is written");
  EXPECT_EQ(problems[1], "step 3 (add): 'zz' is not an input, output or temporary");
  EXPECT_EQ(problems[2], "step 3 (add): 't9' is not an input, output or temporary");
}

// A fixed input (a register the steps name directly) binds only to that storage: of two
// otherwise equal mac sequences only the one adding x3 matches; a fixed name that is not
// an input is a problem of the pattern.
TEST(PatternMatch, FixedInputBindsOnlyItsStorage) {
  Pattern p = mac();
  p.fixed = {{"c", "x3"}};
  auto m = find_matches(ops({"mul w:x5 r:x1 r:x2", "add w:x6 r:x5 r:x4", "mul w:x5 r:x1 r:x2", "add w:x7 r:x5 r:x3"}),
                        p);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].ops, (std::vector<size_t>{2, 3}));
  p.fixed = {{"t0", "x5"}};
  EXPECT_EQ(check_pattern(p), (std::vector<std::string>{"fixed name 't0' is not an input"}));
}

}  // namespace
}  // namespace tlmcraft::isa::dataflow

namespace tlmcraft::isa::dataflow {
namespace {

// shft d, s then d's register a += 64: the row d is reached through a (post-increment).
Pattern shift_post_increment() {
  Pattern p;
  p.name = "shftpi";
  p.inputs = {"s", "a"};
  p.outputs = {"d", "a"};  // a: read and written
  p.steps = {testing::step("shft w:d r:s"), testing::step("addi w:a r:a #64")};
  p.steps[0].operands[0].address = "a";
  return p;
}

// The kernel steps the source register a1 between the shift and a2's increment: at the
// last step's place the shift would read the next source row, so only a caller that
// places at Match::at (place_first) gets the match, at the first step.
TEST(PatternMatch, PostIncrementIsPlacedFirstWhenAnInterleavedOpChangesAnAddress) {
  auto k = testing::ops({"shft w:row2 r:row1", "addi w:a1 r:a1 #64", "addi w:a2 r:a2 #64"});
  k[0].operands[0].address = "a2";
  k[0].operands[1].address = "a1";
  EXPECT_TRUE(find_matches(k, shift_post_increment()).empty());
  MatchLimits first;
  first.place_first = true;
  const auto m = find_matches(k, shift_post_increment(), first);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].ops, (std::vector<size_t>{0, 2}));
  EXPECT_EQ(m[0].at, 0u);
  EXPECT_EQ(m[0].storage.at("a"), "a2");
  EXPECT_EQ(m[0].storage.at("d"), "row2");
  // The increment of another register than the one addressing d does not match.
  k[0].operands[0].address = "a3";
  EXPECT_TRUE(find_matches(k, shift_post_increment(), first).empty());
}

}  // namespace
}  // namespace tlmcraft::isa::dataflow
