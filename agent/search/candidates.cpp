#include "agent/search/candidates.h"

#include <algorithm>
#include <set>

namespace tlmcraft::agent::search {

std::vector<Candidate> generate_candidates(const std::string& parent, const SearchContext& context) {
  const CandidateGeneratorRegistration* generator = find_candidate_generator(context);
  return generator ? generator->generate(parent, context) : std::vector<Candidate>{};
}

const Evaluated* best_correct(const std::vector<Evaluated>& evaluated) {
  const Evaluated* best = nullptr;
  for (const auto& e : evaluated)
    if (e.correct && (!best || e.cycles < best->cycles)) best = &e;
  return best;
}

std::vector<Candidate> next_batch(const std::vector<Evaluated>& evaluated, const SearchContext& ctx, size_t batch,
                                  std::map<std::string, std::vector<Candidate>>* cache) {
  std::set<std::string> tried;
  for (const auto& e : evaluated) tried.insert(e.text);
  // Parents: correct kernels, fastest first (earlier evaluation wins ties).
  std::vector<const Evaluated*> parents;
  for (const auto& e : evaluated)
    if (e.correct) parents.push_back(&e);
  std::stable_sort(parents.begin(), parents.end(),
                   [](const Evaluated* a, const Evaluated* b) { return a->cycles < b->cycles; });
  std::vector<Candidate> out;
  std::set<std::string> chosen;
  const size_t max_parents = 3;  // expand only the best few: the search stays focused
  for (size_t p = 0; p < parents.size() && p < max_parents && out.size() < batch; ++p) {
    std::vector<Candidate> local;
    const std::vector<Candidate>* cands = nullptr;
    SearchContext pctx = ctx;
    pctx.hot_lines = parents[p]->hot_lines;
    // A profiled parent ranks its candidates differently from an unprofiled one.
    const std::string key = parents[p]->text + (pctx.hot_lines.empty() ? "" : "\x01profiled");
    if (cache) {
      auto it = cache->find(key);
      if (it == cache->end()) it = cache->emplace(key, generate_candidates(parents[p]->text, pctx)).first;
      cands = &it->second;
    } else {
      local = generate_candidates(parents[p]->text, pctx);
      cands = &local;
    }
    for (const auto& c : *cands) {
      if (out.size() >= batch) break;
      if (tried.count(c.text) || !chosen.insert(c.text).second) continue;
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace tlmcraft::agent::search
