#include "harness/html_report.h"

#include "harness/html_sections.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace tlmcraft::harness {

using json = nlohmann::json;

namespace {

const char* kStyle = R"css(
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1d2228;background:#fff}
h1{font-size:22px;margin:0 0 8px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd}
h3{font-size:15px;margin:18px 0 6px}
dl.meta{display:grid;grid-template-columns:max-content auto;gap:2px 16px;margin:0}
dl.meta dt{color:#5a6470}dl.meta dd{margin:0}
table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #d0d5da;padding:3px 8px;text-align:left}
th{background:#f3f5f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
svg text{font:12px system-ui,sans-serif;fill:#1d2228}
.cell rect{stroke:#fff;stroke-width:2}.cell text{text-anchor:middle;font-size:11px}
.cell.pass rect{fill:#2e7d32}.cell.pass text{fill:#fff}
.cell.fail rect{fill:#c62828}.cell.fail text{fill:#fff}
.cell.unsupported rect{fill:#b0b6bc}.cell.notrun rect{fill:#fff;stroke:#b0b6bc;stroke-dasharray:3 2}
.bar.faster{fill:#2e7d32}.bar.slower{fill:#e0822a}.axis{stroke:#8a939c;stroke-width:1}
.unity{stroke:#1d2228;stroke-width:1.5}.grid{stroke:#e3e6e9}
.util-bg{fill:#eef0f2}.util-bar{fill:#3568a8}
.legend .swatch{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:-1px}
.muted{color:#6a737d}span.variant{font-size:11px;color:#6a737d}.warning{background:#fff4e5;border-left:4px solid #e0822a;padding:6px 10px}.axis{stroke:#8a939c}
figure.tile-map{display:inline-block;margin:4px 8px}figure.tile-map figcaption{font-size:11px}
)css";

std::string fmt(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string str_field(const json& j, const char* name) {
  const auto it = j.find(name);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// Which of the four cell colours a status gets.
std::string cell_class(const std::string& status) {
  if (status == "pass") return "pass";
  if (status == "unsupported") return "unsupported";
  return "fail";
}

struct JobView {
  std::string task, config, kernel, status, reason;
  const json* record = nullptr;
};

// Records of one platform, deduplicated by job (last wins), in table order.
std::vector<JobView> platform_jobs(const std::vector<json>& records, const PlatformSummary& ps) {
  std::map<std::string, size_t> task_order;
  for (size_t i = 0; i < ps.tasks.size(); ++i) task_order[ps.tasks[i].task] = i;
  std::map<std::string, JobView> by_key;
  for (const auto& r : records) {
    if (!r.is_object()) continue;
    const json job = r.contains("job") && r["job"].is_object() ? r["job"] : json::object();
    JobView v;
    const std::string platform = !str_field(job, "platform").empty() ? str_field(job, "platform") : str_field(r, "platform");
    if (platform != ps.platform) continue;
    v.task = !str_field(job, "task").empty() ? str_field(job, "task") : str_field(r, "task");
    v.config = !str_field(job, "config").empty() ? str_field(job, "config") : str_field(r, "config");
    v.kernel = str_field(job, "kernel");
    if (v.kernel.empty() && r.contains("kernel") && r["kernel"].is_object())
      v.kernel = str_field(r["kernel"], "source") == "baseline" ? "baseline" : str_field(r["kernel"], "path");
    if (v.task.empty() || v.config.empty()) continue;
    v.status = str_field(r, "status");
    v.reason = str_field(r, "reason");
    v.record = &r;
    // Results of other hardware/ISA variants are separate jobs (job.variant).
    by_key[v.task + '\x1f' + v.config + '\x1f' + v.kernel + '\x1f' + str_field(job, "variant")] = v;
  }
  std::vector<JobView> jobs;
  for (auto& [k, v] : by_key) jobs.push_back(v);
  const auto config_pos = [&](const std::string& c) {
    return size_t(std::find(ps.configs.begin(), ps.configs.end(), c) - ps.configs.begin());
  };
  std::stable_sort(jobs.begin(), jobs.end(), [&](const JobView& a, const JobView& b) {
    const size_t ta = task_order.count(a.task) ? task_order[a.task] : SIZE_MAX;
    const size_t tb = task_order.count(b.task) ? task_order[b.task] : SIZE_MAX;
    if (ta != tb) return ta < tb;
    if (a.config != b.config) return config_pos(a.config) < config_pos(b.config);
    return a.kernel < b.kernel;
  });
  return jobs;
}

std::string cell_tooltip(const TaskRow& row, const std::string& config, const WorkloadCell* cell) {
  std::ostringstream t;
  t << row.task << " " << config << ": ";
  if (!cell) {
    t << "not run";
    return t.str();
  }
  t << cell->status;
  if (cell->samples > 1) t << " (" << cell->passed << " of " << cell->samples << " samples passed)";
  if (!cell->reason.empty()) t << "\n" << cell->reason;
  if (cell->cycles) t << "\ncycles " << *cell->cycles;
  if (cell->baseline_cycles) t << ", baseline " << *cell->baseline_cycles;
  if (cell->speedup) t << ", speedup " << fmt(*cell->speedup, 2) << "x";
  if (!cell->kernel.empty()) t << "\nkernel " << cell->kernel;
  if (!cell->seeds.empty()) {
    t << "\nseeds";
    for (uint64_t s : cell->seeds) t << " " << s;
    t << " (--seed " << cell->seeds.front() << " reproduces them)";
  }
  return t.str();
}

void pass_matrix(std::ostream& os, const PlatformSummary& ps) {
  const std::string pid = id_token(ps.platform);
  size_t label_chars = 4;
  for (const auto& row : ps.tasks) label_chars = std::max(label_chars, row.task.size());
  const int label_w = int(label_chars) * 8 + 50, cell_w = 64, cell_h = 26, head_h = 26, solved_w = 70;
  const int width = label_w + int(ps.configs.size()) * cell_w + solved_w;
  const int height = head_h + int(ps.tasks.size()) * cell_h + 4;
  os << "<h3>Pass matrix</h3>\n<svg id=\"pass-matrix-" << pid << "\" class=\"pass-matrix\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
     << width << "\" height=\"" << height << "\" role=\"img\" aria-label=\"" << html_escape("pass matrix of " + ps.platform)
     << "\">\n";
  os << "<text x=\"4\" y=\"18\" font-weight=\"bold\">task</text><text x=\"" << label_w - 8
     << "\" y=\"18\" text-anchor=\"end\" font-weight=\"bold\">lvl</text>\n";
  for (size_t c = 0; c < ps.configs.size(); ++c)
    os << "<text x=\"" << label_w + int(c) * cell_w + cell_w / 2 << "\" y=\"18\" text-anchor=\"middle\" font-weight=\"bold\">"
       << html_escape(ps.configs[c]) << "</text>";
  os << "<text x=\"" << label_w + int(ps.configs.size()) * cell_w + solved_w - 6
     << "\" y=\"18\" text-anchor=\"end\" font-weight=\"bold\">solved</text>\n";
  for (size_t r = 0; r < ps.tasks.size(); ++r) {
    const TaskRow& row = ps.tasks[r];
    const int y = head_h + int(r) * cell_h;
    os << "<text x=\"4\" y=\"" << y + 17 << "\" class=\"task-label\">" << html_escape(row.task) << "</text><text x=\""
       << label_w - 8 << "\" y=\"" << y + 17 << "\" text-anchor=\"end\">" << level_label(row.level)
       << "</text>\n";
    for (size_t c = 0; c < ps.configs.size(); ++c) {
      const auto it = row.configs.find(ps.configs[c]);
      const WorkloadCell* cell = it != row.configs.end() ? &it->second : nullptr;
      const std::string cls = cell ? cell_class(cell->status) : "notrun";
      std::string label = cell ? status_abbreviation(cell->status) : "";
      if (cell && cell->samples > 1 && cell->supported())
        label = std::to_string(cell->passed) + "/" + std::to_string(cell->samples);
      const int x = label_w + int(c) * cell_w;
      os << "<g class=\"cell " << cls;
      if (cell && cls == "fail") os << " status-" << id_token(cell->status);
      os << "\" id=\"cell-" << pid << "-" << id_token(row.task) << "-" << id_token(ps.configs[c]) << "\" data-status=\""
         << html_escape(cell ? cell->status : "notrun") << "\"><title>" << html_escape(cell_tooltip(row, ps.configs[c], cell))
         << "</title><rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cell_w << "\" height=\"" << cell_h
         << "\" rx=\"3\"/><text x=\"" << x + cell_w / 2 << "\" y=\"" << y + 17 << "\">" << html_escape(label)
         << "</text></g>\n";
    }
    const std::string solved =
        row.totals.run > 0 ? std::to_string(row.totals.passed) + "/" + std::to_string(row.totals.run) : "n/a";
    os << "<text x=\"" << width - 6 << "\" y=\"" << y + 17 << "\" text-anchor=\"end\" class=\"solved\">" << solved
       << "</text>\n";
  }
  os << "</svg>\n<p class=\"legend muted\">"
     << "<span class=\"swatch\" style=\"background:#2e7d32\"></span>pass"
     << "<span class=\"swatch\" style=\"background:#c62828\"></span>fail (FAIL wrong output, ASM assembly error, RTE "
        "runtime error, LIMIT limit hit, TIME timeout, CRASH worker crash)"
     << "<span class=\"swatch\" style=\"background:#b0b6bc\"></span>unsupported"
     << "<span class=\"swatch\" style=\"border:1px dashed #b0b6bc\"></span>not run</p>\n";
}

void speedup_chart(std::ostream& os, const PlatformSummary& ps) {
  const std::string pid = id_token(ps.platform);
  std::vector<double> values;
  for (const auto& row : ps.tasks)
    if (row.geomean_speedup) values.push_back(*row.geomean_speedup);
  os << "<h3>Speedup over the baseline per task</h3>\n";
  if (!values.empty() && std::all_of(values.begin(), values.end(), [](double v) { return std::fabs(v - 1) < 1e-9; })) {
    os << "<p id=\"speedup-chart-" << pid << "\" class=\"speedup-chart unity-only muted\">every speedup is 1.00x: "
       << "these are baseline kernels measured against themselves (see the cycles table; compare hardware variants "
       << "with <code>tlmcraft compare</code>)</p>\n";
    return;
  }
  if (values.empty()) {
    os << "<p id=\"speedup-chart-" << pid << "\" class=\"speedup-chart empty muted\">no correct kernel with a known "
       << "baseline: no speedups to show</p>\n";
    return;
  }
  // Log scale over powers of two that bracket every value and 1x.
  double lo = 0.5, hi = 2.0;
  for (double v : values) {
    while (lo > v / 1.05) lo /= 2;
    while (hi < v * 1.05) hi *= 2;
  }
  size_t label_chars = 4;
  for (const auto& row : ps.tasks) label_chars = std::max(label_chars, row.task.size());
  const int label_w = int(label_chars) * 8 + 16, plot_w = 420, value_w = 70, row_h = 20, top = 22;
  const int width = label_w + plot_w + value_w, height = top + int(ps.tasks.size()) * row_h + 6;
  const auto x_of = [&](double v) { return label_w + plot_w * (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)); };
  os << "<svg id=\"speedup-chart-" << pid << "\" class=\"speedup-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
     << width << "\" height=\"" << height << "\" role=\"img\" aria-label=\""
     << html_escape("speedup per task on " + ps.platform + ", log scale") << "\">\n";
  for (double t = lo; t <= hi * 1.0001; t *= 2) {
    const double x = x_of(t);
    os << "<line class=\"grid\" x1=\"" << fmt(x, 1) << "\" x2=\"" << fmt(x, 1) << "\" y1=\"" << top - 4 << "\" y2=\""
       << height - 4 << "\"/><text x=\"" << fmt(x, 1) << "\" y=\"12\" text-anchor=\"middle\" class=\"tick\">"
       << (t >= 1 ? fmt(t, 0) : fmt(t, t >= 0.25 ? 2 : 3)) << "x</text>\n";
  }
  for (size_t r = 0; r < ps.tasks.size(); ++r) {
    const TaskRow& row = ps.tasks[r];
    const int y = top + int(r) * row_h;
    os << "<text x=\"4\" y=\"" << y + 14 << "\">" << html_escape(row.task) << "</text>";
    if (!row.geomean_speedup) {
      os << "<text x=\"" << label_w + 4 << "\" y=\"" << y + 14 << "\" class=\"no-speedup muted\" fill=\"#6a737d\">"
         << (row.totals.run == 0 ? "unsupported" : row.totals.passed == 0 ? "no correct kernel" : "no baseline")
         << "</text>\n";
      continue;
    }
    const double s = *row.geomean_speedup;
    const double x0 = x_of(1.0), x1 = x_of(s);
    os << "<rect class=\"bar " << (s >= 1 ? "faster" : "slower") << "\" data-task=\"" << html_escape(row.task) << "\" x=\""
       << fmt(std::min(x0, x1), 1) << "\" y=\"" << y + 3 << "\" width=\"" << fmt(std::max(std::fabs(x1 - x0), 1.0), 1)
       << "\" height=\"" << row_h - 6 << "\"><title>" << html_escape(row.task) << ": geometric-mean speedup "
       << fmt(s, 3) << "x over " << row.totals.passed << " correct config(s)</title></rect>";
    os << "<text x=\"" << label_w + plot_w + 6 << "\" y=\"" << y + 14 << "\">" << fmt(s, 2) << "x</text>\n";
  }
  os << "<line class=\"unity\" x1=\"" << fmt(x_of(1.0), 1) << "\" x2=\"" << fmt(x_of(1.0), 1) << "\" y1=\"" << top - 4
     << "\" y2=\"" << height - 4 << "\"/>\n</svg>\n";
}

void utilisation_chart(std::ostream& os, const PlatformSummary& ps, const std::vector<JobView>& all_jobs) {
  const std::string pid = id_token(ps.platform);
  // Only jobs that ran far enough to have unit statistics get a row.
  std::vector<JobView> jobs;
  for (const auto& j : all_jobs) {
    const auto it = j.record->find("units");
    if (it != j.record->end() && it->is_array() && !it->empty()) jobs.push_back(j);
  }
  std::vector<std::string> units;
  for (const auto& j : jobs) {
    const auto it = j.record->find("units");
    for (const auto& u : *it) {
      const std::string name = u.is_object() ? str_field(u, "name") : "";
      if (!name.empty() && std::find(units.begin(), units.end(), name) == units.end()) units.push_back(name);
    }
  }
  os << "<h3>Per-unit utilisation</h3>\n";
  if (units.empty()) {
    os << "<p id=\"utilisation-" << pid << "\" class=\"utilisation empty muted\">no per-unit statistics in these "
       << "results</p>\n";
    return;
  }
  size_t label_chars = 8;
  for (const auto& j : jobs) label_chars = std::max(label_chars, j.task.size() + j.config.size() + 1);
  const int label_w = int(label_chars) * 8 + 12, col_w = 110, bar_w = 70, row_h = 18, top = 20;
  const int width = label_w + int(units.size()) * col_w, height = top + int(jobs.size()) * row_h + 4;
  os << "<details class=\"utilisation-details\"" << (jobs.size() <= 40 ? " open" : "") << "><summary>"
     << jobs.size() << " jobs x " << units.size() << " units (busy cycles / total cycles)</summary>\n";
  os << "<svg id=\"utilisation-" << pid << "\" class=\"utilisation\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
     << width << "\" height=\"" << height << "\" role=\"img\" aria-label=\""
     << html_escape("per-unit utilisation on " + ps.platform) << "\">\n";
  for (size_t u = 0; u < units.size(); ++u)
    os << "<text x=\"" << label_w + int(u) * col_w << "\" y=\"13\" font-weight=\"bold\">" << html_escape(units[u])
       << "</text>";
  os << "\n";
  for (size_t r = 0; r < jobs.size(); ++r) {
    const JobView& j = jobs[r];
    const int y = top + int(r) * row_h;
    std::string label = j.task + " " + j.config;
    os << "<text x=\"4\" y=\"" << y + 13 << "\">" << html_escape(label) << "</text>";
    const json& rec = *j.record;
    const double cycles = rec.contains("cycles") && rec["cycles"].is_number() ? rec["cycles"].get<double>() : 0;
    std::map<std::string, const json*> by_name;
    if (rec.contains("units") && rec["units"].is_array())
      for (const auto& u : rec["units"])
        if (u.is_object()) by_name[str_field(u, "name")] = &u;
    for (size_t u = 0; u < units.size(); ++u) {
      const int x = label_w + int(u) * col_w;
      const auto it = by_name.find(units[u]);
      if (it == by_name.end()) continue;
      const json& unit = *it->second;
      double util = -1;
      if (unit.contains("utilisation") && unit["utilisation"].is_number()) util = unit["utilisation"].get<double>();
      else if (unit.contains("busy_cycles") && unit["busy_cycles"].is_number() && cycles > 0)
        util = unit["busy_cycles"].get<double>() / cycles;
      if (!(util >= 0)) continue;
      util = std::min(util, 1.0);
      std::ostringstream tip;
      tip << label << " " << units[u] << ": " << fmt(util * 100, 1) << "% busy";
      if (unit.contains("busy_cycles")) tip << " (" << unit["busy_cycles"].dump() << " busy cycles";
      if (unit.contains("stall_cycles")) tip << ", " << unit["stall_cycles"].dump() << " stall cycles";
      if (unit.contains("busy_cycles")) tip << ")";
      if (unit.contains("instructions")) tip << ", " << unit["instructions"].dump() << " instructions";
      os << "<g class=\"util\"><title>" << html_escape(tip.str()) << "</title><rect class=\"util-bg\" x=\"" << x
         << "\" y=\"" << y + 3 << "\" width=\"" << bar_w << "\" height=\"" << row_h - 6
         << "\"/><rect class=\"util-bar\" data-unit=\"" << html_escape(units[u]) << "\" x=\"" << x << "\" y=\"" << y + 3
         << "\" width=\"" << fmt(util * bar_w, 1) << "\" height=\"" << row_h - 6 << "\"/><text x=\"" << x + bar_w + 4
         << "\" y=\"" << y + 13 << "\" font-size=\"11\">" << fmt(util * 100, 0) << "%</text></g>";
    }
    os << "\n";
  }
  os << "</svg>\n</details>\n";
}

// Above this many distinct units the utilisation is shown per unit group and tile.
constexpr size_t kMaxUnitColumns = 16;

size_t distinct_units(const std::vector<JobView>& jobs) {
  std::set<std::string> names;
  for (const auto& j : jobs)
    if (j.record->contains("units") && (*j.record)["units"].is_array())
      for (const auto& u : (*j.record)["units"])
        if (u.is_object()) names.insert(str_field(u, "name"));
  return names.size();
}

void failures_table(std::ostream& os, const PlatformSummary& ps, const std::vector<JobView>& jobs) {
  const std::string pid = id_token(ps.platform);
  std::vector<const JobView*> failed;
  for (const auto& j : jobs)
    if (j.status != "pass" && j.status != "unsupported") failed.push_back(&j);
  os << "<h3>Failures</h3>\n";
  if (failed.empty()) {
    os << "<p id=\"failures-" << pid << "\" class=\"failures empty muted\">no failing jobs</p>\n";
    return;
  }
  os << "<table id=\"failures-" << pid << "\" class=\"failures\"><thead><tr><th>task</th><th>config</th><th>kernel</th>"
     << "<th>status</th><th>reason</th></tr></thead><tbody>\n";
  for (const JobView* j : failed)
    os << "<tr><td>" << html_escape(j->task) << "</td><td>" << html_escape(j->config) << "</td><td>"
       << html_escape(j->kernel) << "</td><td>" << html_escape(j->status) << "</td><td>" << html_escape(j->reason)
       << "</td></tr>\n";
  os << "</tbody></table>\n";
}

void summary_table(std::ostream& os, const Summary& s) {
  std::set<int> levels;
  std::set<double> fast;
  std::set<int> ks;
  const auto collect = [&](const Aggregate& a) {
    for (const auto& [l, t] : a.levels) levels.insert(l);
    for (const auto& [p, v] : a.fast) fast.insert(p);
    for (const auto& [k, v] : a.pass_at_k) ks.insert(k);
  };
  for (const auto& ps : s.platforms) collect(ps.aggregate);
  collect(s.overall);
  os << "<table id=\"summary-table\" class=\"summary\"><thead><tr><th>platform</th><th>solved</th>";
  for (int l : levels)
    os << "<th>" << (l > 0 ? "level " + std::to_string(l) : l == 0 ? std::string("CPU programs") : std::string("unknown level"))
       << "</th>";
  os << "<th>geomean speedup</th>";
  for (double p : fast) {
    std::ostringstream k;
    k << p;
    os << "<th>fast_" << k.str() << "</th>";
  }
  for (int k : ks) os << "<th>pass@" << k << "</th>";
  os << "<th>unsupported</th><th>results</th></tr></thead><tbody>\n";
  const auto row = [&](const std::string& name, const std::string& id, const Aggregate& a) {
    os << "<tr id=\"summary-" << id << "\"><td>" << html_escape(name) << "</td><td class=\"num\">" << a.total.passed << "/"
       << a.total.run << "</td>";
    for (int l : levels) {
      const auto it = a.levels.find(l);
      os << "<td class=\"num\">"
         << (it != a.levels.end() ? std::to_string(it->second.passed) + "/" + std::to_string(it->second.run) : "-") << "</td>";
    }
    os << "<td class=\"num\">" << (a.geomean_speedup ? fmt(*a.geomean_speedup, 2) + "x" : "-") << "</td>";
    for (double p : fast) {
      const auto it = a.fast.find(p);
      os << "<td class=\"num\">" << (it != a.fast.end() ? fmt(it->second, 2) : "-") << "</td>";
    }
    for (int k : ks) {
      const auto it = a.pass_at_k.find(k);
      os << "<td class=\"num\">" << (it != a.pass_at_k.end() ? fmt(it->second, 2) : "-") << "</td>";
    }
    os << "<td class=\"num\">" << a.unsupported << "</td><td class=\"num\">" << a.records << "</td></tr>\n";
  };
  for (const auto& ps : s.platforms) row(ps.platform, id_token(ps.platform), ps.aggregate);
  if (s.platforms.size() > 1) row("all platforms", "all", s.overall);
  os << "</tbody></table>\n";
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string id_token(const std::string& name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') ? c : '_';
  return out.empty() ? "_" : out;
}

std::string render_html_report(const std::vector<json>& records, const HtmlReportOptions& options) {
  const Summary summary = summarize(records, options.summary);
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" << html_escape(options.title)
     << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n<header>\n<h1 id=\"report-title\">"
     << html_escape(options.title) << "</h1>\n";

  // Run metadata: where the results came from and what they contain.
  std::set<std::string> platform_configs, kernel_sources, schemas;
  double host_seconds = 0;
  for (const auto& r : records) {
    if (!r.is_object()) continue;
    if (r.contains("platform_config") && r["platform_config"].is_string())
      platform_configs.insert(r["platform_config"].get<std::string>());
    if (r.contains("kernel") && r["kernel"].is_object()) {
      const std::string src = str_field(r["kernel"], "source");
      if (!src.empty()) kernel_sources.insert(src);
    }
    if (r.contains("schema") && r["schema"].is_string()) schemas.insert(r["schema"].get<std::string>());
    if (r.contains("host_seconds") && r["host_seconds"].is_number()) host_seconds += r["host_seconds"].get<double>();
  }
  const auto joined = [](const std::set<std::string>& items) {
    std::string s;
    for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
    return s.empty() ? std::string("-") : s;
  };
  os << "<dl id=\"run-metadata\" class=\"meta\">\n";
  if (!options.generated.empty()) os << "<dt>generated</dt><dd>" << html_escape(options.generated) << "</dd>\n";
  os << "<dt>result files</dt><dd>";
  for (size_t i = 0; i < options.sources.size(); ++i)
    os << (i ? ", " : "") << "<code>" << html_escape(options.sources[i]) << "</code>";
  if (options.sources.empty()) os << "-";
  os << "</dd>\n<dt>results</dt><dd>" << summary.overall.records << " (" << summary.overall.total.run
     << " workloads run, " << summary.overall.unsupported << " unsupported)</dd>\n";
  std::set<std::string> platforms;
  for (const auto& ps : summary.platforms) platforms.insert(ps.platform);
  os << "<dt>platforms</dt><dd>" << html_escape(joined(platforms)) << "</dd>\n";
  os << "<dt>platform configs</dt><dd>" << html_escape(joined(platform_configs)) << "</dd>\n";
  os << "<dt>kernels</dt><dd>" << html_escape(joined(kernel_sources)) << "</dd>\n";
  os << "<dt>report schema</dt><dd>" << html_escape(joined(schemas)) << "</dd>\n";
  os << "<dt>evaluation time</dt><dd>" << fmt(host_seconds, 2) << " s (sum over jobs)</dd>\n</dl>\n</header>\n";

  os << "<section id=\"provenance\">\n<h2>Variants and provenance</h2>\n";
  variants_table(os, records, options.record_sources);
  variant_uses_table(os, records);
  os << "</section>\n";
  os << "<section id=\"summary\">\n<h2>Summary</h2>\n";
  if (summary.platforms.empty()) os << "<p class=\"muted\">no task results in the input</p>\n";
  else summary_table(os, summary);
  os << "<p class=\"muted\">solved = configurations passed / configurations run (unsupported left out); "
     << "geomean speedup over correct kernels with a baseline (baseline cycles / kernel cycles); "
     << "fast_p = share of configurations run that are correct and more than p times faster than the baseline; "
     << "pass@k = unbiased estimate over the samples of each configuration.</p>\n</section>\n";

  for (const auto& ps : summary.platforms) {
    const std::string pid = id_token(ps.platform);
    const auto jobs = platform_jobs(records, ps);
    os << "<section id=\"platform-" << pid << "\" class=\"platform\">\n<h2>" << html_escape(ps.platform) << " <span class=\"muted\">"
       << ps.aggregate.total.passed << "/" << ps.aggregate.total.run << " solved</span></h2>\n";
    RecordRefs refs;
    for (const auto& j : jobs) refs.push_back(j.record);
    pass_matrix(os, ps);
    cycles_table(os, ps);
    speedup_chart(os, ps);
    run_figures_table(os, ps.platform, refs);
    roofline_chart(os, ps.platform, refs);
    if (distinct_units(jobs) > kMaxUnitColumns) {
      os << "<h3>Per-unit utilisation</h3>\n";
      unit_group_utilisation(os, ps.platform, refs);
      tile_heatmaps(os, ps.platform, refs);
    } else {
      utilisation_chart(os, ps, jobs);
    }
    agent_table(os, ps.platform, refs);
    failures_table(os, ps, jobs);
    os << "</section>\n";
  }
  os << "<footer class=\"muted\"><p>tlmcraft report; self-contained: no scripts, no external resources.</p></footer>\n"
     << "</body>\n</html>\n";
  return os.str();
}

}  // namespace tlmcraft::harness
