#include "agent/workspace.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "isa/input_limits.h"

namespace tlmcraft::agent {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::runtime_error sys_error(const std::string& what, const std::string& path) {
  return std::runtime_error(path + ": " + what + ": " + std::strerror(errno));
}

void write_all(int fd, const std::string& text, const std::string& path) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw sys_error("write failed", path);
    }
    done += size_t(n);
  }
}

void fsync_dir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;  // best effort: some file systems do not allow it
  ::fsync(fd);
  ::close(fd);
}

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::optional<json> read_json(const std::string& path) {
  const auto text = read_text(path);
  if (!text) return std::nullopt;
  json j = json::parse(*text, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

std::string version_stem(int number) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "v%03d", number);
  return buf;
}

// "v012.asm" -> 12, "v012.report.json" or anything else -> 0.
int parse_version_file(const std::string& name, std::string& extension) {
  if (name.size() < 6 || name[0] != 'v') return 0;
  const auto dot = name.find('.');
  if (dot == std::string::npos || dot < 2) return 0;
  const std::string digits = name.substr(1, dot - 1);
  if (!std::all_of(digits.begin(), digits.end(), ::isdigit)) return 0;
  extension = name.substr(dot + 1);
  if (extension != "asm" && extension != "c") return 0;
  return std::stoi(digits);
}

void append_line(const std::string& path, const std::string& line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw sys_error("cannot open for appending", path);
  try {
    write_all(fd, line + "\n", path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::fsync(fd);
  ::close(fd);
}

// Reports may hold a kernel's bytes: never fail on invalid UTF-8.
std::string dump_json(const json& j) { return j.dump(1, ' ', false, json::error_handler_t::replace); }

}  // namespace

void write_file_atomic(const std::string& path, const std::string& text) {
  const fs::path p(path);
  const std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  const std::string tmp = dir + "/." + p.filename().string() + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw sys_error("cannot create temporary file", tmp);
  try {
    write_all(fd, text, tmp);
    if (::fsync(fd) != 0) throw sys_error("fsync failed", tmp);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const auto e = sys_error("cannot rename temporary file into place", path);
    ::unlink(tmp.c_str());
    throw e;
  }
  fsync_dir(dir);
}

Workspace::Workspace(std::string root) : root_(std::move(root)) {
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (ec || !fs::is_directory(root_)) throw std::runtime_error(root_ + ": cannot create workspace directory" + (ec ? ": " + ec.message() : ""));
}

std::string Workspace::slot_dir(const Workload& w) const {
  const std::string dir = root_ + "/" + w.task + "_" + w.platform + "_" + w.config;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create workload directory: " + ec.message());
  return dir;
}

std::vector<KernelVersion> Workspace::versions(const Workload& w) const {
  std::vector<KernelVersion> out;
  const std::string dir = slot_dir(w);
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string ext;
    const int n = parse_version_file(e.path().filename().string(), ext);
    if (n > 0) out.push_back({n, e.path().string(), ext});
  }
  std::sort(out.begin(), out.end(), [](const KernelVersion& a, const KernelVersion& b) { return a.number < b.number; });
  return out;
}

std::optional<KernelVersion> Workspace::current(const Workload& w) const {
  const auto all = versions(w);
  if (all.empty()) return std::nullopt;
  return all.back();
}

KernelVersion Workspace::write_version(const Workload& w, const std::string& code, const std::string& extension) {
  if (extension != "asm" && extension != "c") throw std::invalid_argument("kernel extension must be asm or c, got '" + extension + "'");
  isa::check_kernel_size(code.size(), "the kernel code");
  const std::string dir = slot_dir(w);
  int next = 1;
  if (const auto cur = current(w)) next = cur->number + 1;
  // Written under a temporary name, then hard-linked to the version name, which fails if
  // that name exists: a concurrent writer (another process on the same workspace) makes
  // this one take the next number instead of replacing its version.
  static std::atomic<uint64_t> writes{0};  // unique per writer: two toolboxes of one process too
  const std::string tmp = dir + "/.version.tmp." + std::to_string(::getpid()) + "." + std::to_string(writes++);
  write_file_atomic(tmp, code);
  for (;; ++next) {
    KernelVersion v{next, dir + "/" + version_stem(next) + "." + extension, extension};
    const std::string other = dir + "/" + version_stem(next) + (extension == "asm" ? ".c" : ".asm");
    if (::access(other.c_str(), F_OK) == 0) continue;  // v003.c taken: v003.asm would be a second v003
    if (::link(tmp.c_str(), v.path.c_str()) == 0) {
      ::unlink(tmp.c_str());
      fsync_dir(dir);
      return v;
    }
    if (errno != EEXIST) {
      const auto e = sys_error("cannot create kernel version", v.path);
      ::unlink(tmp.c_str());
      throw e;
    }
  }
}

std::string Workspace::read_version(const KernelVersion& v) const {
  return isa::read_kernel_file(v.path);  // bounded: a regular file within the kernel size limit
}

void Workspace::store_report(const Workload& w, int version, const json& report) {
  const std::string dir = slot_dir(w);
  write_file_atomic(dir + "/" + version_stem(version) + ".report.json", dump_json(report) + "\n");
  // The evaluation log: one line per evaluation, so the order survives a restart.
  json line = {{"version", version}, {"status", report.value("status", "")}};
  if (report.contains("cycles")) line["cycles"] = report["cycles"];
  if (report.contains("seed")) line["seed"] = report["seed"];
  append_line(dir + "/evaluations.jsonl", line.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::optional<json> Workspace::report(const Workload& w, int version) const {
  return read_json(slot_dir(w) + "/" + version_stem(version) + ".report.json");
}

uint64_t Workspace::reserve_evaluation(const Workload& w) {
  const std::string dir = slot_dir(w);
  const std::string path = dir + "/evaluations.next";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw sys_error("cannot open the evaluation counter", path);
  if (::flock(fd, LOCK_EX) != 0) {
    const auto e = sys_error("cannot lock the evaluation counter", path);
    ::close(fd);
    throw e;
  }
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  uint64_t next = n > 0 ? std::strtoull(buf, nullptr, 10) : 0;
  next = std::max<uint64_t>(next, uint64_t(evaluations(w)));
  const std::string text = std::to_string(next + 1) + "\n";
  const bool written = ::ftruncate(fd, 0) == 0 && ::pwrite(fd, text.data(), text.size(), 0) == ssize_t(text.size());
  ::close(fd);  // releases the lock
  if (!written) throw sys_error("cannot update the evaluation counter", path);
  return next;
}

int Workspace::evaluations(const Workload& w) const {
  const auto text = read_text(slot_dir(w) + "/evaluations.jsonl");
  if (!text) return 0;
  return int(std::count(text->begin(), text->end(), '\n'));
}

std::optional<std::pair<int, json>> Workspace::last_report(const Workload& w) const {
  const auto text = read_text(slot_dir(w) + "/evaluations.jsonl");
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::string line;
  int version = 0;
  while (std::getline(in, line)) {
    const json j = json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.contains("version")) version = j["version"].get<int>();
  }
  if (version == 0) return std::nullopt;
  auto rep = report(w, version);
  if (!rep) return std::nullopt;
  return std::make_pair(version, *rep);
}

bool Workspace::offer_best(const Workload& w, const KernelVersion& version, const json& report) {
  if (report.value("status", "") != "pass" || !report.contains("cycles") || !report["cycles"].is_number()) return false;
  const uint64_t cycles = report["cycles"].get<uint64_t>();
  // Compare and replace under a lock: two processes sharing the workspace must not both
  // find themselves better than the old best and overwrite each other's files.
  const std::string lock_path = slot_dir(w) + "/best.lock";
  const int lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0) throw sys_error("cannot open the best-version lock", lock_path);
  struct Unlock {
    int fd;
    ~Unlock() { ::close(fd); }  // releases the flock
  } unlock{lock};
  if (::flock(lock, LOCK_EX) != 0) throw sys_error("cannot lock the best version", lock_path);
  if (const auto b = best(w)) {
    if (b->value("cycles", UINT64_MAX) <= cycles) return false;
  }
  const std::string dir = slot_dir(w);
  // Kernel and report first, then best.json: a crash in between leaves the previous
  // best.json, which still names an existing version file.
  write_file_atomic(dir + "/best." + version.extension, read_version(version));
  write_file_atomic(dir + "/best.report.json", dump_json(report) + "\n");
  json meta = {{"version", version.number}, {"cycles", cycles}, {"path", version.path},
               {"baseline_cycles", report.value("baseline_cycles", json())}, {"speedup", report.value("speedup", json())}};
  write_file_atomic(dir + "/best.json", meta.dump(1) + "\n");
  return true;
}

std::optional<json> Workspace::best(const Workload& w) const { return read_json(slot_dir(w) + "/best.json"); }

void Workspace::mark_submitted(const Workload& w, int version, const std::string& note) {
  write_file_atomic(slot_dir(w) + "/submitted.json", json{{"version", version}, {"note", note}}.dump(1) + "\n");
}

std::optional<json> Workspace::submitted(const Workload& w) const { return read_json(slot_dir(w) + "/submitted.json"); }

void Workspace::write_metadata(const Workload& w, const json& meta) {
  write_file_atomic(slot_dir(w) + "/run.json", meta.dump(1) + "\n");
}

}  // namespace tlmcraft::agent
