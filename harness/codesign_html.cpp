#include "harness/codesign_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

#include "harness/html_report.h"

namespace tlmcraft::harness {
namespace {

using nlohmann::json;

const char* kStyle = R"css(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2228}
h1{font-size:22px}h2{font-size:18px;margin:24px 0 8px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #d0d5da;padding:3px 8px;text-align:left}
th{background:#f3f5f7}td.num{text-align:right;font-variant-numeric:tabular-nums}td.fail{background:#f7d7d7}
svg text{font:11px system-ui,sans-serif;fill:#1d2228}.axis{stroke:#8a939c}.grid{stroke:#eceff1}
.point{fill:#8a939c}.point.pareto{fill:#c62828}.muted{color:#6a737d}
)css";

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// An axis over the values' own range (5% margin each side). Ticks get enough
// digits to be distinct, so a 3% spread is not drawn as two equal labels; a
// quantity that does not vary gets one labelled tick and says so.
struct Axis {
  double lo = 0, hi = 1, min = 0,
         max = 1;  // drawn range; the values' range (ticks span it)
  int digits = 2;
  bool constant = false;
  explicit Axis(const std::vector<double>& values) {
    lo = *std::min_element(values.begin(), values.end());
    hi = *std::max_element(values.begin(), values.end());
    min = lo;
    max = hi;
    const double span = hi - lo;
    if (span <= 1e-12 * std::max(1.0, std::fabs(hi))) {
      constant = true;
      lo -= 0.5;
      hi += 0.5;
      digits = 3;
      return;
    }
    lo -= 0.05 * span;
    hi += 0.05 * span;
    digits = std::max(0, int(std::ceil(-std::log10(span / 4.0))) + 1);
  }
  double at(double v, double from, double to) const { return from + (v - lo) / (hi - lo) * (to - from); }
};

struct Point {
  std::string label;
  double x, y;
  bool pareto;
};

void axis_ticks(std::ostringstream& os, const Axis& a, bool horizontal, double x0, double x1, double y0, double y1,
                double only) {
  const int n = a.constant ? 1 : 5;
  for (int i = 0; i < n; ++i) {
    const double v = a.constant ? only : a.min + (a.max - a.min) * i / (n - 1);
    const std::string label = fixed(v, a.digits) + (a.constant ? " (all equal)" : "");
    if (horizontal) {
      const double x = a.at(v, x0, x1);
      os << "<line class=\"grid\" x1=\"" << x << "\" y1=\"" << y0 << "\" x2=\"" << x << "\" y2=\"" << y1 << "\"/>"
         << "<text x=\"" << x << "\" y=\"" << y0 + 16 << "\" text-anchor=\"middle\">" << label << "</text>";
    } else {
      const double y = a.at(v, y0, y1);
      os << "<line class=\"grid\" x1=\"" << x0 << "\" y1=\"" << y << "\" x2=\"" << x1 << "\" y2=\"" << y << "\"/>"
         << "<text x=\"" << x0 - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">" << label << "</text>";
    }
  }
}

std::string scatter(const std::string& id, const std::vector<Point>& pts, const std::string& x_title,
                    const std::string& y_title) {
  const double w = 720, h = 420, left = 90, right = 30, top = 20, bottom = 50;
  std::vector<double> xs, ys;
  for (const Point& p : pts) xs.push_back(p.x), ys.push_back(p.y);
  const Axis ax(xs), ay(ys);
  std::ostringstream os;
  os << "<svg id=\"" << id << "\" width=\"" << w << "\" height=\"" << h << "\" role=\"img\">";
  axis_ticks(os, ax, true, left, w - right, h - bottom, top, xs.front());
  axis_ticks(os, ay, false, left, w - right, h - bottom, top, ys.front());
  os << "<line class=\"axis\" x1=\"" << left << "\" y1=\"" << h - bottom << "\" x2=\"" << w - right << "\" y2=\""
     << h - bottom << "\"/><line class=\"axis\" x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left << "\" y2=\""
     << h - bottom << "\"/>";
  for (const Point& p : pts) {
    const double x = ax.at(p.x, left, w - right), y = ay.at(p.y, h - bottom, top);
    os << "<circle class=\"point" << (p.pareto ? " pareto" : "") << "\" cx=\"" << x << "\" cy=\"" << y
       << "\" r=\"5\"><title>" << html_escape(p.label) << "</title></circle><text class=\"label\" x=\"" << x + 7
       << "\" y=\"" << y - 7 << "\">" << html_escape(p.label) << "</text>";
  }
  os << "<text x=\"" << (left + w - right) / 2 << "\" y=\"" << h - 8 << "\" text-anchor=\"middle\">"
     << html_escape(x_title) << "</text><text transform=\"translate(16," << (top + h - bottom) / 2
     << ") rotate(-90)\" text-anchor=\"middle\">" << html_escape(y_title) << "</text></svg>";
  return os.str();
}

double num(const json& v, const char* key, double fallback = 0) {
  return v.contains(key) && v[key].is_number() ? v[key].get<double>() : fallback;
}

void charts(std::ostringstream& os, const json& s) {
  std::vector<Point> area, energy;
  for (const json& v : s["variants"]) {
    if (!v.value("ok", false)) continue;
    const std::string id = v.value("id", "?");
    const bool front = v.value("pareto", false);
    area.push_back({id, 100 * num(v, "area_increase"), num(v, "speedup", 1), front});
    energy.push_back({id, num(v, "speedup", 1), num(v, "energy_ratio", 1), front});
  }
  if (area.empty()) {
    os << "<p class=\"muted\">No variant passed: nothing to plot.</p>";
    return;
  }
  os << "<h2>Pareto front</h2><p class=\"muted\">Red: on the front over "
        "(geometric-mean cycles, energy, area). "
        "Speedup and energy are geometric means over the suite's cells against "
        "the shipped ISA.</p>"
     << scatter("codesign-pareto-area", area, "added area (% of the platform)", "suite speedup (x)")
     << scatter("codesign-pareto-energy", energy, "suite speedup (x)", "energy ratio (x)");
}

void variants_table(std::ostringstream& os, const json& s) {
  os << "<h2>Variants</h2><table "
        "id=\"codesign-variants\"><tr><th>variant</th><th>speedup</"
        "th><th>energy</th>"
        "<th>area mm2</th><th>added</th><th>front</th><th>status</th></tr>";
  for (const json& v : s["variants"]) {
    const bool ok = v.value("ok", false);
    os << "<tr><td>" << html_escape(v.value("id", "?")) << "</td>";
    if (ok)
      os << "<td class=\"num\">" << fixed(num(v, "speedup", 1), 4) << "x</td><td class=\"num\">"
         << fixed(num(v, "energy_ratio", 1), 4) << "x</td>";
    else
      os << "<td class=\"fail\" colspan=\"2\">fail</td>";
    os << "<td class=\"num\">" << fixed(num(v, "area_mm2"), 4) << "</td><td class=\"num\">"
       << fixed(100 * num(v, "area_increase"), 2) << "%</td><td>" << (v.value("pareto", false) ? "yes" : "")
       << "</td><td>";
    for (const json& f : v.value("failures", json::array())) os << html_escape(f.get<std::string>()) << "<br>";
    os << (ok ? "pass" : "") << "</td></tr>";
  }
  os << "</table>";
}

void instructions_table(std::ostringstream& os, const json& s) {
  os << "<h2>Instructions</h2><table "
        "id=\"codesign-instructions\"><tr><th>instruction</th><th>kernels</th>"
        "<th>static</th><th>executions</th><th>cycles saved</th><th>declared "
        "latency</th><th>break-even latency</th></tr>";
  std::map<std::string, json> uses;  // from the single-candidate variants
  for (const json& v : s["variants"])
    if (v.value("candidates", json::array()).size() == 1) {
      const json u = v.value("uses", json::object());
      for (auto it = u.begin(); it != u.end(); ++it) uses[it.key()] = it.value();
    }
  for (auto& [name, u] : uses) {
    const json b = s.value("instructions", json::object()).value(name, json::object());
    std::string kernels;
    for (const json& k : u.value("kernels", json::array()))
      kernels += (kernels.empty() ? "" : ", ") + k.get<std::string>();
    os << "<tr><td>" << html_escape(name) << "</td><td>" << html_escape(kernels) << "</td><td class=\"num\">"
       << u.value("static", 0) << "</td><td class=\"num\">" << u.value("executions", 0) << "</td><td class=\"num\">"
       << (b.contains("cycles_saved") ? fixed(num(b, "cycles_saved"), 0) : "-") << "</td><td class=\"num\">"
       << (b.contains("declared_latency") ? fixed(num(b, "declared_latency"), 0) : "-") << "</td><td class=\"num\">"
       << (b.contains("break_even_latency") ? fixed(num(b, "break_even_latency"), 1) : "-") << "</td></tr>";
  }
  os << "</table>";
}

void per_task(std::ostringstream& os, const json& s) {
  const json* base = nullptr;
  std::vector<const json*> front;
  for (const json& v : s["variants"]) {
    if (v.value("id", "") == "base")
      base = &v;
    else if (v.value("pareto", false))
      front.push_back(&v);
  }
  if (!base) return;
  os << "<h2>Speedup per task</h2><table "
        "id=\"codesign-tasks\"><tr><th>task/config</th><th>base cycles</th>";
  for (const json* v : front) os << "<th>" << html_escape(v->value("id", "?")) << "</th>";
  os << "</tr>";
  for (auto it = (*base)["cycles"].begin(); it != (*base)["cycles"].end(); ++it) {
    os << "<tr><td>" << html_escape(it.key()) << "</td><td class=\"num\">" << fixed(it.value().get<double>(), 0)
       << "</td>";
    for (const json* v : front) {
      const json& c = (*v)["cycles"];
      os << "<td class=\"num\">"
         << (c.contains(it.key()) ? fixed(it.value().get<double>() / c[it.key()].get<double>(), 3) + "x" : "-")
         << "</td>";
    }
    os << "</tr>";
  }
  os << "</table>";
  os << "<h2>Energy by component</h2><table "
        "id=\"codesign-energy\"><tr><th>component</th><th>base pJ</th>";
  for (const json* v : front) os << "<th>" << html_escape(v->value("id", "?")) << "</th>";
  os << "</tr>";
  const json parts = base->value("energy_by_component", json::object());
  for (auto it = parts.begin(); it != parts.end(); ++it) {
    os << "<tr><td>" << html_escape(it.key()) << "</td><td class=\"num\">" << fixed(it.value().get<double>(), 1)
       << "</td>";
    for (const json* v : front)
      os << "<td class=\"num\">" << fixed(v->value("energy_by_component", json::object()).value(it.key(), 0.0), 1)
         << "</td>";
    os << "</tr>";
  }
  os << "</table>";
}

}  // namespace

bool is_codesign_summary(const json& summary) {
  return summary.is_object() && summary.contains("variants") && summary["variants"].is_array() &&
         summary.contains("pareto") && summary.contains("area_budget_mm2");
}

std::string render_codesign_html(const json& summary, const std::string& title) {
  std::ostringstream os;
  os << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" << html_escape(title) << "</title><style>"
     << kStyle << "</style></head><body><h1>" << html_escape(title) << "</h1><p class=\"muted\">Platform "
     << html_escape(summary.value("platform", "?")) << ", strategy " << html_escape(summary.value("strategy", "?"))
     << ", area budget " << fixed(num(summary, "area_budget_mm2"), 4) << " mm2 over "
     << fixed(num(summary, "base_area_mm2"), 4) << " mm2 (docs/codesign.md).</p>";
  charts(os, summary);
  variants_table(os, summary);
  instructions_table(os, summary);
  per_task(os, summary);
  os << "</body></html>\n";
  return os.str();
}

}  // namespace tlmcraft::harness
