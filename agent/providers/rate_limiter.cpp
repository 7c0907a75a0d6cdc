#include "agent/providers/rate_limiter.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

std::runtime_error file_error(const std::string& path, const std::string& what) {
  return std::runtime_error("rate limit state " + path + ": " + what + ": " + std::strerror(errno));
}

// Holds an flock on an open file for one read-modify-write of the shared state.
class LockedFile {
 public:
  explicit LockedFile(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw file_error(path, "cannot open");
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) {
        ::close(fd_);
        throw file_error(path, "cannot lock");
      }
  }
  ~LockedFile() {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
  std::string read() const {
    std::string text;
    char buf[4096];
    off_t off = 0;
    for (ssize_t n; (n = ::pread(fd_, buf, sizeof buf, off)) > 0; off += n) text.append(buf, size_t(n));
    return text;
  }
  void write(const std::string& text) const {
    if (::ftruncate(fd_, 0) != 0) throw file_error(path_, "cannot truncate");
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::pwrite(fd_, text.data() + done, text.size() - done, off_t(done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw file_error(path_, "cannot write");
      done += size_t(n);
    }
  }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace

RateLimiter::RateLimiter(RateLimits limits, std::string state_file) : limits_(limits), path_(std::move(state_file)) {
  if (limits_.requests_per_window < 0 || limits_.tokens_per_window < 0)
    throw std::runtime_error("rate limits must be >= 0");
  if (!(limits_.window_seconds > 0)) throw std::runtime_error("the rate limit window must be positive");
  now = [] {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  };
  sleep = [](double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); };
}

template <class F>
auto RateLimiter::with_state(F&& f) {
  if (path_.empty()) {
    std::lock_guard<std::mutex> lock(mutex_);
    return f(memory_);
  }
  LockedFile file(path_);
  State s;
  const json j = json::parse(file.read(), nullptr, false);
  if (j.is_object()) {  // an empty or unreadable file starts a fresh window
    s.blocked_until = j.value("blocked_until", 0.0);
    if (j.contains("sent") && j["sent"].is_array())
      for (const auto& e : j["sent"])
        if (e.is_array() && e.size() == 2 && e[0].is_number() && e[1].is_number_unsigned())
          s.sent.emplace_back(e[0].get<double>(), e[1].get<uint64_t>());
  }
  auto result = f(s);
  json out = {{"blocked_until", s.blocked_until}, {"sent", json::array()}};
  for (const auto& [t, n] : s.sent) out["sent"].push_back({t, n});
  file.write(out.dump() + "\n");
  return result;
}

double RateLimiter::try_take(State& s, double t, uint64_t tokens) const {
  const double w = limits_.window_seconds;
  s.sent.erase(std::remove_if(s.sent.begin(), s.sent.end(), [&](const auto& e) { return e.first <= t - w; }),
               s.sent.end());
  if (s.blocked_until > t) return s.blocked_until - t;
  if (limits_.requests_per_window > 0 && double(s.sent.size()) + 1 > limits_.requests_per_window)
    return s.sent.front().first + w - t;  // the oldest request leaves the window
  if (limits_.tokens_per_window > 0 && !s.sent.empty()) {
    uint64_t used = 0;
    for (const auto& e : s.sent) used += e.second;
    if (double(used + tokens) > limits_.tokens_per_window) {
      // Wait until enough old requests have left the window.
      uint64_t freed = 0;
      for (const auto& e : s.sent) {
        freed += e.second;
        if (double(used - freed + tokens) <= limits_.tokens_per_window || freed == used) return e.first + w - t;
      }
    }
  }
  s.sent.emplace_back(t, tokens);
  return 0;
}

double RateLimiter::acquire(uint64_t tokens) {
  double waited = 0;
  while (true) {
    const double t = now();
    const double wait = with_state([&](State& s) { return try_take(s, t, tokens); });
    if (wait <= 0) return waited;
    const double step = std::min(wait + 0.001, limits_.window_seconds);
    sleep(step);
    waited += step;
  }
}

void RateLimiter::hold_off(double seconds) {
  if (!(seconds > 0)) return;
  const double until = now() + seconds;
  with_state([&](State& s) {
    s.blocked_until = std::max(s.blocked_until, until);
    return 0;
  });
}

}  // namespace tlmcraft::agent
