// Runs an external tool (assembler, compiler, linker) without a shell: argv as given,
// stdout and stderr captured together, under resource limits (CPU time, address space,
// size of each file it writes, a wall-clock timeout after which its process group is
// killed), in a working directory. Used by the Coral toolchain driver.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tlmcraft::coral {

class ToolSandbox;

// Bounds on one tool invocation. Defaults come from the environment (TLMCRAFT_TOOL_*,
// see docs/reliability.md) so every command that builds a Coral kernel honours them.
struct ToolLimits {
  double timeout_seconds = 30.0;            // wall clock; TLMCRAFT_TOOL_TIMEOUT_SECONDS x TLMCRAFT_WALL_CLOCK_SCALE
  uint64_t cpu_seconds = 10;                // RLIMIT_CPU; TLMCRAFT_TOOL_CPU_SECONDS
  uint64_t memory_bytes = 1024ull << 20;    // RLIMIT_AS; TLMCRAFT_TOOL_MEMORY_MB
  uint64_t file_size_bytes = 64ull << 20;   // RLIMIT_FSIZE (each output file); TLMCRAFT_TOOL_OUTPUT_MB
  static ToolLimits from_environment();
};

// Which bound ended a run (None: the tool ended by itself).
enum class LimitHit { None, Timeout, CpuTime, Memory, FileSize };

struct ToolRun {
  int exit_code = -1;       // the tool's exit status; -1 if it did not exit normally
  int signal = 0;           // the signal that ended it, if any
  bool timed_out = false;   // killed after the timeout
  bool not_found = false;   // the executable could not be started
  int sandbox_error = 0;    // errno if the child could not enter its sandbox (it then did not run)
  LimitHit limit = LimitHit::None;
  std::string output;       // stdout and stderr interleaved (first 1 MB)
  bool ok() const { return exit_code == 0 && !timed_out && !not_found && !sandbox_error && limit == LimitHit::None; }
};

// Executes argv[0] (searched in PATH) with the arguments argv[1..] in `cwd`, inside
// `sandbox` when one is given (tool_sandbox.h).
ToolRun run_tool(const std::vector<std::string>& argv, const std::string& cwd, const ToolLimits& limits,
                 const ToolSandbox* sandbox = nullptr);

// "the assembler's CPU time limit (10 s) ...; raise it with TLMCRAFT_TOOL_CPU_SECONDS".
std::string limit_text(const std::string& tool, const ToolRun& r, const ToolLimits& limits);

// A private temporary directory <TMPDIR>/tlmcraft-coral-<pid>-XXXXXX, removed with its
// contents on destruction, on SIGINT/SIGTERM/SIGHUP/SIGQUIT, and (for processes killed
// outright) by the next process that creates one: directories of dead processes are
// removed then.
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
  int slot_ = -1;  // index in the signal handler's table of live directories
};

// Removes <dir>/tlmcraft-coral-<pid>-* directories whose process no longer exists (and
// old-style tlmcraft-coral-XXXXXX ones older than an hour). Returns how many it removed.
int remove_stale_temp_dirs(const std::string& dir);

}  // namespace tlmcraft::coral
