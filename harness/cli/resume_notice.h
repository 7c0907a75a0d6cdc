// What a resumed suite run reuses, said loudly before it starts: how many results of the
// asked-for jobs (this variant) are already in the file, and how many records of other
// variants the file holds, which are kept but never reused.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "harness/suite_runner.h"

namespace tlmcraft::cli {

struct ResumeCounts {
  size_t reused = 0;                 // records whose key is one of the jobs
  size_t other_variants = 0;         // records of the same cells under another variant
  std::vector<std::string> labels;   // those variants' labels (provenance), distinct
  size_t other_commits = 0;          // reused records built by another tlmcraft commit
};

ResumeCounts count_resume(const std::string& out_path, const std::vector<harness::SuiteJob>& jobs);

// Prints the counts ("<command>: resuming: ..."); nothing when the file has no records.
void print_resume_notice(std::ostream& os, const std::string& command, const std::string& out_path,
                         const std::vector<harness::SuiteJob>& jobs);

}  // namespace tlmcraft::cli
