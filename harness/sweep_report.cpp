#include "harness/sweep_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

#include "harness/summary.h"
#include "harness/variant_uses.h"

namespace tlmcraft::harness {

using nlohmann::json;

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json opt(const std::optional<uint64_t>& v) { return v ? json(*v) : json(nullptr); }

std::optional<double> area_of(const std::vector<json>& records) {
  for (const auto& r : records)
    if (r.contains("area") && r["area"].is_object() && r["area"].contains("total_mm2") && r["area"]["total_mm2"].is_number())
      return r["area"]["total_mm2"].get<double>();
  return std::nullopt;
}

// The rows: every cell any variant has, filled from the comparisons' per-cell view.
std::vector<SweepRow> rows_of(const SweepTable& t) {
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, SweepRow> rows;
  const size_t n = t.variants.size();
  for (size_t v = 0; v < n; ++v) {
    const Comparison& c = t.summaries[v].against_reference;
    const auto put = [&](const CompareCell& cell, bool b_side) {
      SweepRow& row = rows[Key{cell.platform, cell.task, cell.config}];
      if (row.status.empty()) {
        row = {cell.platform, cell.task, cell.config, cell.level, std::vector<std::string>(n),
               std::vector<std::optional<uint64_t>>(n), std::vector<std::optional<double>>(n)};
      }
      const size_t col = b_side ? v : t.reference;
      row.status[col] = b_side ? cell.b_status : cell.a_status;
      row.cycles[col] = b_side ? cell.b_cycles : cell.a_cycles;
      row.energy_pj[col] = b_side ? cell.b_energy_pj : cell.a_energy_pj;
    };
    for (const auto& cell : c.cells) {
      put(cell, false);
      put(cell, true);
    }
    for (const auto& cell : c.only_a) put(cell, false);
    for (const auto& cell : c.only_b) put(cell, true);
  }
  std::vector<SweepRow> out;
  for (auto& [k, row] : rows) out.push_back(std::move(row));
  std::sort(out.begin(), out.end(), [](const SweepRow& x, const SweepRow& y) {
    if (x.platform != y.platform) return x.platform < y.platform;
    if (x.level != y.level) return x.level < y.level;
    if (x.task != y.task) return x.task < y.task;
    return config_less(x.config, y.config);
  });
  return out;
}

// Cycles and energy summed over the rows every variant passed (comparable totals).
void add_totals(SweepTable& t) {
  for (size_t v = 0; v < t.variants.size(); ++v) {
    uint64_t cycles = 0;
    double energy = 0;
    bool all_energy = true, any = false;
    for (const auto& row : t.rows) {
      if (std::any_of(row.status.begin(), row.status.end(), [](const std::string& s) { return s != "pass"; })) continue;
      any = true;
      cycles += row.cycles[v].value_or(0);
      if (row.energy_pj[v]) energy += *row.energy_pj[v];
      else all_energy = false;
    }
    if (!any) continue;
    t.summaries[v].total_cycles = cycles;
    if (all_energy) t.summaries[v].total_energy_pj = energy;
  }
}

}  // namespace

SweepTable build_sweep_table(std::vector<SweepVariantResult> variants, size_t reference) {
  SweepTable t;
  t.variants = std::move(variants);
  t.reference = reference < t.variants.size() ? reference : 0;
  for (const auto& v : t.variants) {
    SweepVariantSummary s;
    CompareOptions o;
    o.a_label = t.variants.empty() ? "" : t.variants[t.reference].name;
    o.b_label = v.name;
    s.against_reference = compare_results(t.variants[t.reference].records, v.records, o);
    s.geomean_speedup = s.against_reference.overall.geomean;
    s.energy_ratio = s.against_reference.overall.energy_geomean;
    s.area_mm2 = area_of(v.records);
    s.added_uses = suite_variant_uses(v.records);
    for (const auto& r : v.records) {
      const std::string status = r.value("status", "");
      if (status == "unsupported") continue;
      ++s.run;
      if (status == "pass") ++s.passed;
    }
    t.summaries.push_back(std::move(s));
  }
  if (!t.variants.empty()) t.rows = rows_of(t);
  add_totals(t);
  return t;
}

json sweep_to_json(const SweepTable& t) {
  json j = {{"schema", "tlmcraft.sweep/1"},
            {"reference", t.variants.empty() ? json(nullptr) : json(t.variants[t.reference].name)},
            {"variants", json::array()},
            {"rows", json::array()}};
  for (size_t v = 0; v < t.variants.size(); ++v) {
    const auto& s = t.summaries[v];
    j["variants"].push_back({{"name", t.variants[v].name},
                             {"variant", t.variants[v].id},
                             {"provenance", t.variants[v].provenance},
                             {"passed", s.passed},
                             {"run", s.run},
                             {"geomean_speedup_vs_reference", opt(s.geomean_speedup)},
                             {"geomean_energy_ratio_vs_reference", opt(s.energy_ratio)},
                             {"total_cycles", opt(s.total_cycles)},
                             {"total_energy_pj", opt(s.total_energy_pj)},
                             {"area_mm2", opt(s.area_mm2)},
                             {"isa_variant_uses", s.added_uses}});
  }
  for (const auto& row : t.rows) {
    json cells = json::array();
    for (size_t v = 0; v < t.variants.size(); ++v)
      cells.push_back({{"status", row.status[v]}, {"cycles", opt(row.cycles[v])}, {"energy_pj", opt(row.energy_pj[v])}});
    j["rows"].push_back({{"platform", row.platform}, {"task", row.task}, {"config", row.config}, {"level", row.level},
                         {"variants", cells}});
  }
  return j;
}

std::string sweep_to_text(const SweepTable& t) {
  std::ostringstream os;
  os << "variants (speedup = reference cycles / variant cycles, geomean over cells both pass):\n";
  for (size_t v = 0; v < t.variants.size(); ++v) {
    const auto& s = t.summaries[v];
    os << "  v" << v + 1 << (v == t.reference ? "*" : " ") << " " << t.variants[v].name << "  [" << t.variants[v].id.substr(0, 8)
       << "]  " << s.passed << "/" << s.run << " passed";
    if (s.geomean_speedup) os << ", " << fixed(*s.geomean_speedup, 3) << "x";
    if (s.energy_ratio) os << ", energy " << fixed(*s.energy_ratio, 3) << "x";
    if (s.area_mm2) os << ", area " << fixed(*s.area_mm2, 3) << " mm2";
    os << "\n";
    os << variant_uses_text(s.added_uses, "      ");
  }
  os << "  (* = reference)\n\ncycles:\n";
  std::ostringstream head;
  head << "  " << std::string(30, ' ');
  for (size_t v = 0; v < t.variants.size(); ++v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%12s", ("v" + std::to_string(v + 1)).c_str());
    head << buf;
  }
  os << head.str() << "\n";
  for (const auto& row : t.rows) {
    std::string name = row.platform + "/" + row.task + "/" + row.config;
    name.resize(30, ' ');
    os << "  " << name;
    for (size_t v = 0; v < t.variants.size(); ++v) {
      const std::string cell = row.status[v].empty() ? "-"
                               : row.status[v] != "pass" ? status_abbreviation(row.status[v])
                               : row.cycles[v] ? std::to_string(*row.cycles[v]) : "?";
      char buf[32];
      std::snprintf(buf, sizeof buf, "%12s", cell.c_str());
      os << buf;
    }
    os << "\n";
  }
  return os.str();
}

}  // namespace tlmcraft::harness
