#include "agent/search/aie_candidates.h"

#include <algorithm>
#include <functional>
#include <random>
#include <set>

#include "agent/search/aie_kernel.h"
#include "agent/search/aie_schedule.h"

namespace tlmcraft::agent::search::aie {

std::vector<Candidate> generate_aie_candidates(const std::string& parent_text, const SearchContext& ctx) {
  AieKernel parent;
  std::string error;
  if (!parse_aie_kernel(parent_text, parent, error)) return {};
  std::vector<Candidate> out;
  std::set<std::string> seen = {parent_text, print_aie_kernel(parent)};
  auto add = [&](const std::string& name, const std::function<bool(AieKernel&)>& transform) {
    AieKernel k = parent;
    if (!transform(k)) return;
    std::string text = print_aie_kernel(k);
    if (!seen.insert(text).second) return;
    out.push_back({name, std::move(text), estimate_cycles(k)});
  };
  add("compact bundles", [](AieKernel& k) { return compact(k); });

  // Best estimate first; equal estimates in a seeded order (deterministic per seed).
  std::vector<uint64_t> key(out.size());
  std::mt19937_64 rng(ctx.seed);
  for (auto& k : key) k = rng();
  std::vector<size_t> idx(out.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    if (out[a].estimate != out[b].estimate) return out[a].estimate < out[b].estimate;
    return key[a] < key[b];
  });
  std::vector<Candidate> sorted;
  for (size_t i : idx) sorted.push_back(std::move(out[i]));
  return sorted;
}

}  // namespace tlmcraft::agent::search::aie
