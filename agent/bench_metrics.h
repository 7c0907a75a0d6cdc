// Agent-specific metrics over agent-bench results (report lines with an "agent" object,
// agent/agent_report.h), next to the suite summary's n/5, pass@k, fast_p and
// geometric-mean speedup (harness/summary.h): iterations (rounds) to the first correct
// kernel, tokens, tool calls and why runs stopped.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::agent {

// Schema "tlmcraft.agent_metrics/1":
// {"schema", "runs", "solved_runs", "mean_first_correct_round" (null when none solved),
//  "tokens": {"input", "output"}, "tool_calls", "tool_errors", "stop_reasons": {reason: n},
//  "tasks": [{"platform", "task", "level", "configs_solved", "configs_run", "runs",
//             "solved_runs", "mean_first_correct_round", "tokens": {...}}]}
// Lines without an "agent" object (e.g. "unsupported") are left out.
nlohmann::json agent_bench_metrics(const std::vector<nlohmann::json>& records);
std::string agent_bench_metrics_text(const nlohmann::json& metrics);

}  // namespace tlmcraft::agent
