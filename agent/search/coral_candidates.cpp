#include "agent/search/coral_candidates.h"

#include <algorithm>
#include <functional>
#include <random>
#include <set>

#include "agent/search/coral_source.h"
#include "agent/search/coral_transforms.h"

namespace tlmcraft::agent::search::coral {

std::vector<Candidate> generate_coral_candidates(const std::string& parent, const SearchContext& ctx) {
  std::vector<Candidate> out;
  std::set<std::string> seen = {parent};
  // `preference` plays the role of PLENA's cycle estimate: lower is tried first.
  auto add = [&](const std::string& name, double preference, const std::function<bool(std::string&, std::string&)>& t) {
    std::string text = parent, why;
    if (!t(text, why)) return;
    if (!seen.insert(text).second) return;
    out.push_back({name, std::move(text), preference});
  };

  const auto loops = find_loops(parent);
  // LMUL: the largest legal factor first; inner loops (deeper) before outer ones.
  for (size_t i = 0; i < loops.size(); ++i) {
    if (!is_strip_mined(parent, i)) continue;
    for (int f : {8, 4, 2})
      add("LMUL x" + std::to_string(f) + " in loop " + std::to_string(i), 10 - f - 0.01 * loops[i].depth,
          [&](std::string& s, std::string& why) { return scale_lmul(s, i, f, why); });
  }
  // DTCM staging: the largest inputs first (the most external reads saved when re-read).
  // Outputs after inputs: their external writes are posted, so staging them gains less.
  for (const auto& t : layout_tensors(parent)) {
    add("stage " + t.macro + " in DTCM", (t.role == "output" ? 11 : 10) - 1e-6 * static_cast<double>(t.bytes),
        [&](std::string& s, std::string& why) { return stage_in_dtcm(s, t.macro, why); });
  }
  // Unrolling: innermost (deepest) loops first; full unrolling of small constant trips.
  for (size_t i = 0; i < loops.size(); ++i) {
    const double depth_bonus = -0.1 * loops[i].depth;
    add("unroll loop " + std::to_string(i) + " fully", 20 + depth_bonus,
        [&](std::string& s, std::string& why) { return add_unroll_pragma(s, i, 0, why); });
    for (int c : {4, 2, 8})
      add("unroll loop " + std::to_string(i) + " x" + std::to_string(c), 21 + (c == 4 ? 0 : c == 2 ? 1 : 2) + depth_bonus,
          [&](std::string& s, std::string& why) { return add_unroll_pragma(s, i, c, why); });
  }

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

}  // namespace tlmcraft::agent::search::coral
