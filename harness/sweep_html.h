// The sweep page: one self-contained HTML file (inline CSS and SVG, no scripts).
// Stable hooks: id="sweep-variants" (a row per variant with its provenance),
// id="sweep-cycles" (rows: platform/task/config; a column per variant; cells
// data-cycles, data-speedup against the reference), id="pareto-cycles-area" and
// id="pareto-energy-cycles" (points class="point" / "point pareto"), present when the
// records carry area and energy estimates.
#pragma once
#include <string>

#include "harness/sweep_report.h"

namespace tlmcraft::harness {

std::string render_sweep_html(const SweepTable& table, const std::string& title);

}  // namespace tlmcraft::harness
