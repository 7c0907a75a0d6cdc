#include "bench/plena_fidelity/programs.h"

#include <algorithm>

#include "platforms/plena/plena_platform.h"
#include "tasks/baselines/baseline.h"
#include "platforms/plena/pack/baselines/template_kernels.h"
#include "tasks/registry.h"

namespace tlmcraft::bench {

std::vector<FidelityProgram> template_programs() {
  std::vector<FidelityProgram> out;
  for (uint32_t n : {256u, 1024u, 2048u, 8192u, 16384u})
    out.push_back({"template-silu", "template_silu_" + std::to_string(n), tasks::plena::template_silu_kernel(n)});
  const uint32_t gemm[5][3] = {{4, 64, 64}, {8, 128, 128}, {16, 128, 256}, {32, 256, 256}, {64, 256, 512}};
  for (const auto& g : gemm)
    out.push_back({"template-gemm",
                   "template_gemm_" + std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" + std::to_string(g[2]),
                   tasks::plena::template_gemm_kernel(g[0], g[1], g[2])});
  return out;
}

namespace {

// The kernel with every H_STORE_V line commented out (line numbers kept).
std::string without_stores(const std::string& text) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(pos, nl - pos);
    const size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 9, "H_STORE_V") == 0) line = "; (store removed) " + line;
    out += line + "\n";
    pos = nl + 1;
  }
  return out;
}

// True when an H_PREFETCH_M/V line has precision operand 2 (BF16 in HBM).
bool prefetches_bf16(const std::string& text) {
  size_t pos = 0;
  while ((pos = text.find("H_PREFETCH_", pos)) != std::string::npos) {
    const size_t end = std::min(text.find('\n', pos), text.find(';', pos));
    const std::string line = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    size_t comma = 0;
    for (int i = 0; i < 4 && comma != std::string::npos; ++i) comma = line.find(',', comma + 1);
    if (comma != std::string::npos) {
      const size_t next = line.find(',', comma + 1);
      std::string prec = line.substr(comma + 1, next == std::string::npos ? std::string::npos : next - comma - 1);
      prec.erase(0, prec.find_first_not_of(" \t"));
      prec.erase(prec.find_last_not_of(" \t\r") + 1);
      if (prec == "2") return true;
    }
    pos += 11;
  }
  return false;
}

}  // namespace

std::vector<FidelityProgram> baseline_programs() {
  std::vector<FidelityProgram> out;
  const auto& reg = tasks::Registry::builtin();
  const nlohmann::json cfg = plena::PlenaPlatform(plena::load_plena_config("default")).config();
  for (const auto& task : reg.tasks()) {
    for (const char* c : {"C1", "C2", "C3", "C4", "C5"}) {
      try {
        const tasks::Instance in = reg.instance(task.name, "plena", c);
        if (!tasks::has_baseline(in)) continue;
        const std::string text = tasks::baseline_kernel(in, cfg);
        const bool stores = text.find("H_STORE_V") != std::string::npos;
        out.push_back({"baseline", "baseline_" + task.name + "_" + c, text, stores ? Measure::NonHbm : Measure::Total});
        // The oracle does not replay stores: the same kernel without them measures its
        // prefetches (C1..C3, to keep the campaign short), unless it prefetches BF16
        // (precision 2, a tlmcraft extension the reference reads as MX).
        if (stores && c[1] <= '3' && !prefetches_bf16(text))
          out.push_back({"baseline-no-store", "baseline_nostore_" + task.name + "_" + c, without_stores(text)});
      } catch (const std::exception&) {
        // the task has no PLENA cell at this configuration
      }
    }
  }
  return out;
}

}  // namespace tlmcraft::bench
