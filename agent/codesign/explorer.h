// `tlmcraft codesign explore` (docs/codesign.md): ISA variants built from sets of mined
// candidates under an area budget. For each variant the suite's kernels are rewritten to
// use its composed instructions (the platform adapter's matcher), then the suite is
// evaluated by `tlmcraft bench` on fresh seeds (each variant its own resumable results
// file; the local or Slurm executor). One store, DIR/explore.jsonl, holds one line per
// variant, written once: a rerun evaluates only the variants it lacks. A variant with a
// failing kernel is recorded with that kernel and never counted on the front.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/codesign/kernel_dataflow.h"

namespace tlmcraft::agent::codesign {

struct ExploreCandidate {
  std::string name;
  nlohmann::json overlay;  // {isa, instructions, latency_classes}
  double area_mm2 = 0;
};

// Reads a candidates file (codesign mine's candidates.yaml, YAML or JSON). Throws
// std::invalid_argument naming the file and what is wrong.
std::vector<ExploreCandidate> load_candidates(const std::string& path, const std::string& isa);

// One suite cell and its baseline kernel.
struct SuiteCell {
  std::string task, config, kernel, extension;  // extension: ".asm", ".c"
};

// One evaluated variant: what the store holds.
struct VariantResult {
  std::string id;                       // "base" or the candidate names joined by '+'
  std::vector<std::string> candidates;
  double area_mm2 = 0;                  // the platform's area plus the candidates'
  bool ok = false;                      // every cell passed
  std::vector<std::string> failures;    // "task/config: status (reason)"
  std::map<std::string, double> cycles;       // "task/config" -> cycles
  std::map<std::string, double> energy_pj;    // "task/config" -> energy
  std::map<std::string, double> energy_by_component;  // summed over the cells
  std::map<std::string, KernelRewrite::Use> uses;  // mnemonic -> placements and executions over the suite
  std::map<std::string, std::vector<std::string>> used_by;  // mnemonic -> cells using it
  nlohmann::json to_json() const;
  static VariantResult from_json(const nlohmann::json& j);
};

// Evaluates one variant's kernels with its overlay; returns the bench results file.
using SuiteRunner = std::function<std::string(const std::string& kernels_dir, const std::string& overlay_path,
                                              const std::string& results_path)>;

struct ExploreOptions {
  std::string platform, out_dir, strategy = "greedy";
  double base_area_mm2 = 0, area_budget_mm2 = 0;  // budget: added area at most
  int beam_width = 3;
  size_t max_variants = 64;
  nlohmann::json hardware;
};

struct ExploreResult {
  std::vector<VariantResult> variants;  // in evaluation order, base first
  std::vector<std::string> pareto;      // ids on the front (geomean cycles, energy, area)
  nlohmann::json summary;               // written to DIR/summary.json
};

ExploreResult explore(const DataflowAdapter& adapter, const std::vector<ExploreCandidate>& candidates,
                      const std::vector<SuiteCell>& cells, const SuiteRunner& run, const ExploreOptions& options);

// Geometric mean over the cells both variants passed of base cycles / variant cycles.
double geomean_speedup(const VariantResult& base, const VariantResult& v);

// The ids not dominated in (geomean cycles ratio, total energy ratio, area) among `ok` variants.
std::vector<std::string> pareto_front(const VariantResult& base, const std::vector<VariantResult>& variants);

}  // namespace tlmcraft::agent::codesign
