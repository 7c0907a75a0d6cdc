#include "bench/coral_fidelity/workload_summary.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "bench/coral_fidelity/task_kernels.h"

namespace tlmcraft::bench {

namespace {

std::string workload_of(const std::string& name) { return name.substr(0, name.rfind('/')); }
std::string task_of(const std::string& name) { return name.substr(0, name.find('/')); }

// Evaluation order: the agent keeps the first of equally fast versions (best_correct).
bool earlier(const CaseResult* a, const CaseResult* b) {
  const uint64_t va = version_number(a->name), vb = version_number(b->name);
  return va != vb ? va < vb : a->name < b->name;
}

WorkloadSummary summarise_one(const std::string& workload, const std::vector<const CaseResult*>& versions,
                              const CaseResult& baseline) {
  WorkloadSummary w;
  w.workload = workload;
  w.versions = versions.size();
  const CaseResult* best = versions.front();
  uint64_t rtl_min = best->reference;
  for (const CaseResult* v : versions) {
    if (v->model < best->model || (v->model == best->model && earlier(v, best))) best = v;
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

uint64_t version_number(const std::string& name) {
  const size_t slash = name.rfind('/');
  const size_t v = slash == std::string::npos ? 0 : slash + 1;
  if (v >= name.size() || name[v] != 'v') return UINT64_MAX;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(name.c_str() + v + 1, &end, 10);
  return end == name.c_str() + v + 1 ? UINT64_MAX : n;
}

std::vector<CaseResult> distinct_versions(const std::vector<CaseResult>& results, const std::string& kernel_kind) {
  std::vector<const CaseResult*> order;
  for (const CaseResult& r : results)
    if (r.kind == kernel_kind) order.push_back(&r);
  std::stable_sort(order.begin(), order.end(), earlier);
  std::set<std::pair<std::string, uint64_t>> seen;  // (workload, program)
  std::set<const CaseResult*> repeats;
  for (const CaseResult* r : order)
    if (r->program != 0 && !seen.insert({workload_of(r->name), r->program}).second) repeats.insert(r);
  std::vector<CaseResult> out;
  for (const CaseResult& r : results)
    if (!repeats.count(&r)) out.push_back(r);
  return out;
}

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
