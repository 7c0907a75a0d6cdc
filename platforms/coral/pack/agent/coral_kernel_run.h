// One real run of a Coral kernel for the co-design tools: built by the platform's own
// toolchain (C through clang-16, the variant's peephole pass included) into the program
// the ISS runs, then evaluated on the task's seed-1 inputs with per-PC execution counts,
// or taken from the run memo (coral_run_memo.h) when the same image ran before.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "isa/program.h"
#include "isa/riscv/custom_ext.h"
#include "platforms/platform.h"

namespace tlmcraft::agent::search::coral {

struct CoralKernelRun {
  isa::Program program;              // code[i] is the word at ITCM address 4 i
  std::vector<uint64_t> executions;  // per code word: times it ran (empty when not run)
  std::string status;                // evaluate()'s status ("pass", "fail", ...)
  double cycles = 0;                 // the run's cycles
  std::vector<std::pair<int, double>> hot_lines;  // the report's hottest source lines: (line, cycles)
  std::map<std::string, AddedInstructionUse> added;  // the added instructions' uses (static, executions)
};

// Builds `kernel` (its language from `file`'s extension) for the task and configuration
// `hardware` names ("task", "task_config"; "platform_config" and "overrides" select the
// platform configuration) with the custom instructions `custom` (null: the shipped ISA;
// `overlay` is what it was loaded from: its definitions key the memo), and runs it once on
// seed 1 (one run at a time in the process: a SystemC simulation context is not shared
// between threads) unless the memo holds that image's run. Throws std::invalid_argument
// naming `file` when it does not build or the task is missing or unknown.
CoralKernelRun run_coral_kernel(const std::string& kernel, const std::string& file, const nlohmann::json& hardware,
                                std::shared_ptr<const isa::riscv::CustomExtensions> custom,
                                const nlohmann::json& overlay);

// The simulations run_coral_kernel ran in this process (memo hits are not counted).
uint64_t coral_kernel_simulations();

// The platform configuration `hardware` selects (its timing figures).
const nlohmann::json& coral_hardware_config(const nlohmann::json& hardware);

}  // namespace tlmcraft::agent::search::coral
