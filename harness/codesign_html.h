// The co-design page (`tlmcraft report DIR`, where DIR is a `codesign explore` output):
// one self-contained HTML file (inline CSS and SVG, no scripts) from DIR/summary.json.
// Stable hooks: id="codesign-pareto-area" (speedup over added area) and
// id="codesign-pareto-energy" (energy ratio over speedup), points class="point" or
// "point pareto" each with a visible label; id="codesign-variants" (a row per variant:
// candidates, speedup, energy, area, failures); id="codesign-instructions" (per
// instruction: kernels using it, static and dynamic counts, cycles saved, break-even
// latency); id="codesign-tasks" (speedup per task and config of each front variant);
// id="codesign-energy" (energy by component of each front variant).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace tlmcraft::harness {

// True when `summary` is a codesign explore summary (it has "variants" and "pareto").
bool is_codesign_summary(const nlohmann::json& summary);

std::string render_codesign_html(const nlohmann::json& summary, const std::string& title);

}  // namespace tlmcraft::harness
