#include "harness/cli/resume_notice.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "harness/build_info.h"
#include "harness/provenance.h"

namespace tlmcraft::cli {

using nlohmann::json;

namespace {

// The cell of a record or job without its variant: platform, task, config, kernel.
std::string cell_of(const harness::SuiteJob& job) {
  return job.platform + '\x1f' + job.task + '\x1f' + job.config + '\x1f' + job.kernel;
}

std::string record_commit(const json& r) {
  const json* p = r.contains("provenance") ? &r["provenance"] : nullptr;
  if (!p || !p->is_object() || !p->contains("tlmcraft") || !(*p)["tlmcraft"].is_object()) return "";
  return (*p)["tlmcraft"].value("commit", std::string());
}

}  // namespace

ResumeCounts count_resume(const std::string& out_path, const std::vector<harness::SuiteJob>& jobs) {
  ResumeCounts c;
  std::error_code ec;
  if (!std::filesystem::exists(out_path, ec)) return c;
  std::set<std::string> keys, cells;
  for (const auto& j : jobs) {
    keys.insert(harness::job_key(j));
    cells.insert(cell_of(j));
  }
  std::set<std::string> seen;
  for (const auto& r : harness::read_jsonl(out_path).records) {
    const std::string key = harness::record_key(r);
    if (key.empty() || !seen.insert(key).second) continue;
    if (keys.count(key)) {
      ++c.reused;
      const std::string commit = record_commit(r);
      if (!commit.empty() && commit != build_commit()) ++c.other_commits;
      continue;
    }
    if (!cells.count(key.substr(0, key.rfind('\x1f')))) continue;  // another cell altogether
    ++c.other_variants;
    const std::string label = r.contains("provenance") ? harness::variant_label(r["provenance"])
                                                       : "unrecorded (no provenance: an older tlmcraft)";
    if (std::find(c.labels.begin(), c.labels.end(), label) == c.labels.end()) c.labels.push_back(label);
  }
  return c;
}

void print_resume_notice(std::ostream& os, const std::string& command, const std::string& out_path,
                         const std::vector<harness::SuiteJob>& jobs) {
  const ResumeCounts c = count_resume(out_path, jobs);
  if (c.reused)
    os << command << ": resuming: " << c.reused << " of " << jobs.size() << " result(s) (same job, same variant) are already in "
       << out_path << " and are reused (--fresh to rerun them)\n";
  if (c.other_commits)
    os << command << ": warning: " << c.other_commits << " reused result(s) were built by another tlmcraft commit\n";
  if (c.other_variants) {
    os << command << ": " << c.other_variants << " result(s) in " << out_path
       << " come from other variants and are NOT reused (";
    for (size_t i = 0; i < c.labels.size() && i < 4; ++i) os << (i ? "; " : "") << c.labels[i];
    if (c.labels.size() > 4) os << "; ...";
    os << ")\n";
  }
}

}  // namespace tlmcraft::cli
