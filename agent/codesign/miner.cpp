#include "agent/codesign/miner.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "isa/dataflow/loop_end.h"

namespace tlmcraft::agent::codesign {
namespace {

namespace df = isa::dataflow;

struct Tally {
  df::Pattern pattern;
  uint64_t instances = 0;
  std::map<std::string, uint64_t> kernels;
  int updates = 0;
  bool loop_end = false;
};

void count(Tally& t, df::Pattern&& p, const std::string& kernel, uint64_t runs) {
  if (t.pattern.steps.empty()) t.pattern = std::move(p);
  t.instances += runs;
  t.kernels[kernel] += runs;
}

// The occurrences of one region, non-overlapping per signature (earliest
// first), added to the tallies with the region's executions.
void tally_region(const KernelDataflow& k, const std::string& kernel, size_t begin, size_t end,
                  const DataflowAdapter& adapter, const df::SubgraphLimits& limits,
                  std::map<std::string, Tally>& tallies) {
  const std::vector<df::Subgraph> found = df::convex_subgraphs(k.ops, begin, end, adapter.fusable, limits);
  std::map<std::string, std::vector<std::vector<size_t>>> taken;  // signature -> ops already counted
  for (const df::Subgraph& g : found) {
    std::string sig;
    df::Pattern p = df::canonical_pattern(k.ops, end, g, sig);
    auto& used = taken[sig];
    bool overlaps = false;
    for (const auto& u : used)
      for (size_t i : g.ops)
        if (std::binary_search(u.begin(), u.end(), i)) overlaps = true;
    if (overlaps) continue;
    used.push_back(g.ops);
    uint64_t runs = UINT64_MAX;
    for (size_t i : g.ops) runs = std::min(runs, k.executions[i]);
    Tally& t = tallies[sig];
    t.updates = g.updates;
    count(t, std::move(p), kernel, runs);
  }
}

// Loop-end fusion: the updates the loop end after the region can absorb, one per
// signature (a loop end takes one update).
void tally_loop_end(const KernelDataflow& k, const std::string& kernel, size_t begin, size_t end,
                    const DataflowAdapter& adapter, std::map<std::string, Tally>& tallies) {
  if (end >= k.ops.size() || !adapter.loop_end(k.ops[end])) return;
  std::vector<size_t> updates = df::loop_end_updates(k.ops, begin, end);
  std::set<std::string> seen;  // one update per signature: the last (the one the rewrite takes)
  for (auto it = updates.rbegin(); it != updates.rend(); ++it) {
    const size_t u = *it;
    std::string sig;
    df::Pattern p = df::loop_end_pattern(k.ops[u], k.ops[end], sig);
    if (!seen.insert(sig).second) continue;
    Tally& t = tallies[sig];
    t.loop_end = true;
    count(t, std::move(p), kernel, std::min(k.executions[u], k.executions[end]));
  }
}

double kernel_cycles(const KernelDataflow& k) {
  double c = 0;
  for (size_t i = 0; i < k.ops.size(); ++i) c += double(k.executions[i]) * k.cycles[i];
  return c;
}

// exp(mean over the kernels of log(cycles / (cycles - saving))): 1 where it saves nothing.
double geomean_speedup(const MinedCandidate& c, const std::map<std::string, double>& cycles) {
  if (cycles.empty()) return 1;
  const double per_instance = c.cost.step_cycles - c.cost.fused_cycles;
  double logs = 0;
  for (const auto& [kernel, instances] : c.kernels) {
    const double total = cycles.at(kernel);
    if (total <= 0) continue;
    logs += std::log(total / std::max(total - double(instances) * per_instance, 1.0));
  }
  return std::exp(logs / double(cycles.size()));
}

// The enabled changes, and what they need of each candidate.
std::vector<const HardwareChange*> enabled_changes(const DataflowAdapter& adapter, const MineOptions& options) {
  std::vector<const HardwareChange*> out;
  for (const std::string& name : options.hardware) out.push_back(&hardware_change(adapter, name));
  return out;
}

std::vector<std::string> needs_of(const MinedCandidate& c, const DataflowAdapter& adapter,
                                  const std::vector<const HardwareChange*>& enabled) {
  std::vector<std::string> needs;
  for (const HardwareChange* h : enabled) {
    const bool ports = c.updates > adapter.limits.max_updates && h->max_updates >= c.updates;
    if ((ports || (c.loop_end && h->loop_end_updates)) && needs.empty()) needs.push_back(h->name);
  }
  return needs;
}

void rank(std::vector<MinedCandidate>& out, const std::string& by) {
  if (by != "geomean" && by != "cycles")
    throw std::invalid_argument("unknown ranking '" + by + "' (geomean or cycles)");
  const bool geomean = by == "geomean";
  std::sort(out.begin(), out.end(), [geomean](const MinedCandidate& a, const MinedCandidate& b) {
    const double a1 = geomean ? a.geomean_speedup : a.cycles_saved, b1 = geomean ? b.geomean_speedup : b.cycles_saved;
    const double a2 = geomean ? a.cycles_saved : a.geomean_speedup, b2 = geomean ? b.cycles_saved : b.geomean_speedup;
    if (a1 != b1) return a1 > b1;
    if (a2 != b2) return a2 > b2;
    if (a.cost.area_mm2 != b.cost.area_mm2) return a.cost.area_mm2 < b.cost.area_mm2;  // the same gain for less
    return a.signature < b.signature;
  });
}

}  // namespace

const HardwareChange& hardware_change(const DataflowAdapter& adapter, const std::string& name) {
  std::string known;
  for (const HardwareChange& h : adapter.hardware_changes) {
    if (h.name == name) return h;
    known += (known.empty() ? "" : ", ") + h.name;
  }
  throw std::invalid_argument("unknown hardware change '" + name + "' (known: " + (known.empty() ? "none" : known) +
                              ")");
}

std::vector<MinedCandidate> mine(const DataflowAdapter& adapter, const std::vector<MinedKernel>& kernels,
                                 const MineOptions& options) {
  const std::vector<const HardwareChange*> enabled = enabled_changes(adapter, options);
  std::map<std::string, Tally> tallies;
  df::SubgraphLimits limits = adapter.limits;
  if (options.max_ops > 0) limits.max_ops = options.max_ops;
  bool loop_end = false;
  for (const HardwareChange* h : enabled) {
    limits.max_updates = std::max(limits.max_updates, h->max_updates);
    loop_end = loop_end || (h->loop_end_updates && adapter.loop_end);
  }
  std::map<std::string, double> cycles;  // kernel -> its estimated cycles
  for (const MinedKernel& mk : kernels) {
    const KernelDataflow k = adapter.parse(mk.text, mk.file, mk.hardware);
    cycles[mk.name] = kernel_cycles(k);
    for (const auto& [begin, end] : k.regions) {
      tally_region(k, mk.name, begin, end, adapter, limits, tallies);
      if (loop_end) tally_loop_end(k, mk.name, begin, end, adapter, tallies);
    }
  }
  const nlohmann::json hardware = kernels.empty() ? nlohmann::json::object() : kernels.front().hardware;
  std::vector<MinedCandidate> out;
  for (auto& [sig, t] : tallies) {
    MinedCandidate c;
    c.signature = sig;
    c.pattern = std::move(t.pattern);
    c.cost = adapter.cost(c.pattern, hardware);
    c.dynamic_instances = t.instances;
    c.cycles_saved = double(t.instances) * (c.cost.step_cycles - c.cost.fused_cycles);
    c.kernels = std::move(t.kernels);
    c.updates = t.updates;
    c.loop_end = t.loop_end;
    c.needs = needs_of(c, adapter, enabled);
    c.geomean_speedup = geomean_speedup(c, cycles);
    if (c.cycles_saved > 0) out.push_back(std::move(c));
  }
  rank(out, options.rank);
  if (out.size() > options.top) out.resize(options.top);
  return out;
}

namespace {

// The candidate's overlay with the sections of the hardware changes it needs.
nlohmann::json with_needs(nlohmann::json overlay, const DataflowAdapter& adapter, const MinedCandidate& c) {
  for (const std::string& n : c.needs) {
    const nlohmann::json& h = hardware_change(adapter, n).overlay;
    for (auto it = h.begin(); it != h.end(); ++it)
      if (it.value().is_array())
        for (const nlohmann::json& e : it.value()) overlay[it.key()].push_back(e);
  }
  return overlay;
}

}  // namespace

nlohmann::json candidates_document(const DataflowAdapter& adapter, const std::string& platform,
                                   const std::vector<MinedCandidate>& candidates, const std::string& prefix) {
  nlohmann::json list = nlohmann::json::array();
  std::vector<std::string> needed;
  std::string note;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const MinedCandidate& c = candidates[i];
    const std::string name = prefix + std::to_string(i);
    nlohmann::json overlay;
    try {
      overlay = with_needs(adapter.overlay_entry(c.pattern, name, c.cost, static_cast<int>(i)), adapter, c);
    } catch (const std::invalid_argument& e) {  // the ISA's encoding space is full
      note = std::string(e.what()) + ": " + std::to_string(candidates.size() - i) + " more candidates left out";
      break;
    }
    nlohmann::json entry = {{"name", name},
                            {"signature", c.signature},
                            {"overlay", overlay},
                            {"estimate",
                             {{"cycles_saved", c.cycles_saved},
                              {"geomean_speedup", c.geomean_speedup},
                              {"dynamic_instances", c.dynamic_instances},
                              {"step_cycles", c.cost.step_cycles},
                              {"fused_cycles", c.cost.fused_cycles},
                              {"area_mm2", c.cost.area_mm2}}},
                            {"provenance", c.kernels}};
    if (!c.needs.empty()) entry["needs"] = c.needs;
    for (const std::string& n : c.needs)
      if (!std::count(needed.begin(), needed.end(), n)) needed.push_back(n);
    list.push_back(std::move(entry));
  }
  nlohmann::json doc = {{"platform", platform}, {"isa", adapter.isa}, {"candidates", list}};
  for (const std::string& n : needed) {
    const HardwareChange& h = hardware_change(adapter, n);
    doc["hardware"].push_back({{"name", h.name}, {"doc", h.doc}, {"area_mm2", h.area_mm2}, {"overlay", h.overlay}});
  }
  if (!note.empty()) doc["note"] = note;
  return doc;
}

}  // namespace tlmcraft::agent::codesign
