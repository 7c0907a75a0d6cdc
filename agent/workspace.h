// The per-run workspace: one directory per workload holding every kernel version the
// agent wrote and the report of each evaluation, plus the best correct version so far.
//
//   <root>/<task>_<platform>_<config>/run.json       the run's metadata (provider, options)
//                                      v001.asm       kernel versions (".c" for C kernels)
//                                      v001.report.json   the last evaluation of v001
//                                      best.asm, best.report.json, best.json
//                                      submitted.json     written by the submit tool
//
// Every file is written atomically (temporary file in the same directory, fsync, rename,
// fsync of the directory), and version numbers continue after the highest one on disk,
// so a crash never loses or overwrites a version already written and a resumed run
// reuses the versions of the interrupted one.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/toolbox.h"

namespace tlmcraft::agent {

// Writes `text` to `path` atomically. Throws std::runtime_error naming the path and the
// system error.
void write_file_atomic(const std::string& path, const std::string& text);

struct KernelVersion {
  int number = 0;             // 1, 2, ...
  std::string path;           // <slot>/v001.asm
  std::string extension;      // "asm" or "c"
};

class Workspace {
 public:
  // Creates `root` (and parents) when missing. Throws std::runtime_error when it cannot.
  explicit Workspace(std::string root);
  const std::string& root() const { return root_; }

  // <root>/<task>_<platform>_<config>; created on first use.
  std::string slot_dir(const Workload& w) const;

  // Stores a new version; returns it. `extension` is "asm" or "c".
  KernelVersion write_version(const Workload& w, const std::string& code, const std::string& extension = "asm");
  // Every version on disk, ascending.
  std::vector<KernelVersion> versions(const Workload& w) const;
  // The newest version, if any.
  std::optional<KernelVersion> current(const Workload& w) const;
  std::string read_version(const KernelVersion& v) const;

  // The report of a version's last evaluation (v001.report.json).
  void store_report(const Workload& w, int version, const nlohmann::json& report);
  std::optional<nlohmann::json> report(const Workload& w, int version) const;
  // The most recent evaluation of this workload (any version): {version, report}.
  std::optional<std::pair<int, nlohmann::json>> last_report(const Workload& w) const;
  // How many evaluations were stored for this workload (all versions, this run and before).
  int evaluations(const Workload& w) const;
  // The number of the next evaluation of this workload, taken under a file lock so that
  // processes sharing the workspace (two MCP servers) never get the same number, and
  // hence never the same seeds. Starts at evaluations() for older workspaces.
  uint64_t reserve_evaluation(const Workload& w);

  // Makes `version` the best if its report passed with fewer cycles than the current
  // best (ties keep the earlier one). Returns true when it became the best.
  bool offer_best(const Workload& w, const KernelVersion& version, const nlohmann::json& report);
  // best.json: {"version", "cycles", "baseline_cycles", "speedup", "path"}; nullopt if none.
  std::optional<nlohmann::json> best(const Workload& w) const;

  // Marks a version as the final answer (submitted.json).
  void mark_submitted(const Workload& w, int version, const std::string& note);
  std::optional<nlohmann::json> submitted(const Workload& w) const;

  // <slot>/run.json (replaced atomically; per workload, so parallel runs sharing a
  // workspace root do not overwrite each other's).
  void write_metadata(const Workload& w, const nlohmann::json& meta);

 private:
  std::string root_;
};

}  // namespace tlmcraft::agent
