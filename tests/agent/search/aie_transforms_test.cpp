// AIE-ML search transformations on kernel text: zero-overhead loop unrolling with
// register renaming, pointer post-modify chains as offsets, register reallocation (the
// analysis and compaction they build on are tested in tests/isa/aie_ml).
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "platforms/aie_ml/pack/agent/aie_candidates.h"
#include "platforms/aie_ml/pack/agent/aie_offsets.h"
#include "platforms/aie_ml/pack/agent/aie_regalloc.h"
#include "platforms/aie_ml/pack/agent/aie_unroll.h"
#include "isa/aie_ml/bundle_schedule.h"
#include "isa/aie_ml/program_text.h"
#include "isa/aie_ml/wait_insertion.h"
#include "platforms/aie_ml/aie_config.h"

namespace tlmcraft::agent::search::aie {
namespace {

using isa::aie_ml::AieKernel;
using isa::aie_ml::compact;
using isa::aie_ml::parse_aie_kernel;
using isa::aie_ml::print_aie_kernel;

// The read stages the search times its candidates' waits by for a context without
// compute.acc_read_cycles (the default configuration's).
const isa::aie_ml::ReadStages kDefaultStages = ::tlmcraft::aie_ml::read_stages_in(nlohmann::json::object());

// ---- unrolling ----------------------------------------------------------------------

const char* kReluLoop =
    "  MOVXM p0, 458752\n"
    "  MOVXM p1, 475136\n"
    "  VCLR x2\n"
    "  MOVXM ls, top\n"
    "  MOVXM le, end\n"
    "  MOVXM lc, 16\n"
    "top:\n"
    "  VLDA w0, [p0], #32\n"
    "  VMAX.BF16 x1, x0, x2\n"
    "end:\n"
    "  VST w2, [p1], #32\n"
    "  DONE\n";

TEST(AieUnroll, UnrollsByTwoWithRenamedRegisters) {
  AieKernel k;
  std::string error, why;
  ASSERT_TRUE(parse_aie_kernel(kReluLoop, k, error)) << error;
  UnrollStats stats;
  ASSERT_TRUE(unroll_loop(k, 0, 0, 2, true, why, &stats)) << why;
  // x0 (w1 never written: reset value under both names) and x1 are private to an
  // iteration and dead after the loop: the second copy uses x3 and x4, the first free
  // x registers (x2 holds the zeros). lc: 16 / 2.
  EXPECT_EQ(stats.renamed_registers, 2);
  EXPECT_EQ(print_aie_kernel(k),
            "  MOVXM p0, 458752\n"
            "  MOVXM p1, 475136\n"
            "  VCLR x2\n"
            "  MOVXM ls, top\n"
            "  MOVXM le, end\n"
            "  MOVXM lc, 8\n"
            "top:\n"
            "  VLDA w0, [p0], #32\n"
            "  VMAX.BF16 x1, x0, x2\n"
            "  VST w2, [p1], #32\n"
            "  VLDA w6, [p0], #32\n"
            "  VMAX.BF16 x4, x3, x2\n"
            "end:\n"
            "  VST w8, [p1], #32\n"
            "  DONE\n");
}

TEST(AieUnroll, RefusesIndivisibleFactorsBodiesReadingLcAndBodiesWithLocks) {
  AieKernel k;
  std::string error, why;
  ASSERT_TRUE(parse_aie_kernel(kReluLoop, k, error)) << error;
  EXPECT_FALSE(unroll_loop(k, 0, 0, 3, true, why));
  EXPECT_EQ(why, "factor 3 does not divide the trip count 16");
  std::string reads_lc = kReluLoop;
  reads_lc.replace(reads_lc.find("  VMAX.BF16"), 0, "  MOV r7, lc\n");
  ASSERT_TRUE(parse_aie_kernel(reads_lc, k, error)) << error;
  EXPECT_FALSE(unroll_loop(k, 0, 0, 2, true, why));
  EXPECT_EQ(why, "the body reads a loop register ('MOV r7, lc')");
  std::string locked = kReluLoop;
  locked.replace(locked.find("  VMAX.BF16"), 0, "  REL 48, 1\n");
  ASSERT_TRUE(parse_aie_kernel(locked, k, error)) << error;
  EXPECT_FALSE(unroll_loop(k, 0, 0, 2, true, why));
  EXPECT_EQ(why, "the body branches, halts or uses locks ('REL 48, 1')");
}

TEST(AieUnroll, KeepsRegistersLiveAfterTheLoop) {
  // x1 is read after the loop: only x0 is renamed.
  std::string live = kReluLoop;
  live.replace(live.find("  DONE"), 0, "  VST w2, [p1], #32\n");
  AieKernel k;
  std::string error, why;
  ASSERT_TRUE(parse_aie_kernel(live, k, error)) << error;
  UnrollStats stats;
  ASSERT_TRUE(unroll_loop(k, 0, 0, 2, true, why, &stats)) << why;
  EXPECT_EQ(stats.renamed_registers, 1);
  const std::string out = print_aie_kernel(k);
  EXPECT_NE(out.find("  VLDA w6, [p0], #32\n  VMAX.BF16 x1, x3, x2\n"), std::string::npos) << out;
}

TEST(AieUnroll, RenamesScalarsButNotHexImmediates) {
  // r5 is written before it is read and dead after the loop: the second copy uses r0,
  // the first r register the tile never mentions; 0x7123456 (letters and 6 digits after
  // the 0) stays as written.
  const std::string in =
      "  MOVXM ls, top\n"
      "  MOVXM le, end\n"
      "  MOVXM lc, 2\n"
      "top:\n"
      "  MOVXM r5, 0x7123456\n"
      "end:\n"
      "  ST r5, [p1], #4\n"
      "  DONE\n";
  AieKernel k;
  std::string error, why;
  ASSERT_TRUE(parse_aie_kernel(in, k, error)) << error;
  ASSERT_TRUE(unroll_loop(k, 0, 0, 2, true, why)) << why;
  const std::string out = print_aie_kernel(k);
  EXPECT_NE(out.find("  MOVXM r5, 0x7123456\n  ST r5, [p1], #4\n  MOVXM r0, 0x7123456\nend:\n  ST r0, [p1], #4\n"),
            std::string::npos)
      << out;
}

TEST(AieUnroll, InlinesASingleIterationLoop) {
  // Fully unrolled (x16: lc 16 -> 1), the loop's set-up and labels go; the three set-up
  // bundles become NOPs (compaction drops them) and the body is straight-line code.
  AieKernel k;
  std::string error, why;
  ASSERT_TRUE(parse_aie_kernel(kReluLoop, k, error)) << error;
  ASSERT_TRUE(unroll_loop(k, 0, 0, 16, false, why)) << why;
  EXPECT_EQ(inline_single_trip_loops(k), 1);
  const std::string out = print_aie_kernel(k);
  EXPECT_EQ(out.find("ls"), std::string::npos) << out;
  EXPECT_EQ(out.find("top:"), std::string::npos) << out;
  EXPECT_EQ(out.find("end:"), std::string::npos) << out;
  EXPECT_NE(out.find("  MOVXM p1, 475136\n  VCLR x2\n  NOP\n  NOP\n  NOP\n  VLDA w0, [p0], #32\n"), std::string::npos) << out;
  // A loop of 16 iterations is left alone.
  ASSERT_TRUE(parse_aie_kernel(kReluLoop, k, error)) << error;
  EXPECT_EQ(inline_single_trip_loops(k), 0);
}

// ---- offset addressing --------------------------------------------------------------

TEST(AieOffsets, PostModifyChainBecomesOffsetsAndOneUpdate) {
  // Three loads through p0 (+32 each) and a store through p1 (+32 once: left alone):
  // offsets 0, 32, 64 and PADDB [p0], #96 in the last bundle (lda is taken there).
  const std::string in =
      "  VLDA w0, [p0], #32\n"
      "  VLDA w2, [p0], #32\n"
      "  VLDA w4, [p0], #32\n"
      "  VST w6, [p1], #32\n"
      "  DONE\n";
  AieKernel k;
  std::string error;
  ASSERT_TRUE(parse_aie_kernel(in, k, error)) << error;
  EXPECT_EQ(offset_addressing(k), 1);
  EXPECT_EQ(print_aie_kernel(k),
            "  VLDA w0, [p0]\n"
            "  VLDA w2, [p0, #32]\n"
            "  VLDA w4, [p0, #64]\n"
            "  VST w6, [p1], #32\n"
            "  PADDA [p0], #96 ;; DONE\n");
  // Compaction then pairs the independent loads (lda + ldb at cycle 0, the third at 1);
  // the store may alias them (p0, p1 unknown) so it stays at or after the third load
  // (cycle 1, loads read before stores write); the update reads p0 after the loads:
  // cycle 1 on the free ldb.
  compact(k);
  EXPECT_EQ(print_aie_kernel(k),
            "  VLDA w0, [p0] ;; VLDB w2, [p0, #32]\n"
            "  VLDA w4, [p0, #64] ;; PADDB [p0], #96 ;; VST w6, [p1], #32\n"
            "  DONE\n");
}

TEST(AieOffsets, UpdateGoesBeforeAReadOfThePointer) {
  // MOV r16, p0 must see p0 + 64: the chain before it is rewritten and the update gets
  // a bundle of its own just before the MOV.
  const std::string in =
      "  VLDA w0, [p0], #32\n"
      "  VLDA w2, [p0], #32\n"
      "  MOV r16, p0\n"
      "  DONE\n";
  AieKernel k;
  std::string error;
  ASSERT_TRUE(parse_aie_kernel(in, k, error)) << error;
  EXPECT_EQ(offset_addressing(k), 1);
  EXPECT_EQ(print_aie_kernel(k),
            "  VLDA w0, [p0]\n"
            "  VLDA w2, [p0, #32]\n"
            "  PADDA [p0], #64\n"
            "  MOV r16, p0\n"
            "  DONE\n");
}

TEST(AieOffsets, LeavesPointersWrittenOtherwise) {
  // p0 is also set by MOV inside the block: not rewritten.
  const std::string in = "  VLDA w0, [p0], #32\n  MOV p0, r1\n  VLDA w2, [p0], #32\n  VLDA w4, [p0], #32\n  DONE\n";
  AieKernel k;
  std::string error;
  ASSERT_TRUE(parse_aie_kernel(in, k, error)) << error;
  EXPECT_EQ(offset_addressing(k), 0);
  EXPECT_EQ(print_aie_kernel(k), in);
}

// ---- register reallocation ----------------------------------------------------------

TEST(AieRegalloc, SeparatesTwoChainsThatShareARegister) {
  // Two independent conversions both go through bm0: the second chain's bm0 is a new
  // value (its own web) and gets bm1, the first unused accumulator, so the chains no
  // longer wait for each other. w0, w2 (read first) and p1 are live into the block; w4,
  // w6 keep their names (unused elsewhere: their own name is preferred).
  const std::string in =
      "  VCONV.FP32.BF16 bm0, w0\n"
      "  VCONV.BF16.FP32 w4, bm0\n"
      "  VCONV.FP32.BF16 bm0, w2\n"
      "  VCONV.BF16.FP32 w6, bm0\n"
      "  VST w4, [p1, #0]\n"
      "  VST w6, [p1, #32]\n"
      "  DONE\n";
  AieKernel k;
  std::string error;
  ASSERT_TRUE(parse_aie_kernel(in, k, error)) << error;
  EXPECT_EQ(reallocate_registers(k), 1);
  EXPECT_EQ(print_aie_kernel(k),
            "  VCONV.FP32.BF16 bm0, w0\n"
            "  VCONV.BF16.FP32 w4, bm0\n"
            "  VCONV.FP32.BF16 bm1, w2\n"
            "  VCONV.BF16.FP32 w6, bm1\n"
            "  VST w4, [p1, #0]\n"
            "  VST w6, [p1, #32]\n"
            "  DONE\n");
  // Compaction now interleaves them: vec at 0 and 1 (one vec slot), each conversion's
  // reader 4 cycles (srs) later at 4 and 5, the stores (one store slot) at 6 and 7.
  compact(k);
  EXPECT_EQ(print_aie_kernel(k),
            "  VCONV.FP32.BF16 bm0, w0\n"
            "  VCONV.FP32.BF16 bm1, w2\n"
            "  VCONV.BF16.FP32 w4, bm0\n"
            "  VCONV.BF16.FP32 w6, bm1\n"
            "  VST w4, [p1, #0]\n"
            "  VST w6, [p1, #32]\n"
            "  DONE\n");
}

TEST(AieRegalloc, KeepsValuesLiveAfterTheBlock) {
  // bm0's second value is read after the label (live out of the first block): that web
  // is fixed, so its units leave the pool and the first bm0 web (same units) is fixed
  // too; w4 stays w4 (its own name is free). Nothing moves.
  const std::string in =
      "  VCONV.FP32.BF16 bm0, w0\n"
      "  VCONV.BF16.FP32 w4, bm0\n"
      "  VCONV.FP32.BF16 bm0, w2\n"
      "next:\n"
      "  VCONV.BF16.FP32 w6, bm0\n"
      "  DONE\n";
  AieKernel k;
  std::string error;
  ASSERT_TRUE(parse_aie_kernel(in, k, error)) << error;
  EXPECT_EQ(reallocate_registers(k), 0);
  EXPECT_EQ(print_aie_kernel(k), in);
}

// ---- accumulator loads stay on load unit A --------------------------------------------

// AIE2 loads accumulators only through VLDA (isa/aie_ml/aie_ml.yaml: VLDB takes w). The
// compaction re-assembles a load on the other unit only where the ISA accepts it.
TEST(AieCompact, AccumulatorLoadsStayOnLoadUnitA) {
  // Three independent loads: am0 takes lda at cycle 0; w4 goes to the free ldb there
  // (VLDB w4); am1 cannot (no VLDB am), so it waits for lda at cycle 1.
  AieKernel k;
  std::string error;
  const std::string in = "  VLDA am0, [p0]\n  VLDA am1, [p0, #32]\n  VLDA w4, [p1]\n  DONE\n";
  ASSERT_TRUE(parse_aie_kernel(in, k, error)) << error;
  compact(k);
  EXPECT_EQ(print_aie_kernel(k),
            "  VLDA am0, [p0] ;; VLDB w4, [p1]\n"
            "  VLDA am1, [p0, #32]\n"
            "  DONE\n");
}

TEST(AieCandidates, NoCandidateLoadsAnAccumulatorThroughVldb) {
  // A copy loop of two accumulator loads and one vector load per iteration: unrolling,
  // reallocation, offsets and compaction pair loads on lda + ldb wherever they can, which
  // for the accumulators is never (VLDB am is no AIE2 form) but for w0 is (VLDB w0).
  const std::string parent =
      "  MOVXM p0, 458752\n"
      "  MOVXM p1, 475136\n"
      "  MOVXM p2, 466944\n"
      "  MOVXM ls, top\n"
      "  MOVXM le, end\n"
      "  MOVXM lc, 8\n"
      "top:\n"
      "  VLDA am0, [p0], #32\n"
      "  VLDA am1, [p0], #32\n"
      "  VLDA w0, [p2], #32\n"
      "  VST am0, [p1], #32\n"
      "  VST am1, [p1], #32\n"
      "end:\n"
      "  VST w0, [p1], #32\n"
      "  DONE\n";
  SearchContext ctx;  // the default platform: the exposed pipeline, so the parent carries its waits
  ctx.platform = "aie_ml";
  const std::vector<Candidate> candidates =
      generate_aie_candidates(isa::aie_ml::insert_waits(parent, kDefaultStages), ctx);
  ASSERT_GT(candidates.size(), 4u);
  static const std::regex vldb_acc(R"(VLDB\s+(am|bm|cm))");
  static const std::regex vldb_w(R"(VLDB\s+w\d)");
  size_t with_vldb_w = 0;
  for (const Candidate& c : candidates) {
    EXPECT_FALSE(std::regex_search(c.text, vldb_acc)) << c.name << ":\n" << c.text;
    AieKernel k;
    std::string error;
    EXPECT_TRUE(parse_aie_kernel(c.text, k, error)) << c.name << ": " << error;
    with_vldb_w += std::regex_search(c.text, vldb_w);
  }
  EXPECT_GT(with_vldb_w, 0u);
}

TEST(AieCandidates, OnTheExposedPipelineEveryCandidateCarriesItsWaits) {
  // The relu loop reads w0 (in x0) one bundle after loading it: with interlocks that is a
  // stall, on the exposed pipeline a read of the old value. Its insert_waits form has every
  // wait; each candidate of it (compacted, unrolled, ... then the waits put back) must need
  // none added. The form without waits reads in flight: no program-order rewrite of it is
  // offered on the exposed pipeline (it is with interlocks).
  SearchContext exposed;
  exposed.platform = "aie_ml";
  exposed.hardware = {{"config", {{"compute", {{"pipeline", "exposed"}}}}}};
  const std::vector<Candidate> candidates =
      generate_aie_candidates(isa::aie_ml::insert_waits(kReluLoop, kDefaultStages), exposed);
  ASSERT_FALSE(candidates.empty());
  for (const Candidate& c : candidates) {
    AieKernel k;
    std::string error;
    ASSERT_TRUE(parse_aie_kernel(c.text, k, error)) << c.name << ": " << error;
    isa::aie_ml::WaitStats added;
    isa::aie_ml::insert_waits(k, kDefaultStages, &added);
    EXPECT_EQ(added.nops_added, 0) << c.name << ":\n" << c.text;
  }
  EXPECT_TRUE(generate_aie_candidates(kReluLoop, exposed).empty());
  SearchContext by_default;  // no compute.pipeline: the default, exposed
  by_default.platform = "aie_ml";
  EXPECT_TRUE(generate_aie_candidates(kReluLoop, by_default).empty());
  SearchContext interlocked;
  interlocked.platform = "aie_ml";
  interlocked.hardware = {{"config", {{"compute", {{"pipeline", "interlocked"}}}}}};
  EXPECT_FALSE(generate_aie_candidates(kReluLoop, interlocked).empty());
}

}  // namespace
}  // namespace tlmcraft::agent::search::aie
