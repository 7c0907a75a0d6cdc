// The task registry: what the harness and the CLI use. Loads every spec in a folder
// (tasks/specs by default), answers "which tasks, on which platforms, with which
// shapes", and for one task x platform x configuration (an Instance) generates inputs,
// computes reference outputs, checks outputs, gives the memory layout and the text an
// agent reads.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tasks/checker.h"
#include "tasks/integer_formulation.h"
#include "tasks/layout.h"
#include "tasks/spec.h"
#include "tasks/tensor.h"

namespace tlmcraft::tasks {

// A request that names an unknown task, platform or configuration, or an unsupported
// cell. what() says which and lists what exists. (The CLI maps it to exit code 2.)
struct TaskError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Registry;

// One task on one platform in one configuration.
class Instance {
 public:
  Instance(const TaskSpec& task, PlatformId platform, const ConfigSpec& config);
  const TaskSpec& task() const { return *task_; }
  const PlatformId& platform() const { return platform_; }
  const PlatformSpec& platform_spec() const { return task_->platform(platform_); }
  const ConfigSpec& config() const { return *config_; }
  const Params& params() const { return config_->params; }
  const Tolerance& tolerance() const { return platform_spec().tolerance; }

  // Fresh inputs for a seed, as the platform's memory holds them, from `range`
  // (tasks/generator.h: "ordinary" or one of input_ranges()).
  TensorSet generate_inputs(uint64_t seed, const std::string& range = "ordinary") const;
  // The adversarial input ranges of this task on this platform, and the range trial
  // `trial` of an evaluation (input seed `seed`) draws from.
  std::vector<std::string> input_ranges() const;
  std::string range_for_trial(uint64_t seed, size_t trial) const;
  // The outputs a correct kernel produces from `inputs`.
  TensorSet reference_outputs(const TensorSet& inputs) const;
  // The shape an output is checked and reported in (the layout's view: PLENA rows of VLEN).
  std::vector<int64_t> view(const std::string& tensor) const;
  // Compares every output of `want` with the same-named tensor of `got`; unwritten is
  // empty or one flag vector per tensor of `got`. Throws std::invalid_argument if an
  // output is missing or has the wrong size.
  CheckResult check(const TensorSet& got, const std::vector<std::vector<uint8_t>>& unwritten, const TensorSet& want,
                    const CheckOptions& options = {}) const;
  CheckResult check(const DecodedOutputs& got, const TensorSet& want, const CheckOptions& options = {}) const;
  // The platform's memory layout (throws std::invalid_argument where none exists yet).
  std::unique_ptr<PlatformLayout> layout() const;
  // The integer formulation's constants of this configuration (requantisation shifts
  // and the like; empty for float references).
  std::vector<IntegerConstant> integer_constants() const;
  // The task text an agent reads: description, shapes, numerics, tolerance, constants
  // and the memory layout.
  std::string describe() const;
  // {"n": 256}: the report's "shape" object.
  nlohmann::json shape_json() const;

 private:
  const TaskSpec* task_;
  PlatformId platform_;
  const ConfigSpec* config_;
};

class Registry {
 public:
  // Loads specs_dir/platforms.yaml, specs_dir/cpu.yaml and every other *.yaml as a task.
  // Throws SpecError ("file:line: cause") for the first bad file.
  static Registry load(const std::string& specs_dir);
  // The built-in specs (TLMCRAFT_TASKS_DIR if set, else tasks/specs in the data folder), loaded once.
  static const Registry& builtin();

  // Tasks in benchmark order: by level, then in the paper's listing order.
  const std::vector<TaskSpec>& tasks() const { return tasks_; }
  const std::vector<CpuProgram>& cpu_programs() const { return cpu_; }
  // The CPU programs as tasks (specs_dir/cpu/*.yaml, level 0, Coral only), in cpu.yaml's
  // order. find(), task() and instance() know them too; tasks() does not list them.
  const std::vector<TaskSpec>& cpu_tasks() const { return cpu_tasks_; }
  const TaskSpec* find(const std::string& name) const;
  const TaskSpec& task(const std::string& name) const;  // throws TaskError listing the names
  // Throws TaskError for an unknown name or an unsupported cell (with the reason).
  Instance instance(const std::string& task, const std::string& platform, const std::string& config) const;
  Instance instance(const std::string& task, PlatformId platform, const std::string& config) const;
  // `tlmcraft list tasks --json`: every task with level, title, params and per platform
  // support, dtype, tolerance and C1..C5 parameters with provenance.
  nlohmann::json list_json() const;
  // A plain-text matrix of tasks x platforms x configurations with shapes.
  std::string list_text() const;

 private:
  std::vector<TaskSpec> tasks_;
  std::vector<CpuProgram> cpu_;
  std::vector<TaskSpec> cpu_tasks_;
};

// The paper's task listing order (level 1, 2, 3).
const std::vector<std::string>& benchmark_task_order();

}  // namespace tlmcraft::tasks
