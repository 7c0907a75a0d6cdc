// A Linux Landlock sandbox for the Coral toolchain's child processes: the tool may read and
// execute files only under its install folders (and the project's runtime folder), read
// and write only its private temporary directory, and open no TCP connection, so no
// kernel can make the assembler or compiler read a host file or block on a FIFO, whatever
// macro tricks build the path. Landlock is the kernel's unprivileged sandbox (Linux 5.13+);
// where it is missing or refused (old kernel, a container's seccomp policy) the toolchain
// falls back to the text checks of kernel_sandbox.h and says so in the build's diagnostics.
#pragma once
#include <string>
#include <vector>

namespace tlmcraft::coral {

// What a sandboxed tool may touch.
struct SandboxPaths {
  std::vector<std::string> read_execute;  // directories (or files) to read, list and execute
  std::vector<std::string> read_write;    // directories with every file right (create, write, remove)
};

// The Landlock ABI version of the running kernel (1, 2, ...), or 0 with `reason` saying why
// it cannot be used. TLMCRAFT_CORAL_LANDLOCK=0 turns it off (for tests of the fallback).
int landlock_abi(std::string* reason = nullptr);

// A Landlock ruleset prepared in the parent; the forked child enters it just before exec
// with enter() (async-signal-safe: two syscalls).
class ToolSandbox {
 public:
  // Throws std::runtime_error naming the path and cause if a rule cannot be added.
  // Check available() first: without Landlock there is nothing to build.
  explicit ToolSandbox(const SandboxPaths& paths);
  ~ToolSandbox();
  ToolSandbox(const ToolSandbox&) = delete;
  ToolSandbox& operator=(const ToolSandbox&) = delete;

  static bool available() { return landlock_abi() > 0; }
  // In the child after fork: no new privileges, then the ruleset. Returns 0 or an errno.
  int enter() const;

 private:
  int ruleset_fd_ = -1;
};

// The toolchain's read-and-execute folders: for each tool (searched in PATH like execvp),
// the folder of its resolved executable and, when it lives in its own prefix (e.g.
// /usr/lib/llvm-16/bin), that prefix's lib folder; and the folder of the C library and
// dynamic loader the tools link. Never a folder such as /usr/lib or /etc that holds host
// files (e.g. /etc/os-release is /usr/lib/os-release on Debian).
std::vector<std::string> tool_install_folders(const std::vector<std::string>& tools);

}  // namespace tlmcraft::coral
