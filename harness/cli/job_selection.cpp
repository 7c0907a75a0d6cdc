#include "harness/cli/job_selection.h"

#include "harness/isa_variant_check.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "platforms/platform.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace fs = std::filesystem;

namespace tlmcraft::cli {
namespace {

fs::path nested_kernel_path(const std::string& dir, const std::string& platform, const std::string& task,
                            const std::string& config) {
  return (fs::path(dir) / platform / task / (config + ".asm")).lexically_normal();
}

// The kernel file of one job under DIR, or "" when there is none (see bench --help).
std::string find_kernel(const std::string& dir, const std::string& platform, const std::string& task,
                        const std::string& config) {
  const fs::path nested = nested_kernel_path(dir, platform, task, config);
  const fs::path flat = (fs::path(dir) / (task + "_" + config + ".asm")).lexically_normal();
  std::error_code ec;
  if (fs::is_regular_file(nested, ec)) return nested.string();
  if (fs::is_regular_file(flat, ec)) return flat.string();
  // A kernel in C (a platform whose toolchain compiles C picks the language by the name).
  for (const fs::path& c : {fs::path(nested).replace_extension(".c"), fs::path(flat).replace_extension(".c")})
    if (fs::is_regular_file(c, ec)) return c.string();
  return "";
}

nlohmann::json unsupported_record(const std::string& platform, const std::string& platform_config,
                                  const tasks::TaskSpec& task, const std::string& config, const std::string& kernel,
                                  const std::string& reason) {
  nlohmann::json r;
  r["schema"] = "tlmcraft.report/1";
  r["platform"] = platform;
  r["platform_config"] = platform_config;
  r["task"] = task.name;
  r["level"] = task.level;
  r["config"] = config;
  r["kernel"] = kernel == "baseline" ? nlohmann::json{{"path", "baseline:" + task.name + ":" + config}, {"source", "baseline"}}
                                     : nlohmann::json{{"path", kernel}, {"source", "file"}};
  r["status"] = "unsupported";
  r["reason"] = reason.empty() ? task.name + " is not supported on " + platform : reason;
  return r;
}

std::vector<std::string> resolve_platforms(const JobSelection& s, bool& all) {
  const std::vector<std::string> known = platform_names();
  std::vector<std::string> platforms = s.platforms;
  all = platforms.empty();
  if (all) platforms = known;
  for (const auto& p : platforms) {
    if (std::find(known.begin(), known.end(), p) == known.end())
      throw InputError("unknown platform '" + p + "' (known: " + joined(known) + ")");
    if (!tasks::parse_platform(p)) throw InputError("platform '" + p + "' has no tasks in the task registry");
  }
  return platforms;
}

}  // namespace

bool runs_cpu_programs(const std::string& platform) {
  const PlatformInfo* info = find_platform_info(platform);
  return info && info->cpu_programs;
}

std::vector<const tasks::TaskSpec*> select_tasks(const std::vector<std::string>& names,
                                                 const std::vector<std::string>& levels,
                                                 const std::vector<std::string>& platforms) {
  const tasks::Registry& registry = tasks::Registry::builtin();
  std::vector<const tasks::TaskSpec*> selected;
  if (names.empty()) {
    for (const auto& t : registry.tasks()) selected.push_back(&t);
    // The CPU programs (a scalar core's benchmark) join every run that includes a platform running them.
    if (std::any_of(platforms.begin(), platforms.end(), runs_cpu_programs))
      for (const auto& t : registry.cpu_tasks()) selected.push_back(&t);
  } else {
    for (const auto& name : names) {
      try {
        selected.push_back(&registry.task(name));
      } catch (const tasks::TaskError& e) {
        throw InputError(e.what());
      }
    }
  }
  if (!levels.empty()) {
    std::set<int> wanted;
    for (const auto& l : levels) {
      if (l == "cpu") {
        wanted.insert(0);
        continue;
      }
      if (l != "1" && l != "2" && l != "3") throw InputError("--level: '" + l + "' is not 1, 2, 3 or cpu");
      wanted.insert(std::stoi(l));
    }
    selected.erase(std::remove_if(selected.begin(), selected.end(),
                                  [&](const tasks::TaskSpec* t) { return !wanted.count(t->level); }),
                   selected.end());
  }
  if (selected.empty()) throw InputError("no task matches the selection");
  return selected;
}

std::vector<std::string> split_lists(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& v : values) {
    std::stringstream ss(v);
    std::string item;
    while (std::getline(ss, item, ',')) {
      item.erase(0, item.find_first_not_of(" \t"));
      item.erase(item.find_last_not_of(" \t") + 1);
      if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    }
  }
  return out;
}

std::string joined(const std::vector<std::string>& items, const std::string& sep) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : sep) + i;
  return s;
}

std::string self_exe() {
  std::error_code ec;
  const auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "/proc/self/exe" : p.string();
}

std::vector<harness::SuiteJob> with_variant(const std::vector<harness::SuiteJob>& jobs,
                                            const harness::VariantSpec& variant,
                                            const std::vector<std::string>& extra) {
  std::map<std::string, nlohmann::json> provenance;  // per platform
  std::vector<std::string> args = harness::variant_worker_args(variant);
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<harness::SuiteJob> out = jobs;
  for (auto& job : out) {
    auto it = provenance.find(job.platform);
    if (it == provenance.end()) {
      try {
        // Builds the platform once here, so a bad key or value stops the run before any job;
        // the ISA variant is checked the same way (an overlay error names file:line:col).
        harness::check_isa_variant(job.platform, isa::IsaVariant{variant.isa_dir, variant.isa_ext});
        make_platform(job.platform, variant.platform_config, variant.overrides);
        it = provenance.emplace(job.platform, harness::variant_provenance(job.platform, variant)).first;
      } catch (const InputError& e) {
        throw InputError("variant '" + harness::variant_spec_label(variant) + "' on " + job.platform + ": " + e.what());
      }
    }
    job.extra_args = args;
    job.provenance = it->second;
    job.variant = harness::provenance_variant(it->second);
    if (job.known_result) (*job.known_result)["overrides"] = variant.overrides;
  }
  return out;
}

SelectedJobs select_jobs(const JobSelection& s) {
  SelectedJobs out;
  out.platforms = resolve_platforms(s, out.all_platforms);
  const std::vector<const tasks::TaskSpec*> selected = select_tasks(s.tasks, s.levels, out.platforms);
  const tasks::Registry& registry = tasks::Registry::builtin();
  const bool use_kernels = !s.kernel_dir.empty();
  if (use_kernels) {
    std::error_code ec;
    if (!fs::is_directory(s.kernel_dir, ec)) throw InputError("--kernels: '" + s.kernel_dir + "' is not a directory");
  }

  // Jobs, in benchmark order; unsupported cells carry their known result.
  for (const auto& platform : out.platforms) {
    const tasks::PlatformId pid = *tasks::parse_platform(platform);
    for (const tasks::TaskSpec* task : selected) {
      const tasks::PlatformSpec& ps = task->platform(pid);
      if (task->level == 0 && !runs_cpu_programs(platform)) continue;  // CPU programs: only where they run
      std::vector<std::string> configs = s.configs;
      if (configs.empty()) {
        for (const auto& c : ps.configs) configs.push_back(c.name);
        if (configs.empty()) configs = {"C1", "C2", "C3", "C4", "C5"};
      }
      for (const auto& config : configs) {
        if (ps.supported && !ps.config(config)) {
          std::vector<std::string> names;
          for (const auto& c : ps.configs) names.push_back(c.name);
          throw InputError("unknown config '" + config + "' for " + task->name + " on " + platform + " (known: " +
                           joined(names) + ")");
        }
        harness::SuiteJob job;
        job.platform = platform;
        job.task = task->name;
        job.config = config;
        job.level = task->level;
        if (use_kernels) {
          job.kernel = find_kernel(s.kernel_dir, platform, task->name, config);
          if (job.kernel.empty()) {
            if (ps.supported) {
              out.missing.push_back(platform + "/" + task->name + "/" + config);
              continue;
            }
            // Unsupported cells are recorded anyway (grey in the report), under the nested name.
            job.kernel = nested_kernel_path(s.kernel_dir, platform, task->name, config).string();
          }
        }
        if (!ps.supported) {
          job.known_result = unsupported_record(platform, s.platform_config, *task, config, job.kernel, ps.reason);
        } else if (!use_kernels && !tasks::has_baseline(registry.instance(task->name, platform, config))) {
          if (out.all_platforms) continue;  // a platform whose baselines do not exist yet is left out
          job.known_result = unsupported_record(platform, s.platform_config, *task, config, job.kernel,
                                                "no baseline kernel on " + platform + " yet");
        }
        out.jobs.push_back(std::move(job));
      }
    }
  }
  return out;
}

}  // namespace tlmcraft::cli
