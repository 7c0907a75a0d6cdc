// Generated probe programs for the Coral fidelity campaign (being written on branch coral-probes).
#pragma once
#include <cstdint>
#include <string>
#include <vector>
namespace tlmcraft::bench {
struct ProbeProgram {
  std::string kind, name, source;
};
std::vector<ProbeProgram> generate_probe_programs(uint64_t seed = 1, int per_kind = 45);
}  // namespace tlmcraft::bench
