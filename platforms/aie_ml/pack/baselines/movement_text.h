// Text of `.movement` sections for generated AIE-ML kernels (docs/platforms/aie-ml.md):
// buffer descriptors as YAML flow maps, dims lists, tile names.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace tlmcraft::tasks::aie_ml {

// One buffer descriptor; lock ids < 0 mean "no lock".
struct Bd {
  std::string name, tile, channel, buffer;
  uint64_t offset = 0, length = 0;
  std::string dims = {}, next = {};  // dims: YAML list text (see dims()); next: BD name or ""
  int acquire_lock = -1, acquire_value = 1, release_lock = -1, release_value = 1;
};

std::string hex(uint64_t v);                    // "0x1f"
std::string tile(uint32_t column, uint32_t row);  // "[c, r]"
// `[[size, stride], ...]` in 32-bit words, innermost first.
std::string dims(std::initializer_list<std::pair<int64_t, int64_t>> ds);
// "  - {name: ..., ...}\n"
std::string bd_yaml(const Bd& b);
// Links the BDs into a ring (each `next` is the following one, the last the first).
std::vector<Bd> ring(std::vector<Bd> chain);

}  // namespace tlmcraft::tasks::aie_ml
