// The result of one agent run as one evaluation report (docs/report-schema.md), so that
// `tlmcraft agent --json`, agent-bench JSONL files, the bench summary and `tlmcraft
// report` all read it: the best correct version's report when the run solved the
// workload, else the last evaluation's report (or a synthesized "fail" line when nothing
// was evaluated), plus an "agent" object with the run's facts.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "agent/loop.h"
#include "agent/workspace.h"

namespace tlmcraft::agent {

// "agent": {provider, stop_reason, error, rounds, budget, first_correct_round,
// evaluations, tool_calls, tool_errors, tokens {input, output}, best_version,
// transcript, workspace}. `level` fills the report's level when nothing was evaluated.
// `verdict` (agent/verdict.h), when not null, decides: the report is the verdict's
// evaluation, and a best version that fails it leaves the workload not solved.
nlohmann::json agent_report(const Workload& workload, int level, const LoopResult& result, const Workspace& workspace,
                            const std::string& provider, const std::string& transcript_path,
                            const nlohmann::json& verdict = nullptr);

// Readable summary of a run ("solved silu/plena/C1 in 3 rounds: 120 cycles, baseline
// 140, speedup 1.17x; stop: submit; tokens 400 in / 40 out").
std::string agent_result_text(const Workload& workload, const LoopResult& result);

}  // namespace tlmcraft::agent
