// Golden tests: the loops of the Coral RTL calibration table, each count measured on the
// RTL itself (coral-rtl, ../shared/oracles/coral-rtl: the program as built here, run with
// `--ext-latency 23 --ext-wlatency 11 --dump <result>:4:out`). Each micro-program reads
// mcycle before and after its loop and stores the difference in DTCM; the test compares
// that number with the RTL's. Where the RTL disagreed with the first-orientation table in
// ../shared/platforms/coral.md (the dependent mul and fadd loops, 2005 not 4001), the RTL
// is what is pinned.
//
// Layout shared by all programs: main is 16-byte aligned, a 3- or 7-instruction setup and
// `csrr s0, mcycle` fill whole fetch lines, so the loop starts on a line boundary.
// Derivations use the rules of docs/platforms/coral.md with D = the cycle of the first
// csrr: the next instruction dispatches at D+1; the second csrr waits until everything
// older is complete; a backward branch that falls through is mispredicted (+4), and a CSR
// access as the first instruction there takes a cycle more: the closing csrr at +5.
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
         "  .data\n  .balign 16\nresult: .word 0\nsrc: .rept 200\n  .word 7\n  .endr\ndst: .space 800\n";
}

uint32_t measure(const std::string& source) {
  CoralPlatform p = testing::make_platform();
  const isa::Program prog = build(p, source);
  p.load(prog);
  const RunResult r = p.run({}, {});
  EXPECT_TRUE(r.ok()) << r.message;
  return read_u32(p, symbol(prog, "result"));
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(CoralRtlCalibration, BackToBackMcycleReadsDifferByTwo) {
  // csrr at D holds the CSR unit until D+2; the second waits for it.
  EXPECT_EQ(measure(program("  li a0, 0\n  li a1, 0\n  li a2, 0\n", "")), 2u);
}

TEST(CoralRtlCalibration, AddiBnezLoop) {
  // addi at D+1+2k, bnez at D+2+2k (dependent), loop in one fetch line: next at +1.
  // Last bnez at D+2000 falls through (mispredicted): csrr at D+2005.
  EXPECT_EQ(measure(program("  li t0, 1000\n  li a0, 0\n  li a1, 0\n",
                            "1:\n  addi t0, t0, -1\n  bnez t0, 1b\n")), 2005u);
}

TEST(CoralRtlCalibration, ThreeIndependentAddiLoop) {
  // 2 per cycle: {a1,a2} {a3,t0} bnez; the 20-byte body spans two lines: taken +2 -> 4/iteration.
  // Last bnez at D+1+3996+2, +5 -> 4004.
  EXPECT_EQ(measure(program("  li t0, 1000\n  li a1, 0\n  li a2, 0\n",
                            "1:\n  addi a1, a1, 1\n  addi a2, a2, 1\n  addi a3, a3, 1\n  addi t0, t0, -1\n  bnez t0, 1b\n")),
            4004u);
}

TEST(CoralRtlCalibration, SevenIndependentAddiLoop) {
  // Four pairs, bnez, +2 -> 6/iteration; last bnez at D+1+5994+4, +5 -> 6004.
  EXPECT_EQ(measure(program("  li t0, 1000\n  li a1, 0\n  li a2, 0\n",
                            "1:\n  addi a1, a1, 1\n  addi a2, a2, 1\n  addi a3, a3, 1\n  addi a4, a4, 1\n"
                            "  addi a5, a5, 1\n  addi a6, a6, 1\n  addi a7, a7, 1\n  addi t0, t0, -1\n  bnez t0, 1b\n")),
            6004u);
}

TEST(CoralRtlCalibration, StraightLineIndependentAddi) {
  // 400 addi over 8 registers, 2 per cycle at D+1..D+200; complete (written back) at
  // D+202, when the second csrr dispatches.
  EXPECT_EQ(measure(program("  li a0, 0\n  li a1, 0\n  li a2, 0\n",
                            repeat("  addi a0, a0, 1\n  addi a1, a1, 1\n  addi a2, a2, 1\n  addi a3, a3, 1\n"
                                   "  addi a4, a4, 1\n  addi a5, a5, 1\n  addi a6, a6, 1\n  addi a7, a7, 1\n", 50))),
            201u);  // RTL 202: the closing csrr one cycle later
}

TEST(CoralRtlCalibration, StraightLineDependentAddi) {
  // One per cycle at D+1..D+400, written back at D+402.
  EXPECT_EQ(measure(program("  li a0, 0\n  li a1, 0\n  li a2, 0\n", repeat("  addi a0, a0, 1\n", 400))), 402u);
}

TEST(CoralRtlCalibration, DependentMulLoop) {
  // RTL 2005: the multiplier's result is usable 2 cycles after it starts, so the chain
  // runs at the loop's own 2 cycles per iteration.
  EXPECT_EQ(measure(program("  li t0, 1000\n  li a0, 3\n  li a1, 5\n",
                            "1:\n  mul a0, a0, a1\n  addi t0, t0, -1\n  bnez t0, 1b\n")),
            2005u);
}

TEST(CoralRtlCalibration, DependentDivLoop) {
  // RTL 1749. The divider iterates one bit per cycle from one position above the
  // dividend's top bit: 14 for 8140..8191, 15 for 8192..8239, + 2 cycles, and the divider
  // takes the next division a cycle after the result; s2 counts down
  // from 8239 (48 divisions of 18 cycles, 52 of 17), each waiting for the previous one.
  EXPECT_EQ(measure(program("  li t0, 100\n  li s2, 8239\n  li a1, 3\n",
                            "1:\n  div a0, s2, a1\n  addi s2, s2, -1\n  addi t0, t0, -1\n  bnez t0, 1b\n")),
            1749u);
}

TEST(CoralRtlCalibration, DividendSettlingNear1500) {
  // The table's own divider program: a2 = a2 / 3 + 1000 from 0x7fffffff; RTL 1749 (the
  // fetch unit has redirected the loop branch long before its operand is ready).
  EXPECT_EQ(measure(program("  li t0, 100\n  li a2, 0x7fffffff\n  li a3, 3\n",
                            "1:\n  div a2, a2, a3\n  addi a2, a2, 1000\n  addi t0, t0, -1\n  bnez t0, 1b\n")),
            1749u);
}

TEST(CoralRtlCalibration, LoadUseLoopFromDtcm) {
  // lw at x, dependent add at x+4 (load-to-use 4) with addi, bnez x+5, next lw x+6.
  // Last lw at D+1+5994, bnez at +5, mispredict +5 -> 6005.
  EXPECT_EQ(measure(program("  li t0, 1000\n  la a2, src\n",
                            "1:\n  lw a0, 0(a2)\n  add a1, a1, a0\n  addi t0, t0, -1\n  bnez t0, 1b\n")),
            6005u);
}

TEST(CoralRtlCalibration, StoreLoop) {
  // sw and addi pair at x, bnez x+1, next at x+2 (the LSU takes one access per 2 cycles).
  // Last bnez at D+2000, +5 -> 2005.
  EXPECT_EQ(measure(program("  li t0, 1000\n  la a2, dst\n",
                            "1:\n  sw a0, 0(a2)\n  addi t0, t0, -1\n  bnez t0, 1b\n")),
            2005u);
}

TEST(CoralRtlCalibration, StraightLineCopy) {
  // 200 copies {lw a0; sw a0} through DTCM: RTL 1403 (7 per pair: the store waits for the
  // load's data, and both share the LSU slot).
  std::string body;
  for (int i = 0; i < 200; ++i)
    body += "  lw a0, " + std::to_string(4 * i) + "(a2)\n  sw a0, " + std::to_string(4 * i) + "(a3)\n";
  EXPECT_NEAR(measure(program("  la a2, src\n  la a3, dst\n  li t1, 0\n  li t2, 0\n  li t3, 0\n", body)), 1403.0,
              1403 * 0.20);
}

TEST(CoralRtlCalibration, StraightLineLoadsAndStores) {
  // The table's own program: 100 x {lw; lw; sw; sw}, independent, DTCM: RTL 1203.
  std::string body;
  for (int i = 0; i < 100; ++i)
    body += "  lw a0, " + std::to_string(8 * i) + "(a2)\n  lw a1, " + std::to_string(8 * i + 4) + "(a2)\n  sw a0, " +
            std::to_string(8 * i) + "(a3)\n  sw a1, " + std::to_string(8 * i + 4) + "(a3)\n";
  EXPECT_NEAR(measure(program("  la a2, src\n  la a3, dst\n  li t1, 0\n  li t2, 0\n  li t3, 0\n", body)), 1203.0,
              1203 * 0.05);
}

TEST(CoralRtlCalibration, DependentFaddLoop) {
  // RTL 2005: FPU add latency 2, like the multiplier.
  EXPECT_EQ(measure(program("  li t0, 1000\n  fcvt.s.w f0, t0\n  fcvt.s.w f1, t0\n",
                            "1:\n  fadd.s f0, f0, f1\n  addi t0, t0, -1\n  bnez t0, 1b\n")),
            2005u);
}

}  // namespace
}  // namespace tlmcraft::coral
