#include "platforms/coral/pack/agent/coral_candidates.h"

#include <algorithm>
#include <functional>
#include <set>

#include "platforms/coral/pack/agent/coral_source.h"
#include "platforms/coral/pack/agent/coral_transforms.h"

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
  // Share of the profiled cycles on each loop's lines (1-based, as the profile counts):
  // all of them (LMUL scaling changes the whole strip, helpers included) and those not in
  // a nested loop (what unrolling this loop speeds up). A loop none of the hottest lines
  // fall in is cold: its candidates go last.
  std::vector<double> share(loops.size(), 0.0), own(loops.size(), 0.0);
  double total = 0;
  for (const auto& [line, cycles] : ctx.hot_lines) total += cycles;
  auto line_of = [&](size_t pos) { return 1 + static_cast<int>(std::count(parent.begin(), parent.begin() + pos, '\n')); };
  auto holds = [&](size_t i, int line) { return line >= line_of(loops[i].for_pos) && line <= line_of(loops[i].end - 1); };
  for (size_t i = 0; i < loops.size() && total > 0; ++i)
    for (const auto& [line, cycles] : ctx.hot_lines) {
      if (!holds(i, line)) continue;
      share[i] += cycles / total;
      bool nested = false;
      for (size_t j = 0; j < loops.size(); ++j)
        nested = nested || (j != i && loops[j].depth > loops[i].depth && loops[i].for_pos < loops[j].for_pos &&
                            loops[j].for_pos < loops[i].end && holds(j, line));
      if (!nested) own[i] += cycles / total;
    }
  auto heat = [&](size_t i, const std::vector<double>& part) {
    return total <= 0 ? 0.0 : share[i] <= 0 ? 100.0 : -5 * part[i];
  };
  // LMUL: the largest legal factor first; inner loops (deeper) before outer ones.
  for (size_t i = 0; i < loops.size(); ++i) {
    if (!is_strip_mined(parent, i)) continue;
    for (int f : {8, 4, 2})
      add("LMUL x" + std::to_string(f) + " in loop " + std::to_string(i), 10 - f - 0.01 * loops[i].depth + heat(i, share),
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
    const double depth_bonus = -0.1 * loops[i].depth + 2 * heat(i, own) + 0.001 * static_cast<double>(i);
    add("unroll loop " + std::to_string(i) + " fully", 20 + depth_bonus,
        [&](std::string& s, std::string& why) { return add_unroll_pragma(s, i, 0, why); });
    for (int c : {4, 2, 8})
      add("unroll loop " + std::to_string(i) + " x" + std::to_string(c), 21 + (c == 4 ? 0 : c == 2 ? 1 : 2) + depth_bonus,
          [&](std::string& s, std::string& why) { return add_unroll_pragma(s, i, c, why); });
  }

  return order_by_estimate(std::move(out), ctx.seed);
}

}  // namespace tlmcraft::agent::search::coral
