// The final verdict of an agent run: after the loop ends, its best version is evaluated
// again on inputs from seeds that differ from every development evaluation's (fresh from
// the OS unless the user fixes them), so the agent never sees the verdict's seeds or
// outputs and cannot tune a kernel to them (docs/agent.md, "The final verdict").
#pragma once
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "agent/loop.h"
#include "agent/toolbox.h"
#include "agent/workspace.h"

namespace tlmcraft::agent {

// The verdict's evaluation report, with "verdict": {"version", "seeds", "development_seeds"
// (how many seeds the stored development reports used)}; null when the run has no
// correct version. Throws harness InputError when a fixed verdict seed range overlaps a
// development evaluation's seeds.
nlohmann::json final_verdict(const Workload& workload, const LoopResult& result, const Workspace& workspace,
                             const ToolboxOptions& options, std::optional<uint64_t> verdict_seed);

}  // namespace tlmcraft::agent
