// NSGA-II (Deb, Pratap, Agarwal, Meyarivan, IEEE TEC 2002) over subsets of a
// fixed list of genes (here: candidate instructions). Minimises every
// objective; Deb's constrained domination ranks a feasible point above any
// infeasible one and infeasible points by their violation. A gene set over the
// knapsack budget is repaired (genes dropped at random) before it is evaluated,
// so nothing over the budget is ever evaluated. Every random choice comes from
// one std::mt19937_64 seeded by the caller (its sequence is fixed by the C++
// standard), so a run is the same on every host.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace tlmcraft::agent::codesign {

using Genome = std::vector<bool>;  // gene i chosen

struct Fitness {
  std::vector<double> objectives;  // minimised
  double violation = 0;            // 0: feasible; more is worse
};

// a constrained-dominates b: feasible beats infeasible, less violation beats
// more, else Pareto domination over the objectives.
bool constrained_dominates(const Fitness& a, const Fitness& b);

// Indices of `points` by non-domination rank: fronts[0] is the non-dominated
// set, fronts[1] what is dominated only by fronts[0], ... (each in index order).
std::vector<std::vector<size_t>> nondominated_fronts(const std::vector<Fitness>& points);

// Crowding distance of each member of `front` (same order): infinite at each
// objective's extremes, else the sum over objectives of the neighbours' gap
// divided by the front's range in that objective.
std::vector<double> crowding_distance(const std::vector<Fitness>& points, const std::vector<size_t>& front);

struct Nsga2Problem {
  std::vector<double> gene_cost;  // knapsack weight of each gene (area)
  double budget = 0;              // the sum over chosen genes must not exceed it
  // Optional: the cost of a whole set instead of the sum (genes sharing a cost, such as
  // the hardware two candidates need, count it once); repair still drops genes at random.
  std::function<double(const Genome&)> set_cost;
  // The fitness of a genome, or nullopt when no more evaluations may be made.
  // Called at most once per distinct genome.
  std::function<std::optional<Fitness>(const Genome&)> evaluate;
};

struct Nsga2Options {
  size_t population = 16;
  int generations = 20;
  double crossover = 0.9;  // probability that a child mixes two parents (uniform crossover)
  double mutation = -1;    // per-gene flip probability; < 0: 1 / number of genes
  uint64_t seed = 1;
};

struct Nsga2Result {
  std::vector<Genome> population;  // the last population, best rank first
  std::vector<Genome> evaluated;   // every genome evaluated, in order
  int generations = 0;             // generations completed
};

// The initial population is the empty set, every gene alone that fits, then
// random feasible sets; each generation breeds `population` children by binary
// tournament (rank, then crowding), crossover and mutation, and keeps the best
// `population` of parents and children (distinct sets only). Stops after
// `generations` or when `evaluate` declines.
Nsga2Result nsga2(const Nsga2Problem& problem, const Nsga2Options& options);

std::string genome_key(const Genome& g);  // "0110..."

}  // namespace tlmcraft::agent::codesign
