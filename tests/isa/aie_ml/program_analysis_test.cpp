// The AIE-ML program-analysis layer on kernel text: def/use of slot operations (from
// the ISA YAML's operand roles), the ordering rules, pointer value ranges, bundle
// compaction (exact text in, exact text out) and its refusals, the static cycle estimate.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

#include "isa/aie_ml/bundle_schedule.h"
#include "isa/aie_ml/control_flow.h"
#include "isa/aie_ml/def_use.h"
#include "isa/aie_ml/pointer_values.h"
#include "isa/aie_ml/program_text.h"

namespace tlmcraft::isa::aie_ml {
namespace {


AieOp op(const std::string& text) {
  AieOp o;
  EXPECT_TRUE(assemble_op(text, o)) << text;
  return o;
}

std::vector<std::string> labels(const std::vector<int>& units) {
  std::vector<std::string> out;
  for (int u : units) out.push_back(unit_label(u));
  std::sort(out.begin(), out.end());
  return out;
}

using Names = std::vector<std::string>;

std::string compacted(const std::string& text, CompactStats* stats = nullptr) {
  AieKernel k;
  std::string error;
  EXPECT_TRUE(parse_aie_kernel(text, k, error)) << error;
  compact(k, stats);
  return print_aie_kernel(k);
}

// ---- text ----------------------------------------------------------------------------

TEST(AieProgramText, FragmentsMayBranchToLabelsOutsideThem) {
  // A loop body's closing branch names the loop's label, which lies outside the fragment.
  AieTile tile;
  std::string error;
  ASSERT_TRUE(parse_core_fragment("  ADD r1, r1, r2\n  JNZD r3, r3, top    ; next\n", tile, error)) << error;
  ASSERT_EQ(tile.lines.size(), 2u);  // no line for the outside label
  EXPECT_EQ(print_bundle(tile.lines[1]), "JNZD r3, r3, top    ; next");
  EXPECT_EQ(label_operand(tile.lines[1].ops[0]), "top");
  AieOp branch;
  EXPECT_TRUE(assemble_op("JNZD r3, r3, top", branch));
  EXPECT_EQ(branch.mnemonic(), "JNZD");
  // Directives and ops that do not assemble are refused with the line.
  EXPECT_FALSE(parse_core_fragment("  NOP\n.tile 0 0\n", tile, error));
  EXPECT_EQ(error, "line 2: '.tile' is a directive, not code");
  EXPECT_FALSE(parse_core_fragment("  NOP\n  VLDX w0, [p0]\n", tile, error));
  EXPECT_EQ(error.rfind("line 2: ", 0), 0u) << error;
  EXPECT_FALSE(assemble_op("ADD r1, r1, r2 ;; VCLR x0", branch));  // two ops
}

// ---- def/use ------------------------------------------------------------------------

TEST(AieDefUse, VectorLoadWritesItsHalfAndThePointer) {
  const OpEffects e = effects_of(op("VLDA w1, [p0], #32"));
  EXPECT_EQ(labels(e.reads), (Names{"p0"}));
  EXPECT_EQ(labels(e.writes), (Names{"p0", "w1"}));  // w1 only: w0 (the other half of x0) is untouched
  EXPECT_TRUE(e.load);
  EXPECT_FALSE(e.store);
  EXPECT_EQ(e.bytes, 32u);
  EXPECT_EQ(e.latency, 7u);  // latency class load
}

TEST(AieDefUse, MatrixMacReadsAccumulatorAndBothVectorHalves) {
  // bm1 = am2, am3; x0 = w0, w1; x2 = w4, w5.
  const OpEffects e = effects_of(op("VMAC.BF16 bm1, bm1, x0, x2"));
  EXPECT_EQ(labels(e.reads), (Names{"am2", "am3", "w0", "w1", "w4", "w5"}));
  EXPECT_EQ(labels(e.writes), (Names{"am2", "am3"}));
  EXPECT_EQ(e.latency, 6u);  // vmac
}

TEST(AieDefUse, StoreWithSrsReadsShiftAndControlRegisters) {
  // cm0 = am0..am3; the SRS reads crrnd and crsat; [p1, #64] does not update p1.
  const OpEffects e = effects_of(op("VST.SRS.S8.S32 cm0, [p1, #64], s0"));
  EXPECT_EQ(labels(e.reads), (Names{"am0", "am1", "am2", "am3", "crrnd", "crsat", "p1", "s0"}));
  EXPECT_TRUE(e.writes.empty());
  EXPECT_TRUE(e.store);
}

TEST(AieDefUse, LaneMaskCompareWritesTheRegisterPair) {
  EXPECT_EQ(labels(effects_of(op("VLT.S8 r4, x1, x2")).writes), (Names{"r4", "r5"}));
  EXPECT_TRUE(effects_of(op("ACQ 49, 1")).lock);
  EXPECT_TRUE(effects_of(op("RET lr")).control);
  EXPECT_TRUE(effects_of(op("DONE")).halt);
}

TEST(AieDefUse, OrderRules) {
  std::deque<AieOp> ops;  // owns the ops the OpInfos point to (a deque never moves them)
  auto info = [&ops](const AieOp& o, PointerTracker& pt) {
    OpInfo i;
    i.op = &ops.emplace_back(o);
    i.fx = effects_of(o);
    i.mem = pt.access(o, i.fx);
    return i;
  };
  PointerTracker pt;
  const OpInfo add = info(op("ADD r1, r0, r0"), pt), mov = info(op("MOVXM r0, 7"), pt);
  EXPECT_EQ(order_between(add, mov), Order::SameOrLater);  // WAR: may share the bundle
  EXPECT_EQ(order_between(mov, add), Order::Later);        // RAW
  PointerTracker mem;
  const OpInfo st0 = info(op("VST w0, [p1], #32"), mem);   // p1 + 0 .. 31
  const OpInfo ld1 = info(op("VLDA w2, [p1, #0]"), mem);   // p1 + 32: apart
  const OpInfo ld0 = info(op("VLDB w4, [p1, #-32]"), mem); // p1 + 0: the stored bytes
  const OpInfo other = info(op("VLDA w6, [p2]"), mem);     // unknown: may alias
  EXPECT_EQ(order_between(st0, ld1), Order::Later);        // p1 written by the post-modify (RAW)
  EXPECT_FALSE(may_overlap(st0.mem, ld1.mem));
  EXPECT_TRUE(may_overlap(st0.mem, ld0.mem));
  EXPECT_TRUE(may_overlap(st0.mem, other.mem));
  EXPECT_EQ(order_between(st0, other), Order::Later);  // store then a load that may alias
  EXPECT_EQ(order_between(other, st0), Order::SameOrLater);  // load then store: same bundle is fine
}

// ---- value analysis -----------------------------------------------------------------

TEST(AieValues, PingPongPointerRangesOverEveryIteration) {
  // r0 / r1 toggle between two buffers (XOR 0x2000) in the outer JNZ loop; the inner
  // zero-overhead loop advances p0 and p1 by 32 bytes per iteration, 16 iterations. In
  // the loop block: p0 in [0x70000, 0x72000 + 15 * 32], p1 in [0x74000, 0x76000 + 480].
  const std::string in =
      "  MOVXM r0, 458752\n"
      "  MOVXM r1, 475136\n"
      "  MOVXM r2, 8192\n"
      "  MOVXM r3, 2\n"
      "block:\n"
      "  MOV p0, r0\n"
      "  MOV p1, r1\n"
      "  MOVXM ls, top\n"
      "  MOVXM le, end\n"
      "  MOVXM lc, 16\n"
      "top:\n"
      "  VLDA w0, [p0], #32\n"
      "end:\n"
      "  VST w0, [p1], #32\n"
      "  XOR r0, r0, r2\n"
      "  XOR r1, r1, r2\n"
      "  ADD r3, r3, #-1\n"
      "  JNZ r3, block\n"
      "  DONE\n";
  AieKernel k;
  std::string error, why;
  ASSERT_TRUE(parse_aie_kernel(in, k, error)) << error;
  TileStructure s;
  ASSERT_TRUE(analyse_structure(k.tiles[0], s, why)) << why;
  ASSERT_EQ(s.blocks.size(), 5u);  // setup, block:, the loop, the outer loop's tail, DONE
  ASSERT_EQ(s.loops.size(), 1u);
  EXPECT_EQ(s.loops[0].count, 16);
  EXPECT_EQ(s.blocks[2].trip_count, 16);
  const std::vector<PointerRanges> r = block_pointer_ranges(k.tiles[0], s);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[2].at(0), std::make_pair(int64_t{0x70000}, int64_t{0x72000 + 480}));
  EXPECT_EQ(r[2].at(1), std::make_pair(int64_t{0x74000}, int64_t{0x76000 + 480}));
  // The two buffers pairs are apart: the load may go ahead of the previous store.
  PointerTracker pt(&r[2]);
  const OpEffects st = effects_of(op("VST w0, [p1], #32")), ld = effects_of(op("VLDA w2, [p0], #32"));
  const MemRef store = pt.access(op("VST w0, [p1], #32"), st), load = pt.access(op("VLDA w2, [p0], #32"), ld);
  EXPECT_TRUE(store.ranged && load.ranged);
  EXPECT_FALSE(may_overlap(store, load));
}

// ---- compaction ---------------------------------------------------------------------

TEST(AieCompaction, MergesIndependentOpsIntoFreeSlots) {
  // MOVXM r0 (mv) at cycle 0 with VCLR (vec); MOVXM r1 needs the mv slot: cycle 1;
  // ADD reads both (alu latency 1): cycle 2; DONE goes last, the alu slot is taken at 2: 3.
  const std::string in =
      "  MOVXM r0, 1    ; a\n"
      "  MOVXM r1, 2\n"
      "  ADD r2, r0, r1\n"
      "  VCLR x0    ; zero\n"
      "  DONE\n";
  EXPECT_EQ(compacted(in),
            "  VCLR x0 ;; MOVXM r0, 1    ; a / zero\n"
            "  MOVXM r1, 2\n"
            "  ADD r2, r0, r1\n"
            "  DONE\n");
}

TEST(AieCompaction, WriteAfterReadSharesABundleReadAfterWriteDoesNot) {
  EXPECT_EQ(compacted("  ADD r1, r0, r0\n  MOVXM r0, 7\n  DONE\n"), "  ADD r1, r0, r0 ;; MOVXM r0, 7\n  DONE\n");
  EXPECT_EQ(compacted("  MOVXM r0, 7\n  ADD r1, r0, r0\n  DONE\n"), "  MOVXM r0, 7\n  ADD r1, r0, r0\n  DONE\n");
}

TEST(AieCompaction, SecondLoadMovesToTheOtherLoadUnitAndLatencyOrdersTheRest) {
  // Two loads through different pointers: VLDA at 0, the second becomes VLDB at 0.
  // The add waits for both (load latency 7) and is alone at 7; the store after it at 9.
  const std::string in =
      "  VLDA w0, [p0, #0]\n"
      "  VLDA w2, [p1, #0]\n"
      "  VADD.32 x2, x0, x1\n"
      "  VST w4, [p2, #0]\n"
      "  DONE\n";
  EXPECT_EQ(compacted(in),
            "  VLDA w0, [p0, #0] ;; VLDB w2, [p1, #0]\n"
            "  VADD.32 x2, x0, x1\n"
            "  VST w4, [p2, #0]\n"
            "  DONE\n");
}

TEST(AieCompaction, LoadAfterAStoreThatMayAliasStaysAfterIt) {
  // p1 and p2 are unknown (never set): the load may read what the store wrote.
  const std::string in = "  VST w0, [p1, #0]\n  VLDA w2, [p2, #0]\n  DONE\n";
  EXPECT_EQ(compacted(in), in);
  // Known apart (p1 = 0x70000, p2 = 0x72000 set in the block before): the load may go first.
  const std::string apart =
      "  MOVXM p1, 458752\n"
      "  MOVXM p2, 466944\n"
      "start:\n"
      "  VST w0, [p1, #0]\n"
      "  VLDA w2, [p2, #0]\n"
      "  DONE\n";
  EXPECT_EQ(compacted(apart),
            "  MOVXM p1, 458752\n"
            "  MOVXM p2, 466944\n"
            "start:\n"
            "  VLDA w2, [p2, #0] ;; VST w0, [p1, #0]\n"
            "  DONE\n");
}

TEST(AieCompaction, CriticalPathFirstStartsTheLongChainEarlier) {
  // All on the vector slot: X (valu, no reader), Y1 (vmac, 6 cycles) -> Y2. Program
  // order: X 0, Y1 1, Y2 7. Critical path first: heights Y1 = 6 + 4 = 10 > X = 2, so
  // Y1 0, X 1, Y2 6. DONE joins the last bundle (no memory op to wait for).
  const std::string in =
      "  VADD.32 x5, x1, x1\n"
      "  VMUL.E.BF16 bm0, w0, w2\n"
      "  VCONV.BF16.FP32 w8, bm0\n"
      "  DONE\n";
  EXPECT_EQ(compacted(in),
            "  VADD.32 x5, x1, x1\n"
            "  VMUL.E.BF16 bm0, w0, w2\n"
            "  DONE ;; VCONV.BF16.FP32 w8, bm0\n");
  AieKernel k;
  std::string error;
  ASSERT_TRUE(parse_aie_kernel(in, k, error)) << error;
  compact(k, nullptr, true);
  EXPECT_EQ(print_aie_kernel(k),
            "  VMUL.E.BF16 bm0, w0, w2\n"
            "  VADD.32 x5, x1, x1\n"
            "  DONE ;; VCONV.BF16.FP32 w8, bm0\n");
  EXPECT_EQ(estimate_cycles(k), 7);  // issue at 0, 1, then the last bundle waits until 6
}

TEST(AieCompaction, LoopEndLabelMovesOntoTheNewLastBundle) {
  // Body: two independent loads then a move; the move joins the first bundle, the
  // second load goes to ldb: one bundle carries everything and the le label.
  const std::string in =
      "  MOVXM ls, top\n"
      "  MOVXM le, end\n"
      "  MOVXM lc, 4\n"
      "top:\n"
      "  VLDA w0, [p0, #0]\n"
      "  VLDA w2, [p1, #0]\n"
      "end:\n"
      "  MOV r5, r6\n"
      "  DONE\n";
  EXPECT_EQ(compacted(in),
            "  MOVXM ls, top\n"
            "  MOVXM le, end\n"
            "  MOVXM lc, 4\n"
            "top:\n"
            "end:\n"
            "  VLDA w0, [p0, #0] ;; VLDB w2, [p1, #0] ;; MOV r5, r6\n"
            "  DONE\n");
}

TEST(AieCompaction, LocksKeepMemoryOnTheirSide) {
  // The load may not move above the acquire, the store not below the release; the
  // register move may join the acquire's bundle; the store may share the load's bundle
  // (loads read before stores write).
  const std::string in =
      "  ACQ 49, 1\n"
      "  VLDA w0, [p0, #0]\n"
      "  MOV r1, r2\n"
      "  VST w2, [p1, #0]\n"
      "  REL 48, 1\n"
      "  DONE\n";
  EXPECT_EQ(compacted(in),
            "  ACQ 49, 1 ;; MOV r1, r2\n"
            "  VLDA w0, [p0, #0] ;; VST w2, [p1, #0]\n"
            "  REL 48, 1\n"
            "  DONE\n");
}

TEST(AieCompaction, RefusesLoopRegistersSetFromRegisters) {
  const std::string in = "  MOV r1, r2\n  MOV le, r3\n  DONE\n";
  CompactStats stats;
  EXPECT_EQ(compacted(in, &stats), in);
  EXPECT_NE(stats.refused.find("sets a loop register from a number or register"), std::string::npos) << stats.refused;
}

TEST(AieCompaction, RefusesIndirectJumps) {
  const std::string in = "  MOV r1, r2\n  J r4\n";
  CompactStats stats;
  EXPECT_EQ(compacted(in, &stats), in);
  EXPECT_NE(stats.refused.find("indirect jump"), std::string::npos) << stats.refused;
}

TEST(AieCompaction, KeepsAtomicBundleReadsWhenSplitting) {
  // The bundle reads r0 and r1 before writing either: neither op can go first, so the
  // block is left as it is.
  const std::string in = "  ADD r1, r0, r0 ;; MOV r0, r1\n  DONE\n";
  EXPECT_EQ(compacted(in), in);
}

TEST(AieCompaction, EstimateCountsLoopIterations) {
  // Body: load (7-cycle latency) then a move reading nothing: per iteration 2 bundles
  // issue back to back (the move does not wait): 2 cycles x 8 = 16, plus 3 setup moves
  // (mv slot, one per cycle) and DONE.
  const std::string in =
      "  MOVXM ls, top\n"
      "  MOVXM le, end\n"
      "  MOVXM lc, 8\n"
      "top:\n"
      "  VLDA w0, [p0, #0]\n"
      "end:\n"
      "  MOV r5, r6\n"
      "  DONE\n";
  AieKernel k;
  std::string error;
  ASSERT_TRUE(parse_aie_kernel(in, k, error)) << error;
  EXPECT_EQ(estimate_cycles(k), 3 + 16 + 1);
}

}  // namespace
}  // namespace tlmcraft::isa::aie_ml
