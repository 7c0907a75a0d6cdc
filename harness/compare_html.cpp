#include "harness/compare_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "harness/html_report.h"
#include "harness/page_style.h"
#include "harness/summary.h"

namespace tlmcraft::harness {
namespace {

// The comparison chart's own rules, after the shared page style.
const char* kCompareStyle = R"css(
svg text{font:12px system-ui,sans-serif;fill:#1d2228}
.bar.faster{fill:#2e7d32}.bar.slower{fill:#e0822a}.unity{stroke:#1d2228;stroke-width:1.5}
tr.slower td.ratio{color:#b4560f}tr.faster td.ratio{color:#2e7d32}
)css";

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string ratio(const std::optional<double>& v) { return v ? fixed(*v, 3) + "x" : "-"; }

std::string cycles(const std::optional<uint64_t>& c, const std::string& status) {
  if (status.empty()) return "-";
  if (status != "pass") return html_escape(status);
  return c ? std::to_string(*c) : "?";
}

std::string summary_table(const Comparison& c) {
  std::ostringstream os;
  os << "<table id=\"compare-summary\"><tr><th>group</th><th>cells</th><th>geomean speedup</th><th>energy B/A</th></tr>";
  const auto row = [&](const GeoGroup& g) {
    os << "<tr><td>" << html_escape(g.name) << "</td><td class=\"num\">" << g.cells << "</td><td class=\"num\">"
       << ratio(g.geomean) << "</td><td class=\"num\">" << ratio(g.energy_geomean) << "</td></tr>";
  };
  row(c.overall);
  for (const auto* groups : {&c.by_platform, &c.by_level}) for (const auto& g : *groups) row(g);
  os << "</table>";
  return os.str();
}

// One horizontal bar per task from the 1.0x line, log2 scale clamped to [1/4, 4].
std::string task_chart(const Comparison& c) {
  const int row_h = 20, label_w = 180, half = 200, width = label_w + 2 * half + 70;
  const int height = int(c.by_task.size()) * row_h + 10;
  std::ostringstream os;
  os << "<svg id=\"compare-chart\" width=\"" << width << "\" height=\"" << height << "\" role=\"img\">";
  const int x0 = label_w + half;
  int y = 5;
  for (const auto& g : c.by_task) {
    if (!g.geomean) continue;
    const double l = std::clamp(std::log2(*g.geomean), -2.0, 2.0);
    const int len = int(std::lround(std::abs(l) / 2.0 * half));
    const int x = l < 0 ? x0 - len : x0;
    os << "<text x=\"" << label_w - 6 << "\" y=\"" << y + 14 << "\" text-anchor=\"end\">" << html_escape(g.name)
       << "</text><rect class=\"bar " << (*g.geomean < 1 ? "slower" : "faster") << "\" x=\"" << x << "\" y=\"" << y + 3
       << "\" width=\"" << std::max(len, 1) << "\" height=\"" << row_h - 6 << "\"><title>" << html_escape(g.name)
       << ": " << ratio(g.geomean) << " over " << g.cells << " config(s)</title></rect><text x=\""
       << (l < 0 ? x0 + 6 : x + len + 6) << "\" y=\"" << y + 14 << "\">" << ratio(g.geomean) << "</text>";
    y += row_h;
  }
  os << "<line class=\"unity\" x1=\"" << x0 << "\" y1=\"0\" x2=\"" << x0 << "\" y2=\"" << height << "\"/></svg>";
  return os.str();
}

std::string cell_rows(const Comparison& c, const std::vector<CompareCell>& cells, const std::string& id) {
  std::ostringstream os;
  os << "<table id=\"" << id << "\"><tr><th>platform</th><th>level</th><th>task</th><th>config</th><th>A cycles</th>"
     << "<th>B cycles</th><th>speedup</th><th>A energy (nJ)</th><th>B energy (nJ)</th></tr>";
  for (const auto& cell : cells) {
    const std::string cls = !cell.speedup ? "" : *cell.speedup < 1 ? "slower" : *cell.speedup > 1 ? "faster" : "";
    os << "<tr class=\"" << cls << "\"" << (cell.speedup ? " data-speedup=\"" + fixed(*cell.speedup, 6) + "\"" : "")
       << "><td>" << html_escape(cell.platform) << "</td><td>" << level_label(cell.level) << "</td><td>"
       << html_escape(cell.task) << "</td><td>" << html_escape(cell.config) << "</td><td class=\"num\">"
       << cycles(cell.a_cycles, cell.a_status) << "</td><td class=\"num\">" << cycles(cell.b_cycles, cell.b_status)
       << "</td><td class=\"num ratio\">" << ratio(cell.speedup) << "</td><td class=\"num\">"
       << (cell.a_energy_pj ? fixed(*cell.a_energy_pj / 1000, 1) : "-") << "</td><td class=\"num\">"
       << (cell.b_energy_pj ? fixed(*cell.b_energy_pj / 1000, 1) : "-") << "</td></tr>";
  }
  os << "</table>";
  (void)c;
  return os.str();
}

std::vector<CompareCell> pick(const Comparison& c, const std::vector<size_t>& idx) {
  std::vector<CompareCell> out;
  for (size_t i : idx) out.push_back(c.cells[i]);
  return out;
}

}  // namespace

std::string render_compare_html(const Comparison& c, const std::string& title) {
  std::ostringstream os;
  os << page_head(title, kCompareStyle);
  os << "<p><b>A</b> (reference): " << html_escape(c.options.a_label) << "<br><b>B</b>: " << html_escape(c.options.b_label)
     << "<br>speedup = A cycles / B cycles (above 1: B is faster); regressions and wins beyond "
     << fixed(c.options.threshold * 100, 1) << "%</p>";
  os << "<h2>Geometric means</h2>" << summary_table(c);
  os << "<h2>Speedup per task (geomean over configs, log scale)</h2>" << task_chart(c);
  os << "<h2>Regressions (" << c.regressions.size() << ")</h2>" << cell_rows(c, pick(c, c.regressions), "compare-regressions");
  os << "<h2>Wins (" << c.wins.size() << ")</h2>" << cell_rows(c, pick(c, c.wins), "compare-wins");
  if (!c.status_changes.empty())
    os << "<h2>Status changes (" << c.status_changes.size() << ")</h2>"
       << cell_rows(c, pick(c, c.status_changes), "compare-status-changes");
  os << "<h2>Every cell (" << c.cells.size() << ")</h2>" << cell_rows(c, c.cells, "compare-cells");
  os << "<h2>Only in A (" << c.only_a.size() << ")</h2>" << cell_rows(c, c.only_a, "compare-only-a");
  os << "<h2>Only in B (" << c.only_b.size() << ")</h2>" << cell_rows(c, c.only_b, "compare-only-b");
  os << "</body></html>\n";
  return os.str();
}

}  // namespace tlmcraft::harness
