#include "traces/profile.h"

#include <gtest/gtest.h>

#include "tests/traces/example_trace.h"

namespace tlmcraft::traces {
namespace {

TEST(Profile, ExampleTraceOverTenCycles) {
  TraceRecorder rec;
  test::record_example(rec);
  Profile p = profile_from_recorder(rec, 10);
  // vector: [0,4) + [4,6) -> busy 6, 2 slices, 6 slice cycles, 60%.
  // dma.prefetch: [2,5) u [3,7) = [2,7) -> busy 5, slice cycles 3 + 4 = 7, 50%.
  // pc has no slices and is not listed.
  EXPECT_EQ(p.total_cycles, 10u);
  ASSERT_EQ(p.tracks.size(), 2u);
  EXPECT_EQ(p.tracks[0].name, "plena.vector");
  EXPECT_EQ(p.tracks[0].busy_cycles, 6u);
  EXPECT_EQ(p.tracks[0].slices, 2u);
  EXPECT_EQ(p.tracks[0].slice_cycles, 6u);
  EXPECT_DOUBLE_EQ(p.tracks[0].utilisation, 0.6);
  EXPECT_EQ(p.tracks[1].name, "plena.dma.prefetch");
  EXPECT_EQ(p.tracks[1].busy_cycles, 5u);
  EXPECT_EQ(p.tracks[1].slice_cycles, 7u);
  EXPECT_DOUBLE_EQ(p.tracks[1].utilisation, 0.5);
  // Top: load 7 cycles (2x), vadd 4, vmul 2.
  ASSERT_EQ(p.top.size(), 3u);
  EXPECT_EQ(p.top[0].name, "load");
  EXPECT_EQ(p.top[0].track, "plena.dma.prefetch");
  EXPECT_EQ(p.top[0].count, 2u);
  EXPECT_EQ(p.top[0].cycles, 7u);
  EXPECT_DOUBLE_EQ(p.top[0].share, 0.7);
  EXPECT_EQ(p.top[1].name, "vadd");
  EXPECT_EQ(p.top[1].cycles, 4u);
  EXPECT_EQ(p.top[2].name, "vmul");
  EXPECT_EQ(p.top[2].cycles, 2u);

  // Track column width 18 ("plena.dma.prefetch"); numbers right-aligned in 10/6/8.
  EXPECT_EQ(p.to_text(),
            "cycles 0..10 (10 cycles)\n"
            "track                     busy    util    slices\n"
            "plena.vector                 6   60.0%         2\n"
            "plena.dma.prefetch           5   50.0%         2\n"
            "top slices by cycles:\n"
            "  plena.dma.prefetch  load           7 cycles         2x   70.0%\n"
            "  plena.vector        vadd           4 cycles         1x   40.0%\n"
            "  plena.vector        vmul           2 cycles         1x   20.0%\n");

  nlohmann::json j = p.to_json();
  EXPECT_EQ(j["span"], nlohmann::json::array({0, 10}));
  EXPECT_EQ(j["tracks"][1]["busy_cycles"], 5);
  EXPECT_EQ(j["top"][0]["name"], "load");
  EXPECT_EQ(j["truncated"], false);
}

TEST(Profile, SpanDefaultsToLastCycleAndClipsToTotal) {
  TraceRecorder rec;
  test::record_example(rec);
  // Without a total the span ends at the last cycle reached (7).
  EXPECT_EQ(profile_from_recorder(rec).total_cycles, 7u);
  // Total 5: vector [0,4) + [4,5) = 5 busy; dma [2,5) u [3,5) = 3 busy, 3 + 2 slice cycles.
  Profile p = profile_from_recorder(rec, 5, 1);
  EXPECT_EQ(p.tracks[0].busy_cycles, 5u);
  EXPECT_DOUBLE_EQ(p.tracks[0].utilisation, 1.0);
  EXPECT_EQ(p.tracks[1].busy_cycles, 3u);
  EXPECT_EQ(p.tracks[1].slice_cycles, 5u);
  ASSERT_EQ(p.top.size(), 1u);  // top_n = 1
  EXPECT_EQ(p.top[0].name, "load");
}

TEST(Profile, WindowedRecorderMeasuresTheWindow) {
  TraceConfig cfg;
  cfg.window_begin = 3;
  cfg.window_end = 6;
  TraceRecorder rec(cfg);
  test::record_example(rec);
  Profile p = profile_from_recorder(rec, 100);
  // Span [3,6): vector [3,4) + [4,6) = 3 busy (100%); dma [3,5) u [3,6) = 3 busy.
  EXPECT_EQ(p.span_begin, 3u);
  EXPECT_EQ(p.span_end, 6u);
  EXPECT_EQ(p.tracks[0].busy_cycles, 3u);
  EXPECT_EQ(p.tracks[1].busy_cycles, 3u);
}

TEST(Profile, TruncationNoteInText) {
  TraceConfig cfg;
  cfg.max_events = 1;
  TraceRecorder rec(cfg);
  int t = rec.track("g", "u");
  rec.slice(t, 0, 2, "a");
  rec.slice(t, 2, 4, "b");  // dropped
  Profile p = profile_from_recorder(rec);
  EXPECT_TRUE(p.truncated);
  EXPECT_EQ(p.dropped_events, 1u);
  EXPECT_NE(p.to_text().find("note: trace truncated, 1 events dropped; figures cover recorded events only\n"),
            std::string::npos);
  EXPECT_EQ(p.to_json()["dropped_events"], 1);
}

TEST(Profile, FromPlatformCounters) {
  Profile p = profile_from_counters({{"plena.vector", 30, 10, 40, 0}, {"plena.matrix", 80, 4, 80, 0}}, 100);
  // Sorted busiest first; utilisation = busy / 100.
  ASSERT_EQ(p.tracks.size(), 2u);
  EXPECT_EQ(p.tracks[0].name, "plena.matrix");
  EXPECT_DOUBLE_EQ(p.tracks[0].utilisation, 0.8);
  EXPECT_DOUBLE_EQ(p.tracks[1].utilisation, 0.3);
  EXPECT_TRUE(p.top.empty());
  // A zero total gives zero utilisation, not a division by zero.
  EXPECT_DOUBLE_EQ(profile_from_counters({{"u", 5, 1, 5, 0}}, 0).tracks[0].utilisation, 0.0);
}

}  // namespace
}  // namespace tlmcraft::traces
