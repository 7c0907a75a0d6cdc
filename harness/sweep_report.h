// The outcome of a sweep as tables: per variant its pass count and geomean speedup over the
// reference variant (harness/compare.h), and a cycles table (rows: platform/task/config,
// one column per variant). Text, JSON (schema "tlmcraft.sweep/1") and HTML (sweep_html.h).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/compare.h"

namespace tlmcraft::harness {

struct SweepVariantResult {
  std::string name;
  std::string id;             // provenance variant id
  nlohmann::json provenance;
  std::vector<nlohmann::json> records;
};

struct SweepVariantSummary {
  int passed = 0, run = 0;                        // cells with a supported result
  std::optional<double> geomean_speedup;          // reference cycles / this variant's cycles
  std::optional<double> energy_ratio;             // this variant's energy / reference's (geomean)
  std::optional<double> total_energy_pj;          // summed over cells passing on every variant
  std::optional<uint64_t> total_cycles;           // summed over the same cells
  std::optional<double> area_mm2;                 // the variant's area estimate, when records carry one
  nlohmann::json added_uses = nlohmann::json::array();  // its added instructions' uses (variant_uses.h)
  Comparison against_reference;
};

struct SweepRow {
  std::string platform, task, config;
  int level = -1;
  std::vector<std::string> status;               // per variant ("" = no record)
  std::vector<std::optional<uint64_t>> cycles;   // per variant
  std::vector<std::optional<double>> energy_pj;  // per variant
};

struct SweepTable {
  std::vector<SweepVariantResult> variants;
  size_t reference = 0;
  std::vector<SweepVariantSummary> summaries;  // per variant
  std::vector<SweepRow> rows;                  // sorted by platform, level, task, config
};

SweepTable build_sweep_table(std::vector<SweepVariantResult> variants, size_t reference);
nlohmann::json sweep_to_json(const SweepTable& table);
std::string sweep_to_text(const SweepTable& table);

}  // namespace tlmcraft::harness
