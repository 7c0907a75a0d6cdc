// compare_results on hand-made records: every ratio and geomean derived by hand.
#include "harness/compare.h"

#include <cmath>

#include <gtest/gtest.h>

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

json rec(const std::string& task, const std::string& config, const std::string& status, uint64_t cycles,
         const std::string& variant = "", int level = 1) {
  json r = {{"platform", "plena"}, {"task", task}, {"config", config}, {"level", level}, {"status", status},
            {"cycles", cycles}};
  r["job"] = {{"platform", "plena"}, {"task", task}, {"config", config}, {"kernel", "baseline"}};
  if (!variant.empty()) {
    r["job"]["variant"] = variant;
    r["provenance"] = {{"variant", variant}, {"name", "v-" + variant}, {"overrides", {{"arch.vlen", variant}}}};
  }
  return r;
}

TEST(Compare, RatiosGeomeansRegressionsAndOneSidedCells) {
  const std::vector<json> a = {rec("gemv", "C1", "pass", 1000), rec("gemv", "C2", "pass", 2000),
                               rec("silu", "C1", "pass", 500),  rec("relu", "C1", "pass", 300),
                               rec("gemm", "C1", "pass", 4000, "", 2), rec("exp", "C1", "pass", 100)};
  const std::vector<json> b = {rec("gemv", "C1", "pass", 1250), rec("gemv", "C2", "pass", 2500),
                               rec("silu", "C1", "pass", 500),  rec("relu", "C1", "fail", 10),
                               rec("gemm", "C1", "pass", 2000, "", 2), rec("softmax", "C1", "pass", 9)};
  CompareOptions o;
  o.threshold = 0.02;
  const Comparison c = compare_results(a, b, o);
  ASSERT_EQ(c.cells.size(), 5u);  // gemv C1 C2, silu, relu, gemm
  ASSERT_EQ(c.only_a.size(), 1u);
  EXPECT_EQ(c.only_a[0].task, "exp");
  ASSERT_EQ(c.only_b.size(), 1u);
  EXPECT_EQ(c.only_b[0].task, "softmax");
  // Overall over the 4 passing pairs: 1000/1250 = 0.8, 0.8, 1.0, 4000/2000 = 2.0 -> (0.8*0.8*1*2)^(1/4).
  ASSERT_TRUE(c.overall.geomean);
  EXPECT_NEAR(*c.overall.geomean, std::pow(1.28, 0.25), 1e-12);
  EXPECT_EQ(c.overall.cells, 4);
  // Level 1: 0.8, 0.8, 1.0 -> 0.64^(1/3); level 2: 2.0.
  ASSERT_EQ(c.by_level.size(), 2u);
  EXPECT_EQ(c.by_level[0].name, "plena level 1");
  EXPECT_NEAR(*c.by_level[0].geomean, std::cbrt(0.64), 1e-12);
  EXPECT_DOUBLE_EQ(*c.by_level[1].geomean, 2.0);
  // Per task: gemv 0.8 over 2 configs.
  bool saw_gemv = false;
  for (const auto& g : c.by_task)
    if (g.name == "plena/gemv") {
      saw_gemv = true;
      EXPECT_NEAR(*g.geomean, 0.8, 1e-12);
      EXPECT_EQ(g.cells, 2);
    }
  EXPECT_TRUE(saw_gemv);
  // Regressions slowest first (both gemv at 0.8), one win (gemm 2.0), relu's status change.
  ASSERT_EQ(c.regressions.size(), 2u);
  EXPECT_EQ(c.cells[c.regressions[0]].task, "gemv");
  ASSERT_EQ(c.wins.size(), 1u);
  EXPECT_EQ(c.cells[c.wins[0]].task, "gemm");
  ASSERT_EQ(c.status_changes.size(), 1u);
  EXPECT_EQ(c.cells[c.status_changes[0]].task, "relu");
  EXPECT_FALSE(c.cells[c.status_changes[0]].speedup);

  const json j = comparison_to_json(c);
  EXPECT_EQ(j["schema"], "tlmcraft.compare/1");
  EXPECT_NEAR(j["overall"]["geomean_speedup"].get<double>(), std::pow(1.28, 0.25), 1e-12);
  EXPECT_EQ(j["regressions"].size(), 2u);
  EXPECT_EQ(j["only_b"][0]["task"], "softmax");
  const std::string text = comparison_to_text(c);
  EXPECT_NE(text.find("plena/gemv/C1: A 1000, B 1250 cycles, 0.800x"), std::string::npos) << text;
  EXPECT_NE(text.find("only in B: 1"), std::string::npos);
}

TEST(Compare, BestPassingSampleCountsAndEnergyRatio) {
  json a1 = rec("gemv", "C1", "pass", 1000);
  a1["energy"] = {{"total_pj", 200.0}};
  json b_slow = rec("gemv", "C1", "pass", 900), b_fast = rec("gemv", "C1", "pass", 500), b_fail = rec("gemv", "C1", "fail", 1);
  b_fast["energy"] = {{"total_pj", 300.0}};
  const Comparison c = compare_results({a1}, {b_fail, b_slow, b_fast});
  ASSERT_EQ(c.cells.size(), 1u);
  EXPECT_DOUBLE_EQ(*c.cells[0].speedup, 2.0);       // 1000 / 500: the fastest passing sample
  EXPECT_DOUBLE_EQ(*c.cells[0].energy_ratio, 1.5);  // 300 / 200
  EXPECT_DOUBLE_EQ(*c.overall.energy_geomean, 1.5);
}

TEST(Compare, VariantGroupsAndSelection) {
  const std::vector<json> store = {rec("gemv", "C1", "pass", 10, "aaaa1111"), rec("gemv", "C1", "pass", 20, "bbbb2222"),
                                   rec("silu", "C1", "pass", 30, "aaaa1111")};
  const auto groups = variant_groups(store);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].records.size(), 2u);
  EXPECT_EQ(groups[0].label, "v-aaaa1111");
  EXPECT_EQ(&select_variant(groups, "v-bbbb2222", "s.jsonl"), &groups[1]);  // by name
  EXPECT_EQ(&select_variant(groups, "aaaa", "s.jsonl"), &groups[0]);        // by id prefix
  try {
    select_variant(groups, "", "s.jsonl");
    FAIL() << "two variants without a selector must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("s.jsonl: 2 variants; choose one"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bbbb2222  v-bbbb2222"), std::string::npos) << e.what();
  }
  try {
    select_variant(groups, "nope", "s.jsonl");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no variant matches 'nope'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tlmcraft::harness
