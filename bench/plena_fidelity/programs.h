// The programs of the PLENA fidelity campaign, by kind: the template compiler's SiLU and
// GEMM at the paper's five sizes, the repository's PLENA baselines (C1..C5), and generated
// prefetch-heavy, compute and mixed programs (deterministic from a seed).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tlmcraft::bench {

// What the oracle can measure for a program: its total serial cycles (plena-ref walks
// every instruction and replays the prefetches), or only its non-HBM cycles (programs with
// H_STORE_V, which plena-ref does not replay).
enum class Measure { Total, NonHbm };

struct FidelityProgram {
  // "template-silu", "template-gemm", "baseline", "baseline-no-store", "prefetch", "compute", "mixed"
  std::string kind;
  std::string name;  // file stem, unique
  std::string text;
  Measure measure = Measure::Total;
};

std::vector<FidelityProgram> template_programs();
// Every PLENA task baseline, C1..C5; those with stores also without them at C1..C3.
std::vector<FidelityProgram> baseline_programs();
std::vector<FidelityProgram> generated_programs(const std::string& kind, int count, uint64_t seed);

}  // namespace tlmcraft::bench
