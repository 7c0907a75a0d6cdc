// The cheapest wrong outputs of every float task (docs/tasks.md, "What the checker
// defends against"): for each task, platform and configuration, built from the reference
// outputs of seeds 1..3 in every input range of the task (the ordinary one and each
// adversarial one, docs/tasks.md "Input ranges"), does each candidate pass the old rules (element tolerance and
// the tensor's 5% relative RMS) and the current ones (plus the row rules)?
//   zero_small  every output whose reference lies below the absolute floor set to 0
//               (all the element rule's floor permits)
//   zero_rows   every row whose reference lies wholly below the floor set to 0
//   top4        the 4 largest outputs of each row of 64 kept, zeros elsewhere
// "n/a": the candidate equals the reference for every seed (nothing to zero).
// Usage: checker_loopholes [--configs C1,C2,...] (default: all five)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "tasks/registry.h"

using namespace tlmcraft::tasks;

namespace {

using Outputs = std::vector<std::vector<double>>;

Outputs map_outputs(const TensorSet& want, const Instance& inst,
                    const std::function<void(std::vector<double>&, const std::vector<double>&, int64_t row)>& f) {
  Outputs out;
  for (const Tensor& t : want) {
    std::vector<double> g = t.data;
    f(g, t.data, inst.view(t.name).back());
    out.push_back(std::move(g));
  }
  return out;
}

struct Verdict {
  bool applicable = false;  // the candidate differed from the reference for some seed
  bool old_rules = false, new_rules = false;
};

Verdict judge(const Instance& inst, const TensorSet& want, const Outputs& got) {
  TensorSet g = want;
  for (size_t k = 0; k < g.size(); ++k) g[k].data = got[k];
  const CheckResult r = inst.check(g, {}, want);
  return {true, r.mismatches == 0 && r.scale_failures.empty(), r.passed()};
}

const char* mark(const Verdict& v) {
  if (!v.applicable) return "n/a";
  if (v.old_rules && v.new_rules) return "pass/pass";
  if (v.old_rules) return "PASS/fail";
  return v.new_rules ? "fail/pass" : "fail/fail";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> configs{"C1", "C2", "C3", "C4", "C5"};
  if (argc == 3 && std::string(argv[1]) == "--configs") {
    configs.clear();
    std::string s = argv[2];
    for (size_t b = 0, e; b <= s.size(); b = e + 1) {
      e = s.find(',', b);
      if (e == std::string::npos) e = s.size();
      configs.push_back(s.substr(b, e - b));
    }
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: checker_loopholes [--configs C1,C2,...]\n");
    return 2;
  }
  std::printf("%-20s %-7s %-3s %9s  %-10s %-10s %-10s  (old rules/current rules, worst of seeds 1..3 x input ranges)\n", "task",
              "platform", "cfg", "below", "zero_small", "zero_rows", "top4");
  int loopholes_left = 0;
  for (const TaskSpec& task : Registry::builtin().tasks()) {
    for (const char* platform : {"plena", "aie_ml"}) {
      const PlatformId pid = *parse_platform(platform);
      if (!task.supports(pid) || task.platform(pid).tolerance.kind == Tolerance::Kind::Exact) continue;
      for (const std::string& config : configs) {
        const Instance inst = Registry::builtin().instance(task.name, platform, config);
        double below = 0;
        Verdict worst[3];  // per candidate: passes if it passes for any seed and range
        std::vector<std::string> ranges{"ordinary"};
        for (const std::string& r : inst.input_ranges()) ranges.push_back(r);
        std::vector<std::pair<uint64_t, std::string>> inputs;  // (seed, range)
        for (uint64_t seed = 1; seed <= 3; ++seed)
          for (const std::string& range : ranges) inputs.emplace_back(seed, range);
        for (const auto& [seed, range] : inputs) {
          const TensorSet want = inst.reference_outputs(inst.generate_inputs(seed, range));
          const double floor = inst.tolerance().abs;
          size_t n = 0, small = 0;
          for (const Tensor& t : want)
            for (double v : t.data) n++, small += std::fabs(v) < floor;
          below = std::max(below, double(small) / double(std::max<size_t>(n, 1)));
          const Outputs zero_small = map_outputs(want, inst, [&](std::vector<double>& g, const std::vector<double>& w, int64_t) {
            for (size_t i = 0; i < g.size(); ++i)
              if (std::fabs(w[i]) < floor) g[i] = 0;
          });
          const Outputs zero_rows = map_outputs(want, inst, [&](std::vector<double>& g, const std::vector<double>& w, int64_t row) {
            for (size_t r = 0; r < g.size(); r += size_t(row)) {
              const bool all_small = std::all_of(w.begin() + long(r), w.begin() + long(r + size_t(row)),
                                                 [&](double v) { return std::fabs(v) < floor; });
              if (all_small) std::fill(g.begin() + long(r), g.begin() + long(r + size_t(row)), 0.0);
            }
          });
          const Outputs top4 = map_outputs(want, inst, [&](std::vector<double>& g, const std::vector<double>& w, int64_t) {
            for (size_t r = 0; r < g.size(); r += 64) {
              const size_t len = std::min<size_t>(64, g.size() - r);
              std::vector<size_t> idx(len);
              std::iota(idx.begin(), idx.end(), r);
              std::partial_sort(idx.begin(), idx.begin() + long(std::min<size_t>(4, len)), idx.end(),
                                [&](size_t a, size_t b) { return w[a] > w[b]; });
              for (size_t i = std::min<size_t>(4, len); i < len; ++i) g[idx[i]] = 0;
            }
          });
          const Outputs* candidates[3] = {&zero_small, &zero_rows, &top4};
          for (int c = 0; c < 3; ++c) {
            if (*candidates[c] == [&] {
                  Outputs o;
                  for (const Tensor& t : want) o.push_back(t.data);
                  return o;
                }())
              continue;  // the candidate is the reference itself: not a wrong output
            const Verdict v = judge(inst, want, *candidates[c]);
            worst[c].applicable = true;
            worst[c].old_rules |= v.old_rules;
            worst[c].new_rules |= v.new_rules;
          }
        }
        std::printf("%-20s %-7s %-3s %8.1f%%  %-10s %-10s %-10s\n", task.name.c_str(), platform, config.c_str(),
                    below * 100.0, mark(worst[0]), mark(worst[1]), mark(worst[2]));
        for (int c = 1; c < 3; ++c) loopholes_left += worst[c].new_rules;
        std::fflush(stdout);
      }
    }
  }
  std::printf("zero_rows or top4 outputs passing the current rules: %d\n", loopholes_left);
  return loopholes_left ? 1 : 0;
}
