#include "platforms/coral/tool_sandbox.h"

#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace tlmcraft::coral {
namespace {

// Rights newer than Debian bookworm's <linux/landlock.h> (Linux 6.1 headers); the values
// are the kernel's ABI and never change.
constexpr uint64_t kFsTruncate = 1ull << 14;  // ABI 3
constexpr uint64_t kFsIoctlDev = 1ull << 15;  // ABI 5
constexpr uint64_t kNetBindTcp = 1ull << 0;   // ABI 4
constexpr uint64_t kNetConnectTcp = 1ull << 1;
constexpr uint64_t kScopeAbstractUnixSocket = 1ull << 0;  // ABI 6
constexpr uint64_t kScopeSignal = 1ull << 1;

// struct landlock_ruleset_attr as of ABI 6; older kernels get a prefix of it.
struct RulesetAttr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

constexpr uint64_t kReadExecute =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr uint64_t kFileRights =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | kFsTruncate | kFsIoctlDev;

// Every file-system right the kernel's ABI knows: all are denied unless a rule grants them.
uint64_t handled_fs(int abi) {
  uint64_t rights = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;  // ABI 1: EXECUTE .. MAKE_SYM
  if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) rights |= kFsTruncate;
  if (abi >= 5) rights |= kFsIoctlDev;
  return rights;
}

int query_abi(std::string& reason) {
  const long v = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (v > 0) return static_cast<int>(v);
  const int e = errno;
  reason = e == ENOSYS       ? "the kernel has no Landlock (Linux 5.13 or later with CONFIG_SECURITY_LANDLOCK)"
           : e == EOPNOTSUPP ? "Landlock is disabled at boot (add landlock to the lsm= kernel parameter)"
                             : std::string("landlock_create_ruleset failed: ") + std::strerror(e) +
                                   " (denied by the container's seccomp policy?)";
  return 0;
}

// "/a/b/c" -> "/a/b"; "/a" -> "/".
std::string parent_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string resolved(const std::string& path) {
  char real[PATH_MAX];
  return realpath(path.c_str(), real) ? std::string(real) : "";
}

// The executable execvp would run for `name`, resolved through symlinks ("" if none).
std::string find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string d; std::getline(dirs, d, ':');) {
    const std::string candidate = (d.empty() ? "." : d) + "/" + name;
    if (access(candidate.c_str(), X_OK) != 0) continue;
    struct stat st {};
    const std::string real = resolved(candidate);
    if (!real.empty() && stat(real.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return real;
  }
  return "";
}

// Folders whose whole tree would expose host files; a tool living directly in one of
// them gets only its bin folder.
bool is_shared_prefix(const std::string& dir) {
  return dir == "/" || dir == "/usr" || dir == "/usr/local" || dir == "/opt";
}

// Folders of the C library and dynamic loader this process uses (the tools use the same).
int collect_loader_dir(dl_phdr_info* info, size_t, void* data) {
  const std::string name = info->dlpi_name ? info->dlpi_name : "";
  const std::string base = name.substr(name.find_last_of('/') + 1);
  if (base.rfind("libc.so", 0) == 0 || base.rfind("ld-linux", 0) == 0 || base.rfind("ld64.so", 0) == 0) {
    const std::string real = resolved(name);
    if (!real.empty()) static_cast<std::vector<std::string>*>(data)->push_back(parent_of(real));
  }
  return 0;
}

void add_rule(int ruleset, const std::string& path, uint64_t rights) {
  const int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return;  // e.g. a folder this distribution does not have
    throw std::runtime_error("sandbox: cannot open " + path + ": " + std::strerror(errno));
  }
  struct stat st {};
  fstat(fd, &st);
  landlock_path_beneath_attr rule{};
  rule.allowed_access = S_ISDIR(st.st_mode) ? rights : (rights & kFileRights);
  rule.parent_fd = fd;
  const long rc = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  const int e = errno;
  close(fd);
  if (rc != 0) throw std::runtime_error("sandbox: cannot add a Landlock rule for " + path + ": " + std::strerror(e));
}

}  // namespace

int landlock_abi(std::string* reason) {
  static std::once_flag once;
  static int abi = 0;
  static std::string why;
  std::call_once(once, [] { abi = query_abi(why); });
  if (const char* off = std::getenv("TLMCRAFT_CORAL_LANDLOCK"); off && std::string(off) == "0") {
    if (reason) *reason = "turned off with TLMCRAFT_CORAL_LANDLOCK=0";
    return 0;
  }
  if (reason) *reason = why;
  return abi;
}

ToolSandbox::ToolSandbox(const SandboxPaths& paths) {
  const int abi = landlock_abi();
  if (abi <= 0) throw std::runtime_error("sandbox: Landlock is not available");
  RulesetAttr attr{handled_fs(abi), abi >= 4 ? kNetBindTcp | kNetConnectTcp : 0,
                   abi >= 6 ? kScopeAbstractUnixSocket | kScopeSignal : 0};
  const size_t size = abi >= 6 ? sizeof attr : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
  const long fd = syscall(SYS_landlock_create_ruleset, &attr, size, 0);
  if (fd < 0) throw std::runtime_error(std::string("sandbox: landlock_create_ruleset failed: ") + std::strerror(errno));
  ruleset_fd_ = static_cast<int>(fd);  // close-on-exec by default
  try {
    for (const auto& p : paths.read_execute) add_rule(ruleset_fd_, p, kReadExecute);
    for (const auto& p : paths.read_write) {
      if (access(p.c_str(), F_OK) != 0) throw std::runtime_error("sandbox: " + p + " does not exist");
      add_rule(ruleset_fd_, p, handled_fs(abi));
    }
  } catch (...) {
    close(ruleset_fd_);
    throw;
  }
}

ToolSandbox::~ToolSandbox() {
  if (ruleset_fd_ >= 0) close(ruleset_fd_);
}

int ToolSandbox::enter() const {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
  if (syscall(SYS_landlock_restrict_self, ruleset_fd_, 0) != 0) return errno;
  return 0;
}

std::vector<std::string> tool_install_folders(const std::vector<std::string>& tools) {
  std::vector<std::string> dirs;
  for (const auto& tool : tools) {
    const std::string exe = find_in_path(tool);
    if (exe.empty()) continue;  // reported as "could not be started" when it runs
    const std::string bin = parent_of(exe);
    dirs.push_back(bin);
    const std::string prefix = parent_of(bin);
    if (!is_shared_prefix(prefix) && prefix != "/usr/lib") dirs.push_back(prefix);
  }
  dl_iterate_phdr(collect_loader_dir, &dirs);
  std::sort(dirs.begin(), dirs.end());
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  return dirs;
}

}  // namespace tlmcraft::coral
