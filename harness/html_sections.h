// Sections of the suite report (html_report.cpp) that an architect reads per platform:
// the cycles table, run figures (energy, traffic, bandwidth, stalls), the roofline, unit
// utilisation grouped over tiles with per-tile heat maps, the agent figures, and the
// variants (provenance) behind the results. Stable hooks:
//   id="cycles-P" (cells data-cycles), id="run-figures-P", id="roofline-P" (points
//   class="roof-point"), id="unit-groups-P", id="tile-heatmaps-P", id="agent-P",
//   id="variants" (a row per variant).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/summary.h"

namespace tlmcraft::harness {

using RecordRefs = std::vector<const nlohmann::json*>;

void cycles_table(std::ostream& os, const PlatformSummary& ps);
void run_figures_table(std::ostream& os, const std::string& platform, const RecordRefs& records);
void roofline_chart(std::ostream& os, const std::string& platform, const RecordRefs& records);
// Units whose names differ only in numbers (tile(0,1).vec, tile(2,3).vec) as one group.
std::string unit_group(const std::string& unit_name);
void unit_group_utilisation(std::ostream& os, const std::string& platform, const RecordRefs& records);
void tile_heatmaps(std::ostream& os, const std::string& platform, const RecordRefs& records);
void agent_table(std::ostream& os, const std::string& platform, const RecordRefs& records);
// Each variant (job.variant) with its label, overrides, hashes, commit and source files.
void variants_table(std::ostream& os, const std::vector<nlohmann::json>& records,
                    const std::vector<std::string>& record_sources);
// Per variant, each instruction it adds: placed, executed, runs using it, area and the
// sentence (harness/variant_uses.h); nothing when no record has `isa_variant_uses`.
void variant_uses_table(std::ostream& os, const std::vector<nlohmann::json>& records);

}  // namespace tlmcraft::harness
