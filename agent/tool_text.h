// The compact texts the tools give the model, built from evaluation reports
// (docs/report-schema.md) and platform configurations. Kept short: a model reads them
// every round.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace tlmcraft::agent {

// "status: pass  match_rate: 100.00%  cycles: 1234 (baseline 1500, speedup 1.22x)" and,
// when the kernel did not pass, a second line "reason: ..." followed by each core's reads
// of a register before its in-flight result landed, where the platform has no register
// interlocks (report memory.cores.<core>.pipeline: count and notes).
std::string evaluation_text(const nlohmann::json& report);
// The lowest match rate over the report's checked trials; -1 when none was checked.
double report_match_rate(const nlohmann::json& report);

// view_output: the got/want statistics of the last trial that was checked: mismatch
// share, mse, errors, per-row table (mismatching rows first when there are many), first
// mismatches with coordinates, unwritten outputs.
std::string output_text(const nlohmann::json& report, size_t max_rows = 16);

// profile: per-unit busy/stall/utilisation, hottest source lines with their text,
// memory traffic, and reads of registers before their results landed (as above).
std::string profile_text(const nlohmann::json& report);

// A JSON value as indented YAML-like text (objects as "key: value" blocks, arrays of
// scalars inline).
std::string yaml_text(const nlohmann::json& value, int indent = 0);

// Fixed-point text for a double with `digits` decimals ("1.22").
std::string fixed(double v, int digits);

}  // namespace tlmcraft::agent
