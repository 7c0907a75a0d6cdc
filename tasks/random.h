// Seeded random numbers whose values do not depend on the C++ standard library: the
// engine is std::mt19937_64 (its output sequence is fixed by the standard), and the
// distributions are ours, built from its raw 64-bit words:
//   uniform01: the top 53 bits / 2^53, in [0, 1);
//   normal: Box-Muller on two uniforms u1, u2: r = sqrt(-2 ln(1 - u1)); the first call
//           returns r cos(2 pi u2), the next one r sin(2 pi u2) (standard normals, then
//           scaled by std and shifted by mean);
//   integer in [lo, hi]: rejection sampling of the low bits (no modulo bias).
// Streams are derived per tensor (seed, task, tensor name) so adding a tensor to a task
// does not change the values of the others.
#pragma once
#include <cstdint>
#include <random>
#include <string>

namespace tlmcraft::tasks {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  // A stream for one tensor: the seed mixed with FNV-1a hashes of the names.
  static Rng for_tensor(uint64_t seed, const std::string& task, const std::string& tensor);

  uint64_t bits() { return engine_(); }
  double uniform01();
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }
  double normal(double mean, double std);
  int64_t integer(int64_t lo, int64_t hi);  // inclusive

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0;  // the sine half of the last Box-Muller pair
};

}  // namespace tlmcraft::tasks
