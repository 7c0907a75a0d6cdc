// Simulation speed of the PLENA platform: simulated instructions and cycles per host
// second for GEMM (64,256,512) in each timing mode and for a long vector loop.
// Usage: bench_plena [repeats]   (prints a Markdown table; medians of `repeats` runs)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "platforms/plena/plena_platform.h"
#include "platforms/plena/pack/baselines/gemm.h"

using namespace tlmcraft;

namespace {

struct Case {
  std::string name;
  std::string kernel;
  std::vector<std::string> overrides;
};

struct Measured {
  uint64_t cycles = 0, instructions = 0;
  double seconds = 0;
};

Measured measure(const Case& c, int repeats) {
  plena::PlenaPlatform p(plena::load_plena_config("default", c.overrides));
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  if (!p.assemble(c.kernel, c.name, prog, diags)) {
    for (const auto& d : diags) std::fprintf(stderr, "%s\n", d.format().c_str());
    std::exit(2);
  }
  std::vector<double> secs;
  Measured m;
  RunLimits limits;
  limits.max_instructions = 1ull << 40;
  limits.wall_seconds = 0;
  for (int i = 0; i < repeats; ++i) {
    p.load(prog);
    const RunResult r = p.run(limits, {});
    if (!r.ok()) {
      std::fprintf(stderr, "%s: %s\n", c.name.c_str(), r.message.c_str());
      std::exit(1);
    }
    m.cycles = r.cycles;
    m.instructions = r.instructions;
    secs.push_back(r.host_seconds);
  }
  std::sort(secs.begin(), secs.end());
  m.seconds = secs[secs.size() / 2];
  return m;
}

std::string vector_loop(uint32_t iterations) {
  return "S_ADDI_INT gp1, gp0, 0\nS_ADDI_INT gp2, gp0, 64\nC_LOOP_START gp3, " + std::to_string(iterations) +
         "\n  V_ADD_VV gp1, gp1, gp2, 0\n  V_MUL_VF gp2, gp2, f0, 0\n  S_ADDI_INT gp4, gp4, 1\nC_LOOP_END gp3\n";
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  tasks::plena::GemmKernel g;
  g.m = 64, g.k = 256, g.n = 512;
  g.x_addr = 0, g.w_addr = 20480, g.y_addr = 167936;
  const std::string gemm = tasks::plena::plena_gemm_kernel(g);
  tasks::plena::GemmKernel gd = g;
  gd.double_buffer = true;
  tasks::plena::PlenaArch big;
  big.msram_tiles = 8;
  const std::string gemm_db = tasks::plena::plena_gemm_kernel(gd, big);
  const std::vector<Case> cases = {
      {"gemm-64x256x512 serial", gemm, {"timing.mode=serial"}},
      {"gemm-64x256x512 pipelined", gemm, {"timing.mode=pipelined"}},
      {"gemm-64x256x512 pipelined, double-buffered W (8 MSRAM tiles)", gemm_db,
       {"timing.mode=pipelined", "memory.msram.elements=32768", "memory.msram.banks=8"}},
      {"vector loop 1M iterations serial", vector_loop(1'000'000), {"timing.mode=serial"}},
      {"vector loop 1M iterations pipelined", vector_loop(1'000'000), {"timing.mode=pipelined"}},
  };
  std::printf("| case | simulated cycles | instructions | host s (median of %d) | Minstr/s | Mcycles/s |\n", repeats);
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  for (const auto& c : cases) {
    const Measured m = measure(c, repeats);
    std::printf("| %s | %llu | %llu | %.4f | %.2f | %.1f |\n", c.name.c_str(), (unsigned long long)m.cycles,
                (unsigned long long)m.instructions, m.seconds, m.instructions / m.seconds / 1e6,
                m.cycles / m.seconds / 1e6);
    std::fflush(stdout);
  }
  return 0;
}
