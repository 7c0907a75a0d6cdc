// The memo of the co-design tools' Coral kernel runs (coral_kernel_run.h), keyed by what a
// run depends on: the built image, the task and its configuration with the seed, the
// platform configuration in force, the definitions of the added instructions the image
// holds, and the simulator itself (a hash of the running executable, so a rebuilt timing
// model never reads an older model's runs). An image a variant's overlay leaves unchanged
// is then the shipped ISA's run: no new simulation (docs/codesign.md, "Coral").
//
// On disk, one file per run, in $TLMCRAFT_CORAL_RUN_CACHE, else
// $XDG_CACHE_HOME/tlmcraft/coral-runs, else ~/.cache/tlmcraft/coral-runs
// (TLMCRAFT_CORAL_RUN_CACHE=0: off). Bounded: after each store the oldest files (by
// modification time, then name) are removed while there are more than kRunMemoEntries or
// they hold more than kRunMemoBytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "isa/program.h"
#include "isa/riscv/custom_ext.h"
#include "platforms/platform.h"

namespace tlmcraft::agent::search::coral {

constexpr size_t kRunMemoEntries = 4096;
constexpr uint64_t kRunMemoBytes = uint64_t(256) << 20;

// What a memoised run returns (CoralKernelRun less the program, which the build gives).
struct MemoRun {
  std::vector<uint64_t> executions;
  std::string status;
  double cycles = 0;
  std::vector<std::pair<int, double>> hot_lines;
  std::map<std::string, AddedInstructionUse> added;
};

// The key of one seed-1 run of `image` for `hardware`'s task and configuration: `config`
// the effective platform configuration, `task_spec` the text of the files the task was
// read from, and `overlay` the definitions of the instructions of `custom` the image holds
// (`overlay["instructions"][i]` defines `custom->instructions()[i]`).
std::string coral_run_key(const isa::Program& image, const std::string& task, const std::string& task_config,
                          const nlohmann::json& config, const std::string& task_spec,
                          const isa::riscv::CustomExtensions* custom, const nlohmann::json& overlay);

std::optional<MemoRun> load_memo_run(const std::string& key);
void store_memo_run(const std::string& key, const MemoRun& run);

// The memo's folder ("" when off).
std::string run_memo_dir();
// Removes the oldest entries of `dir` (modification time, then name) while it holds more
// than `max_entries` or more than `max_bytes`; store_memo_run calls it with the bounds above.
void evict_run_memo(const std::string& dir, size_t max_entries, uint64_t max_bytes);

}  // namespace tlmcraft::agent::search::coral
