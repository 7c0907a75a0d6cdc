// A finished run's report as `tlmcraft run` and the agent's final verdict give it:
// evaluate() plus the variant's provenance and the energy, area and roofline estimates.
#pragma once
#include <nlohmann/json.hpp>

#include "harness/evaluate.h"
#include "platforms/platform.h"

namespace tlmcraft::harness {

// The variant is o.platform_config, o.overrides and TLMCRAFT_ISA_DIR (as the CLI sets it).
nlohmann::json evaluate_run(Platform& platform, const EvalOptions& o);

// Adds the energy, area and roofline estimates (harness/ppa_model.h) and, under an ISA
// variant, each added instruction's uses (harness/variant_uses.h) to a run's report: one
// step for every entry point (run, the agent's tools and verdict), so they agree.
void add_run_estimates(nlohmann::json& report, const Platform& platform);

}  // namespace tlmcraft::harness
