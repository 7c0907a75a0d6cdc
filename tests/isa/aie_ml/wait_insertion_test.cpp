// insert_waits(): NOP bundles where the interlocked model would stall, so a kernel computes
// the same on the exposed pipeline. Exact output text; latencies from aie_ml.yaml (load 7,
// VMAC 6, ALU 1, AGU 1, VMOV 2): a read waits until its producer's result lands, a write
// until an earlier pending result for its register has landed before it. A VMAC reads its
// accumulator input acc_read_cycles after issue (the platform config's; 0 and 2 below).
#include "isa/aie_ml/wait_insertion.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace tlmcraft::isa::aie_ml {
namespace {

// The read stages: every operand at issue, or the accumulator in stage 3 (the default).
const ReadStages kAtIssue{0}, kStage3{2};

// Tests whose kernels have no multiply-accumulate: the read stages do not matter.
std::string insert_waits(const std::string& text, WaitStats* stats = nullptr) {
  const std::string out = isa::aie_ml::insert_waits(text, kAtIssue, stats);
  EXPECT_EQ(isa::aie_ml::insert_waits(text, kStage3), out);
  return out;
}

std::string error_of(const std::string& text) {
  try {
    insert_waits(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

const char* kNop = "  NOP    ; wait (exposed pipeline)\n";

std::string nops(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += kNop;
  return s;
}

TEST(AieWaitInsertion, ReadWaitsForTheLoad) {
  // LDA r1 at 0: r1 readable at 7. The post-modified p0 is an AGU result (1 cycle): the
  // second LDA issues at 1. The ADD, due at 2, needs 5 NOPs (issues at 7). MUL reads r2
  // (ADD + 1): none.
  WaitStats st;
  const std::string out = insert_waits(
      "  LDA r1, [p0], #4\n"
      "  LDA r3, [p0]\n"
      "  ADD r2, r1, r1\n"
      "  MUL r4, r2, r2\n"
      "  DONE\n",
      &st);
  EXPECT_EQ(out,
            "  LDA r1, [p0], #4\n"
            "  LDA r3, [p0]\n" +
                nops(5) +
                "  ADD r2, r1, r1\n"
                "  MUL r4, r2, r2\n"
                "  DONE\n");
  EXPECT_EQ(st.nops_added, 5);
}

TEST(AieWaitInsertion, WriteWaitsUntilTheEarlierResultHasLanded) {
  // LDA r1 at 0 lands at 7; MOV r1 (latency 1) must land at 8 or later: issue at 7 (6 NOPs).
  EXPECT_EQ(insert_waits("  LDA r1, [p0]\n  MOV r1, 3\n  DONE\n"),
            "  LDA r1, [p0]\n" + nops(6) + "  MOV r1, 3\n  DONE\n");
}

// A two-bundle zero-overhead loop body accumulating into cm0.
const char* kVmacLoop =
    "  MOVXM ls, top\n"
    "  MOVXM le, last\n"
    "  MOVXM lc, 4\n"
    "top:\n"
    "  VMAC.I8 cm0, cm0, w0, x1\n"
    "last:\n"
    "  VMAC.I8 cm0, cm0, w2, x3\n"
    "  DONE\n";

TEST(AieWaitInsertion, LoopBackEdgeWaitsGoInsideTheLoopBeforeItsEndLabel) {
  // A two-bundle loop body accumulating into cm0 (VMAC: 6 cycles), the accumulator read at
  // issue. Inside the body the second VMAC (due 1 cycle after the first) waits 5 NOPs,
  // placed before the loop-end label so `le` still names it. Back edge: the second VMAC
  // issues 6 cycles after the first, the first of the next iteration (due 1 later) needs 5
  // NOPs, after the loop-start label (the loop's entry path pays them too: the longer wait
  // of the two paths). DONE reads nothing: no wait.
  EXPECT_EQ(isa::aie_ml::insert_waits(kVmacLoop, kAtIssue),
            "  MOVXM ls, top\n"
            "  MOVXM le, last\n"
            "  MOVXM lc, 4\n"
            "top:\n" +
                nops(5) + "  VMAC.I8 cm0, cm0, w0, x1\n" + nops(5) +
                "last:\n"
                "  VMAC.I8 cm0, cm0, w2, x3\n"
                "  DONE\n");
}

TEST(AieWaitInsertion, AMacChainWaitsOnlyUntilItsAccumulatorReadStage) {
  // The same loop with the accumulator read 2 cycles after issue (stage 3): a VMAC may
  // issue 6 - 2 = 4 cycles after the VMAC whose result it accumulates, so 3 NOPs per chain
  // step instead of 5 (inside the body and on the back edge). Its own write (6 cycles) lands
  // after the pending one (5 left) and after the earlier late read (1 left): no more wait.
  // 6 NOPs where reading at issue takes 10.
  WaitStats st;
  EXPECT_EQ(isa::aie_ml::insert_waits(kVmacLoop, kStage3, &st),
            "  MOVXM ls, top\n"
            "  MOVXM le, last\n"
            "  MOVXM lc, 4\n"
            "top:\n" +
                nops(3) + "  VMAC.I8 cm0, cm0, w0, x1\n" + nops(3) +
                "last:\n"
                "  VMAC.I8 cm0, cm0, w2, x3\n"
                "  DONE\n");
  EXPECT_EQ(st.nops_added, 6);
  // An operand read at issue still waits for the whole result: w0 from a load (7 cycles)
  // read by the next bundle's VMAC needs 6 NOPs whatever the accumulator's stage.
  const std::string load_then_mac = "  VLDA w0, [p0]\n  VMAC.I8 cm0, cm0, w0, x1\n  DONE\n";
  EXPECT_EQ(isa::aie_ml::insert_waits(load_then_mac, kStage3),
            "  VLDA w0, [p0]\n" + nops(6) + "  VMAC.I8 cm0, cm0, w0, x1\n  DONE\n");
}

TEST(AieWaitInsertion, AWriteLandsAfterAPendingLateAccumulatorRead) {
  // VMAC at 0 reads cm0 at acc_read_cycles; VMOV cm0 (2 cycles), due at 1, would land at 3.
  // With the read at 4 (acc_read_cycles 4, a config value) the VMAC would see the new cm0:
  // the VMOV waits until it lands at 5, 2 NOPs. With the read at 2 it lands after: none.
  const std::string in = "  VMAC.I8 cm1, cm0, w0, x1\n  VMOV cm0, cm2\n  DONE\n";
  EXPECT_EQ(isa::aie_ml::insert_waits(in, ReadStages{4}),
            "  VMAC.I8 cm1, cm0, w0, x1\n" + nops(2) + "  VMOV cm0, cm2\n  DONE\n");
  EXPECT_EQ(isa::aie_ml::insert_waits(in, kStage3), in);
}

// r1 loaded, then a 4-iteration zero-overhead loop's setup (the loop starts at `top:`).
const std::string kLoadThenLoop =
    "  LDA r1, [p0]\n"
    "  MOVXM ls, top\n"
    "  MOVXM le, last\n"
    "  MOVXM lc, 4\n";

TEST(AieWaitInsertion, AWaitOnlyTheEntryNeedsGoesBeforeTheLoopLabel) {
  // LDA r1 at 0 lands at 7. The loop setup issues at 1..3, the loop's ADD (due at 4) reads
  // r1: the path from above needs 3 NOPs. The back edge carries nothing pending for the
  // ADD (the body writes r2, ALU 1, read by ST a cycle later; r1 is not written in the
  // loop): no wait. So the 3 NOPs go before `top:`, paid once, not on every iteration.
  const std::string in = kLoadThenLoop +
                         "top:\n"
                         "  ADD r2, r1, r1\n"
                         "last:\n"
                         "  ST r2, [p1], #4\n"
                         "  DONE\n";
  const std::string out = insert_waits(in);
  EXPECT_EQ(out, kLoadThenLoop + nops(3) +
                     "top:\n"
                     "  ADD r2, r1, r1\n"
                     "last:\n"
                     "  ST r2, [p1], #4\n"
                     "  DONE\n");
  EXPECT_EQ(insert_waits(out), out);  // nothing left to wait for
}

TEST(AieWaitInsertion, AWaitSplitsBetweenTheEntryAndEveryIteration) {
  // Entry: LDA r1 at 0 lands at 7, the loop's ADD is due at 4 (after the setup's 3
  // bundles): 3 NOPs. Back edge: LDA r3 issues 1 bundle after the ADD, 4 more bundles
  // follow, so the next ADD is due 5 cycles after the load: 2 NOPs. Every path gets 2 after
  // `top:`, the entry its missing 1 before the label (3 in all on entry, 2 per iteration).
  const std::string in = kLoadThenLoop +
                         "top:\n"
                         "  ADD r2, r1, r3\n"
                         "  LDA r3, [p1], #4\n"
                         "  MOV r5, r2\n"
                         "  MOV r6, r2\n"
                         "  MOV r7, r2\n"
                         "last:\n"
                         "  MOV r8, r2\n"
                         "  DONE\n";
  const std::string out = insert_waits(in);
  EXPECT_EQ(out, kLoadThenLoop + nops(1) + "top:\n" + nops(2) +
                     "  ADD r2, r1, r3\n"
                     "  LDA r3, [p1], #4\n"
                     "  MOV r5, r2\n"
                     "  MOV r6, r2\n"
                     "  MOV r7, r2\n"
                     "last:\n"
                     "  MOV r8, r2\n"
                     "  DONE\n");
  EXPECT_EQ(insert_waits(out), out);
}

TEST(AieWaitInsertion, RemoveWaitsUndoesThemButKeepsALoopsLastBundle) {
  // The back-edge example above: its 10 NOPs go, the text is the original again.
  AieKernel k;
  std::string error;
  ASSERT_TRUE(parse_aie_kernel(isa::aie_ml::insert_waits(kVmacLoop, kAtIssue), k, error)) << error;
  EXPECT_EQ(remove_waits(k), 10);
  EXPECT_EQ(print_aie_kernel(k), kVmacLoop);
  // A NOP under a branch target goes (the label then names the next bundle); the NOP the
  // loop-end label names is the loop's last bundle and stays, as does a tile's last bundle.
  ASSERT_TRUE(parse_aie_kernel(
      "  MOVXM ls, top\n  MOVXM le, last\n  MOVXM lc, 2\ntop:\n  NOP\n  ADD r1, r1, r1\nlast:\n  NOP\n  NOP\n", k,
      error))
      << error;
  EXPECT_EQ(remove_waits(k), 1);
  EXPECT_EQ(print_aie_kernel(k),
            "  MOVXM ls, top\n  MOVXM le, last\n  MOVXM lc, 2\ntop:\n  ADD r1, r1, r1\nlast:\n  NOP\n  NOP\n");
}

TEST(AieWaitInsertion, PhasesAreAnalysedOneByOne) {
  EXPECT_EQ(insert_waits("; two phases\n.phase a\n  LDA r1, [p0]\n  ST r1, [p0]\n  DONE\n.phase b\n  DONE\n"),
            "; two phases\n.phase a\n  LDA r1, [p0]\n" + nops(6) + "  ST r1, [p0]\n  DONE\n.phase b\n  DONE\n");
}

TEST(AieWaitInsertion, CallsAreRefused) {
  EXPECT_EQ(error_of("  JL f\n  DONE\nf:\n  RET lr\n"),
            "insert_waits: tile 0: calls (JL/RET) or a branch to an unknown label");
}

}  // namespace
}  // namespace tlmcraft::isa::aie_ml
