// Renders the report in headless Chromium and checks the rendered DOM. Registered as the
// ctest test `harness_browser` (label `browser`); skipped when chromium is not installed.
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

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

}  // namespace
}  // namespace tlmcraft::harness
