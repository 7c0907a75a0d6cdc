// `codesign explore --kernel-generation search` on PLENA (platforms/plena/pack/agent/
// plena_search.h): the search agent's transformations under the variant's ISA, chosen by
// the static estimate. A chain split by a loop of one iteration is out of the rewrite's
// reach (a loop boundary is a barrier) but the search removes the loop (simplify) and then
// places the instruction ("use CD0"). Cycles: PLENA serial timing, default latencies
// (S_ADDI_INT, V_EXP_V, V_ADD_VF, C_LOOP_START and C_LOOP_END 1 cycle each, a loop costing
// 1 + iterations x (body + 1)); the fused instruction's class is its slowest step's, 1.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "agent/codesign/explorer.h"
#include "agent/codesign/miner.h"
#include "agent/codesign/overlay_yaml.h"
#include "tests/agent/codesign/plena_search_fixtures.h"
#include "tests/unique_temp_dir.h"

namespace tlmcraft::agent::codesign {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using test_plena::kExe;
using test_plena::kHardware;
using test_plena::mined_overlay;
using test_plena::plena;

// exp then + f1, in place on row 0, 4 times: the candidate is mined from this kernel.
const char* kChain = R"(S_ADDI_INT gp1, gp0, 0
C_LOOP_START gp6, 4
  V_EXP_V gp1, gp1, 0
  V_ADD_VF gp1, gp1, f1, 0
C_LOOP_END gp6
)";
// The same chain on row 64 with the exp inside a loop of one iteration. (Row 64: a row
// 0 reached through gp0, as simplify writes it, is a literal address to the dataflow.)
const char* kSplit = R"(S_ADDI_INT gp1, gp0, 64
C_LOOP_START gp6, 1
  V_EXP_V gp1, gp1, 0
C_LOOP_END gp6
V_ADD_VF gp1, gp1, f1, 0
)";

// A temp dir of the test's own (tests/unique_temp_dir.h) with the runs of tlmcraft in it.
struct Dir : test::UniqueTempDir {
  Dir() : UniqueTempDir("plena-search") {}
  // The kernel file's cycles on PLENA (serial timing), with the overlay file when given.
  int64_t cycles_of(const std::string& kernel_path, const std::string& overlay_path = "") const {
    const std::string out = file("stdout"), err = file("stderr");
    const std::string cmd = "'" + kExe + "' run --platform plena --json '" + kernel_path + "'" +
                            (overlay_path.empty() ? "" : " --isa-ext '" + overlay_path + "'") + " > '" + out +
                            "' 2> '" + err + "'";
    const int status = std::system(cmd.c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
    std::ifstream in(out);
    return json::parse(in).value("cycles", int64_t(-1));
  }
  // VRAM rows 64 and 128 (4 lanes each) after running the kernel with the overlay.
  json rows(const std::string& kernel, const json& overlay) const {
    const std::string out = file("stdout");
    const std::string cmd = "'" + kExe + "' run --platform plena --json --dump vram:64:4 --dump vram:128:4 '" +
                            write("k.asm", kernel) + "' --isa-ext '" + write("o.yaml", to_yaml(overlay)) + "' > '" +
                            out + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(out);
    return json::parse(in).value("dumps", json());
  }
  int64_t cycles(const std::string& kernel, const json& overlay = json()) const {
    return cycles_of(write("k.asm", kernel), overlay.is_null() ? "" : write("o.yaml", to_yaml(overlay)));
  }
};

TEST(PlenaSearch, TheSearchPlacesTheVariantsInstructionWhereTheRewriteCannot) {
  const json overlay = mined_overlay(kChain);
  ASSERT_EQ(overlay["instructions"][0]["compose"]["steps"], json({"V_EXP_V t0, rs1, 0", "V_ADD_VF rd, t0, rs2, 0"}));
  // The rewrite: the loop's end stands between the steps: nothing placed.
  const KernelRewrite rewritten = plena().use_overlay(kSplit, overlay, kHardware);
  EXPECT_EQ(rewritten.kernel, kSplit);
  EXPECT_TRUE(rewritten.uses.empty());
  // The base's search (shipped ISA): simplify drops the loop of one iteration; estimate
  // 1 + (1 + 1 x (1 + 1)) + 1 = 5 -> 3.
  const KernelRewrite base = plena().search_kernel(kSplit, json::object(), kHardware);
  EXPECT_EQ(base.kernel, "S_ADDI_INT gp1, gp0, 64\nV_EXP_V gp1, gp1, 0\nV_ADD_VF gp1, gp1, f1, 0\n");
  EXPECT_TRUE(base.uses.empty());
  // The variant's search: both steps' mnemonics are in the kernel, so CD0 is searched for;
  // after the simplification it matches: estimate 3 -> 2.
  EXPECT_EQ(plena().search_overlay(kSplit, overlay, kHardware), overlay);
  const KernelRewrite searched = plena().search_kernel(kSplit, overlay, kHardware);
  EXPECT_EQ(searched.kernel, "S_ADDI_INT gp1, gp0, 64\nCD0 gp1, gp1, f1                     ; was 2 instructions\n");
  ASSERT_EQ(searched.uses.count("CD0"), 1u);
  EXPECT_EQ(searched.uses.at("CD0").static_count, 1);
  EXPECT_EQ(searched.uses.at("CD0").executions, 1u);
  // Simulated (serial timing): 5 cycles as written, 3 searched, 2 with CD0.
  Dir d;
  EXPECT_EQ(d.cycles(kSplit), 5);
  EXPECT_EQ(d.cycles(base.kernel), 3);
  EXPECT_EQ(d.cycles(searched.kernel, overlay), 2);
}

TEST(PlenaSearch, SearchOverlayKeepsTheInstructionsTheKernelCanPlace) {
  // CD0: exp then + f1; RC0: exp then reciprocal (V_RECI_V occurs in neither kernel).
  json both = mined_overlay(kChain);
  const json reci = mined_overlay(
      "S_ADDI_INT gp1, gp0, 0\nC_LOOP_START gp6, 4\n  V_EXP_V gp1, gp1, 0\n  V_RECI_V gp1, gp1, 0\nC_LOOP_END gp6\n",
      "RC");
  both["instructions"].push_back(reci["instructions"][0]);
  both["latency_classes"].push_back(reci["latency_classes"][0]);
  const json kept = plena().search_overlay(kSplit, both, kHardware);
  ASSERT_EQ(kept["instructions"].size(), 1u);
  EXPECT_EQ(kept["instructions"][0]["mnemonic"], "CD0");
  EXPECT_EQ(kept["latency_classes"], json::array({both["latency_classes"][0]}));
  // Without the add, neither can ever match: the shipped ISA's search (the base's memo).
  EXPECT_EQ(plena().search_overlay("S_ADDI_INT gp1, gp0, 0\nV_EXP_V gp1, gp1, 0\n", both, kHardware), json::object());
  // A kernel naming the instruction keeps it, though its steps are gone.
  EXPECT_EQ(plena().search_overlay("S_ADDI_INT gp1, gp0, 0\nRC0 gp1, gp1  ; placed\n", both,
                                   kHardware)["instructions"][0]["mnemonic"],
            "RC0");
}

TEST(PlenaSearch, UsesCountTheCopiesAndTheirExecutions) {
  // The post-increment of two loops (12 and 20 iterations): rewritten, then searched
  // (unrolled or not, as the estimate picks): 12 + 20 = 32 executions in all, one copy
  // per CD0 in the text.
  const char* kernel = R"(S_ADDI_INT gp1, gp0, 0
S_ADDI_INT gp3, gp0, 2048
C_LOOP_START gp6, 12
  V_EXP_V gp1, gp1, 0
  S_ADDI_INT gp1, gp1, 64
C_LOOP_END gp6
C_LOOP_START gp6, 20
  V_EXP_V gp3, gp3, 0
  S_ADDI_INT gp3, gp3, 64
C_LOOP_END gp6
)";
  const json overlay = mined_overlay(kernel);
  const KernelRewrite rewritten = plena().use_overlay(kernel, overlay, kHardware);
  const KernelRewrite r = plena().search_kernel(rewritten.kernel, overlay, kHardware);
  ASSERT_EQ(r.uses.count("CD0"), 1u);
  EXPECT_EQ(r.uses.at("CD0").executions, 32u);
  size_t copies = 0;
  for (size_t at = r.kernel.find("CD0 "); at != std::string::npos; at = r.kernel.find("CD0 ", at + 1)) ++copies;
  EXPECT_EQ(size_t(r.uses.at("CD0").static_count), copies);
  // Serial timing: 2 + (1 + 12 x 3) + (1 + 20 x 3) = 100 cycles as written; rewritten
  // 2 + (1 + 12 x 2) + (1 + 20 x 2) = 68; searched never more.
  Dir d;
  EXPECT_EQ(d.cycles(kernel), 100);
  EXPECT_EQ(d.cycles(rewritten.kernel, overlay), 68);
  EXPECT_LE(d.cycles(r.kernel, overlay), 68);
}

// Hoisting gives the first of two set-ups of gp6 in a loop its own register and renames
// the reads of it: the added instruction's destination is such a read (the gp register
// holds the row's address; its role is the row's, write). 512 iterations: the loop is too
// long to unroll fully within the search's 1024 instructions, so the set-ups are hoisted.
// Both rows end as the kernel computes them: x = exp(x) + 0 from 0, 512 times (inf); row 64
// stayed 0 when the destination was left on gp6.
TEST(PlenaSearch, HoistingRenamesTheAddressAnAddedInstructionWrites) {
  const json overlay = mined_overlay(kChain);
  const char* kernel = R"(C_LOOP_START gp5, 512
  S_ADDI_INT gp6, gp0, 64
  CD0 gp6, gp6, f1
  S_ADDI_INT gp6, gp0, 128
  CD0 gp6, gp6, f1
C_LOOP_END gp5
)";
  const KernelRewrite r = plena().search_kernel(kernel, overlay, kHardware);
  ASSERT_NE(r.kernel, kernel);
  EXPECT_EQ(r.uses.at("CD0").executions, 1024u);
  EXPECT_EQ(r.kernel.find("S_ADDI_INT gp6, gp0, 64\n  CD0"), std::string::npos) << r.kernel;  // hoisted
  Dir d;
  const json rows = d.rows(kernel, overlay);
  EXPECT_EQ(d.rows(r.kernel, overlay), rows) << r.kernel;
  EXPECT_EQ(rows[0]["hex"], rows[1]["hex"]);
  EXPECT_NE(rows[0]["hex"], "00000000");
}

// explore itself on the split kernel (one cell): the base is searched under the shipped
// ISA (3 cycles), CD0's variant under CD0 although the rewrite placed nothing (2 cycles).
TEST(PlenaSearch, ExploreSearchesEachVariantUnderTheInstructionsItCanPlace) {
  Dir d;
  const json overlay = mined_overlay(kChain);
  SuiteRunner run = [&](const std::string& kernels, const std::string& overlay_path, const std::string& results) {
    const int64_t c = d.cycles_of((fs::path(kernels) / "plena" / "hand" / "C1.asm").string(), overlay_path);
    std::ofstream(results) << json{{"task", "hand"}, {"config", "C1"}, {"status", "pass"}, {"cycles", c}}.dump()
                           << "\n";
    return results;
  };
  ExploreOptions o;
  o.platform = "plena";
  o.out_dir = d.file("explore");
  o.base_area_mm2 = 1.0;
  o.area_budget_mm2 = 0.01;
  o.hardware = kHardware;
  o.kernel_generation = "search";
  const ExploreResult r = explore(plena(), {{"CD0", overlay, 0.001}}, {{"hand", "C1", kSplit, ".asm"}}, run, o);
  ASSERT_EQ(r.variants.size(), 2u);
  EXPECT_EQ(r.variants[0].cycles.at("hand/C1"), 3.0);
  EXPECT_EQ(r.variants[1].cycles.at("hand/C1"), 2.0);
  EXPECT_EQ(r.variants[1].uses.at("CD0").executions, 1u);
  // CD0 saves 1 cycle in its 1 execution at latency 1: it pays up to 1 + 1 / 1 = 2.
  EXPECT_EQ(r.summary["instructions"]["CD0"]["break_even_latency"], 2.0);
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
