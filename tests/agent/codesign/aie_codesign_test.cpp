// The AIE-ML co-design adapter (platforms/aie_ml/pack/agent/aie_codesign.h): `mine` on a
// hand-built kernel, and `explore` on two real tasks with one candidate, every figure
// derived by hand from the kernels and the ISA's latencies (isa/aie_ml/aie_ml.yaml: vmac
// 6, vacc 3 cycles) in the comments.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "agent/codesign/explorer.h"
#include "agent/codesign/miner.h"
#include "isa/aie_ml/bundle_schedule.h"
#include "isa/aie_ml/program_text.h"
#include "isa/aie_ml/wait_insertion.h"
#include "platforms/aie_ml/aie_config.h"
#include "platforms/aie_ml/pack/agent/aie_dataflow.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft::agent::codesign {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const json kHardware = {{"platform", "aie_ml"}, {"config", json::object()}};
// kKernel below is written in program order: rewritten as it is only with interlocks.
const json kInterlockedHardware = {{"platform", "aie_ml"}, {"config", {{"compute", {{"pipeline", "interlocked"}}}}}};

// Loop A (zero-overhead, lc = 12: 12 iterations): bm3 = w0 * w2 + bm2 through the temp
// bm1 (written again before any read in the next iteration, dead after the loop), bm3
// stored: one candidate, inputs w0, w2, bm2 (3: the vec slot's `added_op_ports` reads),
// output bm3. Loop B (5 iterations): bm7 = bm5 + w10 * w12 with bm5 = w6 * w8: the pair
// has four inputs (w6, w8, w10, w12), over the 3 read ports: not proposed. A store and the
// loop registers are no part of a candidate.
const char* kKernel = R"(.tile 0 0
  MOVXM ls, a_top
  MOVXM le, a_end
  MOVXM lc, 12
a_top:
  VMUL.E.BF16 bm1, w0, w2
  VADD.F bm3, bm1, bm2
a_end:
  VST.CONV.BF16.FP32 bm3, [p1], #32
  MOVXM ls, b_top
  MOVXM le, b_end
  MOVXM lc, 5
b_top:
  VMUL.E.BF16 bm5, w6, w8
  VMAC.E.BF16 bm7, bm5, w10, w12
b_end:
  VST.CONV.BF16.FP32 bm7, [p1], #32
  DONE
)";

const DataflowAdapter& aie() {
  const DataflowAdapter* a = find_dataflow_adapter("aie_ml");
  if (!a) throw std::runtime_error("no aie_ml adapter");
  return *a;
}

TEST(AieCodesign, MinesTheRepeatedPatternWithItsCountWithinThePorts) {
  EXPECT_EQ(aie().limits.read_ports, 3);  // added_op_ports in aie_ml.yaml: vec 3/1, alu 3/1
  EXPECT_EQ(aie().limits.write_ports, 1);
  const auto found = mine(aie(), {{"hand/C1", "hand.aie", kKernel, kHardware}}, {10});
  ASSERT_EQ(found.size(), 1u);
  // (VADD.F's operands commute: the smaller of "t0, in2" and "in2, t0" names the pattern.)
  EXPECT_EQ(found[0].signature, "VMUL.E.BF16 t0, in0, in1\nVADD.F out0, in2, t0\n");
  EXPECT_EQ(found[0].dynamic_instances, 12u);
  EXPECT_EQ(found[0].kernels.at("hand/C1"), 12u);
  EXPECT_EQ(found[0].pattern.inputs, (std::vector<std::string>{"in0", "in1", "in2"}));
  EXPECT_EQ(found[0].pattern.outputs, (std::vector<std::string>{"out0"}));
  // Steps: VMUL (vmac, 6) then VADD.F (vacc, 3) on its result: 9 cycles from the inputs
  // to bm3 back to back; the added op, one pass of the datapath (isa/aie_ml/
  // fused_latency.h): the VMUL's 6 stages less its register write, 5, then the VADD.F's 3
  // less its register read, 2: 7. 12 x (9 - 7) = 24.
  EXPECT_EQ(found[0].cost.step_cycles, 9.0);
  EXPECT_EQ(found[0].cost.fused_cycles, 7.0);
  EXPECT_EQ(found[0].cycles_saved, 24.0);
  // Area: the MAC (16 bf16 MACs) and the add (16 32-bit lane adds) are each the slot's
  // first use of its operator (reused); the temp bm1 adds 512 bits x (flip-flop 4.522 +
  // mux 1.862 um2) = 3268.608 um2 per core; every one of the default array's 4 x 4 compute
  // tiles gets the op: 16 x 3268.608 = 52297.728 um2.
  EXPECT_NEAR(found[0].cost.area_mm2, 0.052297728, 1e-12);
}

TEST(AieCodesign, ThePortLimitIsWhatLeavesTheFourInputPairOut) {
  DataflowAdapter wider = aie();
  wider.limits.read_ports = 4;
  const auto found = mine(wider, {{"hand/C1", "hand.aie", kKernel, kHardware}}, {10});
  ASSERT_EQ(found.size(), 2u);
  // Loop B's pair, 5 times: VMUL (6) then VMAC (6) on its result as the accumulator, read
  // in stage 3: back to back the VMAC issues 6 - 2 = 4 after the VMUL, 4 + 6 = 10; one
  // pass 5 (the VMUL less its write) + 3 (the VMAC's stages 3..6 less the read) = 8;
  // 10 - 8 = 2 each: 10. Loop A's 24 first.
  EXPECT_EQ(found[1].signature, "VMUL.E.BF16 t0, in0, in1\nVMAC.E.BF16 out0, t0, in2, in3\n");
  EXPECT_EQ(found[1].dynamic_instances, 5u);
  EXPECT_EQ(found[1].cost.step_cycles, 10.0);
  EXPECT_EQ(found[1].cost.fused_cycles, 8.0);
  EXPECT_EQ(found[1].cycles_saved, 10.0);
}

TEST(AieCodesign, TheOverlayLoadsWithTheComposedOpOnTheVectorSlot) {
  const auto found = mine(aie(), {{"hand/C1", "hand.aie", kKernel, kHardware}}, {10});
  ASSERT_EQ(found.size(), 1u);
  const json doc = candidates_document(aie(), "aie_ml", found, "CD");
  const json& op = doc["candidates"][0]["overlay"]["ops"][0];
  EXPECT_EQ(op["mnemonic"], "CD0");
  EXPECT_EQ(op["slot"], "vec");
  EXPECT_EQ(op["latency"], 7);  // the one-pass latency above
  EXPECT_EQ(op["compose"]["steps"], json({"VMUL.E.BF16 t0, in0, in1", "VADD.F out0, in2, t0"}));
  EXPECT_EQ(op["operands"][0], json({{"name", "out0"}, {"class", "bm"}, {"role", "write"}}));
  EXPECT_EQ(op["operands"][1], json({{"name", "in0"}, {"class", "w"}}));
  EXPECT_EQ(op["operands"][3], json({{"name", "in2"}, {"class", "bm"}}));
  // The overlay loads (the ISA's own checks) and prices as the miner did.
  EXPECT_NEAR(aie().overlay_area(doc["candidates"][0]["overlay"], kHardware), found[0].cost.area_mm2, 1e-12);
  // The kernel rewritten: the pair of loop A becomes CD0 in the store's place (12 runs).
  const KernelRewrite r = aie().use_overlay(kKernel, doc["candidates"][0]["overlay"], kInterlockedHardware);
  ASSERT_TRUE(r.uses.count("CD0")) << r.kernel;
  EXPECT_EQ(r.uses.at("CD0").static_count, 1);
  EXPECT_EQ(r.uses.at("CD0").executions, 12u);
  // The VMUL leaves its bundle; the loop's start label names it, so it stays as a NOP.
  EXPECT_NE(r.kernel.find("a_top:\n  NOP\n  CD0 bm3, w0, w2, bm2\na_end:\n  VST.CONV.BF16.FP32 bm3, [p1], #32\n"),
            std::string::npos)
      << r.kernel;
}

std::string parse_error(const std::string& kernel) {
  try {
    (void)aie().parse(kernel, "bad.aie", kHardware);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(AieCodesign, KernelsItCannotReadAreNamedWithTheReason) {
  // A wrong operand count: the assembler's message at its line and column.
  EXPECT_EQ(parse_error(".tile 0 0\n  VADD.F bm1, bm2\n  DONE\n"),
            "bad.aie:2:3: error: 'VADD.F' takes 3 operands, got 2 (hint: syntax: VADD.F bm, bm, bm)");
  // A program that never stops: its executions cannot be counted (the adapter allows 50
  // million bundles per tile; 1000 here, the same check).
  isa::aie_ml::AieKernel k;
  std::string error;
  ASSERT_TRUE(isa::aie_ml::parse_aie_kernel(".tile 0 0\nl:\n  J l\n", k, error)) << error;
  try {
    (void)search::aie::bundle_executions(k.tiles[0], 0, "bad.aie", 1000);
    FAIL() << "a program that never stops was counted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "bad.aie: the core program did not stop within 1000 bundles (its loop counts are not known)");
  }
}

// VMULS.E.BF16 (docs/isa-extensions.md, AIE-ML): t = a hi; d = t + a lo.
json split_product_overlay() {
  json op = {{"mnemonic", "VMULS.E.BF16"},
             {"slot", "vec"},
             {"latency", 6},
             {"operands",
              {{{"name", "d"}, {"class", "bm"}, {"role", "write"}},
               {{"name", "a"}, {"class", "w"}},
               {{"name", "hi"}, {"class", "w"}},
               {{"name", "lo"}, {"class", "w"}}}},
             {"compose",
              {{"temps", {{{"name", "t"}, {"class", "bm"}}}},
               {"steps", {"VMUL.E.BF16 t, a, hi", "VMAC.E.BF16 d, t, a, lo"}}}}};
  return {{"isa", "aie_ml"}, {"ops", {op}}};
}

TEST(AieCodesign, ExploreOnTwoTasksWithOneCandidate) {
  const fs::path dir = fs::temp_directory_path() / ("tlm_aie_explore_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  std::vector<SuiteCell> cells;
  for (const char* task : {"silu", "gelu"})
    cells.push_back({task, "C1",
                     tasks::baseline_kernel(tasks::Registry::builtin().instance(task, "aie_ml", "C1"), json::object()),
                     ".asm"});  // the name `bench --kernels` looks for (the baselines' own)
  const json overlay = split_product_overlay();
  // Area: the second step's 16 bf16 MACs (multiplier 1640 + fp32 adder 4184 um2 each) and
  // the temp's 512 bits x 6.384 um2: 93184 + 3268.608 um2 per core, on 16 compute tiles.
  const double area = aie().overlay_area(overlay, kHardware);
  EXPECT_NEAR(area, 16 * 0.096452608, 1e-12);
  SuiteRunner bench = [](const std::string& kernels, const std::string& ov, const std::string& results) {
    std::string cmd = std::string(TLMCRAFT_BINARY_DIR) +
                      "/harness/tlmcraft bench --platform aie_ml --quiet --json "
                      "--jobs 1 --kernels '" +
                      kernels + "' --out '" + results + "'";
    if (!ov.empty()) cmd += " --isa-ext '" + ov + "'";
    cmd += " > '" + results + ".log' 2>&1";
    if (std::system(cmd.c_str()) == -1) throw std::runtime_error("cannot run bench");
    return results;
  };
  ExploreOptions o;
  o.platform = "aie_ml";
  o.out_dir = dir.string();
  o.base_area_mm2 = 1.0;
  o.area_budget_mm2 = 2.0;
  o.hardware = kHardware;
  const ExploreResult r = explore(aie(), {{"CD0", overlay, area}}, cells, bench, o);
  ASSERT_EQ(r.variants.size(), 2u);
  const VariantResult& base = r.variants[0];
  const VariantResult& cd0 = r.variants[1];
  ASSERT_TRUE(base.ok) << (base.failures.empty() ? "" : base.failures[0]);
  ASSERT_TRUE(cd0.ok) << (cd0.failures.empty() ? "" : cd0.failures[0]);  // every rewritten kernel passes, fresh seeds
  // Uses: the loop bodies (16 iterations each) hold 8 (silu) and 10 (gelu) pairs
  // `VMUL.E.BF16 t, x, y ; VMAC.E.BF16 t, t, z, x|y` sharing a factor (listed in
  // tests/agent/search/aie_added_ops_test.cpp; the shared factor in either position:
  // commutative): 18 placed, 18 x 16 = 288 executions.
  EXPECT_EQ(cd0.uses.at("VMULS.E.BF16").static_count, 18);
  EXPECT_EQ(cd0.uses.at("VMULS.E.BF16").executions, 288u);
  // Cycles: each pair's result was read 10 cycles after the VMUL issued (the VMAC reads
  // the product as its accumulator input 2 cycles after issue, so waits 4; its result takes
  // 6 more) and is now read 6 after the VMULS (whose second operand, a vector, is read at
  // issue), in these one-op-per-bundle chains: 4 cycles per execution: silu 8 x 16 x 4 =
  // 512, gelu 10 x 16 x 4 = 640 fewer.
  EXPECT_EQ(base.cycles.at("silu/C1") - cd0.cycles.at("silu/C1"), 512.0);
  EXPECT_EQ(base.cycles.at("gelu/C1") - cd0.cycles.at("gelu/C1"), 640.0);
  const double s = base.cycles.at("silu/C1"), g = base.cycles.at("gelu/C1");
  EXPECT_NEAR(geomean_speedup(base, cd0), std::sqrt(s / (s - 512) * g / (g - 640)), 1e-12);
  // Break-even latency: 6 declared + (512 + 640) / 288 = 10.
  EXPECT_EQ(r.summary["instructions"]["CD0"]["break_even_latency"], 10.0);
  fs::remove_all(dir);
}

// --kernel-generation search (aie_search_kernel): the search agent's transformations, each
// round the candidate of the lowest static estimate.
TEST(AieCodesign, SearchKernelCompactsByTheStaticEstimate) {
  // Four independent ops of four slots (lda, ldb, alu, vec): one bundle, then DONE (which
  // keeps a bundle of its own, the block's last): estimate 2 cycles instead of 5 (one op
  // per cycle, DONE at 4). Nothing waits for the loads' or the VMUL's results.
  const char* straight =
      ".tile 0 0\n  VMUL.E.BF16 bm1, w0, w2\n  ADD r1, r2, r3\n  VLDA w4, [p0], #32\n  VLDB w6, [p1], #32\n  DONE\n";
  const KernelRewrite r = aie().search_kernel(straight, json::object(), kHardware);
  EXPECT_EQ(
      r.kernel,
      ".tile 0 0\n  VLDA w4, [p0], #32 ;; VLDB w6, [p1], #32 ;; ADD r1, r2, r3 ;; VMUL.E.BF16 bm1, w0, w2\n  DONE\n");
  EXPECT_TRUE(r.uses.empty());
  isa::aie_ml::AieKernel before, after;
  std::string error;
  ASSERT_TRUE(isa::aie_ml::parse_aie_kernel(straight, before, error)) << error;
  ASSERT_TRUE(isa::aie_ml::parse_aie_kernel(r.kernel, after, error)) << error;
  EXPECT_EQ(isa::aie_ml::estimate_cycles(before), 5.0);
  EXPECT_EQ(isa::aie_ml::estimate_cycles(after), 2.0);
  // Nothing left to improve: the kernel comes back as it is.
  EXPECT_EQ(aie().search_kernel(r.kernel, json::object(), kHardware).kernel, r.kernel);
  // A tie is no improvement: VMUL and ADD share a bundle, but the store still waits for
  // bm1 (6 cycles) and DONE follows: 8 cycles either way, the kernel is kept.
  const char* bound =
      ".tile 0 0\n  VMUL.E.BF16 bm1, w0, w2\n  ADD r1, r2, r3\n"
      "  VST.CONV.BF16.FP32 bm1, [p1], #32\n  DONE\n";
  EXPECT_EQ(aie().search_kernel(bound, json::object(), kHardware).kernel, bound);
}

TEST(AieCodesign, SearchKernelCountsTheAddedOpsOfTheKernelItReturns) {
  // The kernel with the waits the exposed pipeline (the default) needs: use_overlay and
  // the search drop them, rewrite, and put them back.
  const std::string kernel =
      isa::aie_ml::insert_waits(kKernel, ::tlmcraft::aie_ml::read_stages_in(kHardware["config"]));
  const auto found = mine(aie(), {{"hand/C1", "hand.aie", kernel, kHardware}}, {10});
  ASSERT_EQ(found.size(), 1u);
  const json overlay = candidates_document(aie(), "aie_ml", found, "CD")["candidates"][0]["overlay"];
  const KernelRewrite rewritten = aie().use_overlay(kernel, overlay, kHardware);
  const KernelRewrite r = aie().search_kernel(rewritten.kernel, overlay, kHardware);
  // However the loops are unrolled, loop A's CD0 runs 12 times in all (one per original
  // iteration); its static count is the copies in the text.
  ASSERT_TRUE(r.uses.count("CD0"));
  EXPECT_EQ(r.uses.at("CD0").executions, 12u);
  size_t copies = 0;
  for (size_t at = r.kernel.find("CD0 "); at != std::string::npos; at = r.kernel.find("CD0 ", at + 1)) ++copies;
  EXPECT_EQ(size_t(r.uses.at("CD0").static_count), copies);
  // The estimate picks the full unrolling of loop A (12 iterations, at most 16: the loop
  // is inlined), its 12 renamed copies overlapping: 12 copies of CD0.
  EXPECT_EQ(r.uses.at("CD0").static_count, 12);
}

TEST(AieCodesign, ExploreRefusesAKernelGenerationItDoesNotKnow) {
  ExploreOptions o;
  o.platform = "aie_ml";
  o.out_dir = (fs::temp_directory_path() / ("tlm_aie_gen_" + std::to_string(::getpid()))).string();
  o.area_budget_mm2 = 1;
  o.kernel_generation = "llm";
  SuiteRunner none = [](const std::string&, const std::string&, const std::string& r) { return r; };
  try {
    Exploration e(aie(), {}, {}, none, o);
    FAIL() << "an unknown kernel generation was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown kernel generation 'llm' (rewrite or search)");
  }
  DataflowAdapter without = aie();
  without.search_kernel = nullptr;
  o.kernel_generation = "search";
  try {
    Exploration e(without, {}, {}, none, o);
    FAIL() << "search without the platform's transformations was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "platform 'aie_ml' has no search transformations for --kernel-generation search");
  }
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
