// Error statistics of a fidelity campaign: per case (model - reference) / reference, and
// per kind of code the median, 95th percentile and worst absolute error.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace tlmcraft::bench {

struct CaseResult {
  std::string kind, name;
  uint64_t model = 0, reference = 0;
  bool outputs_match = true;
  uint64_t program = 0;  // a hash of everything the RTL sees (0: unknown); equal hashes = one program
  double error() const { return reference ? (double(model) - double(reference)) / double(reference) : 0; }
};

struct KindStats {
  size_t n = 0;
  double median_abs = 0, p95_abs = 0, max_abs = 0, median_signed = 0;
  std::string worst;  // name of the worst case
};

// Per kind, plus "all" for every case.
std::map<std::string, KindStats> summarise(const std::vector<CaseResult>& results);

}  // namespace tlmcraft::bench
