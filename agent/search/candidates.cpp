#include "agent/search/candidates.h"

#include <algorithm>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <random>
#include <set>

#include "agent/search/transforms.h"

namespace tlmcraft::agent::search {

double estimate_cycles(const Block& code, const Arch& arch) {
  double total = 0;
  for (const Node& n : code) {
    if (n.is_loop) {
      total += 1 + static_cast<double>(n.count) * (1 + estimate_cycles(n.body, arch));
      continue;
    }
    const std::string& c = n.op.spec->latency_class;
    if (c == "matrix_mm") total += static_cast<double>(arch.mlen);
    else if (c == "map_v_fp") total += static_cast<double>(arch.vlen);
    else if (c == "vector_reci") total += 2;
    else if (c == "vector_max") total += 4;
    else if (c == "vector_sum") total += 8;
    else if (c == "hbm") total += n.op.mnemonic() == "H_PREFETCH_M" ? 600 : 40;
    else total += 1;
  }
  return total;
}

namespace {

// Loop ids innermost first (post-order), so inner loops are tried before outer ones.
void post_order(const Block& block, int& next, std::vector<int>& out) {
  for (const Node& n : block) {
    if (!n.is_loop) continue;
    const int id = next++;
    post_order(n.body, next, out);
    out.push_back(id);
  }
}

std::vector<int> loops_inner_first(const Block& code) {
  int next = 0;
  std::vector<int> ids;
  post_order(code, next, ids);
  return ids;
}

bool is_innermost(const Node& loop) {
  return std::none_of(loop.body.begin(), loop.body.end(), [](const Node& n) { return n.is_loop; });
}

int hoist_everywhere(Kernel& k) {
  int total = 0;
  for (int id : loops_inner_first(k.code)) total += hoist_invariants(k, id);
  return total;
}

// Fully unrolls innermost loops while legal and within the size limit; returns how many.
int unroll_innermost(Kernel& k, size_t limit) {
  int done = 0;
  for (bool again = true; again;) {
    again = false;
    for (int id : loops_inner_first(k.code)) {
      const Node* loop = find_loop(k.code, id);
      if (!loop || !is_innermost(*loop)) continue;
      std::string why;
      if (unroll(k, id, loop->count, why, limit)) {
        ++done;
        again = true;
        break;  // ids changed
      }
    }
  }
  return done;
}

std::vector<CandidateGeneratorRegistration>& generators() {
  static std::vector<CandidateGeneratorRegistration> all;
  return all;
}

const CandidateGeneratorRegistration* find_generator(const SearchContext& ctx) {
  static std::once_flag once;
  std::call_once(once, register_agent_packs);
  for (const auto& g : generators())
    if (g.applies(ctx)) return &g;
  return nullptr;
}

}  // namespace

void register_candidate_generator(CandidateGeneratorRegistration registration) {
  if (registration.name.empty() || !registration.applies || !registration.generate)
    throw std::invalid_argument("candidate generator registration needs a name, applies and generate");
  for (const auto& g : generators())
    if (g.name == registration.name)
      throw std::invalid_argument("candidate generator '" + registration.name + "' registered twice");
  generators().push_back(std::move(registration));
}

std::vector<Candidate> generate_candidates(const std::string& parent_text, const SearchContext& ctx) {
  if (const CandidateGeneratorRegistration* g = find_generator(ctx)) return g->generate(parent_text, ctx);
  Kernel parent;
  std::string error;
  if (!parse_kernel(parent_text, parent, error)) return {};
  std::vector<Candidate> out;
  std::set<std::string> seen = {parent_text};
  auto add = [&](const std::string& name, const std::function<bool(Kernel&)>& transform) {
    Kernel k = parent;
    if (!transform(k)) return;
    simplify(k);
    std::string label = name;
    if (ctx.pipelined && schedule_prefetch_first(k, ctx.arch)) label += " + schedule";
    if (static_size(k.code) > ctx.max_instructions) return;
    std::string text = print_kernel(k);
    if (!seen.insert(text).second) return;
    out.push_back({label, std::move(text), estimate_cycles(k.code, ctx.arch)});
  };

  add("simplify", [](Kernel&) { return true; });
  add("hoist invariants", [](Kernel& k) { return hoist_everywhere(k) > 0; });
  const int loops = count_loops(parent.code);
  for (int id = 0; id < loops; ++id) {
    const Node* loop = find_loop(parent.code, id);
    const std::string l = "L" + std::to_string(id);
    add("unroll " + l + " fully", [&](Kernel& k) {
      std::string why;
      return unroll(k, id, loop->count, why, ctx.max_instructions);
    });
    for (int64_t f : {2, 4, 8}) {
      if (f >= loop->count || loop->count % f != 0) continue;
      add("unroll " + l + " x" + std::to_string(f), [&](Kernel& k) {
        std::string why;
        return unroll(k, id, f, why, ctx.max_instructions);
      });
    }
  }
  add("unroll innermost loops + hoist", [&](Kernel& k) {
    const int n = unroll_innermost(k, ctx.max_instructions);
    simplify(k);
    return hoist_everywhere(k) + n > 0;
  });
  add("unroll all loops", [&](Kernel& k) {
    int n = 0;
    while (unroll_innermost(k, ctx.max_instructions) > 0) {
      simplify(k);
      ++n;
    }
    return n > 0;
  });

  return order_by_estimate(std::move(out), ctx.seed);
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
