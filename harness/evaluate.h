// evaluate(): kernel -> assemble -> load inputs -> poison outputs -> simulate with limits
// -> check against the reference -> one report (docs/report-schema.md).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platforms/platform.h"
#include "platforms/registry.h"

namespace tlmcraft {

struct EvalOptions {
  std::string platform = default_platform();  // a registered name (tlmcraft list platforms)
  std::string platform_config = "default";
  std::vector<std::string> overrides;  // KEY=VALUE platform-config overrides
  std::string task, config;            // e.g. "silu", "C1"
  std::string kernel_path;             // kernel file, or
  std::string kernel_source;           // kernel text (used when kernel_path is empty)
  bool use_baseline = false;           // evaluate the platform's baseline kernel
  int trials = 3;                      // fresh inputs per trial; all must pass
  // Trial k uses seed + k; without a seed, the first is drawn from the OS (harness/seeds.h).
  std::optional<uint64_t> seed;
  RunLimits limits;
  TraceOptions traces;                 // traces are written for the first trial only
  bool compare_baseline = true;        // also run the baseline to report speedup
};

// The report records its trials' seeds ("seeds", "seed_source": "fixed" or "os"), each
// trial's cycles, and reports the maximum over the trials as "cycles" (a kernel cannot
// show the speed of an input it knew in advance). After each trial every memory byte
// outside the outputs and the layout's scratch must be unchanged (harness/memory_guard.h).
// Never throws for a bad kernel: assembly errors, faults and limits become the report's
// status. Throws InputError for bad options (unknown task, unsupported config, ...).
nlohmann::json evaluate(Platform& platform, const EvalOptions& options);

}  // namespace tlmcraft
