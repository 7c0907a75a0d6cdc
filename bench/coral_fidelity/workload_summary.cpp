#include "bench/coral_fidelity/workload_summary.h"

#include <map>

#include "bench/coral_fidelity/task_kernels.h"

namespace tlmcraft::bench {

namespace {

std::string workload_of(const std::string& name) { return name.substr(0, name.rfind('/')); }
std::string task_of(const std::string& name) { return name.substr(0, name.find('/')); }

WorkloadSummary summarise_one(const std::string& workload, const std::vector<const CaseResult*>& versions,
                              const CaseResult& baseline) {
  WorkloadSummary w;
  w.workload = workload;
  w.versions = versions.size();
  const CaseResult* best = versions.front();
  uint64_t rtl_min = best->reference;
  for (const CaseResult* v : versions) {
    if (v->model < best->model || (v->model == best->model && v->name < best->name)) best = v;
    rtl_min = std::min(rtl_min, v->reference);
  }
  w.model_best = best->name.substr(best->name.rfind('/') + 1);
  w.model_speedup = double(baseline.model) / double(best->model);
  w.rtl_speedup = double(baseline.reference) / double(best->reference);
  w.same_best = best->reference == rtl_min;
  w.rtl_best_gain = double(best->reference - rtl_min) / double(best->reference);
  return w;
}

std::vector<CaseResult> regroup(const std::vector<CaseResult>& results, const std::string& kernel_kind,
                                std::string (*group)(const std::string&)) {
  std::vector<CaseResult> out;
  for (const CaseResult& r : results)
    if (r.kind == kernel_kind) {
      CaseResult c = r;
      c.kind = group(task_of(r.name));
      out.push_back(c);
    }
  return out;
}

std::string same(const std::string& task) { return task; }

}  // namespace

std::vector<WorkloadSummary> summarise_workloads(const std::vector<CaseResult>& results,
                                                 const std::string& kernel_kind) {
  std::map<std::string, const CaseResult*> baselines;
  std::map<std::string, std::vector<const CaseResult*>> versions;
  for (const CaseResult& r : results) {
    if (r.kind == kernel_kind)
      versions[workload_of(r.name)].push_back(&r);
    else if (r.kind == "task" || r.kind == "cpu")
      baselines[r.name] = &r;
  }
  std::vector<WorkloadSummary> out;
  for (const auto& [workload, vs] : versions) {
    const auto b = baselines.find(workload);
    if (b != baselines.end()) out.push_back(summarise_one(workload, vs, *b->second));
  }
  return out;
}

std::vector<CaseResult> by_task(const std::vector<CaseResult>& results, const std::string& kernel_kind) {
  return regroup(results, kernel_kind, same);
}

std::vector<CaseResult> by_family(const std::vector<CaseResult>& results, const std::string& kernel_kind) {
  return regroup(results, kernel_kind, task_family);
}

}  // namespace tlmcraft::bench
