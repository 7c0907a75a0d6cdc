// HTML report structure: the stable ids and classes, tooltips, escaping, self-containment.
#include "harness/html_report.h"

#include <gtest/gtest.h>

#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

std::string render() {
  HtmlReportOptions o;
  o.title = "Suite <nightly> & co";
  o.sources = {"out/bench-plena.jsonl"};
  o.generated = "2026-01-02T03:04:05Z";
  return render_html_report(test::hand_made_records(), o);
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

TEST(HtmlReport, TitleAndMetadata) {
  const std::string html = render();
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n", 0), 0u);
  EXPECT_NE(html.find("<title>Suite &lt;nightly&gt; &amp; co</title>"), std::string::npos);
  EXPECT_NE(html.find("<h1 id=\"report-title\">Suite &lt;nightly&gt; &amp; co</h1>"), std::string::npos);
  EXPECT_NE(html.find("<dl id=\"run-metadata\""), std::string::npos);
  EXPECT_NE(html.find("<dt>generated</dt><dd>2026-01-02T03:04:05Z</dd>"), std::string::npos);
  EXPECT_NE(html.find("<code>out/bench-plena.jsonl</code>"), std::string::npos);
  // 26 distinct jobs: plena 11 + coral 15; 12 workloads run; 2 unsupported.
  EXPECT_NE(html.find("<dt>results</dt><dd>26 (12 workloads run, 2 unsupported)</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dt>kernels</dt><dd>baseline, file</dd>"), std::string::npos);
}

TEST(HtmlReport, PassMatrixCells) {
  const std::string html = render();
  EXPECT_NE(html.find("<section id=\"platform-plena\" class=\"platform\">"), std::string::npos);
  EXPECT_NE(html.find("<svg id=\"pass-matrix-plena\" class=\"pass-matrix\""), std::string::npos);
  EXPECT_NE(html.find("<svg id=\"pass-matrix-coral\" class=\"pass-matrix\""), std::string::npos);
  // Tooltip of a passing cell: status, cycles, baseline, speedup, kernel.
  EXPECT_NE(html.find("<g class=\"cell pass\" id=\"cell-plena-silu-C1\" data-status=\"pass\"><title>silu C1: pass\n"
                      "cycles 50, baseline 100, speedup 2.00x\nkernel baseline</title>"),
            std::string::npos);
  EXPECT_NE(html.find("<g class=\"cell fail status-timeout\" id=\"cell-plena-silu-C5\" data-status=\"timeout\">"),
            std::string::npos);
  EXPECT_NE(html.find("<g class=\"cell unsupported\" id=\"cell-plena-conv2d-C1\" data-status=\"unsupported\">"),
            std::string::npos);
  EXPECT_NE(html.find("<g class=\"cell notrun\" id=\"cell-plena-gemm-C3\" data-status=\"notrun\"><title>gemm C3: "
                      "not run</title>"),
            std::string::npos);
  // plena: 4 tasks x 5 configs; coral: 1 task x 3 configs.
  EXPECT_EQ(count(html, "<g class=\"cell "), 23u);
  // Several samples: passed/samples in the cell.
  EXPECT_NE(html.find("<title>relu C1: pass (2 of 5 samples passed)"), std::string::npos);
}

TEST(HtmlReport, SpeedupAndUtilisationCharts) {
  const std::string html = render();
  EXPECT_NE(html.find("<svg id=\"speedup-chart-plena\" class=\"speedup-chart\""), std::string::npos);
  EXPECT_NE(html.find("<rect class=\"bar faster\" data-task=\"gemm\""), std::string::npos);
  EXPECT_NE(html.find("<rect class=\"bar faster\" data-task=\"ffn\""), std::string::npos);
  EXPECT_NE(html.find("gemm: geometric-mean speedup 4.000x over 1 correct config(s)"), std::string::npos);
  // ffn solved C1 only; conv2d has no supported config.
  EXPECT_NE(html.find("class=\"no-speedup muted\" fill=\"#6a737d\">unsupported</text>"), std::string::npos);
  EXPECT_EQ(html.find(">no correct kernel</text>"), std::string::npos);
  // Utilisation: only silu C1 has unit statistics; vector 50% of a 70 px bar = 35 px.
  EXPECT_NE(html.find("<svg id=\"utilisation-plena\" class=\"utilisation\""), std::string::npos);
  EXPECT_NE(html.find("<summary>1 jobs x 2 units (busy cycles / total cycles)</summary>"), std::string::npos);
  EXPECT_NE(html.find("<rect class=\"util-bar\" data-unit=\"vector\" x=\""), std::string::npos);
  EXPECT_NE(html.find("width=\"35.0\""), std::string::npos);
  EXPECT_NE(html.find("silu C1 vector: 50.0% busy (25 busy cycles, 1 stall cycles), 8 instructions"), std::string::npos);
  EXPECT_NE(html.find("<p id=\"utilisation-coral\" class=\"utilisation empty muted\">"), std::string::npos);
}

TEST(HtmlReport, SpeedupChartNamesTasksWithoutCorrectKernels) {
  auto records = test::hand_made_records();
  records.push_back({{"platform", "plena"}, {"task", "gelu"}, {"config", "C1"}, {"level", 1}, {"status", "fail"}});
  const std::string html = render_html_report(records, HtmlReportOptions{});
  // Rows: conv2d, gelu, gemm, silu, ffn; gelu is row 1: y = 22 + 20 + 14 = 56; labels of
  // up to 6 characters: x = 6 * 8 + 16 + 4 = 68.
  EXPECT_NE(html.find("<text x=\"4\" y=\"56\">gelu</text><text x=\"68\" y=\"56\" class=\"no-speedup muted\" "
                      "fill=\"#6a737d\">no correct kernel</text>"),
            std::string::npos);
}

TEST(HtmlReport, SummaryAndFailureTables) {
  const std::string html = render();
  EXPECT_NE(html.find("<table id=\"summary-table\" class=\"summary\">"), std::string::npos);
  EXPECT_NE(html.find("<tr id=\"summary-plena\"><td>plena</td><td class=\"num\">5/9</td><td class=\"num\">4/7</td>"
                      "<td class=\"num\">1/2</td><td class=\"num\">1.43x</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr id=\"summary-all\"><td>all platforms</td><td class=\"num\">7/12</td>"), std::string::npos);
  EXPECT_NE(html.find("<table id=\"failures-plena\" class=\"failures\">"), std::string::npos);
  // The reason's '<' and quotes are escaped.
  EXPECT_NE(html.find("<td>assemble_error</td><td>k.asm:3:5: error: unknown mnemonic &#39;V_FOO&#39; &lt;expected "
                      "V_ADD&gt;</td>"),
            std::string::npos);
}

TEST(HtmlReport, EscapesHostileNamesAndStaysSelfContained) {
  json r = {{"platform", "x<y"}, {"task", "<script>alert(1)</script>"}, {"config", "C1\"'"}, {"level", 1},
            {"status", "fail"}, {"reason", "a & b < c"}};
  const std::string html = render_html_report({r}, HtmlReportOptions{});
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("<svg id=\"pass-matrix-x_y\""), std::string::npos);
  EXPECT_NE(html.find("id=\"cell-x_y-_script_alert_1___script_-C1__\""), std::string::npos);
  EXPECT_NE(html.find("<td>a &amp; b &lt; c</td>"), std::string::npos);
  // No external resources: the only URL is the SVG namespace.
  const std::string all = render();
  EXPECT_EQ(all.find("<link"), std::string::npos);
  EXPECT_EQ(all.find("src="), std::string::npos);
  EXPECT_EQ(all.find("https://"), std::string::npos);
  EXPECT_EQ(count(all, "http://"), count(all, "http://www.w3.org/2000/svg"));
}

TEST(HtmlReport, EscapeAndIdHelpers) {
  EXPECT_EQ(html_escape("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(id_token("aie_ml-2 x/y"), "aie_ml-2_x_y");
  EXPECT_EQ(id_token(""), "_");
}

TEST(HtmlReport, EmptyInput) {
  const std::string html = render_html_report({}, HtmlReportOptions{});
  EXPECT_NE(html.find("no task results in the input"), std::string::npos);
  EXPECT_EQ(html.find("summary-table"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::harness
