#include "harness/summary.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

#include "harness/provenance.h"

namespace tlmcraft::harness {

using json = nlohmann::json;

namespace {

std::string str_field(const json& j, const char* name) {
  const auto it = j.find(name);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

std::optional<uint64_t> count_field(const json& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!(v >= 0)) return std::nullopt;
  return uint64_t(v);
}

struct RecordView {
  std::string platform, task, config, kernel, status, reason;
  std::string variant, variant_name;  // job.variant and its provenance label ("" = unrecorded)
  int level = -1;
  std::optional<uint64_t> cycles, baseline_cycles;
  std::optional<double> speedup;
  std::vector<uint64_t> seeds;
};

// The suite's "job" object is authoritative; a bare report (no job) also works.
RecordView view_of(const json& r) {
  RecordView v;
  const json job = r.contains("job") && r["job"].is_object() ? r["job"] : json::object();
  v.platform = str_field(job, "platform");
  if (v.platform.empty()) v.platform = str_field(r, "platform");
  v.task = str_field(job, "task");
  if (v.task.empty()) v.task = str_field(r, "task");
  v.config = str_field(job, "config");
  if (v.config.empty()) v.config = str_field(r, "config");
  v.kernel = str_field(job, "kernel");
  v.variant = str_field(job, "variant");
  if (r.contains("provenance") && r["provenance"].is_object()) v.variant_name = variant_label(r["provenance"]);
  if (v.kernel.empty() && r.contains("kernel") && r["kernel"].is_object()) {
    v.kernel = str_field(r["kernel"], "source") == "baseline" ? "baseline" : str_field(r["kernel"], "path");
  }
  v.status = str_field(r, "status");
  v.reason = str_field(r, "reason");
  if (r.contains("level") && r["level"].is_number_integer()) v.level = r["level"].get<int>();
  v.cycles = count_field(r, "cycles");
  v.baseline_cycles = count_field(r, "baseline_cycles");
  v.speedup = record_speedup(r);
  if (r.contains("seeds") && r["seeds"].is_array())
    for (const json& s : r["seeds"])
      if (s.is_number_unsigned()) v.seeds.push_back(s.get<uint64_t>());
  return v;
}

// Ordering of samples for the cell shown: a pass beats any failure (faster pass first),
// any failure beats "unsupported".
int status_rank(const std::string& s) {
  if (s == "pass") return 0;
  if (s == "unsupported") return 2;
  return 1;
}

std::optional<double> geomean(const std::vector<double>& xs) {
  if (xs.empty()) return std::nullopt;
  double sum = 0;
  for (double x : xs) sum += std::log(x);
  return std::exp(sum / double(xs.size()));
}

std::string fmt(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string fast_key(double p) {
  std::ostringstream os;
  os << p;
  return os.str();
}

// Accumulates aggregate metrics over a set of workloads.
struct AggregateBuilder {
  Aggregate agg;
  std::vector<double> speedups;
  std::vector<const WorkloadCell*> cells;
  std::vector<std::pair<int, int>> samples;  // (n, c) per supported workload

  void add(const WorkloadCell& cell, int level, const std::vector<std::string>& statuses) {
    agg.records += int(statuses.size());
    for (const auto& s : statuses) ++agg.status_counts[s];
    if (!cell.supported()) {
      ++agg.unsupported;
      return;
    }
    const bool solved = cell.status == "pass";
    ++agg.total.run;
    ++agg.levels[level].run;
    if (solved) {
      ++agg.total.passed;
      ++agg.levels[level].passed;
      if (cell.speedup) speedups.push_back(*cell.speedup);
    }
    cells.push_back(&cell);
    // Unsupported samples of a supported workload are not attempts.
    const int n = cell.samples - int(std::count(statuses.begin(), statuses.end(), std::string("unsupported")));
    samples.emplace_back(n, cell.passed);
  }

  Aggregate finish(const SummaryOptions& options) {
    agg.geomean_speedup = geomean(speedups);
    agg.speedup_count = int(speedups.size());
    for (double p : options.fast_p) {
      int count = 0;
      for (const WorkloadCell* c : cells) {
        if (c->status != "pass") continue;
        // A correct kernel without a known speedup only counts where p <= 0 (fast_0 = correct).
        if (p <= 0 || (c->speedup && *c->speedup > p)) ++count;
      }
      agg.fast[p] = cells.empty() ? 0.0 : double(count) / double(cells.size());
    }
    int max_n = 0;
    for (const auto& [n, c] : samples) max_n = std::max(max_n, n);
    for (int k : options.pass_k) {
      if (k < 1 || k > max_n) continue;
      double sum = 0;
      int used = 0;
      for (const auto& [n, c] : samples) {
        if (n < k) continue;
        sum += pass_at_k(n, c, k);
        ++used;
      }
      if (used > 0) agg.pass_at_k[k] = sum / used;
    }
    return agg;
  }
};

json aggregate_json(const Aggregate& a) {
  json j;
  j["passed"] = a.total.passed;
  j["run"] = a.total.run;
  j["unsupported"] = a.unsupported;
  j["records"] = a.records;
  j["levels"] = json::array();
  for (const auto& [level, t] : a.levels) j["levels"].push_back({{"level", level}, {"passed", t.passed}, {"run", t.run}});
  j["geomean_speedup"] = a.geomean_speedup ? json(*a.geomean_speedup) : json(nullptr);
  j["speedup_count"] = a.speedup_count;
  j["fast"] = json::object();
  for (const auto& [p, v] : a.fast) j["fast"][fast_key(p)] = v;
  j["pass_at_k"] = json::object();
  for (const auto& [k, v] : a.pass_at_k) j["pass_at_k"][std::to_string(k)] = v;
  j["status_counts"] = a.status_counts;
  return j;
}

std::string aggregate_line(const Aggregate& a) {
  std::ostringstream os;
  for (const auto& [level, t] : a.levels)
    os << (level > 0 ? "level " : "") << level_label(level) << " " << t.passed << "/" << t.run
       << "   ";
  os << "total " << a.total.passed << "/" << a.total.run;
  if (a.unsupported) os << "   (" << a.unsupported << " unsupported)";
  os << "\n";
  if (a.geomean_speedup)
    os << "geomean speedup " << fmt(*a.geomean_speedup, 2) << "x over " << a.speedup_count << " correct kernels";
  else
    os << "geomean speedup -";
  for (const auto& [p, v] : a.fast) os << "   fast_" << fast_key(p) << " " << fmt(v, 2);
  for (const auto& [k, v] : a.pass_at_k) os << "   pass@" << k << " " << fmt(v, 2);
  os << "\n";
  return os.str();
}

std::string pad_left(const std::string& s, size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }
std::string pad_right(const std::string& s, size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

}  // namespace

// "C2" < "C10": compare the text before the digits, then the number.
bool config_less(const std::string& a, const std::string& b) {
  const auto split = [](const std::string& s) {
    size_t i = s.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(s[i - 1]))) --i;
    const long n = i < s.size() && s.size() - i < 10 ? std::stol(s.substr(i)) : -1;
    return std::make_pair(s.substr(0, i), n);
  };
  const auto sa = split(a), sb = split(b);
  if (sa != sb) return sa < sb;
  return a < b;
}


double pass_at_k(int n, int c, int k) {
  if (n < 1 || c < 0 || c > n || k < 1 || k > n)
    throw std::invalid_argument("pass@k needs 0 <= c <= n and 1 <= k <= n (n=" + std::to_string(n) +
                                ", c=" + std::to_string(c) + ", k=" + std::to_string(k) + ")");
  if (n - c < k) return 1.0;  // every draw of k contains a correct sample
  double prod = 1.0;
  for (int i = n - c + 1; i <= n; ++i) prod *= 1.0 - double(k) / double(i);
  return 1.0 - prod;
}

std::optional<double> record_speedup(const json& r) {
  const auto it = r.find("speedup");
  if (it != r.end() && it->is_number()) {
    const double s = it->get<double>();
    if (s > 0 && std::isfinite(s)) return s;
  }
  const auto cycles = count_field(r, "cycles");
  const auto base = count_field(r, "baseline_cycles");
  if (cycles && base && *cycles > 0 && *base > 0) return double(*base) / double(*cycles);
  return std::nullopt;
}

std::string status_abbreviation(const std::string& s) {
  if (s == "pass") return "pass";
  if (s == "fail") return "FAIL";
  if (s == "assemble_error") return "ASM";
  if (s == "runtime_error") return "RTE";
  if (s == "limit") return "LIMIT";
  if (s == "timeout") return "TIME";
  if (s == "crash") return "CRASH";
  if (s == "unsupported") return "n/a";
  if (s.empty()) return "?";
  return s.substr(0, 5);
}

SummaryOptions parse_summary_options(const std::string& fast_p_list, const std::string& pass_k_list) {
  const auto items = [](const std::string& list) {
    std::vector<std::string> out;
    std::stringstream ss(list);
    std::string item;
    while (std::getline(ss, item, ',')) {
      item.erase(0, item.find_first_not_of(" \t"));
      item.erase(item.find_last_not_of(" \t") + 1);
      if (!item.empty()) out.push_back(item);
    }
    return out;
  };
  SummaryOptions o;
  o.fast_p.clear();
  o.pass_k.clear();
  for (const auto& item : items(fast_p_list)) {
    size_t used = 0;
    double p = -1;
    try {
      p = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || !(p >= 0) || !std::isfinite(p))
      throw std::invalid_argument("--fast-p: '" + item + "' is not a number >= 0");
    o.fast_p.push_back(p);
  }
  for (const auto& item : items(pass_k_list)) {
    size_t used = 0;
    long k = 0;
    try {
      k = std::stol(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || k < 1 || k > 1000000)
      throw std::invalid_argument("--pass-k: '" + item + "' is not a positive integer");
    o.pass_k.push_back(int(k));
  }
  return o;
}

Summary summarize(const std::vector<json>& records, const SummaryOptions& options) {
  Summary summary;
  summary.fast_p = options.fast_p;
  summary.pass_k = options.pass_k;

  // Deduplicate by job (last record wins: a re-run replaces an earlier result).
  std::map<std::string, RecordView> by_job;
  std::vector<std::string> order;
  for (const auto& r : records) {
    if (!r.is_object()) continue;
    RecordView v = view_of(r);
    if (v.platform.empty() || v.task.empty() || v.config.empty()) continue;  // not a task evaluation
    // Results of other hardware/ISA variants are other samples (job.variant).
    const std::string key = v.platform + '\x1f' + v.task + '\x1f' + v.config + '\x1f' + v.kernel + '\x1f' + v.variant;
    if (!by_job.count(key)) order.push_back(key);
    by_job[key] = std::move(v);
  }

  // platform -> task -> config -> samples
  std::map<std::string, std::map<std::string, std::map<std::string, std::vector<const RecordView*>>>> tree;
  std::map<std::string, std::map<std::string, int>> levels;
  for (const auto& key : order) {
    const RecordView& v = by_job[key];
    tree[v.platform][v.task][v.config].push_back(&v);
    int& level = levels[v.platform].try_emplace(v.task, -1).first->second;
    if (v.level >= 0) level = v.level;
  }

  AggregateBuilder overall;
  for (const auto& [platform, tasks] : tree) {
    PlatformSummary ps;
    ps.platform = platform;
    std::set<std::string> configs;
    for (const auto& [task, cfgs] : tasks) {
      TaskRow row;
      row.task = task;
      row.level = levels[platform][task];
      for (const auto& [config, samples] : cfgs) {
        configs.insert(config);
        WorkloadCell cell;
        cell.samples = int(samples.size());
        const RecordView* best = nullptr;
        for (const RecordView* s : samples) {
          ps.variants[s->variant] = s->variant_name.empty() ? "unrecorded variant" : s->variant_name;
          if (s->status == "pass") ++cell.passed;
          if (!best) {
            best = s;
            continue;
          }
          const int rs = status_rank(s->status), rb = status_rank(best->status);
          if (rs < rb || (rs == 0 && rb == 0 && s->speedup.value_or(0) > best->speedup.value_or(0))) best = s;
        }
        cell.status = best->status;
        cell.reason = best->reason;
        cell.kernel = best->kernel;
        cell.variant = best->variant;
        cell.variant_name = best->variant_name;
        cell.cycles = best->cycles;
        cell.baseline_cycles = best->baseline_cycles;
        cell.seeds = best->seeds;
        if (best->status == "pass") cell.speedup = best->speedup;
        row.configs[config] = cell;
      }
      ps.tasks.push_back(std::move(row));
    }
    ps.configs.assign(configs.begin(), configs.end());
    std::sort(ps.configs.begin(), ps.configs.end(), config_less);
    const auto rank = [&](const std::string& task) {
      const auto it = std::find(options.task_order.begin(), options.task_order.end(), task);
      return size_t(it - options.task_order.begin());  // not listed: after the listed ones
    };
    std::sort(ps.tasks.begin(), ps.tasks.end(), [&](const TaskRow& a, const TaskRow& b) {
      if (a.level != b.level) return a.level < b.level;
      if (rank(a.task) != rank(b.task)) return rank(a.task) < rank(b.task);
      return a.task < b.task;
    });

    AggregateBuilder platform_agg;
    for (auto& row : ps.tasks) {
      std::vector<double> speedups;
      for (const auto& [config, cell] : row.configs) {
        std::vector<std::string> statuses;
        for (const RecordView* s : tasks.at(row.task).at(config)) statuses.push_back(s->status);
        platform_agg.add(cell, row.level, statuses);
        overall.add(cell, row.level, statuses);
        if (!cell.supported()) continue;
        ++row.totals.run;
        if (cell.status == "pass") {
          ++row.totals.passed;
          if (cell.speedup) speedups.push_back(*cell.speedup);
        }
      }
      row.geomean_speedup = geomean(speedups);
    }
    ps.aggregate = platform_agg.finish(options);
    summary.platforms.push_back(std::move(ps));
  }
  summary.overall = overall.finish(options);
  return summary;
}

json summary_to_json(const Summary& s) {
  json j;
  j["schema"] = "tlmcraft.summary/1";
  j["platforms"] = json::array();
  for (const auto& ps : s.platforms) {
    json p;
    p["platform"] = ps.platform;
    p["configs"] = ps.configs;
    p["tasks"] = json::array();
    for (const auto& row : ps.tasks) {
      json t;
      t["task"] = row.task;
      t["level"] = row.level;
      t["passed"] = row.totals.passed;
      t["run"] = row.totals.run;
      t["geomean_speedup"] = row.geomean_speedup ? json(*row.geomean_speedup) : json(nullptr);
      t["configs"] = json::object();
      for (const auto& [config, c] : row.configs) {
        json cj = {{"status", c.status}, {"samples", c.samples}, {"passed", c.passed}, {"kernel", c.kernel},
                   {"reason", c.reason}};
        cj["cycles"] = c.cycles ? json(*c.cycles) : json(nullptr);
        cj["baseline_cycles"] = c.baseline_cycles ? json(*c.baseline_cycles) : json(nullptr);
        cj["speedup"] = c.speedup ? json(*c.speedup) : json(nullptr);
        cj["seeds"] = c.seeds;
        t["configs"][config] = cj;
      }
      p["tasks"].push_back(t);
    }
    p["summary"] = aggregate_json(ps.aggregate);
    j["platforms"].push_back(p);
  }
  j["overall"] = aggregate_json(s.overall);
  return j;
}

std::string summary_to_text(const Summary& s) {
  std::ostringstream os;
  if (s.platforms.empty()) return "no results\n";
  for (const auto& ps : s.platforms) {
    size_t task_w = 4;
    for (const auto& row : ps.tasks) task_w = std::max(task_w, row.task.size());
    os << "platform " << ps.platform << "\n";
    os << pad_right("task", task_w) << "  lvl";
    for (const auto& c : ps.configs) os << pad_left(c, 7);
    os << pad_left("solved", 9) << pad_left("speedup", 10) << "\n";
    for (const auto& row : ps.tasks) {
      os << pad_right(row.task, task_w) << "  " << pad_left(level_label(row.level), 3);
      for (const auto& config : ps.configs) {
        const auto it = row.configs.find(config);
        std::string cell = ".";  // not run
        if (it != row.configs.end()) {
          cell = it->second.samples > 1 && it->second.supported()
                     ? std::to_string(it->second.passed) + "/" + std::to_string(it->second.samples)
                     : status_abbreviation(it->second.status);
        }
        os << pad_left(cell, 7);
      }
      const std::string solved =
          row.totals.run > 0 ? std::to_string(row.totals.passed) + "/" + std::to_string(row.totals.run) : "n/a";
      os << pad_left(solved, 9) << pad_left(row.geomean_speedup ? fmt(*row.geomean_speedup, 2) + "x" : "-", 10) << "\n";
    }
    os << aggregate_line(ps.aggregate) << "\n";
  }
  if (s.platforms.size() > 1) os << "all platforms\n" << aggregate_line(s.overall);
  return os.str();
}

std::string level_label(int level) {
  if (level > 0) return std::to_string(level);
  return level == 0 ? "CPU" : "?";
}

}  // namespace tlmcraft::harness
