// Golden tests of scalar timing rules (branch prediction cases, jalr, the branch dispatch
// rule, external-memory accesses, the divider). Each count was measured on the RTL
// (coral-rtl with `--ext-latency 23 --ext-wlatency 11 --dump <result>:4:out`, the program
// as written here); `rtl_gap` pins the model's value where it differs (docs/FIDELITY.md).
// main is 16-byte aligned and 3 setup instructions + `csrr s0, mcycle` fill the first
// fetch line; the closing csrr dispatches once everything older is complete.
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

// The RTL's count, which the model must give, or the model's documented value.
void expect_rtl(uint32_t model, uint32_t rtl, uint32_t rtl_gap = 0) { EXPECT_EQ(model, rtl_gap ? rtl_gap : rtl) << "RTL " << rtl; }

TEST(CoralScalarTiming, TakenForwardBranchIsMispredicted) {
  // beqz (always taken, forward: predicted not taken): RTL 7 (branch.mispredict_taken 4;
  // a backward branch that falls through costs 4 too, branch.mispredict, but 5 before the
  // csrr closing the calibration loops, branch.csr_after_redirect).
  expect_rtl(measure(program(kSetup, "  beqz zero, 1f\n  nop\n1:\n  addi a0, a0, 1\n")), 7);
  // The penalty comes from branch.mispredict_taken.
  EXPECT_EQ(measure(program(kSetup, "  beqz zero, 1f\n  nop\n1:\n  addi a0, a0, 1\n"), {"scalar.branch.mispredict_taken=9"}), 12u);
}

TEST(CoralScalarTiming, JalIsPredictedAndJalrIsNot) {
  // j forward, in its line and over a line boundary: RTL 4 both (the fetch unit follows
  // the predicted jump when it predecodes its line and had the target in its two-line
  // buffer long before, during the csrr).
  expect_rtl(measure(program(kSetup, "  j 1f\n  nop\n1:\n  addi a0, a0, 1\n")), 4);
  expect_rtl(measure(program(kSetup, "  j 1f\n  nop\n  nop\n  nop\n  nop\n1:\n  addi a0, a0, 1\n")), 4);
  // jr (jalr): the target is known at execute: RTL 7.
  expect_rtl(measure(program("  la t1, 1f\n  li a0, 0\n", "  jr t1\n  nop\n1:\n  addi a0, a0, 1\n")), 7);
}

TEST(CoralScalarTiming, NothingSharesACycleAfterAConditionalBranch) {
  // bnez zero (never taken, predicted not taken), then an addi: RTL 4 (Decode.scala's
  // branchInterlock holds every lane after a conditional branch, whatever its class).
  expect_rtl(measure(program(kSetup, "  bnez zero, 1f\n  addi a0, a0, 1\n1:\n")), 4);
  // A load may not join it either: RTL 7.
  expect_rtl(measure(program(kSetup, "  bnez zero, 1f\n  lw a1, 0(a2)\n1:\n")), 7);
}

TEST(CoralScalarTiming, ExternalMemoryAccessesAreOneTransactionAtATime) {
  // Two independent external loads, one AXI transaction at a time, 1 + 24 + 3 cycles each:
  // RTL 58.
  expect_rtl(measure(program("  li a0, 0\n  li a3, 0x20000000\n  li a1, 0\n", "  lw a4, 0(a3)\n  lw a5, 4(a3)\n")), 58);
  // Two external stores, each waiting for its write response (1 + 12 + 2): RTL 33; the
  // model's closing csrr sees the last store 2 cycles earlier.
  expect_rtl(measure(program("  li a0, 0\n  li a3, 0x20000000\n  li a1, 0\n", "  sw a0, 0(a3)\n  sw a0, 4(a3)\n")), 33, 31);
}

TEST(CoralScalarTiming, DividerLatencyFollowsTheDividend) {
  // 2 cycles + one per bit of |dividend| from one position above its top bit.
  expect_rtl(measure(program("  li a0, 1\n  li a1, 3\n  li a2, 0\n", "  div a2, a0, a1\n")), 6);
  expect_rtl(measure(program("  li a0, 0\n  li a1, 3\n  li a2, 0\n", "  div a2, a0, a1\n")), 6);
  expect_rtl(measure(program("  li a0, -1\n  li a1, 3\n  li a2, 0\n", "  div a2, a0, a1\n")), 6);
  expect_rtl(measure(program("  li a0, 1500\n  li a1, 3\n  li a2, 0\n", "  div a2, a0, a1\n")), 16);
  expect_rtl(measure(program("  li a0, 8191\n  li a1, 3\n  li a2, 0\n", "  div a2, a0, a1\n")), 18);
  expect_rtl(measure(program("  li a0, -1\n  li a1, 3\n  li a2, 0\n", "  divu a2, a0, a1\n")), 36);
  // Division by zero: RTL 36.
  expect_rtl(measure(program("  li a0, 1\n  li a1, 0\n  li a2, 0\n", "  rem a2, a0, a1\n")), 36);
}

TEST(CoralScalarTiming, DivideIterationCount) {
  EXPECT_EQ(CoreTiming::divider_iterations(0, 3, true), 2u);
  EXPECT_EQ(CoreTiming::divider_iterations(1, 3, true), 2u);
  EXPECT_EQ(CoreTiming::divider_iterations(8191, 3, true), 14u);
  EXPECT_EQ(CoreTiming::divider_iterations(8192, 3, true), 15u);
  EXPECT_EQ(CoreTiming::divider_iterations(24182, 8173822, false), 16u);  // the divisor does not matter
  EXPECT_EQ(CoreTiming::divider_iterations(0x40000000u, 3, true), 32u);
  EXPECT_EQ(CoreTiming::divider_iterations(0x80000000u, 3, false), 32u);
  EXPECT_EQ(CoreTiming::divider_iterations(5, 0, false), 32u);
}

}  // namespace
}  // namespace tlmcraft::coral
