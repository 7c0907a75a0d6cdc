// Trial seeds: fresh from the operating system unless the user fixes them, so a kernel
// cannot know its verdict's inputs in advance (docs/tasks.md, "What the checker defends
// against"). Trial k of an evaluation uses first + k; a report records every seed, and
// `--seed FIRST` reproduces the run exactly.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace tlmcraft {

// Seeds stay below 2^53 so that every JSON reader (JavaScript in the HTML report too)
// reads them back exactly.
constexpr uint64_t kSeedLimit = uint64_t(1) << 53;

// A fresh seed in [0, kSeedLimit - 2^20) from getrandom(2) (std::random_device if that
// fails); room is left so first + k never reaches the limit.
uint64_t fresh_seed();

// The seeds of `trials` trials: fixed_first + k when the user fixed it, else fresh_seed() + k.
std::vector<uint64_t> trial_seeds(std::optional<uint64_t> fixed_first, int trials);

}  // namespace tlmcraft
