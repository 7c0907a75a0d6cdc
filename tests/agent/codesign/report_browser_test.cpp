// The co-design page of the toy exploration (explorer_test.cpp's suite)
// rendered by headless Chromium: the browser parses the promised elements,
// every plotted point has a visible label, and a screenshot is written. Skipped
// without Chromium, except under CI.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "agent/codesign/explorer.h"
#include "harness/codesign_html.h"

namespace tlmcraft::agent::codesign {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string chromium_path() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"})
    if (access(p, X_OK) == 0) return p;
  return "";
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// A summary as `codesign explore` writes it: base, two faster variants (one on
// the front), a failing one.
json summary() {
  auto variant = [](const std::string& id, bool ok, double speedup, double energy, double area, bool front) {
    return json{{"id", id},
                {"ok", ok},
                {"speedup", speedup},
                {"energy_ratio", energy},
                {"area_mm2", 1 + area},
                {"area_increase", area},
                {"pareto", front},
                {"candidates", id == "base" ? json::array() : json::array({id})},
                {"failures", ok ? json::array() : json::array({"tb/C1: fail (\"match 0%\")"})},
                {"cycles", {{"ta/C1", 60 / speedup}, {"tb/C1", 80 / speedup}}},
                {"energy_by_component", {{"vector", 100 * energy}}},
                {"uses", id == "base" ? json::object()
                                      : json{{id, {{"static", 1}, {"executions", 4}, {"kernels", {"ta/C1"}}}}}}};
  };
  return {{"platform", "plena"},
          {"strategy", "greedy"},
          {"base_area_mm2", 1.0},
          {"area_budget_mm2", 0.05},
          {"pareto", {"base", "CD0"}},
          {"variants",
           {variant("base", true, 1.0, 1.0, 0, true), variant("CD0", true, 1.0954, 0.97, 0.01, true),
            variant("CD2", true, 1.0, 1.0, 0.005, false), variant("CD1", false, 0, 0, 0.02, false)}},
          {"instructions",
           {{"CD0", {{"declared_latency", 1}, {"cycles_saved", 10}, {"executions", 1}, {"break_even_latency", 11}}}}}};
}

TEST(CodesignReport, ChromiumRendersTheLabelledFront) {
  const std::string chromium = chromium_path();
  if (chromium.empty()) {
    if (std::getenv("CI")) FAIL() << "chromium is required under CI (make test installs it)";
    GTEST_SKIP() << "chromium is not installed; browser test skipped";
  }
  const fs::path dir = fs::temp_directory_path() / ("tlm_codesign_report_" + std::to_string(getpid()));
  fs::create_directories(dir);
  ASSERT_TRUE(harness::is_codesign_summary(summary()));
  std::ofstream(dir / "page.html") << harness::render_codesign_html(summary(), "co-design <check>");
  const std::string flags =
      "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
      "--disable-background-networking --disable-component-update "
      "--disable-sync "
      "--disable-dev-shm-usage --user-data-dir='" +
      (dir / "profile").string() + "' ";
  const std::string page = "'file://" + (dir / "page.html").string() + "'";
  const int dom_rc = std::system(("timeout 90 '" + chromium + "' " + flags + "--dump-dom " + page + " > '" +
                                  (dir / "dom.html").string() + "' 2>/dev/null")
                                     .c_str());
  const int png_rc = std::system(("timeout 90 '" + chromium + "' " + flags + "--window-size=1000,1400 --screenshot='" +
                                  (dir / "page.png").string() + "' " + page + " >/dev/null 2>&1")
                                     .c_str());
  EXPECT_TRUE(WIFEXITED(dom_rc) && WEXITSTATUS(dom_rc) == 0);
  EXPECT_TRUE(WIFEXITED(png_rc) && WEXITSTATUS(png_rc) == 0);
  const std::string dom = read(dir / "dom.html");
  for (const char* id : {"codesign-pareto-area", "codesign-pareto-energy", "codesign-variants", "codesign-instructions",
                         "codesign-tasks", "codesign-energy"})
    EXPECT_NE(dom.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
  // Three passing variants in each of the two charts, two of them on the front;
  // each point has a text label (not only a hover title).
  EXPECT_EQ(count(dom, "class=\"point pareto\""), 4u);
  EXPECT_EQ(count(dom, "class=\"point\""), 2u);
  EXPECT_EQ(count(dom, "class=\"label\""), 6u);
  EXPECT_NE(dom.find(">CD0</text>"), std::string::npos);
  // A speedup spread of 1.0000..1.0954 gets distinct tick labels, not "1"
  // twice.
  EXPECT_NE(dom.find(">1.00"), std::string::npos);
  EXPECT_NE(dom.find("co-design &lt;check&gt;"), std::string::npos);
  EXPECT_GT(fs::exists(dir / "page.png") ? fs::file_size(dir / "page.png") : 0u, 1000u);
  if (!std::getenv("TLM_KEEP")) fs::remove_all(dir);
}

TEST(CodesignReport, TheCeilingIsSaidApartFromTheVariants) {
  // A summary with `codesign explore --ceiling`'s entry: its label and figures in a
  // paragraph of their own, no point in the charts and no row among the variants.
  json s = summary();
  s["ceiling"] = {{"label", "ceiling (not buildable: every candidate at latency 1, area +3.5%)"},
                  {"speedup", 1.2421},
                  {"energy_ratio", 0.9},
                  {"ok", true}};
  const std::string html = harness::render_codesign_html(s, "t");
  EXPECT_NE(html.find("<p id=\"codesign-ceiling\">ceiling (not buildable: every candidate at latency 1, area "
                      "+3.5%): 1.2421x, energy 0.9000x. Every candidate at once, not a variant: never on the front "
                      "nor within the budget.</p>"),
            std::string::npos);
  EXPECT_EQ(count(html, "1.2421"), 1u);
  EXPECT_EQ(harness::render_codesign_html(summary(), "t").find("codesign-ceiling"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
