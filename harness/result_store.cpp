#include "harness/result_store.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "harness/suite_runner.h"

namespace tlmcraft::harness {

namespace {

std::string sys_error(const std::string& what, const std::string& path) {
  return what + " '" + path + "': " + std::strerror(errno);
}

void lock_or_throw(int fd, const std::string& path, double wait_seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_seconds);
  while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (std::chrono::steady_clock::now() >= deadline)
      throw std::runtime_error("results file '" + path + "' is in use by another suite run");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

ResultStore::ResultStore(const std::string& path, bool fresh, double lock_wait_seconds) : path_(path) {
  const std::filesystem::path p(path);
  if (p.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
    if (ec) throw std::runtime_error("cannot create directory '" + p.parent_path().string() + "': " + ec.message());
  }
  fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(sys_error("cannot open results file", path));
  try {
    lock_or_throw(fd_, path, lock_wait_seconds);
    if (fresh) {
      if (ftruncate(fd_, 0) != 0) throw std::runtime_error(sys_error("cannot truncate", path));
      return;
    }
    JsonlContents existing = read_jsonl(path);
    warnings_ = existing.warnings;
    if (existing.torn_bytes > 0) {
      if (ftruncate(fd_, off_t(existing.valid_bytes)) != 0 || fsync(fd_) != 0)
        throw std::runtime_error(sys_error("cannot repair the torn last line of", path));
      dropped_torn_bytes_ = existing.torn_bytes;
    }
    for (auto& r : existing.records) {
      const std::string key = record_key(r);
      if (!key.empty()) by_key_.emplace(key, std::move(r));
    }
  } catch (...) {
    close(fd_);
    throw;
  }
}

ResultStore::~ResultStore() {
  if (fd_ >= 0) close(fd_);
}

bool ResultStore::add(const std::string& key, const nlohmann::json& record) {
  if (by_key_.count(key)) return false;
  const std::string line = record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(sys_error("cannot append to", path_));
    done += size_t(n);
  }
  if (fsync(fd_) != 0) throw std::runtime_error(sys_error("cannot fsync", path_));
  by_key_.emplace(key, record);
  return true;
}

}  // namespace tlmcraft::harness
