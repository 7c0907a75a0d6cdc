// Simulation speed of the Coral platform, timing included: simulated instructions and
// cycles per host second for a scalar loop kernel (target: >= 20 M instructions/s) and a
// vector GEMM kernel (C with RVV intrinsics, clang-16 -O2).
// Usage: bench_coral [repeats]   (prints a Markdown table; medians of `repeats` runs)
// Rates are per CPU second of the simulating thread (the machine may be shared; wall
// seconds are printed too).
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "platforms/coral/coral_platform.h"

using namespace tlmcraft;

namespace {

struct Case {
  std::string name, file, kernel;
};

struct Measured {
  uint64_t cycles = 0, instructions = 0;
  double seconds = 0;       // CPU seconds (median)
  double wall_seconds = 0;  // wall seconds (median)
};

double thread_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

Measured measure(const Case& c, int repeats) {
  coral::CoralPlatform p(coral::load_coral_config("default"));
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  if (!p.assemble(c.kernel, c.file, prog, diags)) {
    for (const auto& d : diags) std::fprintf(stderr, "%s\n", d.format().c_str());
    std::exit(2);
  }
  std::vector<double> secs, walls;
  Measured m;
  RunLimits limits;
  limits.max_instructions = 1ull << 40;
  limits.max_cycles = 1ull << 50;
  limits.wall_seconds = 0;
  for (int i = 0; i < repeats; ++i) {
    p.load(prog);
    const double c0 = thread_cpu_seconds();
    const RunResult r = p.run(limits, {});
    secs.push_back(thread_cpu_seconds() - c0);
    if (!r.ok()) {
      std::fprintf(stderr, "%s: %s\n", c.name.c_str(), r.message.c_str());
      std::exit(1);
    }
    m.cycles = r.cycles;
    m.instructions = r.instructions;
    walls.push_back(r.host_seconds);
  }
  std::sort(secs.begin(), secs.end());
  std::sort(walls.begin(), walls.end());
  m.seconds = secs[secs.size() / 2];
  m.wall_seconds = walls[walls.size() / 2];
  return m;
}

// Integer dot product of two 256-word DTCM arrays, repeated: loads, multiply, adds and
// a loop branch (7 instructions per element).
std::string scalar_kernel(int repeats) {
  return "  .text\n  .globl main\nmain:\n  li t2, " + std::to_string(repeats) +
         "\n  li a0, 0\nouter:\n  la a1, xs\n  la a2, ys\n  li t0, 256\ninner:\n"
         "  lw a3, 0(a1)\n  lw a4, 0(a2)\n  mul a5, a3, a4\n  add a0, a0, a5\n  addi a1, a1, 4\n  addi a2, a2, 4\n"
         "  addi t0, t0, -1\n  bnez t0, inner\n  addi t2, t2, -1\n  bnez t2, outer\n  ret\n"
         "  .data\nxs: .rept 256\n  .word 3\n  .endr\nys: .rept 256\n  .word 5\n  .endr\n";
}

// C = A (32x64) * B (64x128), int32, all in external memory; 16 output columns per
// vector (e32, m4) accumulated with vmacc.vx.
const char* kGemm =
    "#include <riscv_vector.h>\n#include <stdint.h>\n"
    "#define M 32\n#define K 64\n#define N 128\n"
    "int main(void) {\n"
    "  const int32_t *a = (const int32_t *)0x20000000;\n"
    "  const int32_t *b = (const int32_t *)0x20010000;\n"
    "  int32_t *c = (int32_t *)0x20020000;\n"
    "  for (int rep = 0; rep < 8; ++rep)\n"
    "  for (int i = 0; i < M; ++i) {\n"
    "    for (size_t j = 0; j < N;) {\n"
    "      size_t vl = __riscv_vsetvl_e32m4(N - j);\n"
    "      vint32m4_t acc = __riscv_vmv_v_x_i32m4(0, vl);\n"
    "      for (int k = 0; k < K; ++k) {\n"
    "        vint32m4_t bv = __riscv_vle32_v_i32m4(b + k * N + j, vl);\n"
    "        acc = __riscv_vmacc_vx_i32m4(acc, a[i * K + k], bv, vl);\n"
    "      }\n"
    "      __riscv_vse32_v_i32m4(c + i * N + j, acc, vl);\n"
    "      j += vl;\n"
    "    }\n"
    "  }\n"
    "  return 0;\n"
    "}\n";

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const std::vector<Case> cases = {
      {"scalar dot product (256 x 1000 elements)", "dot.s", scalar_kernel(1000)},
      {"vector GEMM int32 32x64x128 x 8 (C, RVV intrinsics, -O2)", "gemm.c", kGemm},
  };
  std::printf("| case | simulated cycles | instructions | CPU s (median of %d) | wall s | Minstr/CPU s | Mcycles/CPU s |\n",
              repeats);
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& c : cases) {
    const Measured m = measure(c, repeats);
    std::printf("| %s | %llu | %llu | %.4f | %.4f | %.2f | %.1f |\n", c.name.c_str(), (unsigned long long)m.cycles,
                (unsigned long long)m.instructions, m.seconds, m.wall_seconds, m.instructions / m.seconds / 1e6,
                m.cycles / m.seconds / 1e6);
    std::fflush(stdout);
  }
  return 0;
}
