#include "bench/coral_fidelity/fidelity_stats.h"

#include <algorithm>
#include <cmath>

namespace tlmcraft::bench {

namespace {

// The value at quantile q of sorted values (nearest rank).
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const size_t rank = static_cast<size_t>(std::ceil(q * double(sorted.size())));
  return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

KindStats stats_of(const std::vector<const CaseResult*>& cases) {
  KindStats s;
  s.n = cases.size();
  std::vector<double> abs_err, err;
  for (const CaseResult* c : cases) {
    err.push_back(c->error());
    abs_err.push_back(std::fabs(c->error()));
    if (abs_err.back() >= s.max_abs) {
      s.max_abs = abs_err.back();
      s.worst = c->name;
    }
  }
  s.median_abs = median(abs_err);
  s.median_signed = median(err);
  std::sort(abs_err.begin(), abs_err.end());
  s.p95_abs = quantile(abs_err, 0.95);
  return s;
}

}  // namespace

std::map<std::string, KindStats> summarise(const std::vector<CaseResult>& results) {
  std::map<std::string, std::vector<const CaseResult*>> by_kind;
  for (const CaseResult& r : results) {
    by_kind[r.kind].push_back(&r);
    by_kind["all"].push_back(&r);
  }
  std::map<std::string, KindStats> out;
  for (const auto& [kind, cases] : by_kind) out[kind] = stats_of(cases);
  return out;
}

}  // namespace tlmcraft::bench
