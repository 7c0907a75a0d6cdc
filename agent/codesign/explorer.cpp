#include "agent/codesign/explorer.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "agent/codesign/ceiling.h"
#include "agent/codesign/nsga2.h"
#include "agent/codesign/overlay_yaml.h"
#include "common/sha256.h"

namespace tlmcraft::agent::codesign {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string variant_id(std::vector<std::string> names) {
  if (names.empty()) return "base";
  std::sort(names.begin(), names.end());
  std::string id;
  for (const std::string& n : names) id += (id.empty() ? "" : "+") + n;
  return id;
}

// Every section of the candidates' overlays merged: lists concatenated (an entry equal to
// one already there, the hardware two candidates need, once), maps united (the sections
// are the ISA's: instructions and latency_classes, or ops and a map of latency classes).
json merged_overlay(const std::vector<const ExploreCandidate*>& set, const std::string& isa) {
  json doc = {{"isa", isa}};
  for (const ExploreCandidate* c : set)
    for (auto it = c->overlay.begin(); it != c->overlay.end(); ++it) {
      if (it.value().is_array())
        for (const json& e : it.value()) {
          const json& have = doc.contains(it.key()) ? doc[it.key()] : json::array();
          if (std::find(have.begin(), have.end(), e) == have.end()) doc[it.key()].push_back(e);
        }
      else if (it.value().is_object())
        for (auto e = it.value().begin(); e != it.value().end(); ++e) doc[it.key()][e.key()] = e.value();
    }
  return doc;
}

// The latency an overlay declares for its instruction: a latency class's cycles, or a
// number given as the entry's own `latency`.
int64_t declared_latency(const json& overlay) {
  int64_t latency = 0;
  for (auto it = overlay.begin(); it != overlay.end(); ++it) {
    if (!it.value().is_array()) continue;
    for (const json& e : it.value()) {
      if (!e.is_object()) continue;
      if (it.key() == "latency_classes" && e.contains("cycles") && e["cycles"].is_number_integer())
        latency = e["cycles"].get<int64_t>();
      if (e.contains("latency") && e["latency"].is_number_integer()) latency = e["latency"].get<int64_t>();
      if (latency == 0 && e.contains("timing") && e["timing"].is_object())  // an instruction's own timing
        latency = e["timing"].value("latency", int64_t(0));
    }
  }
  return latency;
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

Exploration::Exploration(const DataflowAdapter& adapter, std::vector<ExploreCandidate> candidates,
                         std::vector<SuiteCell> cells, SuiteRunner run, ExploreOptions o)
    : adapter_(adapter),
      candidates_(std::move(candidates)),
      cells_(std::move(cells)),
      run_(std::move(run)),
      o_(std::move(o)) {
  if (o_.strategy != "greedy" && o_.strategy != "beam" && o_.strategy != "nsga2")
    throw std::invalid_argument("unknown strategy '" + o_.strategy + "' (greedy, beam or nsga2)");
  if (o_.strategy == "nsga2" && (o_.population < 2 || o_.generations < 0))
    throw std::invalid_argument("nsga2 needs a population of at least 2 and generations >= 0");
  if (!(o_.area_budget_mm2 > 0)) throw std::invalid_argument("the area budget must be positive");
  if (o_.kernel_generation != "rewrite" && o_.kernel_generation != "search")
    throw std::invalid_argument("unknown kernel generation '" + o_.kernel_generation + "' (rewrite or search)");
  if (o_.kernel_generation == "search" && !adapter_.search_kernel)
    throw std::invalid_argument("platform '" + o_.platform +
                                "' has no search transformations for --kernel-generation search");
  if (o_.kernel_generation == "search" && adapter_.search_memo_dir)
    adapter_.search_memo_dir((fs::path(o_.out_dir) / "search_cache" / "regions").string());
  load_store();
}

std::vector<const ExploreCandidate*> Exploration::hardware_of(const std::vector<const ExploreCandidate*>& set) const {
  std::vector<const ExploreCandidate*> out;
  for (const ExploreCandidate& h : o_.hardware_changes)
    for (const ExploreCandidate* c : set)
      if (std::count(c->needs.begin(), c->needs.end(), h.name) && !std::count(out.begin(), out.end(), &h))
        out.push_back(&h);
  return out;
}

double Exploration::added_area(const std::vector<const ExploreCandidate*>& set) const {
  double area = 0;
  for (const ExploreCandidate* c : set) area += c->area_mm2;
  for (const ExploreCandidate* h : hardware_of(set)) area += h->area_mm2;
  return area * o_.area_scale;
}

double Exploration::added_area(const std::vector<std::string>& names) const {
  std::vector<const ExploreCandidate*> set;
  for (const ExploreCandidate& c : candidates_)
    if (std::count(names.begin(), names.end(), c.name)) set.push_back(&c);
  return added_area(set);
}

ExploreResult Exploration::run_strategy() {
  const VariantResult base = evaluate(std::vector<const ExploreCandidate*>{});
  std::vector<const ExploreCandidate*> singles, usable;  // faster alone; correct and used alone
  for (const ExploreCandidate& c : candidates_) {
    if (added_area({&c}) > o_.area_budget_mm2 || (!done_.count(c.name) && done_.size() >= o_.max_variants)) continue;
    const VariantResult& v = evaluate({&c});
    if (!v.ok || v.uses.empty()) continue;
    usable.push_back(&c);
    if (geomean_speedup(base, v) > 1.0) singles.push_back(&c);
  }
  if (o_.strategy == "beam")
    beam(base, singles);
  else if (o_.strategy == "nsga2")
    nsga2_search(base, usable);  // multi-objective: a slower set may still save energy
  else
    greedy(base, singles);
  return result();
}

ExploreResult Exploration::result() {
  const VariantResult base = evaluate(std::vector<const ExploreCandidate*>{});
  ExploreResult r;
  for (const std::string& id : order_) r.variants.push_back(done_.at(id));
  r.pareto = pareto_front(base, r.variants);
  r.summary = summary(base, r);
  write_file(fs::path(o_.out_dir) / "summary.json", r.summary.dump(2) + "\n");
  return r;
}

fs::path Exploration::store_path() const { return fs::path(o_.out_dir) / "explore.jsonl"; }

void Exploration::load_store() {
  std::ifstream in(store_path());
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("id"))
      throw std::invalid_argument(store_path().string() + ":" + std::to_string(n) + ": not a variant record");
    VariantResult v = VariantResult::from_json(j);
    done_[v.id] = v;
  }
  std::ifstream ceiling(fs::path(o_.out_dir) / "ceiling.jsonl");
  while (std::getline(ceiling, line)) {
    const json j = json::parse(line, nullptr, false);
    if (j.is_object() && j.value("latency", int64_t(0)) == kCeilingLatency)
      ceiling_ = VariantResult::from_json(j);  // a torn last line is evaluated again
  }
}

const VariantResult& Exploration::evaluate(const std::vector<const ExploreCandidate*>& set) {
  std::vector<std::string> names;
  for (const ExploreCandidate* c : set) names.push_back(c->name);
  const std::string id = variant_id(names);
  if (!std::count(order_.begin(), order_.end(), id))  // the reference first, then in evaluation order
    order_.insert(id == "base" ? order_.begin() : order_.end(), id);
  if (done_.count(id)) return done_.at(id);
  const VariantResult v = run_variant(id, set, merged_overlay(set, adapter_.isa));
  std::ofstream store(store_path(), std::ios::app);
  store << v.to_json().dump() << "\n";
  store.flush();
  return done_[id] = v;
}

// Every candidate at once at kCeilingLatency, in its own folder and store line
// (DIR/ceiling.jsonl): never one of the variants the strategies, the front or a budget see.
const VariantResult& Exploration::ceiling() {
  if (ceiling_) return *ceiling_;
  std::vector<const ExploreCandidate*> all;
  for (const ExploreCandidate& c : candidates_) all.push_back(&c);
  const std::string id = "ceiling-L" + std::to_string(kCeilingLatency);
  VariantResult v = run_variant(id, all, overlay_at_latency(merged_overlay(all, adapter_.isa), kCeilingLatency));
  json line = v.to_json();
  line["latency"] = kCeilingLatency;
  std::ofstream store(fs::path(o_.out_dir) / "ceiling.jsonl", std::ios::app);
  store << line.dump() << "\n";
  store.flush();
  return *(ceiling_ = std::move(v));
}

VariantResult Exploration::run_variant(const std::string& id, const std::vector<const ExploreCandidate*>& set,
                                       const json& overlay) {
  VariantResult v;
  v.id = id;
  for (const ExploreCandidate* c : set) v.candidates.push_back(c->name);
  for (const ExploreCandidate* h : hardware_of(set)) v.hardware.push_back(h->name);
  v.area_mm2 = o_.base_area_mm2 + added_area(set);
  const fs::path dir = fs::path(o_.out_dir) / "variants" / id;
  std::string overlay_path;
  if (!set.empty()) {
    overlay_path = (dir / "overlay.yaml").string();
    write_file(overlay_path, to_yaml(overlay));
  }
  // An adapter whose toolchain places the instructions (at build) gets the kernels as they
  // are (searched, under search) and counts the uses after the suite ran: its builds are
  // then in the toolchain's cache, made by the suite's parallel workers.
  const bool after = adapter_.rewrites_at_build;
  const bool search = o_.kernel_generation == "search";
  write_kernels(dir / "kernels", after && !search ? std::vector<const ExploreCandidate*>{} : set, overlay,
                after ? nullptr : &v);
  const std::string results = run_((dir / "kernels").string(), overlay_path, (dir / "results.jsonl").string());
  const auto failed = read_results(results, v);
  if (!set.empty() && after) count_recorded_uses(results, v);
  if (!set.empty()) check_base_on_seeds(failed, v);
  return v;
}

void Exploration::write_kernels(const fs::path& dir, const std::vector<const ExploreCandidate*>& set,
                                const json& overlay, VariantResult* v) {
  std::vector<KernelRewrite> out(cells_.size());
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mu;
  auto work = [&] {
    for (size_t i = next++; i < cells_.size(); i = next++) try {
        out[i] = generated_kernel(cells_[i], set, overlay);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mu);
        if (!error) error = std::current_exception();
      }
  };
  const unsigned threads = o_.kernel_generation == "search" ? std::max(1u, o_.search_threads) : 1;
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  for (size_t i = 0; i < cells_.size(); ++i) {
    const SuiteCell& cell = cells_[i];
    if (v) add_uses(cell, out[i], *v);
    write_file(dir / o_.platform / cell.task / (cell.config + cell.extension), out[i].kernel);
  }
}

void Exploration::add_uses(const SuiteCell& cell, const KernelRewrite& r, VariantResult& v) {
  for (const auto& [m, use] : r.uses) {
    v.uses[m].static_count += use.static_count;
    v.uses[m].executions += use.executions;
    v.used_by[m].push_back(cell.task + "/" + cell.config);
  }
}

void Exploration::count_recorded_uses(const std::string& results_path, VariantResult& v) const {
  std::map<std::string, json> recorded;  // cell -> its result's added_instructions
  std::ifstream in(results_path);
  for (std::string line; std::getline(in, line);) {
    const json r = json::parse(line, nullptr, false);
    if (r.is_object() && r.contains("added_instructions") && r["added_instructions"].is_object())
      recorded[r.value("task", "") + "/" + r.value("config", "")] = r["added_instructions"];
  }
  for (const SuiteCell& cell : cells_) {
    const auto it = recorded.find(cell.task + "/" + cell.config);
    if (it == recorded.end()) continue;
    KernelRewrite r;
    for (auto u = it->second.begin(); u != it->second.end(); ++u)  // a run lists unplaced ones too (static 0)
      if (u.value().value("static", 0) > 0)
        r.uses[u.key()] = {u.value().value("static", 0), u.value().value("executions", uint64_t(0))};
    add_uses(cell, r, v);
  }
}

json Exploration::cell_hardware(const SuiteCell& cell) const {
  json hardware = o_.hardware;  // plus the cell, for an adapter that runs the kernel
  hardware["task"] = cell.task;
  hardware["task_config"] = cell.config;
  hardware["file"] = cell.config + cell.extension;
  return hardware;
}

KernelRewrite Exploration::generated_kernel(const SuiteCell& cell, const std::vector<const ExploreCandidate*>& set,
                                            const json& overlay) {
  const json hardware = cell_hardware(cell);
  KernelRewrite r{cell.kernel, {}};
  if (!set.empty()) r = adapter_.use_overlay(cell.kernel, overlay, hardware);
  if (o_.kernel_generation != "search") return r;
  // Searched under the ISA with the instructions it can place (the adapter's
  // search_overlay; without one, those the rewrite placed); none: the shipped ISA, as the
  // base. The same kernel and instructions give the same result in every variant.
  if (set.empty()) return searched(r.kernel, json::object(), hardware);
  if (adapter_.search_overlay) return searched(r.kernel, adapter_.search_overlay(r.kernel, overlay, hardware), hardware);
  std::vector<const ExploreCandidate*> placed;
  for (const ExploreCandidate* c : set)
    if (r.uses.count(c->name)) placed.push_back(c);
  const json ops = placed.size() == r.uses.size()
                       ? (placed.empty() ? json::object() : merged_overlay(placed, adapter_.isa))
                       : overlay;  // an instruction not named after its candidate
  return searched(r.kernel, ops, hardware);
}

KernelRewrite Exploration::searched(const std::string& kernel, const json& overlay, const json& hardware) {
  const std::string key = sha256_hex(kernel + "\n" + overlay.dump());
  {
    std::lock_guard<std::mutex> lock(searched_mu_);
    const auto hit = searched_.find(key);
    if (hit != searched_.end()) return hit->second;
  }
  const fs::path file = fs::path(o_.out_dir) / "search_cache" / (key + ".json");
  KernelRewrite r;
  std::ifstream in(file);
  const json cached = in ? json::parse(in, nullptr, false) : json();
  if (cached.is_object() && cached.contains("kernel")) {
    r.kernel = cached["kernel"].get<std::string>();
    for (auto it = cached["uses"].begin(); it != cached["uses"].end(); ++it)
      r.uses[it.key()] = {it.value()[0].get<int>(), it.value()[1].get<uint64_t>()};
  } else {
    r = adapter_.search_kernel(kernel, overlay, hardware);
    json uses = json::object();
    for (const auto& [m, u] : r.uses) uses[m] = {u.static_count, u.executions};
    write_file(file, json({{"kernel", r.kernel}, {"uses", uses}}).dump());
  }
  std::lock_guard<std::mutex> lock(searched_mu_);
  return searched_[key] = r;
}

// The failing trial of a failing bench record, with the seeds it ran.
static bool failing_trial(const json& r, uint64_t& first_seed, uint64_t& seed, int& trials) {
  const json seeds = r.value("seeds", json::array());
  if (seeds.empty() || !seeds[0].is_number_unsigned()) return false;
  first_seed = seeds[0].get<uint64_t>();
  trials = int(seeds.size());
  for (const json& t : r.value("trials", json::array()))
    if (t.is_object() && t.value("status", "pass") != "pass" && t.contains("seed") && t["seed"].is_number_unsigned()) {
      seed = t["seed"].get<uint64_t>();
      return true;
    }
  return false;
}

std::vector<Exploration::FailedCell> Exploration::read_results(const std::string& path, VariantResult& v) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("no results file " + path);
  std::string line;
  std::vector<FailedCell> failed;
  v.ok = true;
  for (int n = 1; std::getline(in, line); ++n) {
    json r = json::parse(line, nullptr, false);
    if (r.is_discarded() || !r.is_object()) continue;  // bench writes whole lines; a torn tail is skipped
    const std::string cell = r.value("task", "") + "/" + r.value("config", "");
    const std::string status = r.value("status", "?");
    if (status == "unsupported") continue;
    if (status != "pass") {
      v.ok = false;
      FailedCell f{r.value("task", ""), r.value("config", "")};
      f.failure = v.failures.size();
      if (failing_trial(r, f.first_seed, f.seed, f.trials)) failed.push_back(f);
      v.failures.push_back(cell + ": " + status + (r.contains("reason") ? " (" + r["reason"].dump() + ")" : ""));
      continue;
    }
    v.cycles[cell] = r.value("cycles", 0.0);
    if (!r.contains("energy") || !r["energy"].is_object()) continue;
    const json& e = r["energy"];
    if (e.contains("total_pj")) v.energy_pj[cell] = e["total_pj"].get<double>();
    const json parts = e.value("by_component", json::object());
    for (auto it = parts.begin(); it != parts.end(); ++it)
      if (it.value().is_number()) v.energy_by_component[it.key()] += it.value().get<double>();
  }
  return failed;
}

// A failure the unmodified base kernel shares on the same seed is the
// baseline's (a kernel at its tolerance's edge), not the candidates': said so in
// the record, which stays excluded (every kernel must pass).
void Exploration::check_base_on_seeds(const std::vector<FailedCell>& failed, VariantResult& v) const {
  if (!o_.base_seed_check) return;
  for (const FailedCell& f : failed) {
    auto cell = std::find_if(cells_.begin(), cells_.end(),
                             [&](const SuiteCell& c) { return c.task == f.task && c.config == f.config; });
    if (cell == cells_.end()) continue;
    const fs::path base =
        fs::path(o_.out_dir) / "variants" / "base" / "kernels" / o_.platform / f.task / (f.config + cell->extension);
    const std::vector<uint64_t> fails = o_.base_seed_check(*cell, base.string(), f.first_seed, f.trials);
    if (std::count(fails.begin(), fails.end(), f.seed))
      v.failures[f.failure] += "; the base kernel fails on seed " + std::to_string(f.seed) + " too";
  }
}

// A set the store lacks once --max-variants are stored; a stored one is read again (a
// resumed run visits what the first one did).
bool Exploration::over_limit(const std::vector<const ExploreCandidate*>& set) const {
  std::vector<std::string> names;
  for (const ExploreCandidate* c : set) names.push_back(c->name);
  return !done_.count(variant_id(names)) && done_.size() >= o_.max_variants;
}

void Exploration::greedy(const VariantResult& base, std::vector<const ExploreCandidate*> ranked) {
  auto gain = [&](const ExploreCandidate* c) {
    return std::log(geomean_speedup(base, done_.at(c->name))) / std::max(c->area_mm2, 1e-9);
  };
  std::stable_sort(ranked.begin(), ranked.end(), [&](auto* a, auto* b) { return gain(a) > gain(b); });
  std::vector<const ExploreCandidate*> current;
  double best = 1.0;
  for (const ExploreCandidate* c : ranked) {
    auto trial = current;
    trial.push_back(c);
    if (added_area(trial) > o_.area_budget_mm2 || over_limit(trial)) continue;
    const VariantResult& v = evaluate(trial);
    if (!v.ok || geomean_speedup(base, v) <= best) continue;
    current = trial;
    best = geomean_speedup(base, v);
  }
}

void Exploration::beam(const VariantResult& base, const std::vector<const ExploreCandidate*>& pool) {
  std::vector<std::vector<const ExploreCandidate*>> frontier{{}};
  for (size_t size = 1; size <= pool.size() && !frontier.empty(); ++size) {
    std::vector<std::pair<double, std::vector<const ExploreCandidate*>>> next;
    std::set<std::string> seen;
    for (const auto& set : frontier)
      for (const ExploreCandidate* c : pool) {
        if (std::count(set.begin(), set.end(), c)) continue;
        auto trial = set;
        trial.push_back(c);
        if (over_limit(trial)) continue;
        std::vector<std::string> names;
        for (auto* t : trial) names.push_back(t->name);
        if (added_area(trial) > o_.area_budget_mm2 || !seen.insert(variant_id(names)).second) continue;
        const VariantResult& v = evaluate(trial);
        if (v.ok) next.push_back({geomean_speedup(base, v), trial});
      }
    std::stable_sort(next.begin(), next.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    frontier.clear();
    for (size_t i = 0; i < next.size() && int(i) < o_.beam_width; ++i) frontier.push_back(next[i].second);
  }
}

// NSGA-II over subsets of `pool` (agent/codesign/nsga2.h): objectives the
// geometric-mean cycles ratio, energy ratio and area; a variant with a failing
// kernel is infeasible by its number of failing cells. Every set it visits is
// evaluated through evaluate(), so once.
void Exploration::nsga2_search(const VariantResult& base, const std::vector<const ExploreCandidate*>& pool) {
  Nsga2Problem p;
  for (const ExploreCandidate* c : pool) p.gene_cost.push_back(c->area_mm2 * o_.area_scale);
  p.budget = o_.area_budget_mm2;
  p.set_cost = [&](const Genome& g) {  // the hardware genes' area once
    std::vector<const ExploreCandidate*> set;
    for (size_t i = 0; i < g.size(); ++i)
      if (g[i]) set.push_back(pool[i]);
    return added_area(set);
  };
  p.evaluate = [&](const Genome& g) -> std::optional<Fitness> {
    std::vector<const ExploreCandidate*> set;
    std::vector<std::string> names;
    for (size_t i = 0; i < g.size(); ++i)
      if (g[i]) set.push_back(pool[i]), names.push_back(pool[i]->name);
    if (!done_.count(variant_id(names)) && done_.size() >= o_.max_variants) return std::nullopt;
    const VariantResult& v = evaluate(set);
    if (!v.ok) return Fitness{{0, 0, 0}, double(std::max<size_t>(1, v.failures.size()))};
    return Fitness{{1.0 / geomean_speedup(base, v), energy_ratio(base, v), v.area_mm2}, 0};
  };
  Nsga2Options n;
  n.population = o_.population;
  n.generations = o_.generations;
  n.seed = o_.seed;
  nsga2(p, n);
}

// Break-even latency of an instruction from its single-candidate variant: in
// PLENA's serial timing (and any timing where the instruction is on the
// critical path) each execution's cycles grow one for one with its latency, so
// it pays up to declared latency + cycles saved / executions.
json Exploration::break_even(const VariantResult& base, const ExploreCandidate& c) const {
  auto it = done_.find(c.name);
  if (it == done_.end() || !it->second.ok) return nullptr;
  const VariantResult& v = it->second;
  double saved = 0;
  for (const auto& [cell, cyc] : v.cycles)
    if (base.cycles.count(cell)) saved += base.cycles.at(cell) - cyc;
  uint64_t n = 0;
  for (const auto& [m, use] : v.uses) n += use.executions;
  const int64_t latency = declared_latency(c.overlay);
  if (n == 0) return nullptr;
  return {{"declared_latency", latency},
          {"cycles_saved", saved},
          {"executions", n},
          {"break_even_latency", double(latency) + saved / double(n)}};
}

json Exploration::summary(const VariantResult& base, const ExploreResult& r) const {
  json variants = json::array();
  for (const VariantResult& v : r.variants) {
    json j = v.to_json();
    j["speedup"] = v.ok ? json(geomean_speedup(base, v)) : json(nullptr);
    j["area_increase"] = o_.base_area_mm2 > 0 ? (v.area_mm2 - o_.base_area_mm2) / o_.base_area_mm2 : 0.0;
    j["energy_ratio"] = energy_ratio(base, v);
    j["pareto"] = std::count(r.pareto.begin(), r.pareto.end(), v.id) > 0;
    variants.push_back(j);
  }
  json instructions = json::object();
  for (const ExploreCandidate& c : candidates_) {
    json b = break_even(base, c);
    if (!b.is_null()) instructions[c.name] = b;
  }
  json out = {{"platform", o_.platform},
              {"strategy", o_.strategy},
              {"kernel_generation", o_.kernel_generation},
              {"base_area_mm2", o_.base_area_mm2},
              {"area_budget_mm2", o_.area_budget_mm2},
              {"variants", variants},
              {"pareto", r.pareto},
              {"instructions", instructions}};
  if (ceiling_) out["ceiling"] = ceiling_summary(base, *ceiling_, kCeilingLatency, o_.base_area_mm2, r.variants);
  if (o_.strategy == "nsga2")
    out["nsga2"] = {{"population", o_.population}, {"generations", o_.generations}, {"seed", o_.seed}};
  return out;
}

const VariantResult& Exploration::evaluate(const std::vector<std::string>& names) {
  std::vector<const ExploreCandidate*> set;
  for (const std::string& n : names) {
    auto it =
        std::find_if(candidates_.begin(), candidates_.end(), [&](const ExploreCandidate& c) { return c.name == n; });
    if (it == candidates_.end()) throw std::invalid_argument("no candidate named '" + n + "'");
    if (std::count(set.begin(), set.end(), &*it)) throw std::invalid_argument("candidate '" + n + "' named twice");
    set.push_back(&*it);
  }
  return evaluate(set);
}

void Exploration::add_candidate(ExploreCandidate c) {
  for (const ExploreCandidate& e : candidates_)
    if (e.name == c.name) throw std::invalid_argument("a candidate named '" + c.name + "' exists already");
  candidates_.push_back(std::move(c));
}

namespace {

json read_candidates_document(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument(
        path + ":" +
        (e.mark.line >= 0 ? std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": " : " ") +
        e.msg);
  }
  return json_of_yaml(root);
}

// One entry: name, overlay, area (estimate.area_mm2 or area_mm2), needs.
ExploreCandidate candidate_entry(const json& c, const std::string& where) {
  if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("overlay") ||
      !c["overlay"].is_object())
    throw std::invalid_argument(where + ": needs a 'name' and an 'overlay'");
  ExploreCandidate e{c["name"].get<std::string>(), c["overlay"], 0};
  const json& est = c.contains("estimate") ? c["estimate"] : c;
  if (est.is_object() && est.contains("area_mm2") && est["area_mm2"].is_number())
    e.area_mm2 = est["area_mm2"].get<double>();
  if (e.area_mm2 < 0) throw std::invalid_argument(where + ": negative area");
  if (c.contains("needs") && !(c["needs"].is_array() && std::all_of(c["needs"].begin(), c["needs"].end(),
                                                                    [](const json& n) { return n.is_string(); })))
    throw std::invalid_argument(where + ": 'needs' must be a list of hardware names");
  e.needs = c.value("needs", std::vector<std::string>{});
  return e;
}

}  // namespace

std::vector<ExploreCandidate> load_candidate_hardware(const std::string& path) {
  const json doc = read_candidates_document(path);
  std::vector<ExploreCandidate> out;
  if (!doc.is_object() || !doc.contains("hardware")) return out;
  if (!doc["hardware"].is_array()) throw std::invalid_argument(path + ": 'hardware' must be a list");
  for (const json& h : doc["hardware"])
    out.push_back(candidate_entry(h, path + ": hardware " + std::to_string(out.size() + 1)));
  return out;
}

std::vector<ExploreCandidate> load_candidates(const std::string& path, const std::string& isa) {
  const json doc = read_candidates_document(path);
  if (!doc.is_object() || !doc.contains("candidates") || !doc["candidates"].is_array())
    throw std::invalid_argument(path +
                                ": not a candidates file (no 'candidates' "
                                "list; codesign mine writes one)");
  if (doc.value("isa", isa) != isa)
    throw std::invalid_argument(path + ": candidates for ISA '" + doc.value("isa", "") + "', not '" + isa + "'");
  std::set<std::string> hardware;
  for (const ExploreCandidate& h : load_candidate_hardware(path)) hardware.insert(h.name);
  std::vector<ExploreCandidate> out;
  std::set<std::string> names;
  for (const json& c : doc["candidates"]) {
    const std::string where = path + ": candidate " + std::to_string(out.size() + 1);
    ExploreCandidate e = candidate_entry(c, where);
    if (!names.insert(e.name).second) throw std::invalid_argument(where + ": name '" + e.name + "' used twice");
    for (const std::string& n : e.needs)
      if (!hardware.count(n))
        throw std::invalid_argument(where + " (" + e.name + "): needs hardware '" + n +
                                    "', which the file's 'hardware' list does not have");
    out.push_back(std::move(e));
  }
  if (out.empty()) throw std::invalid_argument(path + ": no candidates");
  return out;
}

void price_candidates(const DataflowAdapter& adapter, const json& hardware, std::vector<ExploreCandidate>& candidates,
                      std::vector<ExploreCandidate>& hardware_changes) {
  auto priced = [&](const ExploreCandidate& c, double& mm2) {
    try {
      mm2 = adapter.overlay_area(c.overlay, hardware);
      return true;
    } catch (const std::exception&) {  // the model cannot price it: the file's figure stands
      return false;
    }
  };
  std::map<std::string, double> hardware_mm2;
  for (ExploreCandidate& h : hardware_changes) {
    priced(h, h.area_mm2);
    hardware_mm2[h.name] = h.area_mm2;
  }
  for (ExploreCandidate& c : candidates) {
    double mm2 = 0;
    if (!priced(c, mm2)) continue;
    for (const std::string& n : c.needs) mm2 -= hardware_mm2.count(n) ? hardware_mm2.at(n) : 0.0;
    c.area_mm2 = std::max(mm2, 0.0);
  }
}

json VariantResult::to_json() const {
  json u = json::object();
  for (const auto& [m, use] : uses)
    u[m] = {{"static", use.static_count},
            {"executions", use.executions},
            {"kernels", used_by.count(m) ? used_by.at(m) : std::vector<std::string>{}}};
  json j = {{"id", id},
            {"candidates", candidates},
            {"area_mm2", area_mm2},
            {"ok", ok},
            {"failures", failures},
            {"cycles", cycles},
            {"energy_pj", energy_pj},
            {"energy_by_component", energy_by_component},
            {"uses", u}};
  if (!hardware.empty()) j["hardware"] = hardware;
  return j;
}

VariantResult VariantResult::from_json(const json& j) {
  VariantResult v;
  v.id = j.value("id", "");
  v.candidates = j.value("candidates", std::vector<std::string>{});
  v.hardware = j.value("hardware", std::vector<std::string>{});
  v.area_mm2 = j.value("area_mm2", 0.0);
  v.ok = j.value("ok", false);
  v.failures = j.value("failures", std::vector<std::string>{});
  v.cycles = j.value("cycles", std::map<std::string, double>{});
  v.energy_pj = j.value("energy_pj", std::map<std::string, double>{});
  v.energy_by_component = j.value("energy_by_component", std::map<std::string, double>{});
  if (j.contains("uses"))
    for (auto it = j["uses"].begin(); it != j["uses"].end(); ++it) {
      v.uses[it.key()] = {it.value().value("static", 0), it.value().value("executions", uint64_t(0))};
      v.used_by[it.key()] = it.value().value("kernels", std::vector<std::string>{});
    }
  return v;
}

double geomean_speedup(const VariantResult& base, const VariantResult& v) {
  double sum = 0;
  int n = 0;
  for (const auto& [cell, cyc] : v.cycles) {
    auto it = base.cycles.find(cell);
    if (it == base.cycles.end() || cyc <= 0) continue;
    sum += std::log(it->second / cyc);
    ++n;
  }
  return n ? std::exp(sum / n) : 1.0;
}

double energy_ratio(const VariantResult& base, const VariantResult& v) {
  double sum = 0;
  int n = 0;
  for (const auto& [cell, pj] : v.energy_pj) {
    auto it = base.energy_pj.find(cell);
    if (it == base.energy_pj.end() || pj <= 0 || it->second <= 0) continue;
    sum += std::log(pj / it->second);
    ++n;
  }
  return n ? std::exp(sum / n) : 1.0;
}

std::vector<std::string> pareto_front(const VariantResult& base, const std::vector<VariantResult>& variants) {
  struct Point {
    std::string id;
    double cycles, energy, area;
  };
  std::vector<Point> pts;
  for (const VariantResult& v : variants) {
    if (!v.ok) continue;
    pts.push_back({v.id, 1.0 / geomean_speedup(base, v), energy_ratio(base, v), v.area_mm2});
  }
  std::vector<std::string> front;
  for (const Point& p : pts) {
    bool dominated = false;
    for (const Point& q : pts)
      if (q.cycles <= p.cycles && q.energy <= p.energy && q.area <= p.area &&
          (q.cycles < p.cycles || q.energy < p.energy || q.area < p.area))
        dominated = true;
    if (!dominated) front.push_back(p.id);
  }
  return front;
}

ExploreResult explore(const DataflowAdapter& adapter, const std::vector<ExploreCandidate>& candidates,
                      const std::vector<SuiteCell>& cells, const SuiteRunner& run, const ExploreOptions& options) {
  return Exploration(adapter, candidates, cells, run, options).run_strategy();
}

}  // namespace tlmcraft::agent::codesign
