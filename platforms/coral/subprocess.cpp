#include "platforms/coral/subprocess.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <stdexcept>

#include "common/env_limits.h"
#include "platforms/coral/tool_sandbox.h"

namespace tlmcraft::coral {
namespace {

constexpr size_t kMaxOutput = 1u << 20;  // captured tool output
constexpr int kSlots = 64;               // live temp dirs / tool runs the signal handler knows
constexpr size_t kPathMax = 512;
constexpr int kStageSandbox = 1, kStageExec = 2;  // where a child failed before running the tool

// ---- what the signal handler cleans up (plain arrays: read from a signal handler) ----------
char g_dir_paths[kSlots][kPathMax];
// 0 free, 1 being filled in, 2 a live directory the handler removes.
std::atomic<int> g_dir_state[kSlots];
std::atomic<pid_t> g_child_groups[kSlots];

// Removes the files of a flat directory and the directory: async-signal-safe (no heap).
void remove_flat_dir(const char* path) {
  const int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    alignas(8) char buf[4096];
    for (;;) {
      const long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
      if (n <= 0) break;
      for (long off = 0; off < n;) {
        struct Entry { uint64_t ino; int64_t off; unsigned short reclen; unsigned char type; char name[1]; };
        const auto* e = reinterpret_cast<const Entry*>(buf + off);
        if (std::strcmp(e->name, ".") != 0 && std::strcmp(e->name, "..") != 0) unlinkat(fd, e->name, 0);
        off += e->reclen;
      }
    }
    close(fd);
  }
  rmdir(path);
}

struct sigaction g_previous[NSIG];
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void on_fatal_signal(int sig) {
  for (int i = 0; i < kSlots; ++i) {
    const pid_t group = g_child_groups[i].load();
    if (group > 0) kill(-group, SIGKILL);
  }
  for (int i = 0; i < kSlots; ++i)
    if (g_dir_state[i].load() == 2) remove_flat_dir(g_dir_paths[i]);
  // Then what would have happened without us: the previous handler, or the default action.
  sigaction(sig, &g_previous[sig], nullptr);
  raise(sig);
}

void install_cleanup_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kCleanupSignals) {
      struct sigaction old {};
      sigaction(sig, nullptr, &old);
      if (old.sa_handler == SIG_IGN) continue;  // e.g. nohup: keep ignoring it
      g_previous[sig] = old;
      struct sigaction sa {};
      sa.sa_handler = on_fatal_signal;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESETHAND;
      sigaction(sig, &sa, nullptr);
    }
  });
}

void set_limit(int resource, uint64_t soft, uint64_t hard) {
  struct rlimit r {};
  r.rlim_cur = soft;
  r.rlim_max = hard;
  setrlimit(resource, &r);
}

// In the child between fork and exec: only async-signal-safe calls.
void child_setup(const ToolLimits& l) {
  setpgid(0, 0);                          // own process group: a timeout kills the tool and its children
  prctl(PR_SET_PDEATHSIG, SIGKILL);       // and the tool dies with us (e.g. bench's SIGKILL)
  for (int sig : {SIGXCPU, SIGXFSZ, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) signal(sig, SIG_DFL);
  set_limit(RLIMIT_CPU, l.cpu_seconds, l.cpu_seconds + 1);  // SIGXCPU at the soft limit
  set_limit(RLIMIT_AS, l.memory_bytes, l.memory_bytes);
  set_limit(RLIMIT_FSIZE, l.file_size_bytes, l.file_size_bytes);
  set_limit(RLIMIT_CORE, 0, 0);
}

bool mentions_memory_exhaustion(const std::string& out) {
  for (const char* s : {"memory exhausted", "out of memory", "Out of memory", "bad_alloc", "Cannot allocate memory",
                        "cannot allocate memory", "LLVM ERROR: out of memory"})
    if (out.find(s) != std::string::npos) return true;
  return false;
}

LimitHit classify(const ToolRun& r) {
  if (r.timed_out) return LimitHit::Timeout;
  // Killed by the signal, or a shell or driver reporting its child's death as 128 + signal.
  if (r.signal == SIGXCPU || r.exit_code == 128 + SIGXCPU) return LimitHit::CpuTime;
  if (r.signal == SIGXFSZ || r.exit_code == 128 + SIGXFSZ || r.output.find("File too large") != std::string::npos)
    return LimitHit::FileSize;
  if (r.exit_code != 0 && mentions_memory_exhaustion(r.output)) return LimitHit::Memory;
  // A tool that hit its address-space limit may also just die of SIGSEGV/SIGABRT.
  if (r.signal == SIGKILL || r.signal == SIGABRT || r.signal == SIGSEGV)
    if (mentions_memory_exhaustion(r.output)) return LimitHit::Memory;
  return LimitHit::None;
}

std::string mb(uint64_t bytes) { return std::to_string(bytes >> 20) + " MB"; }

}  // namespace

ToolLimits ToolLimits::from_environment() {
  ToolLimits l;
  // Scaled like every run's wall-clock limit (TLMCRAFT_WALL_CLOCK_SCALE, a slow or loaded host).
  l.timeout_seconds = double(env_positive_number("TLMCRAFT_TOOL_TIMEOUT_SECONDS", uint64_t(l.timeout_seconds))) *
                      double(env_positive_number("TLMCRAFT_WALL_CLOCK_SCALE", 1));
  l.cpu_seconds = env_positive_number("TLMCRAFT_TOOL_CPU_SECONDS", l.cpu_seconds);
  l.memory_bytes = env_positive_number("TLMCRAFT_TOOL_MEMORY_MB", l.memory_bytes >> 20) << 20;
  l.file_size_bytes = env_positive_number("TLMCRAFT_TOOL_OUTPUT_MB", l.file_size_bytes >> 20) << 20;
  return l;
}

std::string limit_text(const std::string& tool, const ToolRun& r, const ToolLimits& l) {
  switch (r.limit) {
    case LimitHit::Timeout:
      return tool + " did not finish within its wall-clock limit of " + std::to_string(static_cast<int>(l.timeout_seconds)) +
             " s and was stopped (raise it with TLMCRAFT_TOOL_TIMEOUT_SECONDS)";
    case LimitHit::CpuTime:
      return tool + " exceeded its CPU time limit of " + std::to_string(l.cpu_seconds) +
             " s and was stopped (expansion directives such as .rept repeat too often?; raise the limit with "
             "TLMCRAFT_TOOL_CPU_SECONDS)";
    case LimitHit::Memory:
      return tool + " exceeded its memory limit of " + mb(l.memory_bytes) +
             " (directives such as .skip/.space/.rept make the image too large?; raise the limit with TLMCRAFT_TOOL_MEMORY_MB)";
    case LimitHit::FileSize:
      return tool + " exceeded its output file size limit of " + mb(l.file_size_bytes) +
             " (directives such as .skip/.space/.rept make the image too large?; raise the limit with TLMCRAFT_TOOL_OUTPUT_MB)";
    case LimitHit::None: break;
  }
  return "";
}

ToolRun run_tool(const std::vector<std::string>& argv, const std::string& cwd, const ToolLimits& limits,
                 const ToolSandbox* sandbox) {
  ToolRun r;
  if (argv.empty()) {
    r.not_found = true;
    return r;
  }
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  // Failures before the tool runs (entering the sandbox, exec) are reported through a
  // second close-on-exec pipe as {stage, errno}.
  int err[2];
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(out[0]);
    close(out[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  install_cleanup_handlers();
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {out[0], out[1], err[0], err[1]}) close(fd);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    child_setup(limits);
    dup2(out[1], STDOUT_FILENO);
    dup2(out[1], STDERR_FILENO);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
    if (sandbox) {
      const int failed[2] = {kStageSandbox, sandbox->enter()};
      if (failed[1] != 0) {
        (void)!write(err[1], failed, sizeof failed);
        _exit(127);
      }
    }
    execvp(args[0], args.data());
    const int failed[2] = {kStageExec, errno};
    (void)!write(err[1], failed, sizeof failed);
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so the group exists before any kill()
  int group_slot = -1;
  for (int i = 0; i < kSlots && group_slot < 0; ++i) {
    pid_t expected = 0;
    if (g_child_groups[i].compare_exchange_strong(expected, pid)) group_slot = i;
  }
  close(out[1]);
  close(err[1]);

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limits.timeout_seconds);
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      break;
    }
    pollfd p{out[0], POLLIN, 0};
    const int n = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    const ssize_t got = read(out[0], buf, sizeof buf);
    if (got <= 0) break;  // EOF: the tool closed its output (normally: exited)
    if (r.output.size() < kMaxOutput) r.output.append(buf, static_cast<size_t>(got));
  }
  if (r.timed_out) kill(-pid, SIGKILL);
  close(out[0]);
  // The exit, without reaping: the zombie keeps its pid, and so the group id, from being
  // reused, so the group kill cannot reach another process's group (pids wrap at 32768).
  siginfo_t exited{};
  while (waitid(P_PID, pid, &exited, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  kill(-pid, SIGKILL);  // anything the tool left running in its group
  if (group_slot >= 0) g_child_groups[group_slot].store(0);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  int failed[2] = {0, 0};
  if (read(err[0], failed, sizeof failed) == static_cast<ssize_t>(sizeof failed)) {
    if (failed[0] == kStageSandbox) r.sandbox_error = failed[1];
    else r.not_found = true;
  }
  close(err[0]);
  if (!r.timed_out && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  if (!r.not_found && !r.sandbox_error) r.limit = classify(r);
  return r;
}

int remove_stale_temp_dirs(const std::string& dir) {
  int removed = 0;
  DIR* d = opendir(dir.c_str());
  if (!d) return 0;
  const std::string prefix = "tlmcraft-coral-";
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string path = dir + "/" + name;
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) continue;
    const std::string rest = name.substr(prefix.size());
    const size_t dash = rest.find('-');
    bool stale = false;
    if (dash != std::string::npos && dash > 0 && rest.find_first_not_of("0123456789") == dash) {
      const pid_t owner = static_cast<pid_t>(std::strtol(rest.substr(0, dash).c_str(), nullptr, 10));
      stale = owner > 0 && kill(owner, 0) != 0 && errno == ESRCH;
    } else {  // the old name without a pid: only when clearly abandoned
      stale = std::time(nullptr) - st.st_mtime > 3600;
    }
    if (!stale) continue;
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
    if (!ec) ++removed;
  }
  closedir(d);
  return removed;
}

TempDir::TempDir() {
  const char* env = std::getenv("TMPDIR");
  const std::string base = env && *env ? env : "/tmp";
  static std::once_flag swept;
  std::call_once(swept, [&] { remove_stale_temp_dirs(base); });
  install_cleanup_handlers();
  std::string tmpl = base + "/tlmcraft-coral-" + std::to_string(getpid()) + "-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) throw std::runtime_error("cannot create a temporary directory in " + tmpl + ": " + std::strerror(errno));
  path_ = buf.data();
  if (path_.size() < kPathMax) {
    for (int i = 0; i < kSlots && slot_ < 0; ++i) {
      int expected = 0;
      if (!g_dir_state[i].compare_exchange_strong(expected, 1)) continue;
      std::memcpy(g_dir_paths[i], path_.c_str(), path_.size() + 1);
      g_dir_state[i].store(2);  // only now does the handler read the path
      slot_ = i;
    }
  }
}

TempDir::~TempDir() {
  if (slot_ >= 0) g_dir_state[slot_].store(0);
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace tlmcraft::coral
