// Renders the report in headless Chromium and checks the rendered DOM. Registered as the
// ctest test `harness_browser` (label `browser`); skipped when chromium is not installed.
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "harness/compare_html.h"
#include "harness/html_report.h"
#include "harness/sweep_html.h"
#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

std::string find_chromium() {
  const char* path = getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    for (const char* name : {"chromium", "chromium-browser", "google-chrome"})
      if (access((dir + "/" + name).c_str(), X_OK) == 0) return dir + "/" + name;
  return "";
}

using test::count;

// The DOM headless Chromium makes of `html` (written to DIR/page.html), or a test failure.
std::string rendered_dom(const std::string& chromium, const test::ScratchDir& dir, const std::string& html) {
  const std::string html_path = dir.file("page.html");
  test::write_text(html_path, html);
  const std::string dom_path = dir.file("dom.html");
  const std::string cmd = "timeout 90 '" + chromium +
                          "' --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                          "--disable-background-networking --disable-component-update --disable-sync "
                          "--disable-dev-shm-usage --user-data-dir='" + dir.file("profile") +
                          "' --dump-dom 'file://" + html_path + "' > '" + dom_path + "' 2> '" +
                          dir.file("chromium.log") + "'";
  const int rc = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0)
      << "chromium failed (status " << rc << "): " << test::read_text(dir.file("chromium.log"));
  const std::string dom = test::read_text(dom_path);
  EXPECT_FALSE(dom.empty()) << test::read_text(dir.file("chromium.log"));
  return dom;
}

// Chromium's path, or "" after skipping the test (a failure under CI, where it is required).
#define REQUIRE_CHROMIUM(var)                                                                        \
  const std::string var = find_chromium();                                                           \
  if (var.empty()) {                                                                                 \
    if (std::getenv("CI")) FAIL() << "chromium is required under CI (make test installs it)";       \
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium); browser test skipped";  \
  }

TEST(HtmlBrowser, ChromiumRendersTheExpectedElements) {
  REQUIRE_CHROMIUM(chromium);
  test::ScratchDir dir;
  auto records = test::hand_made_records();
  records.push_back({{"platform", "plena"}, {"task", "<script>document.title='x'</script>"}, {"config", "C1"},
                     {"level", 3}, {"status", "fail"}, {"reason", "<b>not bold</b>"}});
  HtmlReportOptions opts;
  opts.title = "browser check";
  const std::string dom = rendered_dom(chromium, dir, render_html_report(records, opts));
  ASSERT_FALSE(dom.empty());

  // The browser parsed the document into the elements the report promises.
  EXPECT_NE(dom.find("<title>browser check</title>"), std::string::npos);
  EXPECT_NE(dom.find("id=\"report-title\""), std::string::npos);
  EXPECT_NE(dom.find("id=\"summary-table\""), std::string::npos);
  EXPECT_NE(dom.find("id=\"pass-matrix-plena\""), std::string::npos);
  EXPECT_NE(dom.find("id=\"pass-matrix-coral\""), std::string::npos);
  EXPECT_NE(dom.find("id=\"speedup-chart-plena\""), std::string::npos);
  EXPECT_NE(dom.find("id=\"utilisation-plena\""), std::string::npos);
  EXPECT_NE(dom.find("id=\"failures-plena\""), std::string::npos);
  EXPECT_NE(dom.find("class=\"cell pass\" id=\"cell-plena-silu-C1\""), std::string::npos);
  // 23 cells of the hand-made results + 5 for the extra task's row (C1 run, C2..C5 not run).
  EXPECT_EQ(count(dom, "<g class=\"cell "), 28u);
  // Hostile names stayed text: no script element, no bold element.
  EXPECT_EQ(dom.find("<script"), std::string::npos);
  EXPECT_EQ(dom.find("<b>"), std::string::npos);
  EXPECT_NE(dom.find("&lt;b&gt;not bold&lt;/b&gt;"), std::string::npos);
}

// The sweep and compare pages of a 2-variant sweep (prefetch bandwidth 64 and 32 bytes per
// cycle; the slow variant 25% slower) parse into the elements their headers promise.
TEST(HtmlBrowser, SweepAndComparePagesRender) {
  REQUIRE_CHROMIUM(chromium);
  std::vector<SweepVariantResult> v(2);
  v[0] = {"fast", "aaaaaaaa11111111", nlohmann::json::object(), {test::run_record("gemv", 100, "aaaaaaaa11111111", "64")}};
  v[1] = {"slow <i>", "bbbbbbbb22222222", nlohmann::json::object(),
          {test::run_record("gemv", 125, "bbbbbbbb22222222", "32")}};
  const SweepTable t = build_sweep_table(v, 0);
  test::ScratchDir sweep_dir, compare_dir;
  const std::string sweep = rendered_dom(chromium, sweep_dir, render_sweep_html(t, "sweep check"));
  ASSERT_FALSE(sweep.empty());
  EXPECT_NE(sweep.find("<title>sweep check</title>"), std::string::npos);
  EXPECT_NE(sweep.find("id=\"sweep-variants\""), std::string::npos);
  EXPECT_NE(sweep.find("id=\"sweep-cycles\""), std::string::npos);
  EXPECT_NE(sweep.find("data-cycles=\"125\" data-speedup=\"0.800\""), std::string::npos);
  EXPECT_EQ(sweep.find("<i>"), std::string::npos);  // the variant's name stayed text
  const std::string cmp = rendered_dom(chromium, compare_dir, render_compare_html(t.summaries[1].against_reference));
  ASSERT_FALSE(cmp.empty());
  for (const char* id : {"compare-summary", "compare-chart", "compare-cells", "compare-regressions"})
    EXPECT_NE(cmp.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
  EXPECT_EQ(count(cmp, "class=\"bar slower\""), 1u);
}

// The tick labels of one chart's axis ("x" or "y") in a rendered DOM.
std::vector<std::string> tick_labels(const std::string& dom, const std::string& chart, const std::string& axis) {
  const size_t from = dom.find("id=\"" + chart + "\"");
  const size_t to = dom.find("</svg>", from);
  std::vector<std::string> out;
  const std::string open = "<text class=\"tick " + axis + "\"";
  for (size_t at = dom.find(open, from); at < to; at = dom.find(open, at + 1)) {
    const size_t text = dom.find('>', at) + 1;
    out.push_back(dom.substr(text, dom.find("</text>", text) - text));
  }
  return out;
}

// Four variants whose energies spread only 3.6% (6.469..6.701 uJ) on one area (1.25 mm2):
// every point is labelled, the energy ticks are five distinct values spanning that range,
// the area axis is drawn collapsed, and every variant's settings (the common one too) show.
TEST(HtmlBrowser, SweepChartsHaveLabelsAndHonestAxes) {
  REQUIRE_CHROMIUM(chromium);
  // variant name, cycles, energy in pJ, prefetch bytes per cycle
  const std::vector<std::tuple<std::string, uint64_t, double, std::string>> spec = {
      {"fast", 100, 6.701e6, "64"}, {"frugal", 125, 6.469e6, "16"}, {"middle", 110, 6.585e6, "32"},
      {"worse", 130, 6.650e6, "8"}};
  std::vector<SweepVariantResult> v;
  for (const auto& [name, cycles, energy, bw] : spec) {
    const std::string id = name + "0000000000";
    nlohmann::json r = test::run_record("gemv", cycles, id, bw);
    r["energy"]["total_pj"] = energy;
    r["area"] = {{"total_mm2", 1.25}};
    const nlohmann::json prov = {{"variant", id}, {"platform_config", "default"},
                                 {"overrides", {{"timing.dma.prefetch.bytes_per_cycle", bw}, {"timing.mode", "pipelined"}}}};
    v.push_back({name, id, prov, {r}});
  }
  const SweepTable t = build_sweep_table(v, 0);
  test::ScratchDir dir;
  const std::string dom = rendered_dom(chromium, dir, render_sweep_html(t, "narrow spread"));
  ASSERT_FALSE(dom.empty());
  // 4 variants x 2 charts, each point with visible text.
  EXPECT_EQ(count(dom, "<text class=\"label\""), 8u);
  for (const char* label : {">v1 fast</text>", ">v2 frugal</text>", ">v3 middle</text>", ">v4 worse</text>"})
    EXPECT_EQ(count(dom, label), 2u) << label;
  // Energy vs cycles: fast, frugal and middle are each best somewhere; worse (130 cycles,
  // 6.650 uJ) is beaten by middle (110, 6.585). Cycles vs area (one area): only fast.
  EXPECT_EQ(count(dom, "class=\"point pareto\""), 3u + 1u);
  // Energy ticks: min + (max - min) * i / 4 = 6.469, 6.527, 6.585, 6.643, 6.701 (span 0.232:
  // a step of 0.058 needs 3 decimals); not "6" and "7".
  EXPECT_EQ(tick_labels(dom, "pareto-energy-cycles", "y"),
            (std::vector<std::string>{"6.469", "6.527", "6.585", "6.643", "6.701"}));
  // Cycles 100..130: step 7.5, one decimal.
  EXPECT_EQ(tick_labels(dom, "pareto-energy-cycles", "x"),
            (std::vector<std::string>{"100.0", "107.5", "115.0", "122.5", "130.0"}));
  // Area does not vary: one tick saying so, and the axis title says it is collapsed.
  EXPECT_EQ(tick_labels(dom, "pareto-cycles-area", "x"), (std::vector<std::string>{"1.250 (all equal)"}));
  EXPECT_NE(dom.find(">area (mm2): does not vary (collapsed axis)</text>"), std::string::npos);
  EXPECT_EQ(count(dom, "class=\"axis collapsed\""), 1u);
  // Every variant's settings, the one common to all included in each row and named once.
  EXPECT_NE(dom.find("Settings common to every variant: <code>timing.mode=pipelined</code>"), std::string::npos);
  EXPECT_EQ(count(dom, "<code class=\"common\">timing.mode=pipelined</code>"), 4u);
  EXPECT_NE(dom.find("<code>timing.dma.prefetch.bytes_per_cycle=16</code>"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::harness
