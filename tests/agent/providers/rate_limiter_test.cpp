// The shared rate limiter on a fake clock (exact waits derived by hand), through a state
// file shared by two limiters, and a 429's Retry-After holding everyone back.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <memory>

#include "agent/providers/rate_limiter.h"

namespace tlmcraft::agent {
namespace {

// A clock the limiter's sleeps advance.
struct FakeClock {
  double t = 1000;
  double slept = 0;
  void attach(RateLimiter& l) {
    l.now = [this] { return t; };
    l.sleep = [this](double s) {
      t += s;
      slept += s;
    };
  }
};

TEST(RateLimiter, RequestsPerWindow) {
  FakeClock clock;
  RateLimiter l({3, 0, 10}, "");
  clock.attach(l);
  EXPECT_EQ(l.acquire(1), 0);
  EXPECT_EQ(l.acquire(1), 0);
  EXPECT_EQ(l.acquire(1), 0);
  // The 4th waits until the 1st (t = 1000) leaves the window (1000, 1010]: 10 s (the 1 ms
  // margin added to a wait never makes it longer than one window).
  EXPECT_NEAR(l.acquire(1), 10.0, 1e-9);
  EXPECT_NEAR(clock.t, 1010.0, 1e-9);
}

TEST(RateLimiter, TokensPerWindow) {
  FakeClock clock;
  RateLimiter l({0, 1000, 60}, "");
  clock.attach(l);
  EXPECT_EQ(l.acquire(600), 0);
  clock.t += 5;
  EXPECT_EQ(l.acquire(300), 0);  // 900 of 1000
  // 600 more fit only once the first 600 (sent at 1000) leave: at 1060, 55 s from 1005 (+1 ms).
  EXPECT_NEAR(l.acquire(600), 55.001, 1e-9);
  // A request larger than the whole budget goes alone into an empty window.
  FakeClock c2;
  RateLimiter big({0, 1000, 60}, "");
  c2.attach(big);
  EXPECT_EQ(big.acquire(5000), 0);
}

TEST(RateLimiter, RetryAfterHoldsEveryoneBack) {
  FakeClock clock;
  RateLimiter l({100, 0, 60}, "");
  clock.attach(l);
  l.hold_off(7.5);
  EXPECT_NEAR(l.acquire(1), 7.501, 1e-9);
}

TEST(RateLimiter, StateFileIsSharedBetweenLimiters) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("tlmcraft-ratelimit-" + std::to_string(::getpid()) + ".json")).string();
  std::filesystem::remove(path);
  FakeClock clock;
  RateLimiter a({2, 0, 30}, path), b({2, 0, 30}, path);
  clock.attach(a);
  clock.attach(b);
  EXPECT_EQ(a.acquire(1), 0);
  EXPECT_EQ(b.acquire(1), 0);
  // Two sent in this window between them: a third from either waits the 30 s window.
  EXPECT_NEAR(a.acquire(1), 30.0, 1e-9);
  b.hold_off(4);  // seen by a through the file
  EXPECT_NEAR(a.acquire(1), 4.001, 1e-9);
  std::filesystem::remove(path);
}

TEST(RateLimiter, BadLimitsAreRejected) {
  EXPECT_THROW(RateLimiter({-1, 0, 60}, ""), std::runtime_error);
  EXPECT_THROW(RateLimiter({1, 0, 0}, ""), std::runtime_error);
  FakeClock clock;
  RateLimiter l({1, 0, 60}, "/nonexistent-dir/x/state.json");
  clock.attach(l);
  try {
    l.acquire(1);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("rate limit state /nonexistent-dir/x/state.json: cannot open: ", 0), 0u)
        << e.what();
  }
}

}  // namespace
}  // namespace tlmcraft::agent
