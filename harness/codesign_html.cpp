#include "harness/codesign_html.h"

#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

#include "harness/html_report.h"
#include "harness/page_style.h"
#include "harness/svg_scatter.h"

namespace tlmcraft::harness {
namespace {

using nlohmann::json;

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

double num(const json& v, const char* key, double fallback = 0) {
  return v.contains(key) && v[key].is_number() ? v[key].get<double>() : fallback;
}

void charts(std::ostringstream& os, const json& s) {
  std::vector<ScatterPoint> area, energy;
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
  os << "<h2>Pareto front</h2><p class=\"muted\">Red: on the front over (geometric-mean cycles, energy, area). "
        "Speedup and energy are geometric means over the suite's cells against the shipped ISA.</p>"
     << svg_scatter("codesign-pareto-area", area, "added area (% of the platform)", "suite speedup (x)")
     << svg_scatter("codesign-pareto-energy", energy, "suite speedup (x)", "energy ratio (x)");
}

void variants_table(std::ostringstream& os, const json& s) {
  os << "<h2>Variants</h2><table id=\"codesign-variants\"><tr><th>variant</th><th>speedup</th><th>energy</th>"
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

// `codesign explore --ceiling`: every candidate at once at latency 1 with no area limit. Said
// apart from the variants, with its label, since no buildable ISA reaches it.
void ceiling_note(std::ostringstream& os, const json& s) {
  if (!s.contains("ceiling") || !s["ceiling"].is_object()) return;
  const json& c = s["ceiling"];
  os << "<h2>Ceiling of the candidate space</h2><p id=\"codesign-ceiling\">" << html_escape(c.value("label", "ceiling"))
     << ": " << fixed(num(c, "speedup", 1), 4) << "x, energy " << fixed(num(c, "energy_ratio", 1), 4) << "x"
     << (c.value("ok", false) ? "" : " over the cells it passed")
     << ". Every candidate at once, not a variant: never on the front nor within the budget.</p>";
}

void instructions_table(std::ostringstream& os, const json& s) {
  os << "<h2>Instructions</h2><table id=\"codesign-instructions\"><tr><th>instruction</th><th>kernels</th>"
        "<th>static</th><th>executions</th><th>cycles saved</th><th>declared latency</th><th>break-even latency</th></tr>";
  std::map<std::string, json> uses;  // from the single-candidate variants
  for (const json& v : s["variants"])
    if (v.value("candidates", json::array()).size() == 1) {
      const json u = v.value("uses", json::object());
      for (auto it = u.begin(); it != u.end(); ++it) uses[it.key()] = it.value();
    }
  for (auto& [name, u] : uses) {
    const json b = s.value("instructions", json::object()).value(name, json::object());
    std::string kernels;
    for (const json& k : u.value("kernels", json::array())) kernels += (kernels.empty() ? "" : ", ") + k.get<std::string>();
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
    if (v.value("id", "") == "base") base = &v;
    else if (v.value("pareto", false)) front.push_back(&v);
  }
  if (!base) return;
  os << "<h2>Speedup per task</h2><table id=\"codesign-tasks\"><tr><th>task/config</th><th>base cycles</th>";
  for (const json* v : front) os << "<th>" << html_escape(v->value("id", "?")) << "</th>";
  os << "</tr>";
  for (auto it = (*base)["cycles"].begin(); it != (*base)["cycles"].end(); ++it) {
    os << "<tr><td>" << html_escape(it.key()) << "</td><td class=\"num\">" << fixed(it.value().get<double>(), 0) << "</td>";
    for (const json* v : front) {
      const json& c = (*v)["cycles"];
      os << "<td class=\"num\">"
         << (c.contains(it.key()) ? fixed(it.value().get<double>() / c[it.key()].get<double>(), 3) + "x" : "-") << "</td>";
    }
    os << "</tr>";
  }
  os << "</table>";
  os << "<h2>Energy by component</h2><table id=\"codesign-energy\"><tr><th>component</th><th>base pJ</th>";
  for (const json* v : front) os << "<th>" << html_escape(v->value("id", "?")) << "</th>";
  os << "</tr>";
  const json parts = base->value("energy_by_component", json::object());
  for (auto it = parts.begin(); it != parts.end(); ++it) {
    os << "<tr><td>" << html_escape(it.key()) << "</td><td class=\"num\">" << fixed(it.value().get<double>(), 1) << "</td>";
    for (const json* v : front)
      os << "<td class=\"num\">" << fixed(v->value("energy_by_component", json::object()).value(it.key(), 0.0), 1) << "</td>";
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
  os << page_head(title, kScatterStyle) << "<p class=\"muted\">Platform "
     << html_escape(summary.value("platform", "?")) << ", strategy " << html_escape(summary.value("strategy", "?"))
     << ", area budget " << fixed(num(summary, "area_budget_mm2"), 4) << " mm2 over "
     << fixed(num(summary, "base_area_mm2"), 4) << " mm2 (docs/codesign.md).</p>";
  charts(os, summary);
  variants_table(os, summary);
  ceiling_note(os, summary);
  instructions_table(os, summary);
  per_task(os, summary);
  os << "</body></html>\n";
  return os.str();
}

}  // namespace tlmcraft::harness
