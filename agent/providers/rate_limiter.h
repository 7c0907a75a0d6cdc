// A budget of requests and tokens per time window shared by every client of one API key:
// the workers of one `agent-bench` (separate processes) share it through a state file
// locked with flock(2); a single run keeps it in memory. Before each HTTP attempt a client
// takes one request and its estimated tokens from the window (waiting until they fit), and
// a 429's Retry-After holds every client back until that time.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace tlmcraft::agent {

struct RateLimits {
  double requests_per_window = 0;  // 0 = no request limit
  double tokens_per_window = 0;    // 0 = no token limit
  double window_seconds = 60;
};

class RateLimiter {
 public:
  // `state_file` "" keeps the state in this process. Throws std::runtime_error for limits
  // that are negative or a window that is not positive.
  RateLimiter(RateLimits limits, std::string state_file);

  // Blocks until one more request of `tokens` estimated tokens fits the window (a request
  // larger than the whole token budget goes alone into an empty window); returns the
  // seconds waited. Throws std::runtime_error when the state file cannot be used.
  double acquire(uint64_t tokens);

  // A server asked for `seconds` of quiet (429 with Retry-After): nobody sends before then.
  void hold_off(double seconds);

  const RateLimits& limits() const { return limits_; }

  // For tests: the wall clock (seconds since the epoch) and the sleep.
  std::function<double()> now;
  std::function<void(double)> sleep;

 private:
  struct State {
    double blocked_until = 0;
    std::vector<std::pair<double, uint64_t>> sent;  // (time, tokens) inside the window
  };
  // Runs `f` on the state under the lock (flock for a file, a mutex in memory) and saves it.
  template <class F>
  auto with_state(F&& f);
  // Seconds to wait before a request of `tokens` fits; 0 = take it now (recorded).
  double try_take(State& s, double t, uint64_t tokens) const;

  RateLimits limits_;
  std::string path_;
  std::mutex mutex_;
  State memory_;
};

}  // namespace tlmcraft::agent
