// Runs an external tool (assembler, compiler, linker) without a shell: argv as given,
// stdout and stderr captured together, a wall-clock timeout after which the tool is
// killed, and a working directory. Used by the Coral toolchain driver.
#pragma once
#include <string>
#include <vector>

namespace tlmcraft::coral {

struct ToolRun {
  int exit_code = -1;       // the tool's exit status; -1 if it did not exit normally
  bool timed_out = false;   // killed after the timeout
  bool not_found = false;   // the executable could not be started
  std::string output;       // stdout and stderr interleaved
  bool ok() const { return exit_code == 0 && !timed_out && !not_found; }
};

// Executes argv[0] (searched in PATH) with the arguments argv[1..] in `cwd`.
ToolRun run_tool(const std::vector<std::string>& argv, const std::string& cwd, double timeout_seconds);

// A private temporary directory, removed with its contents on destruction.
class TempDir {
 public:
  TempDir();  // throws std::runtime_error if it cannot be created
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace tlmcraft::coral
