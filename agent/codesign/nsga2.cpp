#include "agent/codesign/nsga2.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>

namespace tlmcraft::agent::codesign {
namespace {

using Rng = std::mt19937_64;

// Draws from the generator's raw output (specified by the standard), not from
// std::uniform_*_distribution (whose algorithm each library chooses).
size_t below(Rng& rng, size_t n) { return size_t(rng() % n); }
double unit(Rng& rng) { return double(rng() >> 11) * 0x1.0p-53; }

class Search {
 public:
  Search(const Nsga2Problem& p, const Nsga2Options& o) : p_(p), o_(o), rng_(o.seed), genes_(p.gene_cost.size()) {
    pm_ = o.mutation >= 0 ? o.mutation : (genes_ ? 1.0 / double(genes_) : 0.0);
  }

  Nsga2Result run() {
    Nsga2Result r;
    std::vector<Genome> pop = select(initial());
    for (; r.generations < o_.generations && !exhausted_ && !pop.empty(); ++r.generations) {
      std::vector<Genome> pool = pop;
      const Ranking rk = ranking(pop);
      for (size_t k = 0; k < o_.population && !exhausted_; ++k) {
        Genome c = child(pop, rk);
        if (evaluate(c)) pool.push_back(std::move(c));
      }
      pop = select(std::move(pool));
    }
    r.population = pop;
    r.evaluated = evaluated_;
    return r;
  }

 private:
  struct Ranking {
    std::vector<size_t> rank;
    std::vector<double> crowding;
  };

  const Nsga2Problem& p_;
  Nsga2Options o_;
  Rng rng_;
  size_t genes_;
  double pm_ = 0;
  std::map<std::string, Fitness> fitness_;
  std::vector<Genome> evaluated_;
  bool exhausted_ = false;

  double cost(const Genome& g) const {
    if (p_.set_cost) return p_.set_cost(g);
    double c = 0;
    for (size_t i = 0; i < genes_; ++i) c += g[i] ? p_.gene_cost[i] : 0.0;
    return c;
  }

  // Drops chosen genes at random until the set fits the budget.
  void repair(Genome& g) {
    while (cost(g) > p_.budget) {
      std::vector<size_t> on;
      for (size_t i = 0; i < genes_; ++i)
        if (g[i]) on.push_back(i);
      g[on[below(rng_, on.size())]] = false;
    }
  }

  // True when the genome's fitness is known (evaluated now or before).
  bool evaluate(const Genome& g) {
    const std::string key = genome_key(g);
    if (fitness_.count(key)) return true;
    if (exhausted_) return false;
    std::optional<Fitness> f = p_.evaluate(g);
    if (!f) {
      exhausted_ = true;
      return false;
    }
    fitness_[key] = *f;
    evaluated_.push_back(g);
    return true;
  }

  std::vector<Genome> initial() {
    std::vector<Genome> pop;
    std::map<std::string, bool> seen;
    auto add = [&](const Genome& g) {
      if (pop.size() >= o_.population || seen.count(genome_key(g)) || !evaluate(g)) return;
      seen[genome_key(g)] = true;
      pop.push_back(g);
    };
    add(Genome(genes_, false));
    for (size_t i = 0; i < genes_; ++i) {
      Genome g(genes_, false);
      g[i] = true;
      if (cost(g) <= p_.budget) add(g);
    }
    for (size_t tries = 0; pop.size() < o_.population && tries < 20 * o_.population && !exhausted_; ++tries) {
      Genome g(genes_, false);
      for (size_t i = 0; i < genes_; ++i) g[i] = unit(rng_) < 0.5;
      repair(g);
      add(g);
    }
    return pop;
  }

  Ranking ranking(const std::vector<Genome>& pop) const {
    std::vector<Fitness> pts;
    for (const Genome& g : pop) pts.push_back(fitness_.at(genome_key(g)));
    Ranking r{std::vector<size_t>(pop.size()), std::vector<double>(pop.size())};
    const auto fronts = nondominated_fronts(pts);
    for (size_t f = 0; f < fronts.size(); ++f) {
      const std::vector<double> d = crowding_distance(pts, fronts[f]);
      for (size_t k = 0; k < fronts[f].size(); ++k) r.rank[fronts[f][k]] = f, r.crowding[fronts[f][k]] = d[k];
    }
    return r;
  }

  // Binary tournament: the lower rank, then the larger crowding distance.
  size_t tournament(const Ranking& rk) {
    const size_t n = rk.rank.size();
    const size_t a = below(rng_, n);
    const size_t b = n > 1 ? (a + 1 + below(rng_, n - 1)) % n : a;
    if (rk.rank[b] != rk.rank[a]) return rk.rank[b] < rk.rank[a] ? b : a;
    return rk.crowding[b] > rk.crowding[a] ? b : a;
  }

  Genome child(const std::vector<Genome>& pop, const Ranking& rk) {
    const Genome& p1 = pop[tournament(rk)];
    const Genome& p2 = pop[tournament(rk)];
    Genome c = p1;
    if (unit(rng_) < o_.crossover)
      for (size_t i = 0; i < genes_; ++i) c[i] = unit(rng_) < 0.5 ? p1[i] : p2[i];
    for (size_t i = 0; i < genes_; ++i)
      if (unit(rng_) < pm_) c[i] = !c[i];
    repair(c);
    return c;
  }

  // The best `population` distinct genomes of `pool`: whole fronts while they
  // fit, then the last front's least crowded.
  std::vector<Genome> select(std::vector<Genome> pool) const {
    std::vector<Genome> distinct;
    std::map<std::string, bool> seen;
    for (Genome& g : pool)
      if (!seen.count(genome_key(g))) seen[genome_key(g)] = true, distinct.push_back(std::move(g));
    std::vector<Fitness> pts;
    for (const Genome& g : distinct) pts.push_back(fitness_.at(genome_key(g)));
    std::vector<Genome> out;
    for (const std::vector<size_t>& front : nondominated_fronts(pts)) {
      if (out.size() >= o_.population) break;
      std::vector<size_t> order(front.size());
      std::iota(order.begin(), order.end(), 0);
      if (out.size() + front.size() > o_.population) {
        const std::vector<double> d = crowding_distance(pts, front);
        std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return d[x] > d[y]; });
      }
      for (size_t k = 0; k < order.size() && out.size() < o_.population; ++k) out.push_back(distinct[front[order[k]]]);
    }
    return out;
  }
};

}  // namespace

bool constrained_dominates(const Fitness& a, const Fitness& b) {
  if (a.violation != b.violation) return a.violation < b.violation;
  if (a.violation > 0) return false;  // equally infeasible: neither
  bool strictly = false;
  for (size_t m = 0; m < a.objectives.size(); ++m) {
    if (a.objectives[m] > b.objectives[m]) return false;
    strictly = strictly || a.objectives[m] < b.objectives[m];
  }
  return strictly;
}

std::vector<std::vector<size_t>> nondominated_fronts(const std::vector<Fitness>& points) {
  const size_t n = points.size();
  std::vector<std::vector<size_t>> dominates(n);
  std::vector<size_t> dominated_by(n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j && constrained_dominates(points[i], points[j])) dominates[i].push_back(j), ++dominated_by[j];
  std::vector<std::vector<size_t>> fronts;
  std::vector<size_t> current;
  for (size_t i = 0; i < n; ++i)
    if (dominated_by[i] == 0) current.push_back(i);
  while (!current.empty()) {
    fronts.push_back(current);
    std::vector<size_t> next;
    for (size_t i : current)
      for (size_t j : dominates[i])
        if (--dominated_by[j] == 0) next.push_back(j);
    std::sort(next.begin(), next.end());
    current = std::move(next);
  }
  return fronts;
}

std::vector<double> crowding_distance(const std::vector<Fitness>& points, const std::vector<size_t>& front) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> d(front.size(), 0.0);
  if (front.size() <= 2) return std::vector<double>(front.size(), inf);
  const size_t objectives = points[front[0]].objectives.size();
  for (size_t m = 0; m < objectives; ++m) {
    std::vector<size_t> order(front.size());
    std::iota(order.begin(), order.end(), 0);
    auto value = [&](size_t k) { return points[front[k]].objectives[m]; };
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return value(x) < value(y); });
    const double range = value(order.back()) - value(order.front());
    d[order.front()] = d[order.back()] = inf;
    if (!(range > 0)) continue;
    for (size_t k = 1; k + 1 < order.size(); ++k) d[order[k]] += (value(order[k + 1]) - value(order[k - 1])) / range;
  }
  return d;
}

Nsga2Result nsga2(const Nsga2Problem& problem, const Nsga2Options& options) { return Search(problem, options).run(); }

std::string genome_key(const Genome& g) {
  std::string s;
  for (bool b : g) s += b ? '1' : '0';
  return s;
}

}  // namespace tlmcraft::agent::codesign
