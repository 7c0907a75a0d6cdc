#include "harness/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "harness/provenance.h"
#include "harness/summary.h"

namespace tlmcraft::harness {

using nlohmann::json;

namespace {

std::string str_of(const json& j, const char* field) {
  const auto it = j.find(field);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// The job's field when the record has a suite "job" object, else the report's own.
std::string job_field(const json& r, const char* field) {
  if (r.contains("job") && r["job"].is_object()) {
    const std::string v = str_of(r["job"], field);
    if (!v.empty()) return v;
  }
  return str_of(r, field);
}

std::optional<uint64_t> cycles_of(const json& r) {
  const auto it = r.find("cycles");
  if (it == r.end() || !it->is_number() || it->get<double>() < 0) return std::nullopt;
  return it->get<uint64_t>();
}

std::optional<double> energy_of(const json& r) {
  const auto e = r.find("energy");
  if (e == r.end() || !e->is_object()) return std::nullopt;
  const auto t = e->find("total_pj");
  if (t == e->end() || !t->is_number()) return std::nullopt;
  return t->get<double>();
}

using CellKey = std::tuple<std::string, std::string, std::string>;  // platform, task, config

struct Side {
  std::string status;
  std::optional<uint64_t> cycles;
  std::optional<double> energy;
  int level = -1;
};

// Best record per cell: a pass with the fewest cycles beats everything, then any record.
std::map<CellKey, Side> best_per_cell(const std::vector<json>& records) {
  std::map<CellKey, Side> out;
  for (const auto& r : records) {
    if (!r.is_object()) continue;
    Side s;
    s.status = str_of(r, "status");
    s.cycles = cycles_of(r);
    s.energy = energy_of(r);
    if (r.contains("level") && r["level"].is_number_integer()) s.level = r["level"].get<int>();
    const CellKey key{job_field(r, "platform"), job_field(r, "task"), job_field(r, "config")};
    auto it = out.find(key);
    const bool better = it == out.end() ||
                        (s.status == "pass" && (it->second.status != "pass" || (s.cycles && it->second.cycles &&
                                                                                 *s.cycles < *it->second.cycles)));
    if (better) out[key] = s;
  }
  return out;
}

CompareCell make_cell(const CellKey& k, const Side* a, const Side* b) {
  CompareCell c;
  std::tie(c.platform, c.task, c.config) = k;
  c.level = a ? a->level : b->level;
  if (a) {
    c.a_status = a->status;
    c.a_cycles = a->cycles;
    c.a_energy_pj = a->energy;
  }
  if (b) {
    c.b_status = b->status;
    c.b_cycles = b->cycles;
    c.b_energy_pj = b->energy;
  }
  if (a && b && a->status == "pass" && b->status == "pass") {
    if (a->cycles && b->cycles && *a->cycles > 0 && *b->cycles > 0) c.speedup = double(*a->cycles) / double(*b->cycles);
    if (a->energy && b->energy && *a->energy > 0) c.energy_ratio = *b->energy / *a->energy;
  }
  return c;
}

// Geometric means of the cells' speedups and energy ratios, grouped by `name_of`.
std::vector<GeoGroup> group(const std::vector<CompareCell>& cells, std::string (*name_of)(const CompareCell&)) {
  std::vector<std::string> order;
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> values;
  for (const auto& c : cells) {
    if (!c.speedup) continue;
    const std::string n = name_of(c);
    if (!values.count(n)) order.push_back(n);
    values[n].first.push_back(*c.speedup);
    if (c.energy_ratio) values[n].second.push_back(*c.energy_ratio);
  }
  const auto geo = [](const std::vector<double>& xs) -> std::optional<double> {
    if (xs.empty()) return std::nullopt;
    double s = 0;
    for (double x : xs) s += std::log(x);
    return std::exp(s / double(xs.size()));
  };
  std::vector<GeoGroup> out;
  for (const auto& n : order) {
    const auto& [speedups, energies] = values[n];
    out.push_back({n, int(speedups.size()), geo(speedups), geo(energies)});
  }
  return out;
}

std::string task_name(const CompareCell& c) { return c.platform + "/" + c.task; }
std::string level_name(const CompareCell& c) { return c.platform + " level " + level_label(c.level); }
std::string platform_name(const CompareCell& c) { return c.platform; }
std::string all_name(const CompareCell&) { return "all"; }

bool cell_less(const CompareCell& x, const CompareCell& y) {
  if (x.platform != y.platform) return x.platform < y.platform;
  if (x.level != y.level) return x.level < y.level;
  if (x.task != y.task) return x.task < y.task;
  return config_less(x.config, y.config);
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string cycles_text(const std::optional<uint64_t>& c, const std::string& status) {
  if (status != "pass") return status.empty() ? "-" : status;
  return c ? std::to_string(*c) : "?";
}

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json opt(const std::optional<uint64_t>& v) { return v ? json(*v) : json(nullptr); }

json cell_json(const CompareCell& c) {
  return {{"platform", c.platform}, {"task", c.task},           {"config", c.config},
          {"level", c.level},       {"a_status", c.a_status},   {"b_status", c.b_status},
          {"a_cycles", opt(c.a_cycles)}, {"b_cycles", opt(c.b_cycles)}, {"speedup", opt(c.speedup)},
          {"a_energy_pj", opt(c.a_energy_pj)}, {"b_energy_pj", opt(c.b_energy_pj)},
          {"energy_ratio", opt(c.energy_ratio)}};
}

json group_json(const GeoGroup& g) {
  return {{"name", g.name}, {"cells", g.cells}, {"geomean_speedup", opt(g.geomean)},
          {"geomean_energy_ratio", opt(g.energy_geomean)}};
}

}  // namespace

std::vector<VariantGroup> variant_groups(const std::vector<json>& records) {
  std::vector<VariantGroup> groups;
  for (const auto& r : records) {
    const std::string id = r.is_object() && r.contains("job") && r["job"].is_object() ? str_of(r["job"], "variant") : "";
    auto it = std::find_if(groups.begin(), groups.end(), [&](const VariantGroup& g) { return g.id == id; });
    if (it == groups.end()) {
      VariantGroup g;
      g.id = id;
      g.provenance = r.is_object() && r.contains("provenance") ? r["provenance"] : json();
      g.label = g.provenance.is_object() ? variant_label(g.provenance) : "unrecorded variant";
      groups.push_back(std::move(g));
      it = groups.end() - 1;
    }
    it->records.push_back(r);
  }
  return groups;
}

size_t variants_per_platform(const std::vector<json>& records) {
  std::map<std::string, std::set<std::string>> ids;
  size_t most = 0;
  for (const auto& r : records) {
    if (!r.is_object()) continue;
    auto& set = ids[str_of(r, "platform")];
    set.insert(r.contains("job") && r["job"].is_object() ? str_of(r["job"], "variant") : "");
    most = std::max(most, set.size());
  }
  return most;
}

const VariantGroup& select_variant(const std::vector<VariantGroup>& groups, const std::string& selector,
                                   const std::string& source) {
  std::vector<const VariantGroup*> hits;
  for (const auto& g : groups) {
    const std::string name = g.provenance.is_object() ? str_of(g.provenance, "name") : "";
    const bool id_match = selector.size() >= 4 && g.id.compare(0, selector.size(), selector) == 0;
    if (selector.empty() || selector == name || selector == g.label || id_match) hits.push_back(&g);
  }
  if (hits.size() == 1) return *hits.front();
  std::string known;
  for (const auto& g : groups) known += "\n  " + (g.id.empty() ? std::string("(no id)") : g.id.substr(0, 8)) + "  " + g.label;
  if (hits.empty() && groups.empty()) throw std::invalid_argument(source + ": no results");
  if (hits.empty()) throw std::invalid_argument(source + ": no variant matches '" + selector + "'; variants:" + known);
  throw std::invalid_argument(source + ": " + std::to_string(hits.size()) + " variants" +
                              (selector.empty() ? "" : " match '" + selector + "'") +
                              "; choose one (by name, label or id prefix):" + known);
}

Comparison compare_results(const std::vector<json>& a, const std::vector<json>& b, const CompareOptions& options) {
  Comparison c;
  c.options = options;
  const auto sa = best_per_cell(a), sb = best_per_cell(b);
  for (const auto& [k, side] : sa) {
    const auto it = sb.find(k);
    if (it == sb.end()) c.only_a.push_back(make_cell(k, &side, nullptr));
    else c.cells.push_back(make_cell(k, &side, &it->second));
  }
  for (const auto& [k, side] : sb)
    if (!sa.count(k)) c.only_b.push_back(make_cell(k, nullptr, &side));
  for (auto* v : {&c.cells, &c.only_a, &c.only_b}) std::sort(v->begin(), v->end(), cell_less);
  c.by_task = group(c.cells, task_name);
  c.by_level = group(c.cells, level_name);
  c.by_platform = group(c.cells, platform_name);
  const auto all = group(c.cells, all_name);
  c.overall = all.empty() ? GeoGroup{"all", 0, std::nullopt, std::nullopt} : all.front();
  for (size_t i = 0; i < c.cells.size(); ++i) {
    const auto& cell = c.cells[i];
    if (cell.a_status != cell.b_status) c.status_changes.push_back(i);
    if (!cell.speedup) continue;
    if (*cell.speedup < 1.0 - options.threshold) c.regressions.push_back(i);
    if (*cell.speedup > 1.0 + options.threshold) c.wins.push_back(i);
  }
  std::sort(c.regressions.begin(), c.regressions.end(),
            [&](size_t x, size_t y) { return *c.cells[x].speedup < *c.cells[y].speedup; });
  std::sort(c.wins.begin(), c.wins.end(), [&](size_t x, size_t y) { return *c.cells[x].speedup > *c.cells[y].speedup; });
  return c;
}

json comparison_to_json(const Comparison& c) {
  json j = {{"schema", "tlmcraft.compare/1"},
            {"a", c.options.a_label},
            {"b", c.options.b_label},
            {"speedup", "A cycles / B cycles (above 1: B is faster)"},
            {"threshold", c.options.threshold},
            {"overall", group_json(c.overall)}};
  for (const auto& [name, groups] : {std::pair{"by_platform", &c.by_platform}, std::pair{"by_level", &c.by_level},
                                     std::pair{"by_task", &c.by_task}}) {
    j[name] = json::array();
    for (const auto& g : *groups) j[name].push_back(group_json(g));
  }
  for (const auto& [name, cells] : {std::pair{"cells", &c.cells}, std::pair{"only_a", &c.only_a},
                                    std::pair{"only_b", &c.only_b}}) {
    j[name] = json::array();
    for (const auto& cell : *cells) j[name].push_back(cell_json(cell));
  }
  for (const auto& [name, idx] : {std::pair{"regressions", &c.regressions}, std::pair{"wins", &c.wins},
                                  std::pair{"status_changes", &c.status_changes}}) {
    j[name] = json::array();
    for (size_t i : *idx) j[name].push_back(cell_json(c.cells[i]));
  }
  return j;
}

std::string comparison_to_text(const Comparison& c) {
  std::ostringstream os;
  const auto x = [](const std::optional<double>& v) { return v ? fixed(*v, 3) + "x" : std::string("-"); };
  os << "A: " << c.options.a_label << "\nB: " << c.options.b_label << "\n";
  os << "speedup = A cycles / B cycles (above 1: B is faster); " << c.cells.size() << " cell(s) on both sides\n\n";
  os << "geomean speedup: " << x(c.overall.geomean) << " over " << c.overall.cells << " passing cell(s)";
  if (c.overall.energy_geomean) os << "; energy B/A: " << x(c.overall.energy_geomean);
  os << "\n";
  for (const auto* groups : {&c.by_platform, &c.by_level}) {
    for (const auto& g : *groups) os << "  " << g.name << ": " << x(g.geomean) << " (" << g.cells << ")\n";
  }
  os << "\nper task (geomean over configs):\n";
  for (const auto& g : c.by_task) {
    os << "  " << g.name << std::string(g.name.size() < 24 ? 24 - g.name.size() : 1, ' ') << x(g.geomean) << " ("
       << g.cells << ")";
    if (g.energy_geomean) os << "  energy " << x(g.energy_geomean);
    os << "\n";
  }
  const auto list = [&](const char* title, const std::vector<size_t>& idx) {
    os << "\n" << title << ": " << (idx.empty() ? "none" : std::to_string(idx.size())) << "\n";
    for (size_t i : idx) {
      const auto& cell = c.cells[i];
      os << "  " << cell.platform << "/" << cell.task << "/" << cell.config << ": A "
         << cycles_text(cell.a_cycles, cell.a_status) << ", B " << cycles_text(cell.b_cycles, cell.b_status);
      if (cell.speedup) os << " cycles, " << fixed(*cell.speedup, 3) << "x";
      os << "\n";
    }
  };
  list(("regressions (below " + fixed(1 - c.options.threshold, 2) + "x, slowest first)").c_str(), c.regressions);
  list(("wins (above " + fixed(1 + c.options.threshold, 2) + "x, fastest first)").c_str(), c.wins);
  list("status changes", c.status_changes);
  for (const auto& [title, cells] : {std::pair{"only in A", &c.only_a}, std::pair{"only in B", &c.only_b}}) {
    if (cells->empty()) continue;
    os << "\n" << title << ": " << cells->size() << "\n";
    for (const auto& cell : *cells) os << "  " << cell.platform << "/" << cell.task << "/" << cell.config << "\n";
  }
  return os.str();
}

}  // namespace tlmcraft::harness
