// The architect-facing parts of the HTML pages: variants and provenance, cycles table,
// run figures, roofline, grouped utilisation, agent figures, the sweep and compare pages.
#include <gtest/gtest.h>

#include "harness/compare.h"
#include "harness/compare_html.h"
#include "harness/html_report.h"
#include "harness/html_sections.h"
#include "harness/sweep_html.h"
#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

using test::count;
using test::run_record;

TEST(HtmlSections, TwoVariantsAreKeptApartAndNamed) {
  std::vector<json> records = {run_record("gemv", 100, "aaaaaaaa11111111", "64"),
                               run_record("gemv", 150, "bbbbbbbb22222222", "32")};
  HtmlReportOptions o;
  o.record_sources = {"a.jsonl", "b.jsonl"};
  const std::string html = render_html_report(records, o);
  EXPECT_EQ(count(html, "<tr data-variant="), 2u);
  EXPECT_NE(html.find("<td>timing.dma.prefetch.bytes_per_cycle=32</td><td><code>bbbbbbbb</code>"), std::string::npos);
  EXPECT_NE(html.find("id=\"variants-mixed\""), std::string::npos);
  // Both runs have a row in the run figures, each named by its variant.
  EXPECT_NE(html.find("gemv C1 [timing.dma.prefetch.bytes_per_cycle=64]"), std::string::npos);
  EXPECT_NE(html.find("gemv C1 [timing.dma.prefetch.bytes_per_cycle=32]"), std::string::npos);
  // Run figures: energy 2.0 nJ, power 3.5 mW, row hits 7, bank 6, lock 5, unit stalls 3 + 4.
  EXPECT_NE(html.find("<td class=\"num\">2.0</td><td class=\"num\">3.5</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">7</td><td class=\"num\">2</td><td class=\"num\">6</td><td class=\"num\">5</td>"
                      "<td class=\"num\">7</td>"),
            std::string::npos);
  EXPECT_EQ(count(html, "class=\"roof-point\""), 2u);
  // The cycles table names the variant of its number: the two variants are two samples of
  // gemv C1, both 1.00x, so the first (100 cycles, 64 bytes/cycle) is shown.
  EXPECT_NE(html.find("data-cycles=\"100\" data-variant=\"aaaaaaaa11111111\""), std::string::npos);
  EXPECT_NE(html.find(">100<br><span class=\"variant\">timing.dma.prefetch.bytes_per_cycle=64</span></td>"),
            std::string::npos);
  EXPECT_NE(html.find("Results of 2 hardware/ISA variants"), std::string::npos);
  // Every speedup is 1.00x: a note, not a chart of unity bars.
  EXPECT_NE(html.find("class=\"speedup-chart unity-only muted\""), std::string::npos);
  EXPECT_EQ(html.find("class=\"bar faster\""), std::string::npos);
  EXPECT_NE(html.find("id=\"cycles-plena\""), std::string::npos);
}

TEST(HtmlSections, PlatformsOnTheirStockConfigsAreNotMixedVariants) {
  // Each platform's default config is a variant of its own: the suite of three platforms
  // mixes nothing; a second variant of one platform does.
  json coral = run_record("relu", 100, "cccccccc33333333", "64");
  coral["platform"] = "coral";
  std::vector<json> records = {run_record("gemv", 100, "aaaaaaaa11111111", "64"), coral};
  EXPECT_EQ(variants_per_platform(records), 1u);
  EXPECT_EQ(render_html_report(records, HtmlReportOptions{}).find("id=\"variants-mixed\""), std::string::npos);
  records.push_back(run_record("gemv", 150, "bbbbbbbb22222222", "32"));
  EXPECT_EQ(variants_per_platform(records), 2u);
}

TEST(HtmlSections, UnitGroupsAndTileHeatMaps) {
  EXPECT_EQ(unit_group("tile(3,2).vec"), "tile*.vec");
  EXPECT_EQ(unit_group("mem0.mm2s5"), "mem*.mm2s*");
  json r = run_record("gemm", 1000, "", "64");
  std::ostringstream os;
  unit_group_utilisation(os, "aie_ml", {&r});
  // (500 + 250) busy over 2 units x 1000 cycles = 37.5% -> "38%" rounded in the cell text.
  EXPECT_NE(os.str().find("2 unit(s), mean busy 37.5%"), std::string::npos) << os.str();
  std::ostringstream maps;
  tile_heatmaps(maps, "aie_ml", {&r});
  EXPECT_NE(maps.str().find("tile(1,0) core 25.0% busy"), std::string::npos) << maps.str();
}

TEST(HtmlSections, AgentFigures) {
  json r = run_record("relu", 10, "", "64");
  r["agent"] = {{"rounds", 4}, {"budget", 15}, {"first_correct_round", 2}, {"best_version", 3}, {"tool_calls", 9},
                {"tool_errors", 1}, {"evaluations", 4}, {"stop_reason", "budget"}, {"tokens", {{"input", 1200}, {"output", 300}}},
                {"transcript", "out/agent/relu.jsonl"}};
  std::ostringstream os;
  agent_table(os, "plena", {&r});
  const std::string t = os.str();
  EXPECT_NE(t.find("<td class=\"num\">4/15</td><td class=\"num\">2</td><td class=\"num\">3</td><td class=\"num\">1200 / 300</td>"
                   "<td class=\"num\">9 (1)</td>"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("<a href=\"out/agent/relu.jsonl\">"), std::string::npos);
}

TEST(HtmlSections, SweepAndComparePages) {
  std::vector<SweepVariantResult> v(2);
  v[0] = {"fast", "aaaaaaaa11111111", json::object(), {run_record("gemv", 100, "aaaaaaaa11111111", "64")}};
  v[1] = {"slow", "bbbbbbbb22222222", json::object(), {run_record("gemv", 125, "bbbbbbbb22222222", "32")}};
  v[0].records[0]["area"] = {{"total_mm2", 1.0}};
  v[1].records[0]["area"] = {{"total_mm2", 0.5}};
  const SweepTable t = build_sweep_table(v, 0);
  EXPECT_DOUBLE_EQ(*t.summaries[1].geomean_speedup, 0.8);
  const std::string html = render_sweep_html(t, "s");
  EXPECT_NE(html.find("data-cycles=\"125\" data-speedup=\"0.800\""), std::string::npos);
  // Cycles vs area: both Pareto-optimal (faster but larger, smaller but slower); energy vs
  // cycles: equal energy, so only the faster one.
  EXPECT_EQ(count(html, "class=\"point pareto\""), 3u);
  const std::string cmp = render_compare_html(t.summaries[1].against_reference);
  EXPECT_NE(cmp.find("data-speedup=\"0.800000\""), std::string::npos);
  EXPECT_NE(cmp.find("id=\"compare-regressions\""), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::harness
