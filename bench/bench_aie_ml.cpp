// Simulation speed of the AIE-ML platform: simulated cycles and bundles per host second
// for a GEMM-like inner loop (vector loads + int8 VMAC in a zero-overhead loop) on one
// tile and on all 16 tiles, and for a DMA-only stream DDR -> memory tile -> DDR.
// The GEMM-like loop stands in until the task baselines exist (it measures the simulator,
// not a kernel's quality).
// Usage: bench_aie_ml [repeats]   (prints a Markdown table; medians of `repeats` runs)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "platforms/aie_ml/aie_platform.h"

using namespace tlmcraft;

namespace {

struct Measured {
  uint64_t cycles = 0, bundles = 0;
  double seconds = 0;
};

Measured measure(const std::string& name, const std::string& kernel, int repeats,
                 const std::vector<std::pair<std::string, std::vector<uint8_t>>>& init = {}) {
  aie_ml::AiePlatform p(aie_ml::load_aie_config("default"));
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  if (!p.assemble(kernel, name, prog, diags)) {
    for (const auto& d : diags) std::fprintf(stderr, "%s\n", d.format().c_str());
    std::exit(2);
  }
  RunLimits limits;
  limits.max_instructions = 1ull << 40;
  limits.wall_seconds = 0;
  std::vector<double> secs;
  Measured m;
  for (int i = 0; i < repeats; ++i) {
    p.load(prog);
    for (const auto& [mem, bytes] : init) p.write_memory(mem, 0, bytes);
    const RunResult r = p.run(limits, {});
    if (!r.ok()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), r.message.c_str());
      std::exit(1);
    }
    m.cycles = r.cycles;
    m.bundles = r.instructions;
    secs.push_back(r.host_seconds);
  }
  std::sort(secs.begin(), secs.end());
  m.seconds = secs[secs.size() / 2];
  return m;
}

// `outer` x 64 iterations of { VLDA ;; VLDB ;; VMAC.I8 } walking 2 KB of each operand.
std::string gemm_like(uint32_t outer) {
  return "  MOVXM r0, " + std::to_string(outer - 1) +
         "\nouter:\n"
         "  MOVXM p0, 0x70000\n"
         "  MOVXM p1, 0x72000\n"
         "  MOVXM ls, top\n"
         "  MOVXM le, top\n"
         "  MOV lc, 64\n"
         "  NOP\n"
         "top:\n"
         "  { VLDA w0, [p0], #32 ;; VLDB w2, [p1], #32 ;; VMAC.I8 cm0, cm0, w0, x1 }\n"
         "  JNZD r0, r0, outer\n"
         "  DONE\n";
}

std::string all_tiles(const std::string& program) {
  std::string k;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) k += ".tile " + std::to_string(c) + " " + std::to_string(r) + "\n" + program;
  return k;
}

// `bytes` from DDR through mem0 (ping/pong 4 KB slots) back to DDR.
std::string dma_stream(uint32_t bytes) {
  const std::string n = std::to_string(bytes);
  return R"(  DONE
.movement
locks:
  - {tile: mem0, id: 0, init: 2}
  - {tile: mem0, id: 1, init: 0}
buffers:
  - {name: in, tile: shim0, address: 0, size: )" + n + R"(}
  - {name: out, tile: shim0, address: 0x4000000, size: )" + n + R"(}
  - {name: ping, tile: mem0, address: 0, size: 4096}
  - {name: pong, tile: mem0, address: 4096, size: 4096}
bds:
  - {name: rd, tile: shim0, channel: mm2s0, buffer: in, length: )" + n + R"(}
  - {name: in_ping, tile: mem0, channel: s2mm0, buffer: ping, length: 4096, next: in_pong, acquire: {lock: 0, value: 1}, release: {lock: 1, value: 1}}
  - {name: in_pong, tile: mem0, channel: s2mm0, buffer: pong, length: 4096, next: in_ping, acquire: {lock: 0, value: 1}, release: {lock: 1, value: 1}}
  - {name: out_ping, tile: mem0, channel: mm2s0, buffer: ping, length: 4096, next: out_pong, acquire: {lock: 1, value: 1}, release: {lock: 0, value: 1}}
  - {name: out_pong, tile: mem0, channel: mm2s0, buffer: pong, length: 4096, next: out_ping, acquire: {lock: 1, value: 1}, release: {lock: 0, value: 1}}
  - {name: wr, tile: shim0, channel: s2mm0, buffer: out, length: )" + n + R"(}
routes:
  - {from: {tile: shim0, port: mm2s0}, to: {tile: mem0, port: s2mm0}}
  - {from: {tile: mem0, port: mm2s0}, to: {tile: shim0, port: s2mm0}}
)";
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  struct Row {
    std::string name;
    Measured m;
  };
  std::vector<Row> rows;
  rows.push_back({"GEMM-like loop, 1 tile (3000 x 64 iterations)", measure("gemm1", ".tile 0 0\n" + gemm_like(3000), repeats)});
  rows.push_back({"GEMM-like loop, 16 tiles (300 x 64 iterations each)", measure("gemm16", all_tiles(gemm_like(300)), repeats)});
  rows.push_back({"DMA only: 4 MiB DDR -> mem0 -> DDR", measure("dma", dma_stream(4u << 20), repeats)});
  std::printf("| case | simulated cycles | bundles | host s | cycles / host s | bundles / host s |\n");
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  for (const auto& r : rows)
    std::printf("| %s | %llu | %llu | %.4f | %.3g | %.3g |\n", r.name.c_str(), (unsigned long long)r.m.cycles,
                (unsigned long long)r.m.bundles, r.m.seconds, r.m.cycles / r.m.seconds, r.m.bundles / r.m.seconds);
  return 0;
}
