#include "agent/codesign/miner.h"

#include <algorithm>

namespace tlmcraft::agent::codesign {
namespace {

namespace df = isa::dataflow;

struct Tally {
  df::Pattern pattern;
  uint64_t instances = 0;
  std::map<std::string, uint64_t> kernels;
};

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
    if (t.pattern.steps.empty()) t.pattern = std::move(p);
    t.instances += runs;
    t.kernels[kernel] += runs;
  }
}

}  // namespace

std::vector<MinedCandidate> mine(const DataflowAdapter& adapter, const std::vector<MinedKernel>& kernels,
                                 const MineOptions& options) {
  std::map<std::string, Tally> tallies;
  df::SubgraphLimits limits = adapter.limits;
  if (options.max_ops > 0) limits.max_ops = options.max_ops;
  for (const MinedKernel& mk : kernels) {
    const KernelDataflow k = adapter.parse(mk.text, mk.file, mk.hardware);
    for (const auto& [begin, end] : k.regions) tally_region(k, mk.name, begin, end, adapter, limits, tallies);
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
    if (c.cycles_saved > 0) out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(), [](const MinedCandidate& a, const MinedCandidate& b) {
    return a.cycles_saved != b.cycles_saved ? a.cycles_saved > b.cycles_saved : a.signature < b.signature;
  });
  if (out.size() > options.top) out.resize(options.top);
  return out;
}

nlohmann::json candidates_document(const DataflowAdapter& adapter, const std::string& platform,
                                   const std::vector<MinedCandidate>& candidates, const std::string& prefix) {
  nlohmann::json list = nlohmann::json::array();
  std::string note;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const MinedCandidate& c = candidates[i];
    const std::string name = prefix + std::to_string(i);
    nlohmann::json overlay;
    try {
      overlay = adapter.overlay_entry(c.pattern, name, c.cost, static_cast<int>(i));
    } catch (const std::invalid_argument& e) {  // the ISA's encoding space is full
      note = std::string(e.what()) + ": " + std::to_string(candidates.size() - i) + " more candidates left out";
      break;
    }
    list.push_back({{"name", name},
                    {"signature", c.signature},
                    {"overlay", overlay},
                    {"estimate",
                     {{"cycles_saved", c.cycles_saved},
                      {"dynamic_instances", c.dynamic_instances},
                      {"step_cycles", c.cost.step_cycles},
                      {"fused_cycles", c.cost.fused_cycles},
                      {"area_mm2", c.cost.area_mm2}}},
                    {"provenance", c.kernels}});
  }
  nlohmann::json doc = {{"platform", platform}, {"isa", adapter.isa}, {"candidates", list}};
  if (!note.empty()) doc["note"] = note;
  return doc;
}

}  // namespace tlmcraft::agent::codesign
