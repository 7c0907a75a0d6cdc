#include "common/env_limits.h"

#include <cstdlib>

namespace tlmcraft {

uint64_t env_positive_number(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  return end && *end == '\0' && n > 0 ? n : fallback;
}

}  // namespace tlmcraft
