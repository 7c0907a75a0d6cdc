// Runs one fidelity case on the tlmcraft Coral model and keeps what the RTL oracle needs
// to run the same thing: the linked image, the external-memory contents written before
// the run, and the model's bytes of those regions after it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "bench/coral_fidelity/rtl_oracle.h"
#include "isa/program.h"

namespace tlmcraft::bench {

struct FidelityCase {
  std::string kind;   // "task", "cpu" or a probe family
  std::string name;   // e.g. "gemm/C3"
  std::string task, config;          // a task (its layout and inputs), and
  std::string file_name, source;     // a program of its own (for a task: "" = its baseline)
};

struct ModelRun {
  bool ok = false;
  std::string error;
  uint64_t cycles = 0, instructions = 0;
  isa::Program program;
  std::vector<ExtRegion> inputs;   // external memory written before the run
  std::vector<ExtRegion> outputs;  // the same regions after the run
};

// `overrides` are platform-config KEY=VALUE settings (e.g. memory.axi.read_latency=40).
ModelRun run_on_model(const FidelityCase& c, const std::vector<std::string>& overrides);

// Every Coral task baseline at C1..C5 (kind "task") and every CPU program ("cpu").
std::vector<FidelityCase> task_cases();

}  // namespace tlmcraft::bench
