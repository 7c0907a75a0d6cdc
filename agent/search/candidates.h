// Candidate kernels one transformation step away from a parent kernel, each named by
// the transformation and ranked by a static cycle estimate, and the best-first search
// policy that decides which candidates to evaluate next from what was evaluated so far.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "agent/search/analysis.h"
#include "agent/search/kernel.h"

namespace tlmcraft::agent::search {

struct SearchContext {
  Arch arch;
  bool pipelined = false;             // timing.mode: candidates are also prefetch-scheduled
  size_t max_instructions = 4096;     // static size limit of any candidate
  uint64_t seed = 1;                  // tie-break order among equally ranked candidates
  std::string language;               // the kernel's language ("c" for C kernels), "" for assembly
  std::string platform;               // the platform name the kernel runs on
  // The parent's hottest source lines (line, cycles) from the profile tool; Coral
  // candidates of loops holding them are tried first. Empty: no profile.
  std::vector<std::pair<int, double>> hot_lines;
};

struct Candidate {
  std::string name;    // "unroll L2 x4 + simplify"
  std::string text;    // the kernel
  double estimate = 0; // static cycle estimate (serial model), lower is better
};

// Serial-model cycle estimate: executed instructions times their class latency, a
// fixed cost per HBM transfer. Only differences between related kernels matter.
double estimate_cycles(const Block& code, const Arch& arch);

// A platform's own candidate generator (its pack registers it: platforms/<p>/pack/agent/).
struct CandidateGeneratorRegistration {
  std::string name;                                              // for error messages
  std::function<bool(const SearchContext&)> applies;             // this generator handles the kernel
  std::function<std::vector<Candidate>(const std::string& parent, const SearchContext&)> generate;
};
// Throws std::invalid_argument if a field is empty or the name is registered already.
void register_candidate_generator(CandidateGeneratorRegistration registration);
// Calls register_<p>_agent_pack() of every platform folder with a pack/agent/ (generated
// by agent/CMakeLists.txt); generate_candidates() calls it once before its first lookup.
void register_agent_packs();

// Every transformation that applies to `parent`, cleaned up with simplify(), distinct
// texts different from the parent's, best estimate first. The first registered
// generator that applies decides; none: the built-in assembly transformations below.
std::vector<Candidate> generate_candidates(const std::string& parent, const SearchContext& context);

// Best estimate first; equal estimates in an order drawn from `seed` (deterministic per
// seed). Every platform's candidate generator ends with it.
std::vector<Candidate> order_by_estimate(std::vector<Candidate> candidates, uint64_t seed);

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
