// schedule_bundles(), the generators' entry to the shared AIE-ML bundle scheduler: ops as
// text in program order in, bundle lines out (exact text), with the options generators
// use (critical path first, disjoint pointers) and the refusals of bad input.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "isa/aie_ml/bundle_schedule.h"

namespace tlmcraft::isa::aie_ml {
namespace {

using Lines = std::vector<std::string>;

std::string error_of(const Lines& ops, const ScheduleOptions& options = {}) {
  try {
    schedule_bundles(ops, options);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(AieScheduleBundles, IndependentOpsShareABundleInSlotOrder) {
  // Two loads (the second moves to the other load unit), a scalar add and a vector clear
  // touch different registers and memory that is only read: one cycle.
  const Lines out = schedule_bundles({"VLDA w0, [p0, #0]    ; first", "VLDA w2, [p1, #0]", "ADD r1, r2, r3", "VCLR x4"});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], "VLDA w0, [p0, #0] ;; VLDB w2, [p1, #0] ;; ADD r1, r2, r3 ;; VCLR x4    ; first");
}

TEST(AieScheduleBundles, PointerPostModifyWaitsTheAguLatencyNotTheLoads) {
  // Program order: load 1 at cycle 0 writes p0 (AGU, ready at 1) and w0 (ready at 7);
  // load 2 reads p0: cycle 1; load 3 reads load 2's p0: cycle 2; the move reads x0
  // (w0): cycle 7. With the load's 7 cycles for p0 the loads would issue at 0, 7, 14.
  const Lines out = schedule_bundles({"VLDA w0, [p0], #32", "VLDA w2, [p0], #32", "VMOV x3, x0", "VLDA w4, [p0], #32"});
  EXPECT_EQ(out, (Lines{"VLDA w0, [p0], #32", "VLDA w2, [p0], #32", "VLDA w4, [p0], #32", "VMOV x3, x0"}));
}

TEST(AieScheduleBundles, DisjointPointersLetALoadPassAStore) {
  // The store through p1 may alias the load through p0 unless the caller says the two
  // pointers address different buffers; then the load shares the store's bundle.
  const Lines ops = {"VST w2, [p1, #0]", "VLDA w4, [p0, #0]"};
  EXPECT_EQ(schedule_bundles(ops), (Lines{"VST w2, [p1, #0]", "VLDA w4, [p0, #0]"}));
  ScheduleOptions apart;
  apart.disjoint_pointers = {0, 1};
  EXPECT_EQ(schedule_bundles(ops, apart), (Lines{"VLDA w4, [p0, #0] ;; VST w2, [p1, #0]"}));
  // Accesses through one pointer are still compared by their offsets: a store then a
  // load of the same 32 bytes stay in order.
  EXPECT_EQ(schedule_bundles({"VST w2, [p1, #0]", "VLDA w4, [p1, #0]"}, apart),
            (Lines{"VST w2, [p1, #0]", "VLDA w4, [p1, #0]"}));
}

TEST(AieScheduleBundles, AWriteOfTheOtherHalfStaysAfterAnEarlierReadWhenAsked) {
  // The store reads w2 at cycle 7 (after its load); the load of w3 writes the same x1
  // register. With keep_register_view_order it is not hoisted above the store (the store
  // would wait for it): it shares the store's bundle (a bundle reads before it writes).
  // Without, it goes first (w2 and w3 are different registers).
  ScheduleOptions apart;
  apart.disjoint_pointers = {0, 1, 2};
  const std::vector<std::string> ops{"VLDB w2, [p2, #0]", "VST w2, [p1, #0]", "VLDA w3, [p0, #0]"};
  EXPECT_EQ(schedule_bundles(ops, apart), (Lines{"VLDA w3, [p0, #0] ;; VLDB w2, [p2, #0]", "VST w2, [p1, #0]"}));
  apart.keep_register_view_order = true;
  EXPECT_EQ(schedule_bundles(ops, apart), (Lines{"VLDB w2, [p2, #0]", "VLDA w3, [p0, #0] ;; VST w2, [p1, #0]"}));
}

TEST(AieScheduleBundles, CriticalPathFirstStartsTheLongChainFirst) {
  // The MAC chain (load 7 + MAC) is the longest path; in program order the independent
  // scalar add would take cycle 0 first anyway (another slot), so use two loads competing
  // for the load units: the third load feeds the MAC and goes first with the option.
  const Lines ops = {"VLDA w0, [p0, #0]", "VLDA w2, [p1, #0]", "VLDA w4, [p2, #0]", "VMAC.E.BF16 bm0, bm0, w4, w6"};
  EXPECT_EQ(schedule_bundles(ops), (Lines{"VLDA w0, [p0, #0] ;; VLDB w2, [p1, #0]", "VLDA w4, [p2, #0]",
                                          "VMAC.E.BF16 bm0, bm0, w4, w6"}));
  ScheduleOptions cp;
  cp.critical_path_first = true;
  EXPECT_EQ(schedule_bundles(ops, cp), (Lines{"VLDA w4, [p2, #0] ;; VLDB w0, [p0, #0]", "VLDA w2, [p1, #0]",
                                              "VMAC.E.BF16 bm0, bm0, w4, w6"}));
}

TEST(AieScheduleBundles, ABranchGoesIntoTheLastBundle) {
  // The branch (to a label outside the code) and the add both need the scalar unit: the
  // add and the vector clear share cycle 0, the branch comes last in cycle 1. Without the
  // add, the branch joins the clear's bundle.
  EXPECT_EQ(schedule_bundles({"ADD r1, r1, r2", "VCLR x0", "JNZD r3, r3, top"}),
            (Lines{"ADD r1, r1, r2 ;; VCLR x0", "JNZD r3, r3, top"}));
  EXPECT_EQ(schedule_bundles({"VCLR x0", "JNZD r3, r3, top"}), (Lines{"JNZD r3, r3, top ;; VCLR x0"}));
  // The branch reads r1, which the add writes: it waits for the add (a later bundle).
  EXPECT_EQ(schedule_bundles({"VCLR x0", "ADD r1, r1, r2", "JNZD r1, r1, top"}),
            (Lines{"ADD r1, r1, r2 ;; VCLR x0", "JNZD r1, r1, top"}));
}

TEST(AieScheduleBundles, PreformedBundlesKeepTheirAtomicReads) {
  // In the bundle the move reads r2 before the add writes it (a bundle reads before it
  // writes), so as ops the move comes first and the add may share its cycle (WAR). Taken
  // in slot order (add, then move) the move would read the add's result: a later bundle.
  EXPECT_EQ(schedule_bundles({"ADD r2, r3, #1 ;; MOV r1, r2"}), (Lines{"ADD r2, r3, #1 ;; MOV r1, r2"}));
}

TEST(AieScheduleBundles, EmptyCodeGivesNoBundles) {
  EXPECT_TRUE(schedule_bundles({}).empty());
  EXPECT_TRUE(schedule_bundles({"NOP", "   ; a comment"}).empty());
}

TEST(AieScheduleBundles, BadInputIsRefusedWithTheOpAndTheCause) {
  EXPECT_NE(error_of({"ADD r1, r1, r2", "top:"}).find("op 2: a label ('top')"), std::string::npos);
  EXPECT_NE(error_of({"VLDX w0, [p0, #0]"}).find("op 1: 'VLDX w0, [p0, #0]'"), std::string::npos);
  EXPECT_NE(error_of({"JNZD r3, r3, top", "ADD r1, r1, r2"}).find("op 1: 'JNZD r3, r3, top' ends the code"),
            std::string::npos);
  EXPECT_NE(error_of({".tile 0 0"}).find("op 1: '.tile 0 0': '.tile' is a directive"), std::string::npos);
  EXPECT_NE(error_of({"ADD r1, r1, r2\nADD r2, r2, r2"}).find("op 1: one op or bundle per entry"), std::string::npos);
  // A swap in one bundle (each op reads what the other writes) has no op order.
  EXPECT_NE(error_of({"VCLR x0", "MOV r1, r2 ;; ADD r2, r1, #0"}).find("op 2: two ops of the bundle each read"),
            std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::isa::aie_ml
