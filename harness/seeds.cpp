#include "harness/seeds.h"

#include <sys/random.h>

#include <random>

namespace tlmcraft {

uint64_t fresh_seed() {
  uint64_t v = 0;
  if (getrandom(&v, sizeof v, 0) != ssize_t(sizeof v)) {
    std::random_device rd;
    v = (uint64_t(rd()) << 32) ^ rd();
  }
  return v % (kSeedLimit - (uint64_t(1) << 20));
}

std::vector<uint64_t> trial_seeds(std::optional<uint64_t> fixed_first, int trials) {
  const uint64_t first = fixed_first ? *fixed_first : fresh_seed();
  std::vector<uint64_t> seeds;
  for (int k = 0; k < trials; ++k) seeds.push_back(first + uint64_t(k));
  return seeds;
}

}  // namespace tlmcraft
