// Candidate kernels one transformation step away from a parent kernel, from the generator
// registered for the kernel's format (agent/search/search_transformations.h), and the
// best-first search policy that decides which candidates to evaluate next from what was
// evaluated so far.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "agent/search/search_transformations.h"

namespace tlmcraft::agent::search {

// The candidates of the generator that applies to `context` (find_candidate_generator);
// none when no generator applies.
std::vector<Candidate> generate_candidates(const std::string& parent, const SearchContext& context);

// One evaluated kernel.
struct Evaluated {
  std::string text;
  bool correct = false;
  double cycles = 0;
  std::vector<std::pair<int, double>> hot_lines;  // from a profile call right after its evaluation
};

// The next batch to evaluate: candidates of the best correct kernels (best first) not
// evaluated yet, at most `batch` of them. Empty when nothing is left to try.
std::vector<Candidate> next_batch(const std::vector<Evaluated>& evaluated, const SearchContext& context,
                                  size_t batch, std::map<std::string, std::vector<Candidate>>* cache = nullptr);

// The fastest correct evaluated kernel (nullptr if none is correct).
const Evaluated* best_correct(const std::vector<Evaluated>& evaluated);

}  // namespace tlmcraft::agent::search
