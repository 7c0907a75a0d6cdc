// The suite report: one self-contained HTML file (inline CSS and SVG, no scripts, no
// external resources) from suite results. Stable hooks for tests and tooling:
//   id="report-title", id="run-metadata", id="summary-table"
//   per platform P (P made id-safe: characters outside [A-Za-z0-9_-] become '_'):
//     id="platform-P", id="pass-matrix-P" (cells: <g class="cell pass|fail|unsupported|notrun"
//     id="cell-P-TASK-CONFIG" data-status="...">, tooltip in <title>), id="speedup-chart-P"
//     (bars class="bar faster|slower"), id="utilisation-P" (bars class="util-bar"),
//     id="failures-P" (table of failing jobs with their reasons)
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/summary.h"

namespace tlmcraft::harness {

struct HtmlReportOptions {
  std::string title = "tlmcraft suite report";
  std::vector<std::string> sources;  // result files, listed in the metadata
  std::vector<std::string> record_sources;  // the file of each record (same order), for the variants table
  std::string generated;             // time stamp text; empty = left out
  SummaryOptions summary;
};

std::string render_html_report(const std::vector<nlohmann::json>& records, const HtmlReportOptions& options);

// Escapes & < > " ' for text and attribute values.
std::string html_escape(const std::string& text);
// Makes a name usable inside an id: [A-Za-z0-9_-] kept, anything else becomes '_'.
std::string id_token(const std::string& name);

}  // namespace tlmcraft::harness
