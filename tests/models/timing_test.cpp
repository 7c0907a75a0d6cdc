#include <gtest/gtest.h>

#include "models/timing.h"

namespace tlmcraft::models {
namespace {

TEST(PipelinedUnit, EnforcesInitiationInterval) {
  PipelinedUnit mm("matrix", 4, 2);
  IssueSlot s = mm.issue(0);
  EXPECT_EQ(s.start, 0u);
  EXPECT_EQ(s.done, 4u);
  s = mm.issue(0);  // next entry at 0 + II 2
  EXPECT_EQ(s.start, 2u);
  EXPECT_EQ(s.done, 6u);
  s = mm.issue(3);  // entry free at 4 -> waits 1
  EXPECT_EQ(s.start, 4u);
  EXPECT_EQ(s.done, 8u);
  s = mm.issue(20);  // idle unit: no wait
  EXPECT_EQ(s.start, 20u);
  EXPECT_EQ(s.done, 24u);
  s = mm.issue(0, 1, 1);  // per-operation latency/II: entry free at 22
  EXPECT_EQ(s.start, 22u);
  EXPECT_EQ(s.done, 23u);
  EXPECT_EQ(mm.operations(), 5u);
  EXPECT_EQ(mm.stall_cycles(), 2u + 1u + 22u);       // (2-0) + (4-3) + (22-0)
  EXPECT_EQ(mm.issue_busy_cycles(), 2u * 4 + 1);      // sum of II
  EXPECT_EQ(mm.active_cycles(), 8u + 4u);             // [0,8) and [20,24)
  EXPECT_EQ(mm.idle_cycles(30), 18u);
  const auto j = mm.stats(30);
  EXPECT_EQ(j["operations"], 5u);
  EXPECT_DOUBLE_EQ(j["utilisation"].get<double>(), 12.0 / 30.0);
}

TEST(PipelinedUnit, FullySerialUnit) {
  // II = latency: the PLENA reference simulator's serial matrix unit (64 cycles each).
  PipelinedUnit u("serial", 64, 64);
  EXPECT_EQ(u.issue(0).done, 64u);
  EXPECT_EQ(u.issue(10).start, 64u);
  EXPECT_EQ(u.last_done(), 128u);
}

TEST(Scoreboard, RegisterReadiness) {
  Scoreboard sb;
  const Scoreboard::Id v1 = sb.id("v1");
  EXPECT_EQ(sb.id("v1"), v1);
  EXPECT_EQ(sb.ready(v1), 0u);
  sb.set_ready(v1, 42);
  EXPECT_EQ(sb.ready("v1"), 42u);
  sb.set_ready("acc", 7);
  EXPECT_EQ(sb.ready(sb.id("acc")), 7u);
  EXPECT_EQ(sb.ready("never"), 0u);
  EXPECT_THROW(sb.set_ready(Scoreboard::Id(99), 1), std::out_of_range);
}

TEST(Scoreboard, MemoryRangeHazards) {
  Scoreboard sb;
  const uint32_t vram = 1, msram = 2;
  sb.record_write(vram, 100, 200, 50);  // data in [100,200) visible from 50
  EXPECT_EQ(sb.earliest_read(vram, 150, 160, 10), 50u);   // RAW
  EXPECT_EQ(sb.earliest_read(vram, 200, 300, 10), 10u);   // half-open: 200 not written
  EXPECT_EQ(sb.earliest_read(vram, 90, 101, 10), 50u);    // overlaps one byte
  EXPECT_EQ(sb.earliest_read(msram, 150, 160, 10), 10u);  // other memory unaffected
  EXPECT_EQ(sb.earliest_write(vram, 150, 160, 10), 50u);  // WAW
  sb.record_read(vram, 300, 400, 70);   // [300,400) read until 70
  EXPECT_EQ(sb.earliest_write(vram, 350, 360, 0), 70u);   // WAR
  EXPECT_EQ(sb.earliest_read(vram, 350, 360, 0), 0u);     // read after read: no hazard
  EXPECT_EQ(sb.earliest_write(vram, 150, 350, 0), 70u);   // WAW (50) and WAR (70)
  // A partial overwrite splits records: [150,320) written, visible from 90.
  sb.record_write(vram, 150, 320, 90);
  EXPECT_EQ(sb.earliest_read(vram, 100, 110, 0), 50u);
  EXPECT_EQ(sb.earliest_read(vram, 310, 315, 0), 90u);
  EXPECT_EQ(sb.earliest_write(vram, 310, 315, 0), 90u);   // max(write 90, read 70)
  EXPECT_EQ(sb.earliest_write(vram, 390, 400, 0), 70u);
  // [100,150) w50, [150,200) w90, [200,300) w90, [300,320) w90 r70, [320,400) r70.
  EXPECT_EQ(sb.range_records(), 5u);
  sb.prune(60);  // drops [100,150) (all cycles <= 60)
  EXPECT_EQ(sb.range_records(), 4u);
  EXPECT_EQ(sb.earliest_read(vram, 100, 110, 60), 60u);
}

TEST(Stats, OrderedCountersToJson) {
  Stats s;
  s.add("b", 2);
  s.add("a");
  s.add("b");
  s.max("peak", 5);
  s.max("peak", 3);
  EXPECT_EQ(s.get("b"), 3u);
  EXPECT_EQ(s.to_json().dump(), R"({"a":1,"b":3,"peak":5})");
  EXPECT_DOUBLE_EQ(utilisation(1, 4), 0.25);
  EXPECT_EQ(utilisation(1, 0), 0.0);
}

}  // namespace
}  // namespace tlmcraft::models
