// Writes the generated Coral probe programs to a directory: OUTDIR/<kind>/<variant>_<i>.s
// (the program's name plus ".s") and OUTDIR/manifest.tsv (kind, name, file), one line per
// program. Standard library only, so it builds with a plain compiler:
//   g++ -std=c++17 -O2 -I. bench/coral_fidelity/probe_programs.cpp
//       bench/coral_fidelity/probe_programs_main.cpp -o coral_probe_programs
// Usage: coral_probe_programs OUTDIR [--seed N] [--per-kind N]
// bench/coral_fidelity/check_probes.sh assembles, links and runs them on the RTL oracle.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "bench/coral_fidelity/probe_programs.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  std::string out;
  uint64_t seed = 1;
  int per_kind = 45;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--per-kind") && i + 1 < argc) per_kind = std::atoi(argv[++i]);
    else if (argv[i][0] != '-' && out.empty()) out = argv[i];
    else {
      std::fprintf(stderr, "usage: %s OUTDIR [--seed N] [--per-kind N]\n", argv[0]);
      return 2;
    }
  }
  if (out.empty()) {
    std::fprintf(stderr, "usage: %s OUTDIR [--seed N] [--per-kind N]\n", argv[0]);
    return 2;
  }
  const auto programs = tlmcraft::bench::generate_probe_programs(seed, per_kind);
  std::error_code ec;
  fs::create_directories(out, ec);
  std::ofstream manifest(fs::path(out) / "manifest.tsv");
  if (!manifest) {
    std::fprintf(stderr, "cannot write %s/manifest.tsv\n", out.c_str());
    return 1;
  }
  manifest << "kind\tname\tfile\n";
  std::map<std::string, int> per;
  for (const auto& p : programs) {
    const std::string file = p.name + ".s";
    const fs::path path = fs::path(out) / file;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream f(path);
    f << p.source;
    if (!f) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 1;
    }
    manifest << p.kind << '\t' << p.name << '\t' << file << '\n';
    ++per[p.kind];
  }
  for (const auto& [kind, n] : per) std::printf("%-14s %d\n", kind.c_str(), n);
  std::printf("%zu programs (seed %llu) in %s\n", programs.size(), (unsigned long long)seed,
              out.c_str());
  return 0;
}
