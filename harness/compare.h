// A/B comparison of two result sets (two JSONL files, or two variants of one sweep store):
// per cell (platform, task, config) the cycle ratio, geometric means per task, level and
// platform, regressions and wins, status changes, cells on one side only.
//
// speedup = A cycles / B cycles: above 1 B is faster. A is the reference: with A holding
// baseline kernels on the reference hardware and B kernels or baselines on a variant, the
// speedup is "against the reference variant's baseline", so a hardware change shows its
// effect instead of the 1.00x of a same-variant baseline.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::harness {

// Records of one variant in a results store (grouped by the job's variant id).
struct VariantGroup {
  std::string id;     // provenance variant id; "" for records without one
  std::string label;  // name, or the overrides (variant_label)
  nlohmann::json provenance;
  std::vector<nlohmann::json> records;
};
// In the order the variants first appear.
std::vector<VariantGroup> variant_groups(const std::vector<nlohmann::json>& records);
// The most variants the records of any one platform span. Each platform's stock config is
// a variant of its own, so results of several platforms alone give 1; more than 1 means
// hardware/ISA variants of one platform are mixed.
size_t variants_per_platform(const std::vector<nlohmann::json>& records);
// The group `selector` names (a variant name, label, or id prefix of >= 4 digits); with an
// empty selector the only group. Throws std::invalid_argument listing the variants when
// none or several match, naming `source` (a file) in the message.
const VariantGroup& select_variant(const std::vector<VariantGroup>& groups, const std::string& selector,
                                   const std::string& source);

struct CompareCell {
  std::string platform, task, config;
  int level = -1;
  std::string a_status, b_status;          // "" = no record on that side
  std::optional<uint64_t> a_cycles, b_cycles;
  std::optional<double> speedup;           // A/B cycles, when both passed
  std::optional<double> a_energy_pj, b_energy_pj;
  std::optional<double> energy_ratio;      // B/A energy, when both passed and have one
};

struct GeoGroup {
  std::string name;  // "plena/gemv", "plena level 1", "plena"
  int cells = 0;
  std::optional<double> geomean;
  std::optional<double> energy_geomean;  // of energy_ratio
};

struct CompareOptions {
  std::string a_label = "A", b_label = "B";
  double threshold = 0.02;  // |speedup - 1| above this is a regression or a win
};

struct Comparison {
  CompareOptions options;
  std::vector<CompareCell> cells;  // on both sides, sorted by platform, level, task, config
  std::vector<CompareCell> only_a, only_b;
  std::vector<GeoGroup> by_task, by_level, by_platform;
  GeoGroup overall;
  std::vector<size_t> regressions;     // indices into cells, slowest first
  std::vector<size_t> wins;            // fastest first
  std::vector<size_t> status_changes;  // a_status != b_status
};

// Per side and cell the best record: a pass with the fewest cycles, else the first failure.
Comparison compare_results(const std::vector<nlohmann::json>& a, const std::vector<nlohmann::json>& b,
                           const CompareOptions& options = {});

nlohmann::json comparison_to_json(const Comparison& c);  // schema "tlmcraft.compare/1"
std::string comparison_to_text(const Comparison& c);

}  // namespace tlmcraft::harness
