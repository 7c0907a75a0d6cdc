#include "harness/sweep_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <set>
#include <sstream>

#include "harness/html_report.h"
#include "harness/page_style.h"
#include "harness/provenance.h"
#include "harness/summary.h"
#include "harness/svg_scatter.h"

namespace tlmcraft::harness {
namespace {

using nlohmann::json;

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string provenance_text(const json& p) {
  if (!p.is_object()) return "<span class=\"muted\">none recorded</span>";
  std::ostringstream os;
  os << "config <code>" << html_escape(p.value("platform_config", std::string("?"))) << "</code> fnv "
     << html_escape(p.value("config_fnv1a64", std::string("?")));
  if (p.contains("isa") && p["isa"].is_array())
    for (const auto& f : p["isa"])
      os << "; ISA " << html_escape(f.value("name", std::string("?"))) << " fnv " << html_escape(f.value("fnv1a64", std::string("?")));
  if (p.contains("isa_ext") && p["isa_ext"].is_array())
    for (const auto& f : p["isa_ext"])
      if (f.is_object())
        os << "; overlay <code>" << html_escape(f.value("path", std::string("?"))) << "</code> sha256 "
           << html_escape(f.value("sha256", std::string("?")));
  if (p.contains("tlmcraft") && p["tlmcraft"].is_object()) {
    const std::string commit = p["tlmcraft"].value("commit", std::string("?"));
    os << "; tlmcraft " << html_escape(p["tlmcraft"].value("version", std::string("?"))) << " @ "
       << html_escape(commit.substr(0, 12)) << (p["tlmcraft"].value("modified", false) ? " (modified)" : "");
  }
  return os.str();
}

// A variant's settings as KEY=VALUE: its platform config (when not the default) and every
// override, those common to all variants included.
std::vector<std::string> settings_of(const json& p) {
  std::vector<std::string> out;
  if (!p.is_object()) return out;
  const std::string config = p.value("platform_config", std::string("default"));
  if (config != "default") out.push_back("config=" + config);
  if (p.contains("overrides") && p["overrides"].is_object())
    for (const auto& [k, val] : p["overrides"].items())
      out.push_back(k + "=" + (val.is_string() ? val.get<std::string>() : val.dump()));
  const std::string isa_dir = p.value("isa_dir", std::string());
  if (!isa_dir.empty()) out.push_back("isa_dir=" + isa_dir);
  return out;
}

// Settings every variant has (same key, same value).
std::set<std::string> common_settings(const SweepTable& t) {
  std::set<std::string> common;
  for (size_t v = 0; v < t.variants.size(); ++v) {
    const auto mine = settings_of(t.variants[v].provenance);
    const std::set<std::string> set(mine.begin(), mine.end());
    if (v == 0) common = set;
    else
      for (auto it = common.begin(); it != common.end();) it = set.count(*it) ? std::next(it) : common.erase(it);
  }
  return common;
}

std::string settings_cell(const json& provenance, const std::set<std::string>& common) {
  const auto settings = settings_of(provenance);
  if (settings.empty()) return "<span class=\"muted\">none (the platform's default config)</span>";
  std::string out;
  for (const auto& kv : settings)
    out += (out.empty() ? "" : "<br>") + std::string(common.count(kv) ? "<code class=\"common\">" : "<code>") +
           html_escape(kv) + "</code>";
  return out;
}

std::string variants_table(const SweepTable& t) {
  std::ostringstream os;
  const std::set<std::string> common = common_settings(t);
  std::string common_text;
  for (const auto& kv : common) common_text += (common_text.empty() ? "" : ", ") + html_escape(kv);
  os << "<p id=\"sweep-common\">Settings common to every variant: "
     << (common_text.empty() ? std::string("none") : "<code>" + common_text + "</code>")
     << " <span class=\"muted\">(listed again in each variant's row, in grey)</span></p>";
  os << "<table id=\"sweep-variants\"><tr><th></th><th>variant</th><th>settings</th><th>id</th><th>passed</th><th>speedup vs "
        "reference</th><th>energy vs reference</th><th>total cycles</th><th>total energy (uJ)</th><th>area (mm2)</th>"
        "<th>provenance</th></tr>";
  for (size_t v = 0; v < t.variants.size(); ++v) {
    const auto& s = t.summaries[v];
    os << "<tr data-variant=\"" << html_escape(t.variants[v].id) << "\"><td>v" << v + 1 << (v == t.reference ? " (reference)" : "")
       << "</td><td>" << html_escape(t.variants[v].name) << "</td><td class=\"settings\">"
       << settings_cell(t.variants[v].provenance, common) << "</td><td><code>" << html_escape(t.variants[v].id.substr(0, 8))
       << "</code></td><td class=\"num\">" << s.passed << "/" << s.run << "</td><td class=\"num\">"
       << (s.geomean_speedup ? fixed(*s.geomean_speedup, 3) + "x" : "-") << "</td><td class=\"num\">"
       << (s.energy_ratio ? fixed(*s.energy_ratio, 3) + "x" : "-") << "</td><td class=\"num\">"
       << (s.total_cycles ? std::to_string(*s.total_cycles) : "-") << "</td><td class=\"num\">"
       << (s.total_energy_pj ? fixed(*s.total_energy_pj / 1e6, 3) : "-") << "</td><td class=\"num\">"
       << (s.area_mm2 ? fixed(*s.area_mm2, 3) : "-") << "</td><td>" << provenance_text(t.variants[v].provenance)
       << "</td></tr>";
  }
  os << "</table><p class=\"muted\">Totals are over the cells every variant passed; speedup = reference cycles / "
        "variant cycles (geomean).</p>";
  // What each variant's added instructions did: an added one never used says so here.
  std::string uses;
  for (size_t v = 0; v < t.variants.size(); ++v)
    for (const auto& u : t.summaries[v].added_uses)
      uses += "<li>v" + std::to_string(v + 1) + " " + html_escape(u.value("text", std::string())) + "</li>";
  if (!uses.empty()) os << "<ul id=\"sweep-variant-uses\">" << uses << "</ul>";
  return os.str();
}

std::string cycles_table(const SweepTable& t) {
  std::ostringstream os;
  os << "<table id=\"sweep-cycles\"><tr><th>platform</th><th>level</th><th>task</th><th>config</th>";
  for (size_t v = 0; v < t.variants.size(); ++v)
    os << "<th title=\"" << html_escape(t.variants[v].name) << "\">v" << v + 1 << "</th>";
  os << "</tr>";
  for (const auto& row : t.rows) {
    os << "<tr><td>" << html_escape(row.platform) << "</td><td>" << level_label(row.level) << "</td><td>"
       << html_escape(row.task) << "</td><td>" << html_escape(row.config) << "</td>";
    const auto& ref = row.cycles[t.reference];
    for (size_t v = 0; v < t.variants.size(); ++v) {
      const std::string& st = row.status[v];
      if (st != "pass") {
        os << "<td class=\"" << (st.empty() ? "" : "fail") << "\">" << (st.empty() ? "-" : html_escape(status_abbreviation(st)))
           << "</td>";
        continue;
      }
      const auto& c = row.cycles[v];
      std::string cls, speed;
      if (c && ref && *c > 0 && row.status[t.reference] == "pass") {
        const double s = double(*ref) / double(*c);
        cls = s < 0.98 ? "slower" : s > 1.02 ? "faster" : "";
        speed = fixed(s, 3);
      }
      os << "<td class=\"num " << cls << "\" data-cycles=\"" << (c ? std::to_string(*c) : "") << "\""
         << (speed.empty() ? "" : " data-speedup=\"" + speed + "\"") << " title=\"" << html_escape(t.variants[v].name)
         << (speed.empty() ? "" : ": " + speed + "x vs reference") << "\">" << (c ? std::to_string(*c) : "?") << "</td>";
    }
    os << "</tr>";
  }
  os << "</table>";
  return os.str();
}

// Points no other point beats on both axes (lower is better on both).
void mark_pareto_front(std::vector<ScatterPoint>& pts) {
  for (size_t i = 0; i < pts.size(); ++i) {
    pts[i].pareto = true;
    for (size_t j = 0; j < pts.size(); ++j)
      if (j != i && pts[j].x <= pts[i].x && pts[j].y <= pts[i].y && (pts[j].x < pts[i].x || pts[j].y < pts[i].y))
        pts[i].pareto = false;
  }
}

std::string pareto_charts(const SweepTable& t) {
  std::vector<ScatterPoint> cycles_area, energy_cycles;
  for (size_t v = 0; v < t.variants.size(); ++v) {
    const auto& s = t.summaries[v];
    const std::string label = "v" + std::to_string(v + 1) + " " + t.variants[v].name;
    if (s.total_cycles && s.area_mm2)
      cycles_area.push_back({label, *s.area_mm2, double(*s.total_cycles), false,
                             "area " + fixed(*s.area_mm2, 4) + " mm2, " + std::to_string(*s.total_cycles) + " cycles"});
    if (s.total_cycles && s.total_energy_pj)
      energy_cycles.push_back({label, double(*s.total_cycles), *s.total_energy_pj / 1e6, false,
                               std::to_string(*s.total_cycles) + " cycles, " + fixed(*s.total_energy_pj / 1e6, 4) + " uJ"});
  }
  mark_pareto_front(cycles_area);
  mark_pareto_front(energy_cycles);
  std::ostringstream os;
  os << "<h2>Pareto charts</h2><p class=\"muted\">Red: Pareto-optimal variants (no other variant is better on both "
        "axes). Totals over the cells every variant passed; energy and area are model estimates "
        "(docs/energy-area.md).</p>";
  if (cycles_area.empty() && energy_cycles.empty()) {
    os << "<p>No energy or area estimates in these records.</p>";
    return os.str();
  }
  if (!cycles_area.empty()) os << "<h3>Cycles vs area</h3>" << svg_scatter("pareto-cycles-area", cycles_area, "area (mm2)", "cycles");
  if (!energy_cycles.empty())
    os << "<h3>Energy vs cycles</h3>" << svg_scatter("pareto-energy-cycles", energy_cycles, "cycles", "energy (uJ)");
  return os.str();
}

}  // namespace

std::string render_sweep_html(const SweepTable& t, const std::string& title) {
  std::ostringstream os;
  os << page_head(title, kScatterStyle);
  os << "<h2>Variants</h2>" << variants_table(t);
  os << pareto_charts(t);
  os << "<h2>Cycles per task and config</h2><p class=\"muted\">Green: faster than the reference variant by more than "
        "2%, orange: slower; hover a cell for its speedup.</p>"
     << cycles_table(t);
  os << "</body></html>\n";
  return os.str();
}

}  // namespace tlmcraft::harness
