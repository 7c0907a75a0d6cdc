// Suite runner: worker processes supervised with poll(); see suite_runner.h for the
// guarantees. Workers are started with fork+exec (not posix_spawn) because each needs its
// own process group and PR_SET_PDEATHSIG, so that a SIGKILLed runner leaves no workers.
#include "harness/suite_runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>

namespace tlmcraft::harness {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr size_t kMaxStdoutBytes = size_t(64) << 20;  // a report is a few KiB; more is garbage
constexpr size_t kStderrKeepBytes = 16 << 10;
constexpr double kDrainSeconds = 1.0;  // after the worker exited, wait this long for pipe EOF

std::string dump_line(const json& j) {
  // Workers may print invalid UTF-8 (garbage, stderr tails): replace instead of throwing.
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string sys_error(const std::string& what, const std::string& path) {
  return what + " '" + path + "': " + std::strerror(errno);
}

// ---- signal plumbing: a self-pipe wakes poll() on SIGCHLD / SIGINT / SIGTERM ----------
int g_wake_pipe[2] = {-1, -1};
volatile sig_atomic_t g_interrupted = 0;
std::atomic<bool> g_suite_running{false};

void wake_handler(int sig) {
  const int saved = errno;
  if (sig == SIGINT || sig == SIGTERM) g_interrupted = 1;
  const char c = 1;
  if (g_wake_pipe[1] >= 0) (void)!write(g_wake_pipe[1], &c, 1);
  errno = saved;
}

class SignalScope {
 public:
  explicit SignalScope(bool interrupts) : interrupts_(interrupts) {
    if (pipe2(g_wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0) throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
    g_interrupted = 0;
    struct sigaction sa {};
    sa.sa_handler = wake_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigaction(SIGCHLD, &sa, &old_chld_);
    if (interrupts_) {
      sa.sa_flags = SA_RESTART;
      sigaction(SIGINT, &sa, &old_int_);
      sigaction(SIGTERM, &sa, &old_term_);
    }
  }
  ~SignalScope() {
    sigaction(SIGCHLD, &old_chld_, nullptr);
    if (interrupts_) {
      sigaction(SIGINT, &old_int_, nullptr);
      sigaction(SIGTERM, &old_term_, nullptr);
    }
    close(g_wake_pipe[0]);
    close(g_wake_pipe[1]);
    g_wake_pipe[0] = g_wake_pipe[1] = -1;
  }
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;

 private:
  bool interrupts_;
  struct sigaction old_chld_ {}, old_int_ {}, old_term_ {};
};

void drain_wake_pipe() {
  char buf[256];
  while (read(g_wake_pipe[0], buf, sizeof buf) > 0) {
  }
}

// ---- worker processes ----------------------------------------------------------------
std::string resolve_program(const std::string& prog) {
  if (prog.find('/') != std::string::npos) return prog;
  const char* path = getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + prog;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

struct Worker {
  SuiteJob job;
  pid_t pid = -1;
  int out_fd = -1;
  int err_fd = -1;
  std::string out;
  std::string err;  // the last kStderrKeepBytes of stderr
  bool out_overflow = false;
  Clock::time_point start;
  Clock::time_point deadline = Clock::time_point::max();
  bool reaped = false;
  int wait_status = 0;
  bool timed_out = false;
  Clock::time_point drain_deadline;
  std::string spawn_error;  // set when the worker could not be started
};

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// Starts the worker; on failure fills spawn_error (the job then records a crash).
void spawn_worker(Worker& w, const std::vector<std::string>& argv, int results_fd) {
  if (argv.empty()) {
    w.spawn_error = "empty worker command";
    return;
  }
  const std::string program = resolve_program(argv[0]);
  if (program.empty()) {
    w.spawn_error = "worker program '" + argv[0] + "' not found in PATH";
    return;
  }
  // Everything the child touches is prepared before fork: only async-signal-safe calls after.
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    w.spawn_error = std::string("pipe2: ") + std::strerror(errno);
    return;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    w.spawn_error = std::string("pipe2: ") + std::strerror(errno);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return;
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    w.spawn_error = std::string("fork: ") + std::strerror(errno);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    return;
  }
  if (pid == 0) {
    // Drop our reference to the locked results file at once (exec would close it too):
    // a runner killed while this child is between fork and exec must not keep the lock.
    close(results_fd);
    setpgid(0, 0);  // own group: a timeout kills the worker and everything it started
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the runner died before prctl took effect
    for (int sig : {SIGINT, SIGTERM, SIGCHLD, SIGPIPE, SIGQUIT, SIGHUP}) signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    execv(program.c_str(), cargv.data());
    const char msg[] = "suite runner: exec of the worker failed\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so the group exists before any kill()
  close(out_pipe[1]);
  close(err_pipe[1]);
  w.pid = pid;
  w.out_fd = out_pipe[0];
  w.err_fd = err_pipe[0];
  fcntl(w.out_fd, F_SETFL, fcntl(w.out_fd, F_GETFL) | O_NONBLOCK);
  fcntl(w.err_fd, F_SETFL, fcntl(w.err_fd, F_GETFL) | O_NONBLOCK);
}

void read_available(Worker& w, int& fd, bool is_stdout) {
  char buf[65536];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      if (is_stdout) {
        if (w.out.size() + size_t(n) > kMaxStdoutBytes) w.out_overflow = true;
        else w.out.append(buf, size_t(n));
      } else {
        w.err.append(buf, size_t(n));
        if (w.err.size() > 2 * kStderrKeepBytes) w.err.erase(0, w.err.size() - kStderrKeepBytes);
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    close_fd(fd);  // EOF or error
    return;
  }
}

std::vector<std::string> tail_lines(const std::string& text, size_t count) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  if (lines.size() > count) lines.erase(lines.begin(), lines.end() - long(count));
  return lines;
}

std::string one_line_excerpt(const std::string& text, size_t max_chars) {
  const size_t end = text.find_last_not_of(" \t\r\n");
  std::string s;
  for (char c : text.substr(0, end == std::string::npos ? 0 : end + 1)) {
    if (s.size() >= max_chars) {
      s += "...";
      break;
    }
    s += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  }
  return s;
}

std::string format_seconds(double s) {
  std::ostringstream os;
  os << s;
  return os.str();
}

json synthesized_record(const SuiteJob& job, const std::string& status, const std::string& reason, double seconds) {
  json r;
  r["schema"] = "tlmcraft.report/1";
  r["platform"] = job.platform;
  r["task"] = job.task;
  if (job.level > 0) r["level"] = job.level;
  r["config"] = job.config;
  // Same kernel description evaluate() gives (path "baseline:<task>:<config>" for baselines).
  if (job.kernel == "baseline") r["kernel"] = {{"path", "baseline:" + job.task + ":" + job.config}, {"source", "baseline"}};
  else r["kernel"] = {{"path", job.kernel}, {"source", "file"}};
  r["status"] = status;
  r["reason"] = reason;
  r["host_seconds"] = seconds;
  return r;
}

// Turns what a finished worker left behind into the JSONL record for its job.
json build_record(const Worker& w, const SuiteOptions& options) {
  const double seconds = std::chrono::duration<double>(Clock::now() - w.start).count();
  const auto stderr_tail = tail_lines(w.err, options.stderr_tail_lines);
  std::string tail_text;
  for (const auto& l : stderr_tail) tail_text += (tail_text.empty() ? "" : " | ") + l;
  const auto with_tail = [&](std::string reason) {
    if (!tail_text.empty()) reason += "; stderr: " + tail_text;
    return reason;
  };

  json record;
  json worker = {{"exit_code", nullptr}, {"signal", nullptr}, {"seconds", seconds}};
  if (w.job.known_result) {
    record = *w.job.known_result;
    record["job"] = job_json(w.job);
    if (!w.job.provenance.is_null()) record["provenance"] = w.job.provenance;
    return record;  // no worker ran
  }
  if (!w.spawn_error.empty()) {
    record = synthesized_record(w.job, "crash", "could not start the worker: " + w.spawn_error, seconds);
  } else if (w.timed_out) {
    worker["signal"] = "SIGKILL";
    record = synthesized_record(
        w.job, "timeout",
        with_tail("worker exceeded the per-job timeout of " + format_seconds(options.timeout_seconds) +
                  " s and was killed"),
        seconds);
  } else if (WIFSIGNALED(w.wait_status)) {
    const int sig = WTERMSIG(w.wait_status);
    worker["signal"] = describe_signal(sig).substr(0, describe_signal(sig).find(' '));
    record = synthesized_record(w.job, "crash", with_tail("worker killed by signal " + describe_signal(sig)), seconds);
  } else {
    const int code = WIFEXITED(w.wait_status) ? WEXITSTATUS(w.wait_status) : -1;
    worker["exit_code"] = code;
    if (w.out_overflow) {
      record = synthesized_record(w.job, "crash", with_tail("worker printed more than 64 MiB on stdout"), seconds);
    } else {
      // The report is the last non-empty stdout line (a worker may log lines before it).
      std::string last;
      for (const auto& l : tail_lines(w.out, 1)) last = l;
      json parsed = json::parse(last, nullptr, false);
      if (!parsed.is_discarded() && parsed.is_object() && parsed.contains("status") && parsed["status"].is_string()) {
        record = std::move(parsed);
      } else {
        std::string reason = "worker exited with code " + std::to_string(code) + " without a JSON report";
        if (!w.out.empty()) reason += "; stdout: '" + one_line_excerpt(w.out, 120) + "'";
        record = synthesized_record(w.job, "crash", with_tail(reason), seconds);
      }
    }
  }
  if (!stderr_tail.empty()) worker["stderr_tail"] = stderr_tail;
  record["job"] = job_json(w.job);
  if (!w.job.provenance.is_null()) record["provenance"] = w.job.provenance;  // also for crashes
  record["worker"] = worker;
  return record;
}

// ---- output file -----------------------------------------------------------------------
void write_line(int fd, const std::string& line, const std::string& path) {
  // One write() for the whole line; a short write (only on signals / full disks) is
  // completed, and a line torn by a kill in between is repaired on resume.
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(sys_error("cannot append to", path));
    done += size_t(n);
  }
  if (fsync(fd) != 0) throw std::runtime_error(sys_error("cannot fsync", path));
}

// ---- progress --------------------------------------------------------------------------
class Progress {
 public:
  Progress(ProgressMode mode, int fd, double interval, size_t total)
      : mode_(mode), fd_(fd), interval_(interval), total_(total), start_(Clock::now()), last_(start_) {
    if (mode_ == ProgressMode::Auto) mode_ = isatty(fd_) ? ProgressMode::Bar : ProgressMode::Lines;
  }
  void update(size_t done, size_t ran, size_t passed, size_t failed, size_t running, bool force) {
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double since = std::chrono::duration<double>(now - last_).count();
    if (mode_ == ProgressMode::Quiet) return;
    if (mode_ == ProgressMode::Lines && !force && since < interval_) return;
    if (mode_ == ProgressMode::Bar && !force && since < 0.2) return;
    last_ = now;
    std::string eta = "?";
    if (ran > 0 && done < total_) eta = duration_text(elapsed / double(ran) * double(total_ - done));
    if (done >= total_) eta = "0s";
    std::ostringstream os;
    if (mode_ == ProgressMode::Bar) {
      const int width = 30;
      const int filled = total_ ? int(double(width) * double(done) / double(total_)) : width;
      os << "\r\033[K[" << std::string(size_t(filled), '#') << std::string(size_t(width - filled), '.') << "] ";
    } else {
      os << "bench: ";
    }
    os << done << "/" << total_ << "  pass " << passed << "  fail " << failed << "  running " << running
       << "  elapsed " << duration_text(elapsed) << "  ETA " << eta;
    if (mode_ == ProgressMode::Lines) os << "\n";
    emit(os.str());
  }
  void finish() {
    if (mode_ == ProgressMode::Bar) emit("\n");
  }

 private:
  void emit(const std::string& s) {
    size_t off = 0;
    while (off < s.size()) {
      const ssize_t n = write(fd_, s.data() + off, s.size() - off);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;  // progress is best effort
      off += size_t(n);
    }
  }
  ProgressMode mode_;
  int fd_;
  double interval_;
  size_t total_;
  Clock::time_point start_, last_;
};

bool is_failure(const json& r) {
  const std::string s = r.value("status", "");
  return s != "pass" && s != "unsupported";
}

}  // namespace

// ---- public helpers ----------------------------------------------------------------------
std::string job_key(const SuiteJob& job) {
  // Unit separator: cannot occur in names or paths typed by users.
  return job.platform + '\x1f' + job.task + '\x1f' + job.config + '\x1f' + job.kernel + '\x1f' + job.variant;
}

json job_json(const SuiteJob& job) {
  json j = {{"platform", job.platform}, {"task", job.task}, {"config", job.config}, {"kernel", job.kernel}};
  if (!job.variant.empty()) j["variant"] = job.variant;
  return j;
}

std::string record_key(const json& record) {
  if (!record.is_object()) return "";
  const auto it = record.find("job");
  if (it == record.end() || !it->is_object()) return "";
  SuiteJob job;
  for (auto [field, target] : {std::pair{"platform", &job.platform}, std::pair{"task", &job.task},
                               std::pair{"config", &job.config}, std::pair{"kernel", &job.kernel}}) {
    const auto f = it->find(field);
    if (f == it->end() || !f->is_string()) return "";
    *target = f->get<std::string>();
  }
  const auto variant = it->find("variant");  // absent in records of runs without variants
  if (variant != it->end() && variant->is_string()) job.variant = variant->get<std::string>();
  return job_key(job);
}

CommandBuilder tlmcraft_run_command(const std::string& exe) {
  return [exe](const SuiteJob& job) {
    std::vector<std::string> argv = {exe, "run", "--platform", job.platform, "--task", job.task, "--config", job.config};
    if (job.kernel == "baseline") argv.push_back("--baseline");
    else argv.push_back(job.kernel);
    argv.push_back("--json");
    argv.insert(argv.end(), job.extra_args.begin(), job.extra_args.end());
    return argv;
  };
}

std::string duration_text(double seconds) {
  const long t = long(std::lround(seconds));
  std::ostringstream os;
  if (t >= 3600) os << t / 3600 << "h" << (t % 3600) / 60 << "m";
  else if (t >= 60) os << t / 60 << "m" << t % 60 << "s";
  else os << t << "s";
  return os.str();
}

unsigned usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return unsigned(n);
  }
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? unsigned(n) : 1;
}

std::string describe_signal(int sig) {
  static const std::map<int, const char*> names = {
      {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
      {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
      {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
      {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGXCPU, "SIGXCPU"},
      {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"}};
  const auto it = names.find(sig);
  const std::string name = it != names.end() ? it->second : "signal " + std::to_string(sig);
  const char* text = strsignal(sig);
  return text ? name + " (" + text + ")" : name;
}

JsonlContents read_jsonl(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read results file '" + path + "': " + std::strerror(errno));
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  JsonlContents c;
  size_t pos = 0, line_no = 0;
  while (pos < data.size()) {
    const size_t nl = data.find('\n', pos);
    ++line_no;
    if (nl == std::string::npos) {  // no newline: the last write was torn
      c.torn_bytes = data.size() - pos;
      c.warnings.push_back(path + ":" + std::to_string(line_no) + ": incomplete last line (" +
                           std::to_string(c.torn_bytes) + " bytes) dropped");
      break;
    }
    const std::string line = data.substr(pos, nl - pos);
    const bool last = nl + 1 == data.size();
    json j = json::parse(line, nullptr, false);
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      // blank line: harmless
    } else if (j.is_discarded() || !j.is_object()) {
      if (last) {  // an unparsable final line is a torn write as well
        c.torn_bytes = data.size() - pos;
        c.warnings.push_back(path + ":" + std::to_string(line_no) + ": unreadable last line dropped");
        break;
      }
      c.warnings.push_back(path + ":" + std::to_string(line_no) + ": not a JSON object, line ignored");
    } else {
      c.records.push_back(std::move(j));
    }
    pos = nl + 1;
    c.valid_bytes = pos;
  }
  return c;
}

// ---- the run -----------------------------------------------------------------------------
SuiteOutcome run_suite(const std::vector<SuiteJob>& jobs, const SuiteOptions& options) {
  if (!options.command) throw std::runtime_error("suite run: no worker command given");
  if (options.out_path.empty()) throw std::runtime_error("suite run: no output file given");
  bool expected = false;
  if (!g_suite_running.compare_exchange_strong(expected, true))
    throw std::runtime_error("suite run: another suite run is active in this process");
  struct Release {
    ~Release() { g_suite_running = false; }
  } release;

  SuiteOutcome outcome;
  const fs::path out_path(options.out_path);
  if (out_path.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(out_path.parent_path(), ec);
    if (ec) throw std::runtime_error("cannot create directory '" + out_path.parent_path().string() + "': " + ec.message());
  }
  const int fd = open(options.out_path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(sys_error("cannot open results file", options.out_path));
  struct FdCloser {
    int fd;
    ~FdCloser() { close(fd); }
  } fd_closer{fd};
  // Wait briefly for the lock: workers of a just-killed run may still be dying.
  const auto lock_deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                std::chrono::duration<double>(std::max(0.0, options.lock_wait_seconds)));
  while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (Clock::now() >= lock_deadline)
      throw std::runtime_error("results file '" + options.out_path + "' is in use by another suite run");
    usleep(20000);
  }

  // Existing results (resume) and the repair of a torn tail.
  std::map<std::string, json> done;
  std::vector<std::string> done_order;
  if (!options.resume) {
    if (ftruncate(fd, 0) != 0) throw std::runtime_error(sys_error("cannot truncate", options.out_path));
  } else {
    JsonlContents existing = read_jsonl(options.out_path);
    outcome.warnings = existing.warnings;
    if (existing.torn_bytes > 0) {
      if (ftruncate(fd, off_t(existing.valid_bytes)) != 0 || fsync(fd) != 0)
        throw std::runtime_error(sys_error("cannot repair the torn last line of", options.out_path));
      outcome.dropped_torn_bytes = existing.torn_bytes;
    }
    for (auto& r : existing.records) {
      const std::string key = record_key(r);
      if (key.empty()) continue;  // not a suite line (e.g. a bare report): not a result of any job
      if (done.emplace(key, std::move(r)).second) done_order.push_back(key);
    }
  }

  if (options.header) write_line(fd, dump_line(*options.header) + "\n", options.out_path);

  // Jobs to run, in the order given, each once.
  std::set<std::string> asked;
  std::vector<SuiteJob> pending;
  for (const auto& job : jobs) {
    const std::string key = job_key(job);
    if (!asked.insert(key).second) {
      outcome.warnings.push_back("duplicate job " + job.platform + "/" + job.task + "/" + job.config + "/" + job.kernel + " ignored");
      continue;
    }
    if (done.count(key)) ++outcome.skipped;
    else pending.push_back(job);
  }
  outcome.total = asked.size();
  std::reverse(pending.begin(), pending.end());  // pop_back() then yields the given order

  size_t passed = 0, failed = 0;
  for (const auto& key : done_order) {
    if (!asked.count(key)) continue;
    const json& r = done[key];
    if (r.value("status", "") == "pass") ++passed;
    else if (is_failure(r)) ++failed;
  }

  const unsigned max_workers = std::max(1u, options.jobs ? options.jobs : usable_cpus());
  const auto timeout = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.timeout_seconds));
  std::vector<json> new_results;
  std::vector<std::unique_ptr<Worker>> running;
  Progress progress(options.progress, options.progress_fd, options.progress_interval_seconds, outcome.total);
  std::string fatal;

  {
    SignalScope signals(options.handle_interrupts);
    progress.update(outcome.skipped, 0, passed, failed, 0, true);

    const auto finish = [&](Worker& w) {
      json record = build_record(w, options);
      write_line(fd, dump_line(record) + "\n", options.out_path);
      const std::string status = record.value("status", "");
      if (status == "pass") ++passed;
      else if (status != "unsupported") ++failed;
      new_results.push_back(std::move(record));
      ++outcome.ran;
    };

    while (!pending.empty() || !running.empty()) {
      if (g_interrupted || !fatal.empty()) break;
      while (running.size() < max_workers && !pending.empty()) {
        auto w = std::make_unique<Worker>();
        w->job = std::move(pending.back());
        pending.pop_back();
        w->start = Clock::now();
        if (options.timeout_seconds > 0) w->deadline = w->start + timeout;
        if (!w->job.known_result) spawn_worker(*w, options.command(w->job), fd);
        if (!w->spawn_error.empty() || w->job.known_result) {
          try {
            finish(*w);
          } catch (const std::exception& e) {
            fatal = e.what();
          }
          continue;
        }
        running.push_back(std::move(w));
      }
      if (running.empty()) continue;

      // Wait for output, a child's exit (SIGCHLD via the wake pipe), a deadline or a tick.
      std::vector<pollfd> fds = {{g_wake_pipe[0], POLLIN, 0}};
      std::vector<std::pair<Worker*, int*>> owners = {{nullptr, nullptr}};
      auto wake_at = Clock::now() + std::chrono::milliseconds(500);
      for (auto& w : running) {
        for (int* f : {&w->out_fd, &w->err_fd}) {
          if (*f < 0) continue;
          fds.push_back({*f, POLLIN, 0});
          owners.push_back({w.get(), f});
        }
        wake_at = std::min(wake_at, w->reaped ? w->drain_deadline : w->deadline);
      }
      const auto wait_ms = std::chrono::duration_cast<std::chrono::milliseconds>(wake_at - Clock::now()).count();
      const int n = poll(fds.data(), fds.size(), int(std::clamp<long long>(wait_ms + 1, 0, 500)));
      if (n < 0 && errno != EINTR) {
        fatal = std::string("poll: ") + std::strerror(errno);
        break;
      }
      drain_wake_pipe();
      for (size_t i = 1; i < fds.size(); ++i) {
        if (fds[i].revents == 0) continue;
        Worker* w = owners[i].first;
        read_available(*w, *owners[i].second, owners[i].second == &w->out_fd);
      }

      const auto now = Clock::now();
      for (auto& w : running) {
        if (!w->reaped) {
          // Exited? Kill what it left in its group before reaping it: the zombie keeps the
          // group id from being reused by another process (pids wrap).
          siginfo_t exited{};
          if (waitid(P_PID, w->pid, &exited, WEXITED | WNOHANG | WNOWAIT) == 0 && exited.si_pid == w->pid) {
            kill(-w->pid, SIGKILL);
            while (waitpid(w->pid, &w->wait_status, 0) < 0 && errno == EINTR) {
            }
            w->reaped = true;
            w->drain_deadline = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kDrainSeconds));
          } else if (now >= w->deadline && !w->timed_out) {
            w->timed_out = true;
            kill(-w->pid, SIGKILL);
            kill(w->pid, SIGKILL);
          }
        }
      }
      for (auto it = running.begin(); it != running.end();) {
        Worker& w = **it;
        const bool drained = (w.out_fd < 0 && w.err_fd < 0) || now >= w.drain_deadline;
        if (!w.reaped || !drained) {
          ++it;
          continue;
        }
        if (w.out_fd >= 0) read_available(w, w.out_fd, true);
        if (w.err_fd >= 0) read_available(w, w.err_fd, false);
        close_fd(w.out_fd);
        close_fd(w.err_fd);
        // Killed by a signal while this run is being stopped: the signal that stops the run
        // reached the worker too (Slurm signals every process of a job), so no result.
        if (g_interrupted && WIFSIGNALED(w.wait_status) && !w.timed_out) {
          it = running.erase(it);
          continue;
        }
        try {
          finish(w);
        } catch (const std::exception& e) {
          fatal = e.what();
        }
        it = running.erase(it);
      }
      progress.update(outcome.skipped + outcome.ran, outcome.ran, passed, failed, running.size(),
                      false);
    }

    // Interrupted or failed: stop the workers still running; their jobs stay pending.
    for (auto& w : running) {
      if (!w->reaped) {  // a reaped worker's pid may belong to another process by now
        kill(-w->pid, SIGKILL);
        kill(w->pid, SIGKILL);
        waitpid(w->pid, &w->wait_status, 0);
      }
      close_fd(w->out_fd);
      close_fd(w->err_fd);
    }
    outcome.interrupted = g_interrupted != 0 || (!pending.empty() || !running.empty());
    progress.update(outcome.skipped + outcome.ran, outcome.ran, passed, failed, 0, true);
    progress.finish();
  }
  if (!fatal.empty()) throw std::runtime_error(fatal);

  for (const auto& key : done_order)
    if (asked.count(key)) outcome.results.push_back(std::move(done[key]));
  for (auto& r : new_results) outcome.results.push_back(std::move(r));
  outcome.passed = passed;
  outcome.failed = failed;
  outcome.unsupported = size_t(std::count_if(outcome.results.begin(), outcome.results.end(),
                                             [](const json& r) { return r.value("status", "") == "unsupported"; }));
  return outcome;
}

}  // namespace tlmcraft::harness
