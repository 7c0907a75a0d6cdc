// Hostile AIE-ML kernel files give a bounded number of diagnostics: thousands of
// duplicate `.tile 0 0` sections or `.phase` blocks used to produce millions.
#include <chrono>

#include "tests/platforms/aie_ml_test_util.h"

namespace tlmcraft::aie_ml {
namespace {

using Clock = std::chrono::steady_clock;

TEST(AieMlBounds, DuplicateTileBombGivesCappedDiagnostics) {
  auto p = test::make();
  std::string kernel;
  for (int i = 0; i < 3000; ++i) kernel += ".tile 0 0\n  DONE\n";
  const auto t0 = Clock::now();
  const auto d = test::reject(*p, kernel);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 2.0);
  ASSERT_EQ(d.size(), 101u) << test::joined(d);
  EXPECT_EQ(d[0].format(), "k.s:3:1: error: tile (0, 0) already has a program '.tile 0 0' (hint: its first '.tile' is on line 1)");
  EXPECT_EQ(d[1].line, 5u);  // one message per duplicate, not one per earlier section
  EXPECT_EQ(d.back().severity, isa::Severity::Note);
  EXPECT_EQ(d.back().message, "... and more diagnostics (stopped after 100)");
}

TEST(AieMlBounds, RepeatedPhasesAreBounded) {
  auto p = test::make();
  std::string dup;
  for (int i = 0; i < 3000; ++i) dup += ".phase same\n.tile 0 0\n  DONE\n";
  const auto d = test::reject(*p, dup);
  ASSERT_LE(d.size(), 101u);
  EXPECT_EQ(d[0].message, "phase 'same' is defined twice");
  std::string many;
  for (int i = 0; i < 300; ++i) many += ".phase p" + std::to_string(i) + "\n.tile 0 0\n  DONE\n";
  const auto m = test::reject(*p, many);
  ASSERT_EQ(m.size(), 1u) << test::joined(m);
  EXPECT_EQ(m[0].line, 256u * 3 + 1);
  EXPECT_EQ(m[0].message, "more than 256 phases");
}

}  // namespace
}  // namespace tlmcraft::aie_ml
