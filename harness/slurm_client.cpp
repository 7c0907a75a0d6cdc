#include "harness/slurm_client.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace tlmcraft::harness {

namespace {

// Reads both pipes until EOF on each (poll, so neither fills up and blocks the child).
void drain(int out_fd, int err_fd, std::string& out, std::string& err) {
  std::vector<pollfd> fds = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&out, &err};
  int open_count = 2;
  char buf[8192];
  while (open_count > 0) {
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, size_t(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_count;
      }
    }
  }
}

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

}  // namespace

CommandResult run_command(const std::vector<std::string>& argv) {
  CommandResult r;
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    r.err = std::string("pipe2: ") + std::strerror(errno);
    return r;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    r.err = std::string("pipe2: ") + std::strerror(errno);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    r.err = "cannot run '" + argv[0] + "': " + std::strerror(rc);
    return r;
  }
  drain(out_pipe[0], err_pipe[0], r.out, r.err);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string array_ranges(std::vector<int> tasks) {
  std::sort(tasks.begin(), tasks.end());
  tasks.erase(std::unique(tasks.begin(), tasks.end()), tasks.end());
  std::string s;
  for (size_t i = 0; i < tasks.size();) {
    size_t j = i;
    while (j + 1 < tasks.size() && tasks[j + 1] == tasks[j] + 1) ++j;
    s += (s.empty() ? "" : ",") + std::to_string(tasks[i]);
    if (j > i) s += "-" + std::to_string(tasks[j]);
    i = j + 1;
  }
  return s;
}

std::vector<std::string> sbatch_argv(const SbatchRequest& q) {
  std::string array = array_ranges(q.tasks);
  if (q.throttle > 0) array += "%" + std::to_string(q.throttle);
  std::vector<std::string> argv = {"sbatch", "--parsable", "--array=" + array, "--job-name=" + q.job_name,
                                   "--output=" + q.output_pattern, "--chdir=" + q.workdir,
                                   "--cpus-per-task=" + std::to_string(q.cpus_per_task)};
  if (!q.partition.empty()) argv.push_back("--partition=" + q.partition);
  if (!q.time.empty()) argv.push_back("--time=" + q.time);
  if (!q.mem.empty()) argv.push_back("--mem=" + q.mem);
  argv.insert(argv.end(), q.extra.begin(), q.extra.end());
  argv.push_back(q.script);
  return argv;
}

std::string submit_array(const SbatchRequest& request) {
  const CommandResult r = run_command(sbatch_argv(request));
  const std::string out = trimmed(r.out);
  // --parsable prints "<job id>" or "<job id>;<cluster>".
  const std::string id = out.substr(0, out.find(';'));
  if (r.exit_code != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw std::runtime_error("sbatch failed (exit " + std::to_string(r.exit_code) + "): " +
                             trimmed(r.err.empty() ? r.out : r.err));
  return id;
}

QueueSnapshot query_queue(const std::vector<std::string>& array_ids) {
  QueueSnapshot snap;
  if (array_ids.empty()) {
    snap.ok = true;
    return snap;
  }
  // All of the user's jobs, one line per array task; -j would fail outright as soon as
  // one of the ids has been purged from the controller.
  const CommandResult r = run_command({"squeue", "--noheader", "--array", "--states=all", "--me", "--format=%F|%K|%T|%r"});
  if (r.exit_code != 0) {
    snap.error = "squeue failed (exit " + std::to_string(r.exit_code) + "): " + trimmed(r.err);
    return snap;
  }
  const std::set<std::string> wanted(array_ids.begin(), array_ids.end());
  std::stringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> f;
    std::stringstream fields(trimmed(line));
    std::string item;
    while (std::getline(fields, item, '|')) f.push_back(item);
    if (f.size() < 3 || !wanted.count(f[0])) continue;
    const std::string key = f[0] + "_" + f[1];
    snap.states[key] = f[2];
    snap.reasons[key] = f.size() > 3 ? f[3] : "";
  }
  snap.ok = true;
  return snap;
}

std::string accounting_state(const std::string& slurm_job) {
  const CommandResult r = run_command({"sacct", "--noheader", "--parsable2", "--allocations", "--jobs=" + slurm_job,
                                       "--format=State"});
  if (r.exit_code != 0) return "";
  const std::string s = trimmed(r.out);
  return s.substr(0, s.find_first_of(" \n"));  // "CANCELLED by 0" -> "CANCELLED"
}

bool is_final_state(const std::string& state) {
  static const std::set<std::string> final_states = {
      "COMPLETED", "FAILED",   "CANCELLED",     "TIMEOUT",  "PREEMPTED", "NODE_FAIL",
      "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "REVOKED", "SPECIAL_EXIT"};
  return final_states.count(state) > 0;
}

}  // namespace tlmcraft::harness
