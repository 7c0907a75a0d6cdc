// Text of `.movement` sections for generated AIE-ML kernels.
#include "platforms/aie_ml/pack/baselines/movement_text.h"

#include <sstream>

namespace tlmcraft::tasks::aie_ml {

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

std::string tile(uint32_t c, uint32_t r) { return "[" + std::to_string(c) + ", " + std::to_string(r) + "]"; }

std::string dims(std::initializer_list<std::pair<int64_t, int64_t>> ds) {
  std::string s = "[";
  for (const auto& [size, stride] : ds) {
    if (s.size() > 1) s += ", ";
    s += "[" + std::to_string(size) + ", " + std::to_string(stride) + "]";
  }
  return s + "]";
}

std::string bd_yaml(const Bd& b) {
  std::string s = "  - {name: " + b.name + ", tile: " + b.tile + ", channel: " + b.channel + ", buffer: " + b.buffer +
                  ", offset: " + std::to_string(b.offset) + ", length: " + std::to_string(b.length);
  if (!b.dims.empty()) s += ", dims: " + b.dims;
  if (!b.next.empty()) s += ", next: " + b.next;
  if (b.acquire_lock >= 0)
    s += ", acquire: {lock: " + std::to_string(b.acquire_lock) + ", value: " + std::to_string(b.acquire_value) + "}";
  if (b.release_lock >= 0)
    s += ", release: {lock: " + std::to_string(b.release_lock) + ", value: " + std::to_string(b.release_value) + "}";
  return s + "}\n";
}

std::vector<Bd> ring(std::vector<Bd> chain) {
  for (size_t i = 0; i < chain.size(); ++i) chain[i].next = chain[(i + 1) % chain.size()].name;
  return chain;
}

}  // namespace tlmcraft::tasks::aie_ml
