// insert_waits(): NOP bundles where the interlocked model would stall, so a kernel computes
// the same on the exposed pipeline. Exact output text; latencies from aie_ml.yaml (load 7,
// VMAC 6, ALU 1, AGU 1): a read waits until its producer's result lands, a write until an
// earlier pending result for its register has landed before it.
#include "isa/aie_ml/wait_insertion.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace tlmcraft::isa::aie_ml {
namespace {

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

TEST(AieWaitInsertion, LoopBackEdgeWaitsGoInsideTheLoopBeforeItsEndLabel) {
  // A two-bundle loop body accumulating into cm0 (VMAC: 6 cycles). Inside the body the
  // second VMAC (due 1 cycle after the first) waits 5 NOPs, placed before the loop-end
  // label so `le` still names it. Back edge: the second VMAC issues 6 cycles after the
  // first, the first of the next iteration (due 1 later) needs 5 NOPs, after the loop-start
  // label (the loop's entry path pays them too: the longer wait of the two paths). DONE
  // reads nothing: no wait.
  const std::string in =
      "  MOVXM ls, top\n"
      "  MOVXM le, last\n"
      "  MOVXM lc, 4\n"
      "top:\n"
      "  VMAC.I8 cm0, cm0, w0, x1\n"
      "last:\n"
      "  VMAC.I8 cm0, cm0, w2, x3\n"
      "  DONE\n";
  EXPECT_EQ(insert_waits(in),
            "  MOVXM ls, top\n"
            "  MOVXM le, last\n"
            "  MOVXM lc, 4\n"
            "top:\n" +
                nops(5) + "  VMAC.I8 cm0, cm0, w0, x1\n" + nops(5) +
                "last:\n"
                "  VMAC.I8 cm0, cm0, w2, x3\n"
                "  DONE\n");
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
