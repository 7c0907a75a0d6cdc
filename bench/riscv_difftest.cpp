// The differential-testing campaign: N random RV32IMF_Zve32x programs, each run on
// qemu-riscv32 and on our ISS, architectural state compared field by field.
//
// Usage: riscv_difftest [--programs N] [--seed S] [--units U] [--scalar-only] [--show K]
//   --programs  number of programs (default 20000)
//   --seed      first seed (default 1); program i uses seed S + i
//   --units     body units per program (default 100)
//   --scalar-only  no vector units
//   --show      print the full report of at most K mismatches (default 5)
// Prints programs, instructions executed on the ISS and mismatches; exits 1 on any.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/isa/riscv/difftest/difftest.h"

using namespace tlmcraft::isa::riscv::difftest;

int main(int argc, char** argv) {
  uint64_t programs = 20000, seed = 1, show = 5;
  GeneratorOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* name) -> uint64_t {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "riscv_difftest: %s needs a value\n", name);
        std::exit(2);
      }
      char* end = nullptr;
      const uint64_t v = std::strtoull(argv[++i], &end, 10);
      if (*end != '\0') {
        std::fprintf(stderr, "riscv_difftest: %s: '%s' is not a number\n", name, argv[i]);
        std::exit(2);
      }
      return v;
    };
    if (a == "--programs") programs = value("--programs");
    else if (a == "--seed") seed = value("--seed");
    else if (a == "--units") options.units = static_cast<unsigned>(value("--units"));
    else if (a == "--show") show = value("--show");
    else if (a == "--scalar-only") options.vector = false;
    else {
      std::fprintf(stderr, "riscv_difftest: unknown option '%s'\nusage: riscv_difftest [--programs N] [--seed S] "
                   "[--units U] [--scalar-only] [--show K]\n", a.c_str());
      return 2;
    }
  }
  DiffTester tester;
  std::string why;
  if (!tester.tools_available(&why)) {
    std::fprintf(stderr, "riscv_difftest: %s\n", why.c_str());
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  uint64_t instructions = 0, mismatches = 0, harness_errors = 0, shown = 0;
  for (uint64_t i = 0; i < programs; ++i) {
    const CaseResult r = tester.run_case(generate_program(seed + i, options));
    instructions += r.instructions;
    if (!r.passed) {
      (r.harness_error ? harness_errors : mismatches)++;
      if (shown++ < show) std::printf("%s\n", r.report.c_str());
      else std::printf("%s seed %llu\n", r.harness_error ? "HARNESS ERROR" : "MISMATCH", (unsigned long long)(seed + i));
    }
    if ((i + 1) % 1000 == 0) {
      std::printf("... %llu programs, %llu mismatches, %llu harness errors\n", (unsigned long long)(i + 1),
                  (unsigned long long)mismatches, (unsigned long long)harness_errors);
      std::fflush(stdout);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("riscv_difftest: %llu programs (seeds %llu..%llu, %u units each, %s), %llu instructions executed, "
              "%llu mismatches, %llu harness errors, %.0f s\n",
              (unsigned long long)programs, (unsigned long long)seed, (unsigned long long)(seed + programs - 1),
              options.units, options.vector ? "scalar + vector" : "scalar only", (unsigned long long)instructions,
              (unsigned long long)mismatches, (unsigned long long)harness_errors, seconds);
  return mismatches == 0 && harness_errors == 0 ? 0 : 1;
}
