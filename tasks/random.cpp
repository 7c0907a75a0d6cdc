#include "tasks/random.h"

#include <cmath>

namespace tlmcraft::tasks {
namespace {
uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}
// splitmix64 finaliser: spreads nearby seeds (1, 2, 3 ...) over the whole state.
uint64_t mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

Rng Rng::for_tensor(uint64_t seed, const std::string& task, const std::string& tensor) {
  return Rng(mix(seed ^ fnv1a(tensor, fnv1a(task + "/"))));
}

double Rng::uniform01() { return double(engine_() >> 11) * 0x1.0p-53; }

double Rng::normal(double mean, double std) {
  if (has_spare_) {
    has_spare_ = false;
    return mean + std * spare_;
  }
  const double u1 = uniform01(), u2 = uniform01();
  const double r = std::sqrt(-2.0 * std::log(1.0 - u1));  // 1 - u1 in (0, 1]: log is finite
  spare_ = r * std::sin(2.0 * M_PI * u2);
  has_spare_ = true;
  return mean + std * r * std::cos(2.0 * M_PI * u2);
}

int64_t Rng::integer(int64_t lo, int64_t hi) {
  const uint64_t span = uint64_t(hi - lo) + 1;  // 0 means the full 2^64 range
  if (span == 0) return int64_t(engine_());
  uint64_t mask = span - 1;
  for (int s = 1; s < 64; s <<= 1) mask |= mask >> s;
  for (;;) {
    const uint64_t v = engine_() & mask;
    if (v < span) return lo + int64_t(v);
  }
}

}  // namespace tlmcraft::tasks
