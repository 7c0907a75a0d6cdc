// NSGA-II's parts on hand-made points, and the search on a small knapsack whose
// front is enumerated by hand below.
#include "agent/codesign/nsga2.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace tlmcraft::agent::codesign {
namespace {

Fitness f(double a, double b, double violation = 0) { return {{a, b}, violation}; }

TEST(Nsga2, ConstrainedDomination) {
  EXPECT_TRUE(constrained_dominates(f(1, 1), f(2, 1)));
  EXPECT_FALSE(constrained_dominates(f(1, 1), f(1, 1)));        // equal: neither
  EXPECT_FALSE(constrained_dominates(f(1, 2), f(2, 1)));        // a trade-off: neither
  EXPECT_TRUE(constrained_dominates(f(9, 9), f(0, 0, 1)));      // feasible beats infeasible
  EXPECT_TRUE(constrained_dominates(f(9, 9, 1), f(0, 0, 2)));   // less violation wins
  EXPECT_FALSE(constrained_dominates(f(0, 0, 1), f(9, 9, 1)));  // equally infeasible: neither
}

TEST(Nsga2, FrontsByRank) {
  // 0 (1,4), 1 (2,2), 2 (4,1) trade off: rank 0. 3 (3,3) is dominated by 1
  // only; 4 (5,5) by 0..3; 5 is infeasible: last.
  const std::vector<Fitness> pts = {f(1, 4), f(2, 2), f(4, 1), f(3, 3), f(5, 5), f(0, 0, 1)};
  EXPECT_EQ(nondominated_fronts(pts), (std::vector<std::vector<size_t>>{{0, 1, 2}, {3}, {4}, {5}}));
}

TEST(Nsga2, CrowdingDistance) {
  // Front (1,4) (2,2) (4,1) (range 3 in each objective): the extremes are
  // infinite; (2,2): neighbours' gap 3/3 in the first objective and 3/3 in the
  // second = 2.
  const std::vector<Fitness> pts = {f(1, 4), f(2, 2), f(4, 1)};
  const std::vector<double> d = crowding_distance(pts, {0, 1, 2});
  EXPECT_TRUE(std::isinf(d[0]));
  EXPECT_DOUBLE_EQ(d[1], 2.0);
  EXPECT_TRUE(std::isinf(d[2]));
  // Four points on a line (0,6) (1,4) (3,2) (6,0): (1,4): (3-0)/6 + (6-2)/6 = 7/6;
  // (3,2): (6-1)/6 + (4-0)/6 = 9/6.
  const std::vector<Fitness> line = {f(0, 6), f(1, 4), f(3, 2), f(6, 0)};
  const std::vector<double> e = crowding_distance(line, {0, 1, 2, 3});
  EXPECT_DOUBLE_EQ(e[1], 7.0 / 6.0);
  EXPECT_DOUBLE_EQ(e[2], 9.0 / 6.0);
}

// Genes of cost 1, 2, 3, 4 and value 1, 3, 4, 6, budget 5; objectives (cost,
// -value). The feasible sets: {} c0 v0, {0} c1 v1, {1} c2 v3, {2} c3 v4, {3} c4
// v6, {0,1} c3 v4, {0,2} c4 v5, {0,3} c5 v7, {1,2} c5 v7. Only {0,2} is
// dominated (by {3}: same cost, more value), so the front is the other 8.
struct Knapsack {
  std::vector<double> cost = {1, 2, 3, 4}, value = {1, 3, 4, 6};
  std::map<std::string, int> calls;
  Nsga2Problem problem(size_t max_evaluations = 1000) {
    Nsga2Problem p;
    p.gene_cost = cost;
    p.budget = 5;
    p.evaluate = [this, max_evaluations](const Genome& g) -> std::optional<Fitness> {
      if (calls.size() >= max_evaluations) return std::nullopt;
      ++calls[genome_key(g)];
      double c = 0, v = 0;
      for (size_t i = 0; i < g.size(); ++i) c += g[i] ? cost[i] : 0, v += g[i] ? value[i] : 0;
      return Fitness{{c, -v}, 0};
    };
    return p;
  }
};

TEST(Nsga2, KnapsackFrontDerivedByHand) {
  Knapsack k;
  Nsga2Options o;
  o.population = 8;
  const Nsga2Result r = nsga2(k.problem(), o);
  EXPECT_EQ(r.generations, 20);
  std::set<std::string> front;
  for (const Genome& g : r.population) front.insert(genome_key(g));
  EXPECT_EQ(front, (std::set<std::string>{"0000", "1000", "0100", "0010", "0001", "1100", "1001", "0110"}));
  // Nine feasible sets exist; each was evaluated once and nothing over budget.
  EXPECT_LE(k.calls.size(), 9u);
  for (const auto& [key, n] : k.calls) {
    EXPECT_EQ(n, 1) << key;
    EXPECT_NE(key, "0011") << "over budget";
  }
  EXPECT_EQ(r.evaluated.size(), k.calls.size());
}

TEST(Nsga2, SameSeedSameRunAndDeclinedEvaluationStops) {
  Knapsack a, b, c;
  Nsga2Options o;
  o.population = 4;
  o.seed = 7;
  EXPECT_EQ(nsga2(a.problem(), o).evaluated, nsga2(b.problem(), o).evaluated);
  const Nsga2Result r = nsga2(c.problem(3), o);  // three evaluations, then no more
  EXPECT_EQ(r.evaluated.size(), 3u);
  EXPECT_EQ(genome_key(r.evaluated[0]), "0000");  // the empty set, then each gene alone
  EXPECT_EQ(genome_key(r.evaluated[1]), "1000");
  EXPECT_EQ(genome_key(r.evaluated[2]), "0100");
  EXPECT_EQ(r.generations, 0);
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
