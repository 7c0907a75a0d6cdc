// Which suite jobs a selection names: platforms x tasks x configs with baseline kernels
// or the kernels of a directory. Shared by `bench` and `sweep`, which add the variant.
#pragma once
#include <string>
#include <vector>

#include "harness/provenance.h"
#include "harness/suite_runner.h"
#include "tasks/spec.h"

namespace tlmcraft::cli {

struct JobSelection {
  std::vector<std::string> platforms;  // empty = every platform
  std::vector<std::string> tasks;      // empty = all (plus the CPU programs with Coral)
  std::vector<std::string> configs;    // empty = each task's configs
  std::vector<std::string> levels;     // "1", "2", "3", "cpu"; empty = all
  std::string kernel_dir;              // "" = the baseline kernels
  std::string platform_config = "default";  // named in the records of unsupported cells
};

struct SelectedJobs {
  std::vector<harness::SuiteJob> jobs;  // benchmark order, no extra_args or variant yet
  std::vector<std::string> missing;     // "platform/task/config" without a kernel file
  std::vector<std::string> platforms;   // resolved
  bool all_platforms = false;
};

// Throws InputError naming the bad platform, task, level, config or directory.
SelectedJobs select_jobs(const JobSelection& selection);

// The tasks a selection names: `names` (empty = the ML tasks, plus the CPU programs when a
// platform runs them), kept to `levels` ("1", "2", "3", "cpu"; empty = all). Shared with
// agent-bench. Throws InputError naming a bad task or level, or an empty selection.
std::vector<const tasks::TaskSpec*> select_tasks(const std::vector<std::string>& names,
                                                 const std::vector<std::string>& levels,
                                                 const std::vector<std::string>& platforms);
// Whether `platform` runs the CPU programs (level 0 tasks).
bool runs_cpu_programs(const std::string& platform);

// Copies of `jobs` run on `variant`: worker arguments (the variant's, then `extra`), the
// variant id and its provenance (computed once per platform). Throws InputError when the
// variant's config or ISA files cannot be read.
std::vector<harness::SuiteJob> with_variant(const std::vector<harness::SuiteJob>& jobs,
                                            const harness::VariantSpec& variant,
                                            const std::vector<std::string>& extra);

// Repeatable options that also take comma lists: --task a,b --task c (duplicates dropped).
std::vector<std::string> split_lists(const std::vector<std::string>& values);
std::string joined(const std::vector<std::string>& items, const std::string& sep = ", ");
// This executable's path (the workers run it).
std::string self_exe();

}  // namespace tlmcraft::cli
