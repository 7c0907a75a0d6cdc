// One real run of a Coral kernel for the co-design tools: built by the platform's own
// toolchain (C through clang-16, the variant's peephole pass included) into the program
// the ISS runs, then evaluated on the task's seed-1 inputs with per-PC execution counts.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "isa/program.h"
#include "isa/riscv/custom_ext.h"

namespace tlmcraft::agent::search::coral {

struct CoralKernelRun {
  isa::Program program;              // code[i] is the word at ITCM address 4 i
  std::vector<uint64_t> executions;  // per code word: times it ran (empty when not run)
  std::string status;                // evaluate()'s status ("pass", "fail", ...)
  double cycles = 0;                 // the run's cycles
  std::vector<std::pair<int, double>> hot_lines;  // the report's hottest source lines: (line, cycles)
};

// Builds `kernel` (its language from `file`'s extension) for the task and configuration
// `hardware` names ("task", "task_config"; "platform_config" and "overrides" select the
// platform configuration) with the custom instructions `custom` (null: the shipped ISA),
// and runs it once on seed 1 (one run at a time in the process: a SystemC simulation
// context is not shared between threads). Throws std::invalid_argument naming `file` when it does not
// build or the task is missing or unknown.
CoralKernelRun run_coral_kernel(const std::string& kernel, const std::string& file, const nlohmann::json& hardware,
                                std::shared_ptr<const isa::riscv::CustomExtensions> custom);

// The platform configuration `hardware` selects (its timing figures).
const nlohmann::json& coral_hardware_config(const nlohmann::json& hardware);

}  // namespace tlmcraft::agent::search::coral
