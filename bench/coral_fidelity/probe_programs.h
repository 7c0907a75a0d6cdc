// Generated probe programs for the Coral NPU fidelity campaign (issue 11): small RISC-V
// assembly kernels (rv32imf_zve32x, GNU as syntax) that each stress one timing mechanism
// of the core, so that the model's error can be reported per mechanism against the RTL.
//
// Every program follows the platform's kernel contract (docs/platforms/coral.md): it
// defines a global `main` (ilp32; only caller-saved registers are written, `ra` is saved
// on the stack when the program makes calls), keeps its code well under the 8 KB ITCM
// (loops, never long straight-line code), its data under 16 KB of DTCM, addresses
// external memory at 0x20000000 directly (zero-filled, 4 MB), makes only aligned
// in-range accesses, terminates (every loop is counted) and is sized to run roughly
// 300-20,000 cycles on the RTL at the model's default external latencies.
//
// Generation is deterministic: the same (seed, per_kind) gives byte-identical programs on
// every compiler and host (own splitmix64 PRNG, integer arithmetic only). Program i of a
// kind depends only on (seed, kind, i), so raising per_kind only appends programs.
// Standard library only: the runner links this without SystemC.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tlmcraft::bench {

struct ProbeProgram {
  std::string kind;    // mechanism family (one of probe_kinds())
  std::string name;    // unique, "<kind>/<variant and parameters>_<index>"
  std::string source;  // RISC-V assembly defining a global `main`
};

// The mechanism families, in generation order: scalar_alu, branch, mul, div, dtcm_mem,
// ext_mem, vec_arith, vec_mem_dtcm, vec_mem_ext, gather, reduction, mixed.
const std::vector<std::string>& probe_kinds();

// `per_kind` programs of each kind (12 kinds), kind by kind in probe_kinds() order.
// The default gives 540 programs; per_kind <= 0 gives none.
std::vector<ProbeProgram> generate_probe_programs(uint64_t seed = 1, int per_kind = 45);

}  // namespace tlmcraft::bench
