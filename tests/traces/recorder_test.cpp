#include "traces/trace_recorder.h"

#include <gtest/gtest.h>

#include "tests/traces/example_trace.h"

namespace tlmcraft::traces {
namespace {

TEST(TraceRecorder, SameTrackNameGivesSameId) {
  TraceRecorder rec;
  int a = rec.track("plena", "vector");
  int b = rec.track("plena", "dma.prefetch");
  EXPECT_EQ(rec.track("plena", "vector"), a);
  EXPECT_NE(a, b);
  EXPECT_EQ(rec.tracks()[b].full_name, "plena.dma.prefetch");
}

TEST(TraceRecorder, RecordsEventsAndArgs) {
  TraceRecorder rec;
  test::record_example(rec);
  // 3 + 1 + 3 slices/instants/counters = 8 events, none dropped.
  ASSERT_EQ(rec.events().size(), 8u);
  EXPECT_EQ(rec.dropped(), 0u);
  const TraceEvent& vmul = rec.events()[0];
  EXPECT_EQ(vmul.kind, EventKind::Slice);
  EXPECT_EQ(rec.text(vmul.name), "vmul");
  EXPECT_EQ(vmul.begin, 4u);
  EXPECT_EQ(vmul.end, 6u);
  ASSERT_EQ(vmul.arg_count, 2u);
  const StoredArg* a = rec.args_of(vmul);
  EXPECT_EQ(rec.text(a[0].key), "pc");
  EXPECT_EQ(a[0].text, StoredArg::kNumber);
  EXPECT_EQ(a[0].number, 1);
  EXPECT_EQ(rec.text(a[1].key), "line");
  EXPECT_EQ(rec.text(a[1].text), "kernel.asm:2");
  EXPECT_EQ(rec.events()[1].value(), 1);  // counter pc=1 @4
  EXPECT_EQ(rec.last_cycle(), 7u);        // load [3,7) reaches furthest
}

TEST(TraceRecorder, InternsNamesOnce) {
  TraceRecorder rec;
  int t = rec.track("g", "u");
  TraceName add = rec.intern("add");
  for (int i = 0; i < 100; ++i) rec.slice(t, i, i + 1, i % 2 ? add : rec.intern("add"));
  for (int i = 0; i < 100; ++i) rec.slice(t, i, i + 1, "add", {{"op", "add"}});
  // "", "add", "op": the arg value "add" reuses the name's entry.
  EXPECT_EQ(rec.string_count(), 3u);
  EXPECT_EQ(rec.events()[0].name, add.id);
  EXPECT_EQ(rec.events()[150].name, add.id);
}

TEST(TraceRecorder, WindowKeepsOverlappingEventsOnly) {
  TraceConfig cfg;
  cfg.window_begin = 10;
  cfg.window_end = 20;
  TraceRecorder rec(cfg);
  int t = rec.track("g", "u");
  rec.slice(t, 0, 10, "before");     // ends exactly at the window begin: out
  rec.slice(t, 5, 11, "straddles");  // in
  rec.slice(t, 19, 30, "tail");      // in
  rec.slice(t, 20, 25, "after");     // begins at the window end: out
  rec.slice(t, 10, 10, "zero_in");   // zero length at begin: in
  rec.slice(t, 20, 20, "zero_out");  // zero length at end: out
  rec.instant(t, 9, "i_out");
  rec.instant(t, 19, "i_in");
  rec.counter(t, 3, 7);   // before: becomes the initial value
  rec.counter(t, 8, 9);   // later before-window sample replaces it
  rec.counter(t, 2, 1);   // earlier sample arriving late does not
  rec.counter(t, 20, 5);  // at the window end: out
  ASSERT_EQ(rec.events().size(), 4u);
  EXPECT_EQ(rec.text(rec.events()[0].name), "straddles");
  EXPECT_EQ(rec.text(rec.events()[1].name), "tail");
  EXPECT_EQ(rec.text(rec.events()[2].name), "zero_in");
  EXPECT_EQ(rec.text(rec.events()[3].name), "i_in");
  const TraceTrack& tr = rec.tracks()[t];
  EXPECT_TRUE(tr.has_initial);
  EXPECT_EQ(tr.initial_cycle, 8u);
  EXPECT_EQ(tr.initial_value, 9);
  // Seen slice cycles, clipped: [10,11) 1 + [19,20) 1 + 0 = 2.
  EXPECT_EQ(tr.slice_cycles_seen, 2u);
  EXPECT_EQ(rec.last_cycle(), 20u);  // tail's end clipped to the window end
}

TEST(TraceRecorder, ScopeFilterMatchesAtDotBoundaries) {
  TraceConfig cfg;
  cfg.scopes = TraceRecorder::parse_scopes(" plena.dma , ,coral ");
  ASSERT_EQ(cfg.scopes, (std::vector<std::string>{"plena.dma", "coral"}));
  TraceRecorder rec(cfg);
  int dma = rec.track("plena", "dma");
  int prefetch = rec.track("plena", "dma.prefetch");
  int dmax = rec.track("plena", "dmax");
  int vector = rec.track("plena", "vector");
  int coral = rec.track("coral", "alu");
  EXPECT_TRUE(rec.tracks()[dma].enabled);
  EXPECT_TRUE(rec.tracks()[prefetch].enabled);
  EXPECT_FALSE(rec.tracks()[dmax].enabled);
  EXPECT_FALSE(rec.tracks()[vector].enabled);
  EXPECT_TRUE(rec.tracks()[coral].enabled);
  for (int t : {dma, prefetch, dmax, vector, coral}) rec.slice(t, 0, 1, "x");
  EXPECT_EQ(rec.events().size(), 3u);
  EXPECT_EQ(rec.invalid(), 0u);  // filtered events are not errors
}

TEST(TraceRecorder, LimitDropsButKeepsCounting) {
  TraceConfig cfg;
  cfg.max_events = 3;
  TraceRecorder rec(cfg);
  int t = rec.track("g", "u");
  // Out of order: 50, 40, 30, 20, 10; the 4th call (begin 20) is the first dropped.
  for (uint64_t c = 50; c >= 10; c -= 10) rec.slice(t, c, c + 5, "op");
  rec.counter(t, 1, 1);
  rec.instant(t, 2, "i");
  EXPECT_EQ(rec.events().size(), 3u);
  EXPECT_TRUE(rec.truncated());
  EXPECT_EQ(rec.dropped(), 4u);
  EXPECT_EQ(rec.first_drop_cycle(), 20u);
  EXPECT_EQ(rec.tracks()[t].seen, 7u);
  EXPECT_EQ(rec.tracks()[t].dropped, 4u);
  EXPECT_EQ(rec.tracks()[t].slice_cycles_seen, 25u);  // 5 slices x 5 cycles
}

TEST(TraceRecorder, ArgLimitAlsoBoundsMemory) {
  TraceConfig cfg;
  cfg.max_events = 100;
  cfg.max_args = 3;
  TraceRecorder rec(cfg);
  int t = rec.track("g", "u");
  rec.slice(t, 0, 1, "a", {{"k", 1}, {"l", 2}});
  rec.slice(t, 1, 2, "b", {{"k", 1}, {"l", 2}});  // 4 args > 3: dropped
  rec.slice(t, 2, 3, "c", {{"k", 1}});            // fits
  EXPECT_EQ(rec.events().size(), 2u);
  EXPECT_EQ(rec.dropped(), 1u);
}

TEST(TraceRecorder, BadInputIsCountedNotFatal) {
  TraceRecorder rec;
  int t = rec.track("g", "u");
  rec.slice(t, 5, 4, "backwards");
  rec.slice(-1, 0, 1, "x");
  rec.slice(99, 0, 1, "x");
  rec.counter(7, 0, 1);
  rec.instant(-3, 0, "x");
  EXPECT_EQ(rec.events().size(), 0u);
  EXPECT_EQ(rec.invalid(), 5u);
}

TEST(TraceRecorder, RejectsEmptyWindow) {
  TraceConfig cfg;
  cfg.window_begin = 5;
  cfg.window_end = 5;
  try {
    TraceRecorder rec(cfg);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "trace window [5, 5) is empty: the end cycle must be greater than the begin cycle");
  }
}

TEST(TraceClock, ConversionsAndErrors) {
  EXPECT_EQ(TraceClock::from_period_ns(1).period_fs, 1'000'000u);
  EXPECT_EQ(TraceClock::from_mhz(800).period_fs, 1'250'000u);  // 1000/800 ns = 1.25 ns
  EXPECT_EQ(TraceClock::from_mhz(800).describe(), "1.25 ns");
  EXPECT_EQ(TraceClock::from_period_ns(0.5).describe(), "0.5 ns");
  EXPECT_EQ(TraceClock{}.describe(), "1 ns");
  EXPECT_THROW(TraceClock::from_period_ns(0), std::invalid_argument);
  EXPECT_THROW(TraceClock::from_period_ns(-1), std::invalid_argument);
  EXPECT_THROW(TraceClock::from_mhz(0), std::invalid_argument);
  EXPECT_THROW(TraceClock::from_period_ns(1e-9), std::invalid_argument);  // below 1 fs
}

}  // namespace
}  // namespace tlmcraft::traces
