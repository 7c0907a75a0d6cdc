// Renders the report in headless Chromium and checks the rendered DOM. Registered as the
// ctest test `harness_browser` (label `browser`); skipped when chromium is not installed.
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include <gtest/gtest.h>

#include "harness/html_report.h"
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

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

TEST(HtmlBrowser, ChromiumRendersTheExpectedElements) {
  const std::string chromium = find_chromium();
  if (chromium.empty()) {
    if (std::getenv("CI")) FAIL() << "chromium is required under CI (make test installs it)";
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium); browser test skipped";
  }

  test::ScratchDir dir;
  auto records = test::hand_made_records();
  records.push_back({{"platform", "plena"}, {"task", "<script>document.title='x'</script>"}, {"config", "C1"},
                     {"level", 3}, {"status", "fail"}, {"reason", "<b>not bold</b>"}});
  HtmlReportOptions opts;
  opts.title = "browser check";
  const std::string html_path = dir.file("report.html");
  test::write_text(html_path, render_html_report(records, opts));

  const std::string dom_path = dir.file("dom.html");
  const std::string cmd = "timeout 90 '" + chromium +
                          "' --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                          "--disable-background-networking --disable-component-update --disable-sync "
                          "--disable-dev-shm-usage --user-data-dir='" + dir.file("profile") +
                          "' --dump-dom 'file://" + html_path + "' > '" + dom_path + "' 2> '" +
                          dir.file("chromium.log") + "'";
  const int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0)
      << "chromium failed (status " << rc << "): " << test::read_text(dir.file("chromium.log"));
  const std::string dom = test::read_text(dom_path);
  ASSERT_FALSE(dom.empty()) << test::read_text(dir.file("chromium.log"));

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

}  // namespace
}  // namespace tlmcraft::harness
