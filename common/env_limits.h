// Limits the user may raise through the environment (docs/reliability.md lists them).
#pragma once
#include <cstdint>

namespace tlmcraft {

// The positive integer in environment variable `name`, or `fallback` when it is unset,
// empty, not a number or zero.
uint64_t env_positive_number(const char* name, uint64_t fallback);

}  // namespace tlmcraft
