// The ceiling of the candidate space (agent/codesign/ceiling.h) on the toy suite of the
// explore tests (toy_suite.h): cycles are 10 per instruction line of the kernel run, and
// with charge_latency an added instruction's line costs 10 plus its declared cycles, so the
// ceiling's latency shows in its cycles. Every figure is derived by hand from that rule.
#include "agent/codesign/ceiling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "toy_suite.h"

namespace tlmcraft::agent::codesign {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace toy;

struct Ceiling : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("tlm_ceiling_" + std::to_string(::getpid()) + "_" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override { fs::remove_all(dir); }
  void TearDown() override { fs::remove_all(dir); }
  ExploreOptions options() {
    ExploreOptions o;
    o.platform = "plena";
    o.out_dir = dir.string();
    o.base_area_mm2 = 1.0;
    o.area_budget_mm2 = 0.025;  // CD0+CD1 (0.03) does not fit: greedy stops at the singles
    o.hardware = kHardware;
    return o;
  }
  // The toy candidates with every latency class declared at `cycles` (CD0's at `cd0`).
  static std::vector<ExploreCandidate> declared_at(int cycles, int cd0) {
    std::vector<ExploreCandidate> c = candidates();
    for (ExploreCandidate& e : c) e.overlay["latency_classes"][0]["cycles"] = e.name == "CD0" ? cd0 : cycles;
    return c;
  }
};

TEST_F(Ceiling, EveryCandidateAtLatencyOneDerivedByHand) {
  // Declared at 3 cycles. base: ta 6 lines = 60, tb 8 lines = 80. CD0 alone: ta 4 lines + CD0
  // (10 + 3) = 53; CD1 alone: tb 5 lines + CD1 (13) = 63; CD2 matches nothing. The ceiling
  // (all three at latency 1): ta 40 + 11 = 51, tb 50 + 11 = 61: sqrt(60/51 x 80/61);
  // energy 2 pJ/cycle + 100: sqrt(202/220 x 222/260); area 0.01 + 0.02 + 0.005 over 1.0.
  ScriptedSuite suite;
  suite.charge_latency = true;
  Exploration x(plena(), declared_at(3, 3), suite_cells(), suite.runner(), options());
  const ExploreResult strategy = x.run_strategy();
  ASSERT_EQ(strategy.variants.size(), 4u);  // base, CD0, CD1, CD2
  EXPECT_EQ(strategy.variants[1].cycles.at("ta/C1"), 53);
  const VariantResult& c = x.ceiling();
  EXPECT_EQ(c.cycles, (std::map<std::string, double>{{"ta/C1", 51}, {"tb/C1", 61}}));
  EXPECT_EQ(c.candidates, (std::vector<std::string>{"CD0", "CD1", "CD2"}));
  EXPECT_EQ(declared_cycles((dir / "variants" / "ceiling-L1" / "overlay.yaml").string()),
            (std::map<std::string, int>{{"CD0", 1}, {"CD1", 1}, {"CD2", 1}}));

  const ExploreResult r = x.result();
  const json& s = r.summary["ceiling"];
  EXPECT_NEAR(s["speedup"].get<double>(), std::sqrt(60.0 / 51 * 80.0 / 61), 1e-12);
  EXPECT_NEAR(s["energy_ratio"].get<double>(), std::sqrt(202.0 / 220 * 222.0 / 260), 1e-12);
  EXPECT_NEAR(s["area_increase"].get<double>(), 0.035, 1e-12);
  EXPECT_EQ(s["label"], "ceiling (not buildable: every candidate at latency 1, area +3.5%)");
  EXPECT_EQ(s["latency"], 1);
  EXPECT_TRUE(s["cells_a_variant_runs_faster"].empty());
  // Never a variant: not in the store's variants, not on the front.
  ASSERT_EQ(r.variants.size(), 4u);
  for (const VariantResult& v : r.variants) EXPECT_NE(v.id, "ceiling-L1");
  EXPECT_EQ(r.pareto, (std::vector<std::string>{"base", "CD0", "CD1"}));
  EXPECT_EQ(suite.calls, 5);
}

TEST_F(Ceiling, IsEvaluatedOnce) {
  ScriptedSuite suite;
  suite.charge_latency = true;
  {
    Exploration x(plena(), declared_at(3, 3), suite_cells(), suite.runner(), options());
    x.run_strategy();
    x.ceiling();
  }
  EXPECT_EQ(suite.calls, 5);
  Exploration again(plena(), declared_at(3, 3), suite_cells(), suite.runner(), options());
  EXPECT_EQ(again.ceiling().cycles.at("tb/C1"), 61);  // read from DIR/ceiling.jsonl
  EXPECT_EQ(suite.calls, 5);
  EXPECT_EQ(again.result().summary["ceiling"]["cycles"]["ta/C1"], 51);
}

TEST_F(Ceiling, ACellAVariantRunsFasterIsNamed) {
  // CD0 declared at 0 cycles: alone it runs ta in 40 + 10 + 0 = 50, the ceiling (CD0 at 1)
  // in 51. tb: CD1 alone 63, the ceiling 61: not faster.
  ScriptedSuite suite;
  suite.charge_latency = true;
  Exploration x(plena(), declared_at(3, 0), suite_cells(), suite.runner(), options());
  x.run_strategy();
  x.ceiling();
  EXPECT_EQ(x.result().summary["ceiling"]["cells_a_variant_runs_faster"],
            json::parse(R"([{"cell": "ta/C1", "variant": "CD0", "cycles": 50.0, "ceiling_cycles": 51.0}])"));
}

TEST_F(Ceiling, AFailingCellIsRecordedAndTheSpeedupIsOverThePassingCells) {
  // Every overlay naming CD1 fails tb: the ceiling holds CD1, so tb fails and its speedup
  // is ta's alone, 60 / 51.
  ScriptedSuite suite;
  suite.charge_latency = true;
  suite.failing_overlay_word = "CD1";
  Exploration x(plena(), declared_at(3, 3), suite_cells(), suite.runner(), options());
  x.run_strategy();
  x.ceiling();
  const json s = x.result().summary["ceiling"];
  EXPECT_FALSE(s["ok"].get<bool>());
  EXPECT_EQ(s["failures"], json::array({"tb/C1: fail (\"match 0%\")"}));
  EXPECT_NEAR(s["speedup"].get<double>(), 60.0 / 51, 1e-12);
}

TEST(CeilingOverlay, EveryDeclaredLatencyIsSetAndNothingElse) {
  // A latency class list (PLENA), an op's own latency and a map of classes (AIE-ML), an
  // instruction's timing (Coral's custom instructions).
  const json plena = json::parse(R"({"isa": "plena", "instructions": [{"mnemonic": "A", "latency_class": "c"}],
      "latency_classes": [{"name": "c", "cycles": 4}]})");
  EXPECT_EQ(overlay_at_latency(plena, 1)["latency_classes"], json::parse(R"([{"name": "c", "cycles": 1}])"));
  EXPECT_EQ(overlay_at_latency(plena, 1)["instructions"], plena["instructions"]);
  const json aie = json::parse(R"({"isa": "aie_ml", "ops": [{"mnemonic": "A", "latency": 7, "slot": "vec"},
      {"mnemonic": "B", "latency": "k"}], "latency_classes": {"k": {"cycles": 5, "doc": "d"}}})");
  EXPECT_EQ(overlay_at_latency(aie, 1), json::parse(R"({"isa": "aie_ml", "ops": [{"mnemonic": "A", "latency": 1,
      "slot": "vec"}, {"mnemonic": "B", "latency": 1}], "latency_classes": {"k": {"cycles": 1, "doc": "d"}}})"));
  const json coral = json::parse(R"({"isa": "riscv", "instructions": [{"mnemonic": "cd0",
      "timing": {"ii": 1, "latency": 3, "unit": "vmul"}}]})");
  EXPECT_EQ(overlay_at_latency(coral, 1)["instructions"][0]["timing"],
            json::parse(R"({"ii": 1, "latency": 1, "unit": "vmul"})"));
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
