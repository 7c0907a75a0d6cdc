#include "harness/html_sections.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "harness/compare.h"
#include "harness/html_report.h"
#include "harness/provenance.h"
#include "harness/variant_uses.h"

namespace tlmcraft::harness {

using json = nlohmann::json;

namespace {

std::string fmt(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string str_of(const json& j, const char* f) {
  const auto it = j.find(f);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string job_of(const json& r, const char* f) {
  if (r.contains("job") && r["job"].is_object() && !str_of(r["job"], f).empty()) return str_of(r["job"], f);
  return str_of(r, f);
}

// Set per section: whether rows must name their variant (results of several variants).
thread_local bool g_name_variants = false;

std::string variant_of(const json& r) {
  return r.contains("job") && r["job"].is_object() ? str_of(r["job"], "variant") : "";
}

void decide_variant_names(const RecordRefs& records) {
  std::set<std::string> ids;
  for (const json* r : records) ids.insert(variant_of(*r));
  g_name_variants = ids.size() > 1;
}

std::string row_label(const json& r) {
  std::string s = job_of(r, "task") + " " + job_of(r, "config");
  const std::string kernel = job_of(r, "kernel");
  if (!kernel.empty() && kernel != "baseline") s += " (" + kernel.substr(kernel.find_last_of('/') + 1) + ")";
  if (g_name_variants)
    s += " [" + (r.contains("provenance") ? variant_label(r["provenance"]) : std::string("unrecorded variant")) + "]";
  return s;
}

// Sum of every number stored under a key named `key` anywhere in `node`.
double sum_named(const json& node, const std::string& key) {
  double total = 0;
  if (node.is_object()) {
    for (const auto& [k, v] : node.items()) {
      if (k == key && v.is_number()) total += v.get<double>();
      else total += sum_named(v, key);
    }
  } else if (node.is_array()) {
    for (const auto& v : node) total += sum_named(v, key);
  }
  return total;
}

double num(const json& j, const char* f, double fallback = 0) {
  return j.contains(f) && j[f].is_number() ? j[f].get<double>() : fallback;
}

std::string heat_colour(double util) {
  // White (idle) to dark blue (always busy).
  const int r = int(std::lround(255 - util * (255 - 0x23))), g = int(std::lround(255 - util * (255 - 0x4e))),
            b = int(std::lround(255 - util * (255 - 0x8f)));
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
  return buf;
}

}  // namespace

void cycles_table(std::ostream& os, const PlatformSummary& ps) {
  const std::string pid = id_token(ps.platform);
  const auto& variants = ps.variants;
  const bool several = variants.size() > 1;
  os << "<h3>Cycles</h3>\n<p id=\"cycles-variant-" << pid << "\" class=\"muted\">";
  if (several)
    os << "Results of " << variants.size() << " hardware/ISA variants: each number names the variant it was measured on "
       << "(the best passing sample of the task and config).";
  else if (!variants.empty())
    os << "Every number measured on variant " << html_escape(variants.begin()->second) << " <code>"
       << html_escape(variants.begin()->first.substr(0, 8)) << "</code>.";
  os << "</p>\n<table id=\"cycles-" << pid << "\" class=\"cycles\"><thead><tr><th>task</th><th>level</th>";
  for (const auto& c : ps.configs) os << "<th>" << html_escape(c) << "</th>";
  os << "</tr></thead><tbody>\n";
  for (const auto& row : ps.tasks) {
    os << "<tr><td>" << html_escape(row.task) << "</td><td>" << level_label(row.level) << "</td>";
    for (const auto& c : ps.configs) {
      const auto it = row.configs.find(c);
      if (it == row.configs.end()) {
        os << "<td class=\"muted\">-</td>";
        continue;
      }
      const WorkloadCell& cell = it->second;
      if (cell.status != "pass" || !cell.cycles) {
        os << "<td class=\"muted\" title=\"" << html_escape(cell.reason) << "\">" << html_escape(status_abbreviation(cell.status))
           << "</td>";
        continue;
      }
      std::string tip = std::to_string(*cell.cycles) + " cycles";
      if (cell.baseline_cycles) tip += ", baseline " + std::to_string(*cell.baseline_cycles);
      if (cell.speedup) tip += ", speedup " + fmt(*cell.speedup, 3) + "x";
      const auto named = variants.find(cell.variant);
      const std::string variant = named != variants.end() ? named->second : "unrecorded variant";
      tip += ", variant " + variant;
      os << "<td class=\"num\" data-cycles=\"" << *cell.cycles << "\" data-variant=\"" << html_escape(cell.variant)
         << "\" title=\"" << html_escape(tip) << "\">" << *cell.cycles;
      if (several) os << "<br><span class=\"variant\">" << html_escape(variant) << "</span>";
      os << "</td>";
    }
    os << "</tr>\n";
  }
  os << "</tbody></table>\n";
}

void run_figures_table(std::ostream& os, const std::string& platform, const RecordRefs& records) {
  decide_variant_names(records);
  const std::string pid = id_token(platform);
  os << "<h3>Run figures</h3>\n";
  RecordRefs ran;
  for (const json* r : records)
    if (r->contains("units") && (*r)["units"].is_array() && !(*r)["units"].empty()) ran.push_back(r);
  if (ran.empty()) {
    os << "<p id=\"run-figures-" << pid << "\" class=\"muted\">no run statistics in these results</p>\n";
    return;
  }
  os << "<details open><summary>" << ran.size() << " runs: energy and power (estimates), off-chip traffic and "
     << "bandwidth, DRAM row hits/misses, SRAM bank-conflict, lock and unit stall cycles</summary>\n"
     << "<table id=\"run-figures-" << pid << "\" class=\"run-figures\"><thead><tr><th>run</th><th>cycles</th>"
     << "<th>instructions</th><th>energy (nJ)</th><th>power (mW)</th><th>off-chip bytes</th><th>bytes/cycle</th>"
     << "<th>ops/byte</th><th>% of peak</th><th>bound</th><th>row hits</th><th>row misses</th><th>bank-conflict "
     << "stalls</th><th>lock stalls</th><th>unit stalls</th></tr></thead><tbody>\n";
  for (const json* rp : ran) {
    const json& r = *rp;
    const json mem = r.value("memory", json::object());
    const json roof = r.value("roofline", json());
    const json energy = r.value("energy", json());
    double unit_stalls = 0;
    for (const auto& u : r["units"]) unit_stalls += num(u, "stall_cycles");
    const auto cell = [&](bool known, const std::string& text) {
      os << "<td class=\"num\">" << (known ? text : "-") << "</td>";
    };
    os << "<tr><td>" << html_escape(row_label(r)) << "</td>";
    cell(r.contains("cycles"), fmt(num(r, "cycles"), 0));
    cell(r.contains("instructions"), fmt(num(r, "instructions"), 0));
    cell(energy.is_object(), energy.is_object() ? fmt(num(energy, "total_pj") / 1000, 1) : "");
    cell(energy.is_object() && energy["average_power_mw"].is_number(),
         energy.is_object() ? fmt(num(energy, "average_power_mw"), 1) : "");
    cell(roof.is_object(), roof.is_object() ? fmt(num(roof, "offchip_bytes"), 0) : "");
    cell(roof.is_object(), roof.is_object() ? fmt(num(roof, "offchip_bytes_per_cycle"), 2) : "");
    cell(roof.is_object() && roof["operational_intensity"].is_number(),
         roof.is_object() ? fmt(num(roof, "operational_intensity"), 2) : "");
    cell(roof.is_object(), roof.is_object() ? fmt(100 * num(roof, "fraction_of_peak"), 1) : "");
    os << "<td>" << (roof.is_object() ? html_escape(str_of(roof, "bound")) : "-") << "</td>";
    cell(true, fmt(sum_named(mem, "row_hits"), 0));
    cell(true, fmt(sum_named(mem, "row_misses"), 0));
    cell(true, fmt(sum_named(mem, "conflict_stall_cycles") + sum_named(mem, "stall_bank"), 0));
    cell(true, fmt(sum_named(mem, "stall_lock") + sum_named(mem, "lock_wait"), 0));
    cell(true, fmt(unit_stalls, 0));
    os << "</tr>\n";
  }
  os << "</tbody></table></details>\n<p class=\"muted\">Energy, power and the roofline figures are estimates from "
        "the platform config's ppa tables (docs/energy-area.md); stalls are summed over units, banks and locks.</p>\n";
}

void roofline_chart(std::ostream& os, const std::string& platform, const RecordRefs& records) {
  decide_variant_names(records);
  const std::string pid = id_token(platform);
  std::vector<const json*> pts;
  for (const json* r : records)
    if (r->contains("roofline") && (*r)["roofline"].is_object() && (*r)["roofline"]["operational_intensity"].is_number() &&
        num((*r)["roofline"], "ops_per_cycle") > 0)
      pts.push_back(r);
  os << "<h3>Roofline</h3>\n";
  if (pts.empty()) {
    os << "<p id=\"roofline-" << pid << "\" class=\"muted\">no roofline figures in these results</p>\n";
    return;
  }
  const json& first = (*pts.front())["roofline"];
  const double peak = num(first, "peak_ops_per_cycle"), bw = num(first, "peak_offchip_bytes_per_cycle");
  double xmin = peak / bw / 8, xmax = peak / bw * 8, ymin = peak / 64;
  for (const json* r : pts) {
    xmin = std::min(xmin, num((*r)["roofline"], "operational_intensity") / 2);
    xmax = std::max(xmax, num((*r)["roofline"], "operational_intensity") * 2);
    ymin = std::min(ymin, num((*r)["roofline"], "ops_per_cycle") / 2);
  }
  const double ymax = peak * 2;
  const int w = 560, h = 340, left = 60, bottom = 40, top = 10, right = 20;
  const auto px = [&](double x) { return left + (std::log(x) - std::log(xmin)) / (std::log(xmax) - std::log(xmin)) * (w - left - right); };
  const auto py = [&](double y) { return h - bottom - (std::log(y) - std::log(ymin)) / (std::log(ymax) - std::log(ymin)) * (h - bottom - top); };
  os << "<svg id=\"roofline-" << pid << "\" class=\"roofline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w
     << "\" height=\"" << h << "\" role=\"img\" aria-label=\"" << html_escape("roofline of " + platform) << "\">\n";
  os << "<line class=\"axis\" x1=\"" << left << "\" y1=\"" << h - bottom << "\" x2=\"" << w - right << "\" y2=\"" << h - bottom
     << "\"/><line class=\"axis\" x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left << "\" y2=\"" << h - bottom << "\"/>\n";
  // The roof: bandwidth slope up to the ridge point, then the compute ceiling.
  const double ridge = peak / bw;
  const double x0 = std::max(xmin, ymin / bw);
  os << "<polyline class=\"roof\" fill=\"none\" stroke=\"#1d2228\" stroke-width=\"2\" points=\"" << fmt(px(x0), 1) << ","
     << fmt(py(x0 * bw), 1) << " " << fmt(px(ridge), 1) << "," << fmt(py(peak), 1) << " " << fmt(px(xmax), 1) << ","
     << fmt(py(peak), 1) << "\"><title>peak " << fmt(peak, 1) << " ops/cycle, " << fmt(bw, 1)
     << " off-chip bytes/cycle; ridge at " << fmt(ridge, 2) << " ops/byte</title></polyline>\n";
  for (const json* r : pts) {
    const json& f = (*r)["roofline"];
    const double x = num(f, "operational_intensity"), y = num(f, "ops_per_cycle");
    os << "<circle class=\"roof-point\" cx=\"" << fmt(px(x), 1) << "\" cy=\"" << fmt(py(y), 1)
       << "\" r=\"4\" fill=\"#3568a8\"><title>" << html_escape(row_label(*r)) << ": " << fmt(x, 2) << " ops/byte, "
       << fmt(y, 2) << " ops/cycle (" << fmt(100 * num(f, "fraction_of_peak"), 1) << "% of peak, "
       << html_escape(str_of(f, "bound")) << " bound)</title></circle>\n";
  }
  os << "<text x=\"" << (w + left) / 2 << "\" y=\"" << h - 8 << "\" text-anchor=\"middle\">operational intensity "
     << "(ops per off-chip byte, log)</text><text x=\"14\" y=\"" << (h - bottom) / 2 << "\" transform=\"rotate(-90 14 "
     << (h - bottom) / 2 << ")\" text-anchor=\"middle\">ops per cycle (log)</text>\n";
  os << "<text x=\"" << left + 4 << "\" y=\"" << h - bottom - 4 << "\">" << fmt(xmin, 3) << "</text><text x=\"" << w - right
     << "\" y=\"" << h - bottom - 4 << "\" text-anchor=\"end\">" << fmt(xmax, 1) << "</text><text x=\"" << left + 4
     << "\" y=\"" << fmt(py(peak) - 4, 1) << "\">peak " << fmt(peak, 0) << " ops/cycle</text>\n</svg>\n";
}

std::string unit_group(const std::string& name) {
  static const std::regex numbers("\\([0-9, ]+\\)|[0-9]+(?=\\.|$)");  // indices end a name part
  return std::regex_replace(name, numbers, "*");
}

void unit_group_utilisation(std::ostream& os, const std::string& platform, const RecordRefs& records) {
  decide_variant_names(records);
  const std::string pid = id_token(platform);
  std::vector<std::string> groups;
  struct Row {
    std::string label;
    std::map<std::string, std::pair<double, int>> busy;  // group -> (busy cycles, members)
    double cycles = 0;
  };
  std::vector<Row> rows;
  for (const json* r : records) {
    if (!r->contains("units") || !(*r)["units"].is_array() || (*r)["units"].empty()) continue;
    Row row{row_label(*r), {}, num(*r, "cycles")};
    for (const auto& u : (*r)["units"]) {
      const std::string g = unit_group(str_of(u, "name"));
      if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
      row.busy[g].first += num(u, "busy_cycles");
      row.busy[g].second += 1;
    }
    rows.push_back(row);
  }
  os << "<table id=\"unit-groups-" << pid << "\" class=\"unit-groups\"><thead><tr><th>run</th>";
  for (const auto& g : groups) os << "<th>" << html_escape(g) << "</th>";
  os << "</tr></thead><tbody>\n";
  for (const auto& row : rows) {
    os << "<tr><td>" << html_escape(row.label) << "</td>";
    for (const auto& g : groups) {
      const auto it = row.busy.find(g);
      if (it == row.busy.end() || row.cycles <= 0) {
        os << "<td class=\"muted\">-</td>";
        continue;
      }
      const double util = std::min(1.0, it->second.first / (it->second.second * row.cycles));
      os << "<td class=\"num\" style=\"background:" << heat_colour(util) << (util > 0.5 ? ";color:#fff" : "")
         << "\" title=\"" << it->second.second << " unit(s), mean busy " << fmt(100 * util, 1) << "%\">"
         << fmt(100 * util, 0) << "%</td>";
    }
    os << "</tr>\n";
  }
  os << "</tbody></table>\n<p class=\"muted\">Mean busy share over the units of each group (units whose names differ "
        "only in numbers, e.g. every tile's vector unit).</p>\n";
}

void tile_heatmaps(std::ostream& os, const std::string& platform, const RecordRefs& records) {
  decide_variant_names(records);
  static const std::regex tile_core("tile\\(([0-9]+),([0-9]+)\\)\\.core");
  std::ostringstream maps;
  int count = 0;
  for (const json* r : records) {
    if (!r->contains("units") || !(*r)["units"].is_array()) continue;
    std::map<std::pair<int, int>, double> util;
    int rows = 0, cols = 0;
    const double cycles = num(*r, "cycles");
    for (const auto& u : (*r)["units"]) {
      std::smatch m;
      const std::string name = str_of(u, "name");
      if (!std::regex_match(name, m, tile_core) || cycles <= 0) continue;
      const int a = std::stoi(m[1]), b = std::stoi(m[2]);
      util[{a, b}] = std::min(1.0, num(u, "busy_cycles") / cycles);
      rows = std::max(rows, b + 1);
      cols = std::max(cols, a + 1);
    }
    if (util.size() < 2) continue;
    const int cell = 22;
    maps << "<figure class=\"tile-map\"><svg width=\"" << cols * cell + 2 << "\" height=\"" << rows * cell + 2 << "\">";
    for (const auto& [pos, v] : util)
      maps << "<rect x=\"" << 1 + pos.first * cell << "\" y=\"" << 1 + (rows - 1 - pos.second) * cell << "\" width=\""
           << cell - 2 << "\" height=\"" << cell - 2 << "\" fill=\"" << heat_colour(v) << "\"><title>tile(" << pos.first
           << "," << pos.second << ") core " << fmt(100 * v, 1) << "% busy</title></rect>";
    maps << "</svg><figcaption>" << html_escape(row_label(*r)) << "</figcaption></figure>\n";
    ++count;
  }
  if (count == 0) return;
  os << "<details id=\"tile-heatmaps-" << id_token(platform) << "\"><summary>per-tile core utilisation, " << count
     << " multi-tile run(s) (column left to right, row bottom to top; darker = busier)</summary>\n<div class=\"tile-maps\">"
     << maps.str() << "</div></details>\n";
}

void agent_table(std::ostream& os, const std::string& platform, const RecordRefs& records) {
  decide_variant_names(records);
  RecordRefs agent;
  for (const json* r : records)
    if (r->contains("agent") && (*r)["agent"].is_object()) agent.push_back(r);
  if (agent.empty()) return;
  os << "<h3>Agent runs</h3>\n<table id=\"agent-" << id_token(platform) << "\" class=\"agent\"><thead><tr><th>run</th>"
     << "<th>status</th><th>rounds</th><th>first correct</th><th>best version</th><th>tokens in / out</th>"
     << "<th>tool calls (errors)</th><th>evaluations</th><th>stop reason</th><th>transcript</th></tr></thead><tbody>\n";
  for (const json* rp : agent) {
    const json& a = (*rp)["agent"];
    const json tokens = a.value("tokens", json::object());
    const auto n = [&](const json& j, const char* f) { return j.contains(f) && j[f].is_number() ? j[f].dump() : "-"; };
    const std::string transcript = str_of(a, "transcript");
    os << "<tr><td>" << html_escape(row_label(*rp)) << "</td><td>" << html_escape(str_of(*rp, "status")) << "</td><td class=\"num\">"
       << n(a, "rounds") << "/" << n(a, "budget") << "</td><td class=\"num\">" << n(a, "first_correct_round")
       << "</td><td class=\"num\">" << n(a, "best_version") << "</td><td class=\"num\">" << n(tokens, "input") << " / "
       << n(tokens, "output") << "</td><td class=\"num\">" << n(a, "tool_calls") << " (" << n(a, "tool_errors")
       << ")</td><td class=\"num\">" << n(a, "evaluations") << "</td><td>" << html_escape(str_of(a, "stop_reason"))
       << "</td><td>"
       << (transcript.empty() ? "-" : "<a href=\"" + html_escape(transcript) + "\">" + html_escape(transcript) + "</a>")
       << "</td></tr>\n";
  }
  os << "</tbody></table>\n";
}

void variants_table(std::ostream& os, const std::vector<json>& records, const std::vector<std::string>& sources) {
  struct Variant {
    json provenance;
    std::set<std::string> files;
    int results = 0;
  };
  std::vector<std::pair<std::string, Variant>> variants;
  for (size_t i = 0; i < records.size(); ++i) {
    const json& r = records[i];
    if (!r.is_object()) continue;
    const std::string id = r.contains("job") && r["job"].is_object() ? str_of(r["job"], "variant") : "";
    auto it = std::find_if(variants.begin(), variants.end(), [&](const auto& v) { return v.first == id; });
    if (it == variants.end()) {
      variants.push_back({id, Variant{r.value("provenance", json()), {}, 0}});
      it = variants.end() - 1;
    }
    ++it->second.results;
    if (i < sources.size()) it->second.files.insert(sources[i]);
  }
  os << "<table id=\"variants\" class=\"variants\"><thead><tr><th>variant</th><th>id</th><th>overrides</th>"
     << "<th>platform config</th><th>ISA</th><th>tlmcraft</th><th>results</th><th>files</th></tr></thead><tbody>\n";
  for (const auto& [id, v] : variants) {
    const json& p = v.provenance;
    const bool known = p.is_object();
    std::string overrides, isa, build;
    if (known && p.contains("overrides") && p["overrides"].is_object())
      for (const auto& [k, val] : p["overrides"].items())
        overrides += (overrides.empty() ? "" : ", ") + k + "=" + (val.is_string() ? val.get<std::string>() : val.dump());
    if (known && p.contains("isa") && p["isa"].is_array())
      for (const auto& f : p["isa"]) isa += (isa.empty() ? "" : ", ") + str_of(f, "name") + " " + str_of(f, "fnv1a64");
    if (known && p.contains("isa_ext") && p["isa_ext"].is_array())
      for (const auto& f : p["isa_ext"])
        isa += (isa.empty() ? "" : ", ") + std::string("overlay ") + str_of(f, "path") + " sha256 " + str_of(f, "sha256");
    if (known && p.contains("tlmcraft") && p["tlmcraft"].is_object())
      build = str_of(p["tlmcraft"], "version") + " @ " + str_of(p["tlmcraft"], "commit").substr(0, 12) +
              (p["tlmcraft"].value("modified", false) ? " (modified)" : "");
    std::string files;
    for (const auto& f : v.files) files += (files.empty() ? "" : ", ") + f;
    os << "<tr data-variant=\"" << html_escape(id) << "\"><td>" << html_escape(known ? variant_label(p) : "not recorded (older results)")
       << "</td><td><code>" << html_escape(id.substr(0, 8)) << "</code></td><td>" << html_escape(overrides.empty() ? "none" : overrides)
       << "</td><td>" << (known ? html_escape(str_of(p, "platform_config")) + " <code>" + html_escape(str_of(p, "config_fnv1a64")) + "</code>" : "-")
       << "</td><td>" << html_escape(isa.empty() ? "-" : isa) << "</td><td>" << html_escape(build.empty() ? "-" : build)
       << "</td><td class=\"num\">" << v.results << "</td><td>" << html_escape(files) << "</td></tr>\n";
  }
  os << "</tbody></table>\n";
  if (variants_per_platform(records) > 1)
    os << "<p id=\"variants-mixed\" class=\"warning\">These results hold " << variants.size()
       << " hardware/ISA variants, several of one platform: the tables below treat the results of one task and config on different "
          "variants as samples of one workload. Compare variants with <code>tlmcraft compare</code> or the sweep "
          "page (<code>tlmcraft sweep --html</code>).</p>\n";
}

void variant_uses_table(std::ostream& os, const std::vector<json>& records) {
  std::vector<std::pair<std::string, std::vector<json>>> groups;  // variant id -> its records
  for (const json& r : records) {
    if (!r.is_object()) continue;
    const std::string id = variant_of(r);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == id; });
    if (it == groups.end()) it = groups.insert(groups.end(), {id, {}});
    it->second.push_back(r);
  }
  std::ostringstream rows;
  for (const auto& [id, group] : groups)
    for (const json& u : suite_variant_uses(group)) {
      const std::string label = group.front().contains("provenance") ? variant_label(group.front()["provenance"]) : id;
      rows << "<tr><td>" << html_escape(label) << "</td><td><code>" << html_escape(str_of(u, "name"))
           << "</code></td><td class=\"num\">" << u.value("static", uint64_t(0)) << "</td><td class=\"num\">"
           << u.value("executions", uint64_t(0)) << "</td><td class=\"num\">" << u.value("runs_using", uint64_t(0))
           << " / " << u.value("runs", uint64_t(0)) << "</td><td class=\"num\">"
           << (u["mm2"].is_number() ? fmt(u["mm2"].get<double>(), 6) : std::string("not priced")) << "</td><td>"
           << html_escape(str_of(u, "text")) << "</td></tr>\n";
    }
  if (rows.str().empty()) return;
  os << "<h3>Instructions the ISA variant adds</h3>\n<table id=\"variant-uses\"><thead><tr><th>variant</th>"
     << "<th>instruction</th><th>placed</th><th>executed</th><th>runs using it</th><th>area mm2</th><th>use</th></tr>"
     << "</thead><tbody>\n" << rows.str() << "</tbody></table>\n";
}

}  // namespace tlmcraft::harness
