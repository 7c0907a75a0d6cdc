// `tlmcraft codesign explore` (docs/codesign.md): ISA variants built from sets
// of mined candidates under an area budget. For each variant the suite's
// kernels are rewritten to use its composed instructions (the platform
// adapter's matcher), then the suite is evaluated by `tlmcraft bench` on fresh
// seeds (each variant its own resumable results file; the local or Slurm
// executor). One store, DIR/explore.jsonl, holds one line per variant, written
// once: a rerun evaluates only the variants it lacks. A variant with a failing
// kernel is recorded with that kernel and never counted on the front.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "agent/codesign/kernel_dataflow.h"

namespace tlmcraft::agent::codesign {

struct ExploreCandidate {
  std::string name;
  nlohmann::json overlay;  // {isa, instructions, latency_classes}
  double area_mm2 = 0;     // its own datapath, without the hardware it needs
  // Hardware changes it needs (the candidates file's `hardware:` entries): a gene of the
  // variant, on when any of its candidates needs it, whose area counts once.
  std::vector<std::string> needs = {};
};

// Reads a candidates file (codesign mine's candidates.yaml, YAML or JSON).
// Throws std::invalid_argument naming the file and what is wrong (a candidate needing
// hardware the file does not list among them).
std::vector<ExploreCandidate> load_candidates(const std::string& path, const std::string& isa);
// The file's `hardware:` entries ({name, area_mm2, overlay}), as candidates without
// instructions; empty when it has none.
std::vector<ExploreCandidate> load_candidate_hardware(const std::string& path);

// Prices every hardware change and candidate with the platform's model (the adapter's
// overlay_area: the one pricing a run's report and `isa check` use,
// docs/energy-area.md "Area under an ISA variant"), so a variant's area is what a run under
// its overlay reports: a candidate's own area is its overlay's less the hardware changes
// it needs (those count once per variant). A figure from the file stays only where the
// model cannot price the overlay.
void price_candidates(const DataflowAdapter& adapter, const nlohmann::json& hardware,
                      std::vector<ExploreCandidate>& candidates, std::vector<ExploreCandidate>& hardware_changes);

// One suite cell and its baseline kernel.
struct SuiteCell {
  std::string task, config, kernel, extension;  // extension: ".asm", ".c"
};

// One evaluated variant: what the store holds.
struct VariantResult {
  std::string id;  // "base" or the candidate names joined by '+'
  std::vector<std::string> candidates;
  std::vector<std::string> hardware;                        // the hardware changes its candidates need
  double area_mm2 = 0;                                      // the platform's area plus the candidates' and hardware's
  bool ok = false;                                          // every cell passed
  std::vector<std::string> failures;                        // "task/config: status (reason)"
  std::map<std::string, double> cycles;                     // "task/config" -> cycles
  std::map<std::string, double> energy_pj;                  // "task/config" -> energy
  std::map<std::string, double> energy_by_component;        // summed over the cells
  std::map<std::string, KernelRewrite::Use> uses;           // mnemonic -> placements and executions over the suite
  std::map<std::string, std::vector<std::string>> used_by;  // mnemonic -> cells using it
  nlohmann::json to_json() const;
  static VariantResult from_json(const nlohmann::json& j);
};

// Evaluates one variant's kernels with its overlay; returns the bench results
// file.
using SuiteRunner = std::function<std::string(const std::string& kernels_dir, const std::string& overlay_path,
                                              const std::string& results_path)>;

// The trial seeds on which `kernel_path` fails cell `cell` when run with
// `trials` trials from `first_seed` (bench's seeds: consecutive from the first).
using SeedChecker = std::function<std::vector<uint64_t>(const SuiteCell& cell, const std::string& kernel_path,
                                                        uint64_t first_seed, int trials)>;

struct ExploreOptions {
  std::string platform, out_dir, strategy = "greedy";  // greedy, beam or nsga2
  // rewrite: the baselines (rewritten for a variant); search: then the adapter's
  // search_kernel on both sides (the base's baselines and every variant's rewrites)
  std::string kernel_generation = "rewrite";
  unsigned search_threads = 1;                    // kernels searched at once (search)
  double base_area_mm2 = 0, area_budget_mm2 = 0;  // budget: added area at most
  // The platform config's ppa.area_scale: candidates' areas are priced before it (45 nm),
  // and a variant's added area is scaled by it, as a run's report scales it.
  double area_scale = 1;
  int beam_width = 3;
  size_t population = 16;  // nsga2: sets per generation
  int generations = 20;    // nsga2
  uint64_t seed = 1;       // nsga2: its random choices
  size_t max_variants = 64;
  nlohmann::json hardware;
  std::vector<ExploreCandidate> hardware_changes;  // what candidates may need (load_candidate_hardware)
  // Optional: a failing cell of a variant is rerun with the base kernel on the
  // same seeds; when that fails on the same seed too, the failure says so (the
  // baseline's, not the candidates'; the variant stays excluded).
  SeedChecker base_seed_check;
};

struct ExploreResult {
  std::vector<VariantResult> variants;  // in evaluation order, base first
  std::vector<std::string> pareto;      // ids on the front (geomean cycles, energy, area)
  nlohmann::json summary;               // written to DIR/summary.json
};

// An exploration in progress: its store (loaded at construction), candidates
// and evaluated variants. The strategies and the architect agent's tools use
// it.
class Exploration {
 public:
  // Throws std::invalid_argument for an unknown strategy, a non-positive budget
  // or a store line that is not a variant record.
  Exploration(const DataflowAdapter& adapter, std::vector<ExploreCandidate> candidates, std::vector<SuiteCell> cells,
              SuiteRunner run, ExploreOptions options);
  // The variant of these candidates (by name), evaluated once. Throws
  // std::invalid_argument for an unknown or repeated name.
  const VariantResult& evaluate(const std::vector<std::string>& names);
  void add_candidate(ExploreCandidate c);  // throws std::invalid_argument for a name in use
  // The area a set of candidates adds: theirs, plus each hardware change they need once.
  double added_area(const std::vector<const ExploreCandidate*>& set) const;
  double added_area(const std::vector<std::string>& names) const;  // unknown names add nothing
  const std::vector<ExploreCandidate>& candidates() const { return candidates_; }
  const ExploreOptions& options() const { return o_; }
  // The ceiling of the candidate space (agent/codesign/ceiling.h): every candidate at once at
  // the ceiling's latency, no area limit; evaluated once (DIR/ceiling.jsonl), then in the
  // summary's "ceiling", never among the variants.
  const VariantResult& ceiling();
  ExploreResult run_strategy();  // the options' strategy, then result()
  ExploreResult result();        // what has been evaluated: front and summary (written to DIR)

 private:
  const DataflowAdapter& adapter_;
  std::vector<ExploreCandidate> candidates_;
  std::vector<SuiteCell> cells_;
  SuiteRunner run_;
  ExploreOptions o_;
  std::map<std::string, VariantResult> done_;
  std::vector<std::string> order_;
  std::optional<VariantResult> ceiling_;
  std::map<std::string, KernelRewrite> searched_;  // by the hash of kernel and overlay
  std::mutex searched_mu_;

  std::vector<const ExploreCandidate*> hardware_of(const std::vector<const ExploreCandidate*>& set) const;
  std::filesystem::path store_path() const;
  void load_store();
  const VariantResult& evaluate(const std::vector<const ExploreCandidate*>& set);
  // Generates the kernels of a set under `overlay`, runs the suite in DIR/variants/<id> and
  // reads its results: what evaluate() stores.
  VariantResult run_variant(const std::string& id, const std::vector<const ExploreCandidate*>& set,
                            const nlohmann::json& overlay);
  // Writes each cell's generated kernel under `dir`; their uses are added to `v` unless
  // `v` is null.
  void write_kernels(const std::filesystem::path& dir, const std::vector<const ExploreCandidate*>& set,
                     const nlohmann::json& overlay, VariantResult* v);
  nlohmann::json cell_hardware(const SuiteCell& cell) const;  // the options' hardware plus the cell
  // One cell's kernel for a variant: rewritten (a variant), then searched (search).
  KernelRewrite generated_kernel(const SuiteCell& cell, const std::vector<const ExploreCandidate*>& set,
                                 const nlohmann::json& overlay);
  // --kernel-generation search: the adapter's search_kernel of `kernel` under `overlay`,
  // once per distinct pair (memoised in DIR/search_cache/, so a rerun or another variant
  // with the same kernel and ops reuses it).
  KernelRewrite searched(const std::string& kernel, const nlohmann::json& overlay, const nlohmann::json& hardware);
  // An adapter that places instructions at build: the uses the suite's own runs recorded
  // (each result's `added_instructions`: static count, executions), in the cells' order.
  void count_recorded_uses(const std::string& results_path, VariantResult& v) const;
  static void add_uses(const SuiteCell& cell, const KernelRewrite& r, VariantResult& v);
  // A failing cell: where its seeds start, how many trials, the failing one.
  struct FailedCell {
    std::string task, config;
    uint64_t first_seed = 0, seed = 0;
    int trials = 0;
    size_t failure = 0;  // index into VariantResult::failures
  };
  static std::vector<FailedCell> read_results(const std::string& path, VariantResult& v);
  void check_base_on_seeds(const std::vector<FailedCell>& failed, VariantResult& v) const;
  bool over_limit(const std::vector<const ExploreCandidate*>& set) const;  // --max-variants reached for it
  void greedy(const VariantResult& base, std::vector<const ExploreCandidate*> ranked);
  void beam(const VariantResult& base, const std::vector<const ExploreCandidate*>& pool);
  void nsga2_search(const VariantResult& base, const std::vector<const ExploreCandidate*>& pool);
  nlohmann::json break_even(const VariantResult& base, const ExploreCandidate& c) const;
  nlohmann::json summary(const VariantResult& base, const ExploreResult& r) const;
};

ExploreResult explore(const DataflowAdapter& adapter, const std::vector<ExploreCandidate>& candidates,
                      const std::vector<SuiteCell>& cells, const SuiteRunner& run, const ExploreOptions& options);

// Geometric mean over the cells both variants passed of base cycles / variant
// cycles.
double geomean_speedup(const VariantResult& base, const VariantResult& v);

// Geometric mean over the cells both variants measured of variant energy / base
// energy (1 when there is none).
double energy_ratio(const VariantResult& base, const VariantResult& v);

// The ids not dominated in (geomean cycles ratio, total energy ratio, area)
// among `ok` variants.
std::vector<std::string> pareto_front(const VariantResult& base, const std::vector<VariantResult>& variants);

}  // namespace tlmcraft::agent::codesign
