// What each instruction an ISA variant adds did in a run (docs/report-schema.md,
// `isa_variant_uses`): its area beside how often the kernel image holds it (static) and how
// often it ran (executions), so an added instruction that is never used says so instead of
// hiding in the area total. The platform counts (RunResult::added_instructions); the
// lines, their sentences and the suite's totals are built here, the same for every platform.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "platforms/isa_variant_area.h"

namespace tlmcraft::harness {

// Adds "isa_variant_uses" to a run's report: one object per instruction line of `variant`
// (register ports are not instructions), in its order: {name, static, executions, mm2,
// text}; `static`/`executions` from the report's `added_instructions` (null where the
// platform counts none), `mm2` the report's area line for it (x ppa.area_scale; the
// variant's own figure without an area estimate; null with `unpriced`, the reason). No-op
// without instruction lines or for a report whose kernel did not run (no `units`).
void add_variant_uses(nlohmann::json& report, const std::optional<std::vector<AddedArea>>& variant);

// One line of a report, as a sentence: "vqmacc: added, 0 uses (area +0.002493 mm2 with no
// effect on cycles)", "V_SILU_V: placed 1 time, executed 4 times (area +0.01 mm2)".
std::string variant_use_text(const nlohmann::json& use);

// The uses summed over a suite's records (bench): per instruction {name, static,
// executions, runs, runs_using, used_by (task/config of the runs that executed it), mm2,
// text}, in first-seen order; empty when no record has `isa_variant_uses`.
nlohmann::json suite_variant_uses(const std::vector<nlohmann::json>& records);

// The sentence of one such total ({name, static, executions, runs, runs_using, used_by,
// mm2 or unpriced}): "vqmacc: added, 0 uses in 32 runs (area +0.002493 mm2 with no effect
// on cycles)", "V_SILU_V: executed 4 times in 1 of 2 runs (silu/C1), placed 1 time (...)".
std::string suite_variant_use_text(const nlohmann::json& total);

// The "isa variant:" lines of a text report, one per element of `uses` (either form).
std::string variant_uses_text(const nlohmann::json& uses, const std::string& indent = "  ");

}  // namespace tlmcraft::harness
