// PLENA's search region by region (platforms/plena/pack/agent/plena_search.h,
// plena_regions.h): a kernel of two loop nests, where CD0 (exp then + f1, in place) can be
// placed in the first only. The base's search runs both regions; the variant's runs the
// first only (the second's search is the base's, from the memo); the assembled kernel is
// what the whole kernel's search gives (the search is region-local here) and runs on fresh
// inputs exactly as the kernel does. Cycles: PLENA serial timing, default latencies (every
// instruction here 1 cycle, a loop 1 + iterations x (body + 1)); CD0's class is its
// slowest step's, 1.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "agent/codesign/overlay_scope.h"
#include "agent/codesign/overlay_yaml.h"
#include "agent/search/search_transformations.h"
#include "platforms/plena/pack/agent/plena_candidates.h"
#include "platforms/plena/pack/agent/plena_region_memo.h"
#include "platforms/plena/pack/agent/plena_regions.h"
#include "platforms/plena/pack/agent/plena_search.h"
#include "tests/agent/codesign/plena_search_fixtures.h"
#include "tests/unique_temp_dir.h"

namespace tlmcraft::agent::codesign {
namespace {

namespace fs = std::filesystem;
namespace plena = search::plena;
using nlohmann::json;

using test_plena::kExe;
using test_plena::kHardware;
using test_plena::mined_overlay;

// exp then + f1 on row 64, 4 times (CD0 is mined from it), then exp alone on row 128,
// 3 times: the second nest has no add, so CD0 can never be placed there.
const char* kTwoNests = R"(S_ADDI_INT gp1, gp0, 64
C_LOOP_START gp6, 4
  V_EXP_V gp1, gp1, 0
  V_ADD_VF gp1, gp1, f1, 0
C_LOOP_END gp6
S_ADDI_INT gp2, gp0, 128
C_LOOP_START gp7, 3
  V_EXP_V gp2, gp2, 0
C_LOOP_END gp7
)";

const DataflowAdapter& adapter() { return test_plena::plena(); }

// A kernel searched under `overlay` on `hardware`, with the number of region searches it ran.
struct RegionCountedSearch {
  KernelRewrite rewrite;
  size_t region_searches;
};
RegionCountedSearch search_counting_regions(const std::string& kernel, const json& overlay,
                                            const json& hardware = kHardware) {
  const size_t before = plena::plena_region_searches();
  KernelRewrite rewrite = adapter().search_kernel(kernel, overlay, hardware);
  return {std::move(rewrite), plena::plena_region_searches() - before};
}

// The search of the whole kernel as one region (the search before regions): at most
// kSearchRounds rounds of the lowest-estimate candidate.
std::string whole_kernel_search(const std::string& kernel) {
  search::SearchContext ctx;
  ctx.platform = "plena";
  ctx.hardware = kHardware;
  ctx.max_instructions = plena::kSearchMaxInstructions;
  plena::Kernel k;
  std::string error;
  EXPECT_TRUE(plena::parse_kernel(kernel, k, error)) << error;
  double best = plena::estimate_cycles(k.code, plena::arch_of(kHardware));
  std::string out = kernel;
  for (int round = 0; round < plena::kSearchRounds; ++round) {
    const auto next = plena::generate_plena_candidates(out, ctx);
    if (next.empty() || !(next.front().estimate < best)) break;
    best = next.front().estimate;
    out = next.front().text;
  }
  return out;
}

struct Dir : test::UniqueTempDir {
  Dir() : UniqueTempDir("plena-region-search") {}
  // `tlmcraft run` of the kernel (serial timing), with the overlay when given: its cycles.
  int64_t cycles(const std::string& kernel, const json& overlay = json()) const {
    return run(kernel, overlay, "").value("cycles", int64_t(-1));
  }
  // The kernel evaluated as softmax C1 on the task's inputs drawn from `seed` (3 trials).
  json task_run(const std::string& kernel, const json& overlay, uint64_t seed) const {
    return run(kernel, overlay, "--task softmax --config C1 --seed " + std::to_string(seed));
  }
  json run(const std::string& kernel, const json& overlay, const std::string& options) const {
    const std::string out = file("stdout");
    std::string cmd = "'" + kExe + "' run --platform plena --json " + options + " '" + write("k.asm", kernel) + "'";
    if (!overlay.is_null()) cmd += " --isa-ext '" + write("o.yaml", to_yaml(overlay)) + "'";
    const int status = std::system((cmd + " > '" + out + "'").c_str());
    EXPECT_TRUE(WIFEXITED(status)) << cmd;
    std::ifstream in(out);
    return json::parse(in, nullptr, false);
  }
};

TEST(PlenaRegionSearch, SplitsAKernelAfterEachTopLevelLoop) {
  plena::Kernel k;
  std::string error;
  ASSERT_TRUE(plena::parse_kernel(kTwoNests, k, error)) << error;
  const auto regions = plena::split_regions(k, plena::arch_of(kHardware));
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(plena::region_text(regions[0]),
            "S_ADDI_INT gp1, gp0, 64\nC_LOOP_START gp6, 4\n  V_EXP_V gp1, gp1, 0\n  V_ADD_VF gp1, gp1, f1, 0\n"
            "C_LOOP_END gp6\n");
  // After the first region only the vector mask is read (V_EXP_V reads it; the second sets
  // gp2 itself); the first must not take gp2 or gp7 for a renamed set-up.
  EXPECT_EQ(plena::surroundings_text(regions[0].around),
            "region; live after: V_MASK; gp outside: 0 2 7; MSRAM tiles outside:; accumulations closed: yes\n");
  EXPECT_EQ(plena::surroundings_text(regions[1].around),
            "region; live after:; gp outside: 0 1 6; MSRAM tiles outside:; accumulations closed: yes\n");
  // A kernel of one nest is one region, the whole kernel.
  ASSERT_TRUE(plena::parse_kernel("C_LOOP_START gp6, 2\n  V_EXP_V gp0, gp0, 0\nC_LOOP_END gp6\n", k, error));
  const auto one = plena::split_regions(k, plena::arch_of(kHardware));
  ASSERT_EQ(one.size(), 1u);
  EXPECT_FALSE(one[0].around.is_region);
}

// A register the code after a region reads stays live in the region's search: the set-up
// of gp3 is dead within the first region alone but read by the second.
TEST(PlenaRegionSearch, AValueTheNextRegionReadsIsKept) {
  const char* kernel = R"(S_ADDI_INT gp3, gp0, 192
C_LOOP_START gp6, 2
  V_EXP_V gp1, gp1, 0
C_LOOP_END gp6
C_LOOP_START gp7, 2
  V_EXP_V gp3, gp3, 0
C_LOOP_END gp7
)";
  plena::Kernel k;
  std::string error;
  ASSERT_TRUE(plena::parse_kernel(kernel, k, error)) << error;
  const auto regions = plena::split_regions(k, plena::arch_of(kHardware));
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(plena::surroundings_text(regions[0].around),
            "region; live after: gp3 V_MASK; gp outside: 3 7; MSRAM tiles outside:; accumulations closed: yes\n");
  const KernelRewrite r = adapter().search_kernel(kernel, json::object(), kHardware);
  // Both loops unrolled (estimate 1 + 5 + 5 = 11 -> 1 + 2 + 2 = 5), gp3's set-up kept.
  EXPECT_EQ(r.kernel,
            "S_ADDI_INT gp3, gp0, 192\nV_EXP_V gp1, gp1, 0\nV_EXP_V gp1, gp1, 0\nV_EXP_V gp3, gp3, 0\n"
            "V_EXP_V gp3, gp3, 0\n");
}

TEST(PlenaRegionSearch, AVariantSearchesOnlyTheNestItsInstructionCanBePlacedIn) {
  const json overlay = mined_overlay(kTwoNests);
  ASSERT_EQ(overlay["instructions"][0]["compose"]["steps"], json({"V_EXP_V t0, rs1, 0", "V_ADD_VF rd, t0, rs2, 0"}));
  plena::set_region_memo_dir("");  // memory only: the counts below are this test's
  // The base (shipped ISA): both regions searched, each loop unrolled fully (the first:
  // 1 + (1 + 4 x 3) = 14 -> 1 + 8 = 9; the second: 1 + (1 + 3 x 2) = 8 -> 1 + 3 = 4).
  const auto [base, base_searches] = search_counting_regions(kTwoNests, json::object());
  EXPECT_EQ(base_searches, 2u);
  // The variant: only the first region can place CD0; the second's search is the base's.
  const auto [variant, variant_searches] = search_counting_regions(kTwoNests, overlay);
  EXPECT_EQ(variant_searches, 1u);
  // First region: unrolled (9), then CD0 in each copy: 1 + 4 = 5.
  EXPECT_EQ(variant.kernel,
            "S_ADDI_INT gp1, gp0, 64\n"
            "CD0 gp1, gp1, f1                     ; was 2 instructions\n"
            "CD0 gp1, gp1, f1                     ; was 2 instructions\n"
            "CD0 gp1, gp1, f1                     ; was 2 instructions\n"
            "CD0 gp1, gp1, f1                     ; was 2 instructions\n"
            "S_ADDI_INT gp2, gp0, 128\nV_EXP_V gp2, gp2, 0\nV_EXP_V gp2, gp2, 0\nV_EXP_V gp2, gp2, 0\n");
  ASSERT_EQ(variant.uses.count("CD0"), 1u);
  EXPECT_EQ(variant.uses.at("CD0").static_count, 4);
  EXPECT_EQ(variant.uses.at("CD0").executions, 4u);
  // The search is region-local here: the whole kernel's search (one region) gives the same.
  {
    const auto scope = std::make_unique<ScopedOverlay>(overlay, "plena");
    EXPECT_EQ(whole_kernel_search(kTwoNests), variant.kernel);
  }
  EXPECT_EQ(whole_kernel_search(kTwoNests), base.kernel);
  // A rerun searches nothing.
  const RegionCountedSearch rerun = search_counting_regions(kTwoNests, overlay);
  EXPECT_EQ(rerun.rewrite.kernel, variant.kernel);
  EXPECT_EQ(rerun.region_searches, 0u);
  // The cycles of the assembled kernel's own run: 1 + 4 + 1 + 3 = 9 (as written: 1 + 13 + 1
  // + 7 = 22; the base's: 1 + 8 + 1 + 3 = 13).
  Dir d;
  EXPECT_EQ(d.cycles(kTwoNests), 22);
  EXPECT_EQ(d.cycles(base.kernel), 13);
  EXPECT_EQ(d.cycles(variant.kernel, overlay), 9);
}

// The kernel grows to at most kSearchMaxInstructions in all, as the whole kernel's search
// allows, not that much per region: two nests of n iterations of one instruction (static
// size 2 + 2 x 3 = 8). Each region gets its own 4 plus half of the 1024 - 8 left: 512
// static instructions. At n = 400 both unroll fully (2 x (1 + 400) = 802); at n = 600
// neither may (1 + 600 > 512), and the kernel stays under 1024 instead of growing to 1202.
TEST(PlenaRegionSearch, TheKernelGrowsNoMoreThanTheWholeKernelsSearchAllows) {
  plena::set_region_memo_dir("");
  for (const int n : {400, 600}) {
    const std::string count = std::to_string(n);
    const std::string kernel = "S_ADDI_INT gp1, gp0, 64\nC_LOOP_START gp6, " + count +
                               "\n  V_EXP_V gp1, gp1, 0\nC_LOOP_END gp6\nS_ADDI_INT gp2, gp0, 128\nC_LOOP_START gp7, " +
                               count + "\n  V_EXP_V gp2, gp2, 0\nC_LOOP_END gp7\n";
    plena::Kernel k;
    std::string error;
    ASSERT_TRUE(plena::parse_kernel(adapter().search_kernel(kernel, json::object(), kHardware).kernel, k, error))
        << error;
    EXPECT_LE(plena::static_size(k.code), plena::kSearchMaxInstructions) << n;
    if (n == 400) EXPECT_EQ(plena::static_size(k.code), 802u);
  }
}

// A suite kernel: softmax C1's baseline, 3 nests (max, exp(x - m) with the sums, scale) in
// 4 regions (the store after the last nest). SX0 (subtract then exp, in place) can be
// placed in the second nest only: the variant searches that region alone, and the kernel
// it gives passes on fresh inputs, faster than the base's.
TEST(PlenaRegionSearch, ASuiteKernelsVariantSearchesOneRegionAndPassesOnFreshSeeds) {
  Dir d;
  const std::string out = d.file("baseline.asm");
  ASSERT_EQ(
      std::system(("'" + kExe + "' baseline --platform plena --task softmax --config C1 > '" + out + "'").c_str()), 0);
  std::ifstream in(out);
  const std::string kernel((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const json overlay = mined_overlay(
      "S_ADDI_INT gp1, gp0, 64\nC_LOOP_START gp6, 4\n  V_SUB_VF gp1, gp1, f2, 0, 0\n  V_EXP_V gp1, gp1, 0\n"
      "C_LOOP_END gp6\n",
      "SX");
  ASSERT_EQ(overlay["instructions"][0]["compose"]["steps"], json({"V_SUB_VF t0, rs1, rs2, 0, 0", "V_EXP_V rd, t0, 0"}));
  plena::set_region_memo_dir("");
  const auto [base, base_searches] = search_counting_regions(kernel, json::object());
  EXPECT_EQ(base_searches, 4u);
  const auto [variant, variant_searches] = search_counting_regions(kernel, overlay);
  EXPECT_EQ(variant_searches, 1u);
  ASSERT_EQ(variant.uses.count("SX0"), 1u);
  // Once per row but the first: the search's simplify reads row 0 through gp0, a literal
  // address to the dataflow, out of "use SX0"'s reach (docs/codesign.md).
  EXPECT_EQ(variant.uses.at("SX0").executions, 3u);
  {
    const auto scope = std::make_unique<ScopedOverlay>(overlay, "plena");
    EXPECT_EQ(whole_kernel_search(kernel), variant.kernel);
  }
  EXPECT_EQ(whole_kernel_search(kernel), base.kernel);
  // Fresh inputs (the task's random tensors from a seed of the operating system's), 3
  // trials each: both pass; PLENA's cycles do not depend on the data.
  std::random_device fresh;
  const uint64_t seed = ((uint64_t(fresh()) << 32) | fresh()) >> 1;
  const json b = d.task_run(base.kernel, json(), seed), v = d.task_run(variant.kernel, overlay, seed);
  EXPECT_EQ(b.value("status", ""), "pass") << b.dump();
  EXPECT_EQ(v.value("status", ""), "pass") << v.dump();
  // SX0 does in one cycle what took two, 3 times: 3 cycles fewer.
  EXPECT_EQ(v.value("cycles", int64_t(0)), b.value("cycles", int64_t(0)) - 3);
}

// The code after a region may read any row (the region cannot name rows through the
// registers it gets), so a row written last in the region is never a temporary there. Both
// loops unrolled, each pair exp into row 128, then + f1 into row 192: the first pair's
// temporary is overwritten by the second exp, so CD0 replaces it; the second pair's is
// read by the next nest (row 128): kept, as the whole kernel's search keeps it. Where the
// next nest reads row 256 instead, the whole kernel's search fuses the second pair too;
// the region's search does not (docs/codesign.md, how it differs).
TEST(PlenaRegionSearch, ARowTheNextRegionMayReadIsNoTemporary) {
  const json overlay = mined_overlay(kTwoNests);
  auto kernel = [](const std::string& row_read_after) {
    return "S_ADDI_INT gp1, gp0, 64\nS_ADDI_INT gp2, gp0, 128\nS_ADDI_INT gp3, gp0, 192\n"
           "C_LOOP_START gp6, 2\n  V_EXP_V gp2, gp1, 0\n  V_ADD_VF gp3, gp2, f1, 0\nC_LOOP_END gp6\n"
           "S_ADDI_INT gp4, gp0, " +
           row_read_after + "\nC_LOOP_START gp7, 2\n  V_EXP_V gp5, gp4, 0\nC_LOOP_END gp7\n";
  };
  const KernelRewrite read = adapter().search_kernel(kernel("128"), overlay, kHardware);
  ASSERT_EQ(read.uses.count("CD0"), 1u) << read.kernel;
  EXPECT_EQ(read.uses.at("CD0").executions, 1u);
  const KernelRewrite other = adapter().search_kernel(kernel("256"), overlay, kHardware);
  ASSERT_EQ(other.uses.count("CD0"), 1u) << other.kernel;
  EXPECT_EQ(other.uses.at("CD0").executions, 1u);
  const auto scope = std::make_unique<ScopedOverlay>(overlay, "plena");
  EXPECT_EQ(read.kernel, whole_kernel_search(kernel("128")));
  const std::string whole = whole_kernel_search(kernel("256"));
  EXPECT_EQ(whole.find("V_ADD_VF"), std::string::npos) << whole;  // both pairs fused
}

// The memo's directory (explore's DIR/search_cache/regions/) holds one file per region
// searched (a configuration of this test's own, so none is in memory already).
TEST(PlenaRegionSearch, TheMemoKeepsOneFilePerRegionSearchInItsDirectory) {
  Dir d;
  const fs::path dir = fs::path(d.file("memo"));
  auto searches = [](const json& hardware) {
    return search_counting_regions(kTwoNests, json::object(), hardware).region_searches;
  };
  auto files = [&] {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".asm" ? 1 : 0;
    return n;
  };
  adapter().search_memo_dir(dir.string());
  EXPECT_EQ(searches(kHardware), 2u);
  EXPECT_EQ(files(), 2u);
  // Another configuration (the same arch, mlen written out) is another key: both again.
  const json other = {{"platform", "plena"}, {"config", {{"arch", {{"vlen", 64}, {"mlen", 64}}}}}};
  EXPECT_EQ(searches(other), 2u);
  EXPECT_EQ(files(), 4u);
  // A file holds the searched region's text (the second nest unrolled).
  bool unrolled = false;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    unrolled |= text == "S_ADDI_INT gp2, gp0, 128\nV_EXP_V gp2, gp2, 0\nV_EXP_V gp2, gp2, 0\nV_EXP_V gp2, gp2, 0\n";
  }
  EXPECT_TRUE(unrolled);
  // Memory dropped, read back from the files alone (a resumed exploration): none searched.
  plena::set_region_memo_dir(dir.string());
  EXPECT_EQ(searches(kHardware), 0u);
  EXPECT_EQ(searches(other), 0u);
  plena::set_region_memo_dir("");
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
