#include "agent/search/search_transformations.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <random>
#include <stdexcept>

namespace tlmcraft::agent::search {

namespace {

// A deque: a pointer find_candidate_generator() returned stays valid after later registrations.
std::deque<CandidateGeneratorRegistration>& generators() {
  static std::deque<CandidateGeneratorRegistration> all;
  return all;
}

// register_agent_packs() once per process, before anything else registers or looks up.
// A pack's registration re-enters here on the same thread: let it through.
void ensure_builtin_generators() {
  static std::once_flag once;
  static thread_local bool registering = false;
  if (registering) return;
  std::call_once(once, [] {
    registering = true;
    register_agent_packs();
    registering = false;
  });
}

}  // namespace

void register_candidate_generator(CandidateGeneratorRegistration registration) {
  ensure_builtin_generators();
  if (registration.name.empty() || !registration.applies || !registration.generate)
    throw std::invalid_argument("candidate generator registration needs a name, applies and generate");
  for (const auto& g : generators())
    if (g.name == registration.name)
      throw std::invalid_argument("candidate generator '" + registration.name + "' registered twice");
  generators().push_back(std::move(registration));
}

const CandidateGeneratorRegistration* find_candidate_generator(const SearchContext& context) {
  ensure_builtin_generators();
  for (const auto& g : generators())
    if (g.applies(context)) return &g;
  return nullptr;
}

const CandidateGeneratorRegistration* find_candidate_generator(const std::string& name) {
  ensure_builtin_generators();
  for (const auto& g : generators())
    if (g.name == name) return &g;
  return nullptr;
}

std::vector<std::string> candidate_generator_names() {
  ensure_builtin_generators();
  std::vector<std::string> names;
  for (const auto& g : generators()) names.push_back(g.name);
  return names;
}

std::vector<Candidate> order_by_estimate(std::vector<Candidate> candidates, uint64_t seed) {
  std::vector<uint64_t> key(candidates.size());
  std::mt19937_64 rng(seed);
  for (auto& k : key) k = rng();
  std::vector<size_t> idx(candidates.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    if (candidates[a].estimate != candidates[b].estimate) return candidates[a].estimate < candidates[b].estimate;
    return key[a] < key[b];
  });
  std::vector<Candidate> sorted;
  for (size_t i : idx) sorted.push_back(std::move(candidates[i]));
  return sorted;
}

}  // namespace tlmcraft::agent::search
