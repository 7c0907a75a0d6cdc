// Golden tests of the scalar timing rules not covered by the RTL table (branch
// prediction cases, jalr, the branch dispatch rule, external-memory accesses), counts
// derived by hand from docs/platforms/coral.md. As in the calibration programs, main is
// 16-byte aligned and 3 setup instructions + `csrr s0, mcycle` fill the first fetch line;
// D = that csrr's cycle, the next instruction dispatches at D+1, the closing csrr
// dispatches once everything older is complete.
#include <string>

#include "tests/platforms/coral_test_util.h"

namespace tlmcraft::coral {
namespace {

using testing::build;
using testing::read_u32;
using testing::symbol;

std::string program(const std::string& setup, const std::string& body) {
  return "  .text\n  .globl main\n  .balign 16\nmain:\n" + setup + "  csrr s0, mcycle\n" + body +
         "  csrr s1, mcycle\n  sub a0, s1, s0\n  la t0, result\n  sw a0, 0(t0)\n  ret\n"
         "  .data\n  .balign 16\nresult: .word 0\nbuf: .word 1, 2, 3, 4\n";
}

uint32_t measure(const std::string& source, const std::vector<std::string>& overrides = {}) {
  CoralPlatform p = testing::make_platform(overrides);
  const isa::Program prog = build(p, source);
  p.load(prog);
  const RunResult r = p.run({}, {});
  EXPECT_TRUE(r.ok()) << r.message;
  return read_u32(p, symbol(prog, "result"));
}

const char* kSetup = "  li a0, 0\n  la a2, buf\n";  // 3 instructions

TEST(CoralScalarTiming, TakenForwardBranchIsMispredicted) {
  // beqz (always taken, forward: predicted not taken) at D+1: next at D+6; the addi is
  // complete at D+8.
  EXPECT_EQ(measure(program(kSetup, "  beqz zero, 1f\n  nop\n1:\n  addi a0, a0, 1\n")), 8u);
  // The penalty comes from branch.mispredict.
  EXPECT_EQ(measure(program(kSetup, "  beqz zero, 1f\n  nop\n1:\n  addi a0, a0, 1\n"), {"scalar.branch.mispredict=9"}), 12u);
}

TEST(CoralScalarTiming, JalIsPredictedAndJalrIsNot) {
  // j at D+1 (offset 16) to offset 24, the same fetch line: addi at D+2, complete D+4.
  EXPECT_EQ(measure(program(kSetup, "  j 1f\n  nop\n1:\n  addi a0, a0, 1\n")), 4u);
  // Over a line boundary (target at offset 36): +2, addi at D+3, complete D+5.
  EXPECT_EQ(measure(program(kSetup, "  j 1f\n  nop\n  nop\n  nop\n  nop\n1:\n  addi a0, a0, 1\n")), 5u);
  // jr (jalr) at D+1: the target is known at execute, +5: addi at D+6, complete D+8.
  EXPECT_EQ(measure(program("  la t1, 1f\n  li a0, 0\n", "  jr t1\n  nop\n1:\n  addi a0, a0, 1\n")), 8u);
}

TEST(CoralScalarTiming, OnlyAluAndBranchShareACycleWithABranch) {
  // bnez zero (never taken, predicted not taken) at D+1, addi joins it: complete D+3.
  EXPECT_EQ(measure(program(kSetup, "  bnez zero, 1f\n  addi a0, a0, 1\n1:\n")), 3u);
  // A load may not join it: lw at D+2, data at D+6.
  EXPECT_EQ(measure(program(kSetup, "  bnez zero, 1f\n  lw a1, 0(a2)\n1:\n")), 6u);
}

TEST(CoralScalarTiming, ExternalMemoryAccessesHoldTheLsu) {
  // Two independent loads from external memory: the first at D+1, data at D+1+24+1 =
  // D+26, holding the LSU until then; the second at D+26, data at D+51.
  EXPECT_EQ(measure(program("  li a0, 0\n  li a3, 0x20000000\n  li a1, 0\n", "  lw a4, 0(a3)\n  lw a5, 4(a3)\n")), 51u);
  // A store: one beat, complete at D+1+1+12 = D+14; the next store waits for the LSU
  // interval (2): D+3, complete D+16.
  EXPECT_EQ(measure(program("  li a0, 0\n  li a3, 0x20000000\n  li a1, 0\n", "  sw a0, 0(a3)\n  sw a0, 4(a3)\n")), 16u);
}

TEST(CoralScalarTiming, DividerLatencyFollowsTheDividend) {
  // div at D+1 with dividend 1 (1 bit: 2 iterations): done D+1+3+2 = D+6.
  EXPECT_EQ(measure(program("  li a0, 1\n  li a1, 3\n  li a2, 0\n", "  div a2, a0, a1\n")), 6u);
  // dividend -1 (magnitude 1) with div: the same; with divu (bit 31 set): 32 iterations.
  EXPECT_EQ(measure(program("  li a0, -1\n  li a1, 3\n  li a2, 0\n", "  div a2, a0, a1\n")), 6u);
  EXPECT_EQ(measure(program("  li a0, -1\n  li a1, 3\n  li a2, 0\n", "  divu a2, a0, a1\n")), 36u);
  // Division by zero runs the full 32 iterations: D+36.
  EXPECT_EQ(measure(program("  li a0, 1\n  li a1, 0\n  li a2, 0\n", "  rem a2, a0, a1\n")), 36u);
}

TEST(CoralScalarTiming, DivideIterationCount) {
  EXPECT_EQ(CoreTiming::divider_iterations(0, 3, true), 2u);
  EXPECT_EQ(CoreTiming::divider_iterations(1, 3, true), 2u);
  EXPECT_EQ(CoreTiming::divider_iterations(8191, 3, true), 14u);
  EXPECT_EQ(CoreTiming::divider_iterations(8192, 3, true), 15u);
  EXPECT_EQ(CoreTiming::divider_iterations(0x40000000u, 3, true), 32u);
  EXPECT_EQ(CoreTiming::divider_iterations(0x80000000u, 3, false), 32u);
  EXPECT_EQ(CoreTiming::divider_iterations(5, 0, false), 32u);
}

}  // namespace
}  // namespace tlmcraft::coral
