#include "agent/verdict.h"

#include <algorithm>
#include <set>

#include "harness/run_report.h"
#include "harness/seeds.h"
#include "platforms/registry.h"

namespace tlmcraft::agent {

using nlohmann::json;

namespace {

// Every seed the stored development reports of the workload used.
std::set<uint64_t> development_seeds(const Workload& w, const Workspace& ws) {
  std::set<uint64_t> seeds;
  for (const KernelVersion& v : ws.versions(w)) {
    const auto rep = ws.report(w, v.number);
    if (!rep || !rep->contains("seeds") || !(*rep)["seeds"].is_array()) continue;
    for (const json& s : (*rep)["seeds"])
      if (s.is_number_unsigned()) seeds.insert(s.get<uint64_t>());
  }
  return seeds;
}

bool overlaps(const std::vector<uint64_t>& seeds, const std::set<uint64_t>& used) {
  for (uint64_t s : seeds)
    if (used.count(s)) return true;
  return false;
}

}  // namespace

json final_verdict(const Workload& w, const LoopResult& r, const Workspace& ws, const ToolboxOptions& o,
                   std::optional<uint64_t> verdict_seed) {
  if (r.best_version <= 0 || r.best_path.empty()) return nullptr;
  const int trials = std::max(1, o.trials);
  const std::set<uint64_t> used = development_seeds(w, ws);
  std::vector<uint64_t> seeds = trial_seeds(verdict_seed, trials);
  if (verdict_seed && overlaps(seeds, used))
    throw InputError("--verdict-seed " + std::to_string(*verdict_seed) +
                     ": its trials' seeds overlap a development evaluation's; choose another");
  while (overlaps(seeds, used)) seeds = trial_seeds(std::nullopt, trials);

  EvalOptions e;
  e.platform = w.platform;
  e.platform_config = o.platform_config;
  e.overrides = o.overrides;
  e.task = w.task;
  e.config = w.config;
  e.kernel_path = r.best_path;
  e.trials = trials;
  e.seed = seeds.front();
  const isa::ScopedIsaVariant isa_variant(o.isa);  // the kernel was written for this ISA
  auto platform = make_platform(w.platform, o.platform_config, o.overrides);
  json rep = harness::evaluate_run(*platform, e);
  rep["seed_source"] = verdict_seed ? "fixed" : "os";  // drawn here rather than in evaluate()
  rep["verdict"] = {{"version", r.best_version}, {"seeds", seeds}, {"development_seeds", used.size()}};
  return rep;
}

}  // namespace tlmcraft::agent
