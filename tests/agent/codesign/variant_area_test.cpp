// The area a run reports under an ISA variant (docs/energy-area.md, "Area under an ISA
// variant"): the platform's table plus one `isa_extension` line per added instruction and
// register-file port, priced by the one function `isa check` and the co-design tools use,
// so that explore's variant area and a run's total under the same overlay agree. Each
// figure is derived by hand from the 45 nm operator table (isa/operator_area.h: [H14]
// adders int32 137, fp16 1360, fp32 4184 um2, multipliers int32 3495, fp16 1640 um2;
// [N45] flip-flop 4.522 um2, 2:1 multiplexer 1.862 um2; bf16 priced as fp16).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <string>

#include "agent/codesign/explorer.h"
#include "agent/codesign/miner.h"
#include "agent/codesign/overlay_yaml.h"
#include "tests/agent/codesign/plena_run_dir.h"
#include "tests/agent/codesign/shift_loop.h"
#include "tests/isa/aie_ml/split_product_overlay.h"

namespace tlmcraft::agent::codesign {
namespace {

using json = nlohmann::json;

const std::string kExamples = std::string(TLMCRAFT_SOURCE_DIR) + "/examples/isa_ext/";
const char* kGpw2 = "isa: plena\nregister_ports:\n  - {name: gp, write_ports: 2, replace: true}\n";

// GPW2: 16 gp registers x 32 bits, a 2:1 multiplexer per bit: 512 x 1.862 = 953.344 um2.
constexpr double kGpw2Mm2 = 953.344e-6;
// V_SILU_V (examples/isa_ext/plena/silu_composed.yaml, tests/agent/codesign/plena_area_test.cpp):
// a second adder per lane (64 x 1360) and four 16-bit temps (4 x 64 x 16 x 6.384) um2.
constexpr double kSiluComposedMm2 = 113188.864e-6;

struct Dir : PlenaRunDir {
  Dir() : PlenaRunDir("variant-area") {}
  // `tlmcraft run ARGS --json`'s report (it must pass).
  json report(const std::string& args) const {
    std::string out, err;
    EXPECT_EQ(run("run " + args + " --json", out, err), 0) << err;
    const json r = json::parse(out, nullptr, false);
    EXPECT_EQ(r.value("status", ""), "pass") << out;
    return r;
  }
  json area(const std::string& args) const { return report(args)["area"]; }
};

TEST(VariantArea, PlenaRunWithTheSecondGpWritePortAddsItsAreaAndItsInstructions) {
  Dir d;
  const std::string silu = "--platform plena --task silu --config C1 --baseline";
  const json base = d.area(silu);
  const double table = base["total_mm2"].get<double>();
  EXPECT_FALSE(base.contains("isa_extension"));
  const std::string port = " --isa-ext '" + d.write("gpw2.yaml", kGpw2) + "'";
  const json with_port = d.area(silu + port);
  ASSERT_EQ(with_port["isa_extension"].size(), 1u);
  EXPECT_EQ(with_port["isa_extension"][0]["name"], "gp write port");
  EXPECT_EQ(with_port["isa_extension"][0]["kind"], "register_port");
  EXPECT_NEAR(with_port["isa_extension"][0]["mm2"].get<double>(), kGpw2Mm2, 1e-12);
  EXPECT_NEAR(with_port["total_mm2"].get<double>(), table + kGpw2Mm2, 1e-12);
  // The port and a composed instruction: both lines, both in the total.
  const json both = d.area(silu + port + " --isa-ext '" + kExamples + "plena/silu_composed.yaml'");
  ASSERT_EQ(both["isa_extension"].size(), 2u);
  EXPECT_EQ(both["isa_extension"][0]["name"], "V_SILU_V");
  EXPECT_NEAR(both["isa_extension"][0]["mm2"].get<double>(), kSiluComposedMm2, 1e-12);
  EXPECT_NEAR(both["by_component"]["isa_extension"].get<double>(), kGpw2Mm2 + kSiluComposedMm2, 1e-12);
  EXPECT_NEAR(both["total_mm2"].get<double>(), table + kGpw2Mm2 + kSiluComposedMm2, 1e-12);
  // The text report names each line.
  std::string out, err;
  ASSERT_EQ(d.run("run " + silu + port, out, err), 0) << err;
  EXPECT_NE(out.find("(estimate; with the ISA variant's 0.000953 mm2, gp write port 0.000953)"), std::string::npos)
      << out;
}

TEST(VariantArea, IsaCheckPrintsAnAddedPortsArea) {
  Dir d;
  std::string out, err;
  ASSERT_EQ(d.run("isa check '" + d.write("gpw2.yaml", kGpw2) + "'", out, err), 0) << err;
  EXPECT_EQ(out,
            "plena: 55 instructions, 6 fields, 3 register classes; added: gp write port (register_ports, "
            "0.0009533 mm2): ok\n");
}

// cmac (examples/isa_ext/coral/mac.yaml): a 32-bit multiplier 3495 + adder 137 + its temp,
// 32 x 6.384 = 204.288 um2: 3836.288 um2.
TEST(VariantArea, CoralRunWithOneCustomInstructionAddsItsArea) {
  Dir d;
  const std::string dotprod = "--platform coral --task dotprod --config C1 --baseline";
  const double table = d.area(dotprod)["total_mm2"].get<double>();
  const json area = d.area(dotprod + " --isa-ext '" + kExamples + "coral/mac.yaml'");
  ASSERT_EQ(area["isa_extension"].size(), 1u);
  EXPECT_EQ(area["isa_extension"][0]["name"], "cmac");
  EXPECT_NEAR(area["isa_extension"][0]["mm2"].get<double>(), 3836.288e-6, 1e-12);
  EXPECT_NEAR(area["total_mm2"].get<double>(), table + 3836.288e-6, 1e-12);
}

// VMULS.E.BF16 (tests/isa/aie_ml/split_product_overlay.h, the first op of
// examples/isa_ext/aie_ml/split_products.yaml): its second
// step's 16 bf16 MACs (16 x (1640 + 4184) = 93184 um2; the first reuses the slot's unit)
// and a 512-bit bm temp (512 x 6.384 = 3268.608 um2): 96452.608 um2 per core, on each of
// the default array's 4 x 4 compute tiles: 1543241.728 um2.
const std::string kVmuls = std::string("isa: aie_ml\nops:") + test::kAieMulSplitOverlay;
constexpr double kVmulsArrayMm2 = 1543241.728e-6;

TEST(VariantArea, AieMlRunWithOneAddedOpAddsItOnEveryComputeTile) {
  Dir d;
  const std::string relu = "--platform aie_ml --task relu --config C1 --baseline";
  const double table = d.area(relu)["total_mm2"].get<double>();
  const json area = d.area(relu + " --isa-ext '" + d.write("vmuls.yaml", kVmuls) + "'");
  ASSERT_EQ(area["isa_extension"].size(), 1u);
  EXPECT_EQ(area["isa_extension"][0]["name"], "VMULS.E.BF16");
  EXPECT_NEAR(area["isa_extension"][0]["mm2"].get<double>(), kVmulsArrayMm2, 1e-12);
  EXPECT_NEAR(area["total_mm2"].get<double>(), table + kVmulsArrayMm2, 1e-12);
  // Two columns: 8 tiles, half of it.
  const json small = d.area(relu + " --set array.columns=2 --isa-ext '" + d.file("vmuls.yaml") + "'");
  EXPECT_NEAR(small["isa_extension"][0]["mm2"].get<double>(), kVmulsArrayMm2 / 2, 1e-12);
  // What the co-design adapter prices the overlay at (architect proposals, mined candidates).
  const DataflowAdapter* a = find_dataflow_adapter("aie_ml");
  ASSERT_NE(a, nullptr);
  EXPECT_DOUBLE_EQ(
      a->overlay_area(json_of_yaml(YAML::Load(kVmuls)), {{"platform", "aie_ml"}, {"config", json::object()}}),
      area["isa_extension"][0]["mm2"].get<double>());
}

// kShiftLoop mined with GPW2: its best candidate (CD0) is the shift with both
// post-increments, which needs the port (tests/agent/codesign/gp_write_port_test.cpp).
TEST(VariantArea, ExploresVariantAreaIsTheTotalOfARunUnderItsOverlay) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  MineOptions mo;
  mo.hardware = {"GPW2"};
  const json hardware = {{"platform", "plena"}, {"config", {{"arch", {{"vlen", 64}}}}}};
  const auto found = mine(*a, {{"hand/C1", "hand.asm", kShiftLoop, hardware}}, mo);
  ASSERT_FALSE(found.empty());
  Dir d;
  const std::string file = d.write("candidates.yaml", to_yaml(candidates_document(*a, "plena", found, "CD")));
  std::vector<ExploreCandidate> candidates = load_candidates(file, "plena");
  ASSERT_EQ(candidates[0].needs, std::vector<std::string>{"GPW2"});
  const std::string silu = "--platform plena --task silu --config C1 --baseline";
  ExploreOptions o;
  o.platform = "plena";
  o.out_dir = d.path();
  o.area_budget_mm2 = 1;
  o.base_area_mm2 = d.area(silu)["total_mm2"].get<double>();  // area_estimate of the config, as explore's
  o.hardware_changes = load_candidate_hardware(file);
  // A figure declared in the file that is not the model's is replaced by it, as explore does.
  candidates[0].area_mm2 = 0.5;
  price_candidates(*a, hardware, candidates, o.hardware_changes);
  const json overlay = candidates[0].overlay;  // explore's overlay of the variant {CD0}: its own
  const Exploration ex(
      *a, std::move(candidates), {}, [](const std::string&, const std::string&, const std::string&) { return ""; }, o);
  const double variant_area = o.base_area_mm2 + ex.added_area(std::vector<std::string>{"CD0"});
  const json run = d.area(silu + " --isa-ext '" + d.write("cd0.yaml", to_yaml(overlay)) + "'");
  // Equal up to rounding: explore's figure is (instruction + port) - port + port.
  EXPECT_NEAR(run["total_mm2"].get<double>(), variant_area, 1e-15);
  // CD0: V_SHFT_V reuses the lane adders; each post-increment adds an int32 adder and a
  // 32-bit write multiplexer (137 + 32 x 1.862 = 196.584 um2), and the port 953.344 um2.
  EXPECT_NEAR(run["by_component"]["isa_extension"].get<double>(), 2 * 196.584e-6 + kGpw2Mm2, 1e-12);
  EXPECT_NEAR(ex.added_area(std::vector<std::string>{"CD0"}), 2 * 196.584e-6 + kGpw2Mm2, 1e-12);
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
