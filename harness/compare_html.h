// A comparison (harness/compare.h) as one self-contained HTML page: the geomeans, a
// per-task speedup chart on a log scale, the regressions, wins and the table of every cell.
// Stable hooks: id="compare-summary", id="compare-chart" (bars class="bar faster|slower"),
// id="compare-cells" (rows data-speedup), id="compare-regressions", id="compare-wins",
// id="compare-only-a", id="compare-only-b".
#pragma once
#include <string>

#include "harness/compare.h"

namespace tlmcraft::harness {

std::string render_compare_html(const Comparison& comparison, const std::string& title = "tlmcraft comparison");

}  // namespace tlmcraft::harness
