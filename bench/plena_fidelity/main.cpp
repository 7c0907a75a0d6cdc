// PLENA fidelity campaign: runs template-compiler kernels (SiLU, GEMM at the paper's five
// sizes), the repository's PLENA baselines and generated prefetch / compute / mixed
// programs on the platform's serial mode and on the reference-timing oracle (plena-ref),
// printing per-program cycles and error and the error distribution per kind.
// Usage: plena_fidelity [--oracle PATH] [--generated N] [--seed S] [--quiet]
//        plena_fidelity --write-kernels DIR     (writes every program as DIR/<name>.asm)
// The oracle path: --oracle, else $PLENA_REF, else /work/shared/oracles/plena-ref/plena-ref.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <unistd.h>

#include "bench/plena_fidelity/oracle.h"
#include "bench/plena_fidelity/programs.h"
#include "platforms/plena/plena_platform.h"

using namespace tlmcraft;
using namespace tlmcraft::bench;

namespace {

struct Options {
  std::string oracle, write_dir;
  int generated = 150;
  uint64_t seed = 1;
  bool quiet = false;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "plena_fidelity: %s\nusage: plena_fidelity [--oracle PATH] [--generated N] [--seed S] [--quiet]\n"
               "       plena_fidelity --write-kernels DIR\n", why.c_str());
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--oracle") o.oracle = value();
    else if (a == "--write-kernels") o.write_dir = value();
    else if (a == "--generated") o.generated = std::atoi(value().c_str());
    else if (a == "--seed") o.seed = std::strtoull(value().c_str(), nullptr, 10);
    else if (a == "--quiet") o.quiet = true;
    else usage("unknown argument '" + a + "'");
  }
  if (o.generated < 0) usage("--generated must be >= 0");
  return o;
}

std::vector<FidelityProgram> all_programs(const Options& o) {
  std::vector<FidelityProgram> all = template_programs();
  for (auto& p : baseline_programs()) all.push_back(std::move(p));
  for (const char* kind : {"prefetch", "compute", "mixed"})
    for (auto& p : generated_programs(kind, o.generated, o.seed)) all.push_back(std::move(p));
  return all;
}

// Serial-mode cycles: the total, or without the HBM transfers' cycles.
bool model_cycles(const FidelityProgram& p, uint64_t& cycles, std::string& error) {
  plena::PlenaPlatform platform(plena::load_plena_config("default", {"timing.mode=serial"}));
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  if (!platform.assemble(p.text, p.name + ".asm", prog, diags)) {
    error = diags.empty() ? "assembly failed" : diags.front().format();
    return false;
  }
  platform.load(prog);
  RunLimits limits;
  limits.max_instructions = 1ull << 40;
  limits.wall_seconds = 0;
  const RunResult r = platform.run(limits, {});
  if (!r.ok()) {
    error = r.message;
    return false;
  }
  cycles = r.cycles;
  if (p.measure == Measure::NonHbm)
    for (const auto& u : r.units)
      if (u.name.rfind("dma.", 0) == 0) cycles -= u.busy_cycles;
  return true;
}

struct Row {
  std::string kind, name;
  uint64_t model = 0, oracle = 0;
  double error = 0;  // (model - oracle) / oracle
};

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(std::ceil(q * double(v.size()))) - (q > 0 ? 1 : 0))];
}

void summary(const std::vector<Row>& rows) {
  std::map<std::string, std::vector<double>> by_kind;
  std::vector<double> all;
  for (const Row& r : rows) {
    by_kind[r.kind].push_back(std::fabs(r.error));
    all.push_back(std::fabs(r.error));
  }
  by_kind["all"] = all;
  std::printf("\n| kind | programs | exact | median abs error | 95th percentile | worst |\n|---|---|---|---|---|---|\n");
  for (const auto& [kind, v] : by_kind) {
    const auto exact = std::count(v.begin(), v.end(), 0.0);
    std::printf("| %s | %zu | %ld | %.3f%% | %.3f%% | %.3f%% |\n", kind.c_str(), v.size(), long(exact),
                100 * percentile(v, 0.5), 100 * percentile(v, 0.95), 100 * percentile(v, 1.0));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // one line per program as it finishes
  const Options o = parse(argc, argv);
  const std::vector<FidelityProgram> programs = all_programs(o);
  if (!o.write_dir.empty()) {
    std::filesystem::create_directories(o.write_dir);
    for (const auto& p : programs) std::ofstream(o.write_dir + "/" + p.name + ".asm") << p.text;
    std::printf("wrote %zu kernels to %s\n", programs.size(), o.write_dir.c_str());
    return 0;
  }
  const std::string oracle_path = PlenaOracle::locate(o.oracle);
  if (oracle_path.empty()) {
    const char* env = std::getenv("PLENA_REF");
    const std::string tried = !o.oracle.empty() ? "--oracle " + o.oracle
                              : env            ? std::string("$PLENA_REF=") + env
                                               : std::string("/work/shared/oracles/plena-ref/plena-ref");
    std::printf("plena_fidelity: no PLENA reference oracle at %s (not an executable file; give one with --oracle "
                "PATH or $PLENA_REF); skipping the campaign.\n", tried.c_str());
    return 0;
  }
  const PlenaOracle oracle(oracle_path);
  const std::string dir = std::filesystem::temp_directory_path().string() + "/plena_fidelity." + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::printf("oracle: %s; %zu programs; kernels in %s\n\n| kind | program | measure | model | oracle | error |\n"
              "|---|---|---|---|---|---|\n", oracle_path.c_str(), programs.size(), dir.c_str());
  std::vector<Row> rows;
  int failures = 0;
  for (const auto& p : programs) {
    const std::string file = dir + "/" + p.name + ".asm";
    std::ofstream(file) << p.text;
    const bool total = p.measure == Measure::Total;
    uint64_t model = 0;
    std::string error;
    const OracleResult ref = oracle.measure(file, total);
    if (!ref.ok || !model_cycles(p, model, error)) {
      std::printf("| %s | %s | - | failed: %s |\n", p.kind.c_str(), p.name.c_str(), ref.ok ? error.c_str() : ref.error.c_str());
      ++failures;
      continue;
    }
    Row r{p.kind, p.name, model, total ? ref.total : ref.nonhbm, 0};
    r.error = r.oracle ? (double(r.model) - double(r.oracle)) / double(r.oracle) : (r.model ? 1.0 : 0.0);
    if (!o.quiet || r.error != 0)
      std::printf("| %s | %s | %s | %llu | %llu | %+.3f%% |\n", p.kind.c_str(), p.name.c_str(), total ? "total" : "non-HBM",
                  (unsigned long long)r.model, (unsigned long long)r.oracle, 100 * r.error);
    rows.push_back(r);
  }
  summary(rows);
  std::printf("\n%d program(s) failed on the model or the oracle\n", failures);
  std::filesystem::remove_all(dir);
  return failures ? 1 : 0;
}
