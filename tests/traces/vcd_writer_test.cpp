#include "traces/vcd_writer.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "tests/traces/example_trace.h"
#include "traces/profile.h"

namespace tlmcraft::traces {
namespace {

std::string vcd(const TraceRecorder& rec) {
  std::ostringstream os;
  VcdOptions o;
  o.date = "test";
  write_vcd(rec, os, o);
  return os.str();
}

// Declarations: vector gets busy '!', slice '"', event '#'; pc gets value '$';
// dma > prefetch gets busy '%', slice '&' (id codes count up from '!').
const char* kDeclarations =
    "$timescale 1ns $end\n"
    "$scope module plena $end\n"
    "$scope module vector $end\n"
    "$var wire 1 ! busy $end\n"
    "$var integer 32 \" slice $end\n"
    "$var event 1 # event $end\n"
    "$upscope $end\n"
    "$scope module pc $end\n"
    "$var integer 32 $ value $end\n"
    "$upscope $end\n"
    "$scope module dma $end\n"
    "$scope module prefetch $end\n"
    "$var wire 1 % busy $end\n"
    "$var integer 32 & slice $end\n"
    "$upscope $end\n"
    "$upscope $end\n"
    "$upscope $end\n"
    "$enddefinitions $end\n";

TEST(VcdWriter, ExampleTraceExactText) {
  TraceRecorder rec;
  test::record_example(rec);
  // Walk through time (slice index: vmul 1, load 2, vadd 3):
  //  #0: vadd [0,4) active -> busy 1, slice 3; pc 0; dma idle.
  //  #2: load [2,5) begins -> dma busy 1, slice 2.
  //  #3: load [3,7) begins: still busy, same name -> nothing written, no timestamp.
  //  #4: vadd ends and vmul begins at once -> busy stays 1, slice 1; pc 1.
  //  #5: load [2,5) ends but [3,7) is active -> nothing.
  //  #6: vmul ends -> busy 0, slice 0, halt event; pc 2.
  //  #7: load [3,7) ends -> dma busy 0, slice 0. Last cycle reached is 7: no extra stamp.
  std::string expected = std::string(
                             "$date\n\ttest\n$end\n"
                             "$version\n\ttlmcraft traces\n$end\n"
                             "$comment\n\tclock period 1 ns, 1 x 1ns per cycle; window [0, end) cycles\n$end\n"
                             "$comment\n\tslice name index (signal 'slice'; 0 = idle or unnamed):\n"
                             "\t1 vmul\n\t2 load\n\t3 vadd\n$end\n") +
                         kDeclarations +
                         "#0\n$dumpvars\n1!\nb11 \"\nb0 $\n0%\nb0 &\n$end\n"
                         "#2\n1%\nb10 &\n"
                         "#4\nb1 \"\nb1 $\n"
                         "#6\n0!\nb0 \"\n1#\nb10 $\n"
                         "#7\n0%\nb0 &\n";
  EXPECT_EQ(vcd(rec), expected);
}

TEST(VcdWriter, WindowClipsSlicesAndCarriesCounterIn) {
  TraceConfig cfg;
  cfg.window_begin = 3;
  cfg.window_end = 6;
  TraceRecorder rec(cfg);
  test::record_example(rec);
  // In [3,6): vadd -> [3,4), vmul [4,6), load -> [3,6) and [3,5); halt @6 and pc 2 @6 are
  // outside, so vector has no event signal (ids: vector ! ", pc #, dma $ %). pc's value
  // at 3 is the last sample before the window (0 @0). "halt" is never interned, the
  // slice index stays vmul 1, load 2, vadd 3.
  //  #3: vector busy, vadd (3); pc 0; dma busy, load (2).
  //  #4: vmul (1); pc 1.   #5: load [3,5) ends, [3,6) active: nothing.
  //  #6: every slice ends at the window end.
  std::string expected =
      "$date\n\ttest\n$end\n"
      "$version\n\ttlmcraft traces\n$end\n"
      "$comment\n\tclock period 1 ns, 1 x 1ns per cycle; window [3, 6) cycles\n$end\n"
      "$comment\n\tslice name index (signal 'slice'; 0 = idle or unnamed):\n"
      "\t1 vmul\n\t2 load\n\t3 vadd\n$end\n"
      "$timescale 1ns $end\n"
      "$scope module plena $end\n"
      "$scope module vector $end\n"
      "$var wire 1 ! busy $end\n"
      "$var integer 32 \" slice $end\n"
      "$upscope $end\n"
      "$scope module pc $end\n"
      "$var integer 32 # value $end\n"
      "$upscope $end\n"
      "$scope module dma $end\n"
      "$scope module prefetch $end\n"
      "$var wire 1 $ busy $end\n"
      "$var integer 32 % slice $end\n"
      "$upscope $end\n"
      "$upscope $end\n"
      "$upscope $end\n"
      "$enddefinitions $end\n"
      "#3\n$dumpvars\n1!\nb11 \"\nb0 #\n1$\nb10 %\n$end\n"
      "#4\nb1 \"\nb1 #\n"
      "#6\n0!\nb0 \"\n0$\nb0 %\n";
  EXPECT_EQ(vcd(rec), expected);
}

TEST(VcdWriter, ScopeFilterKeepsOnlyMatchingTracks) {
  TraceConfig cfg;
  cfg.scopes = {"plena.dma"};
  TraceRecorder rec(cfg);
  test::record_example(rec);
  std::string text = vcd(rec);
  EXPECT_EQ(text.find("vector"), std::string::npos);
  EXPECT_EQ(text.find("module pc"), std::string::npos);
  EXPECT_NE(text.find("$scope module dma $end\n$scope module prefetch $end\n$var wire 1 ! busy $end\n"),
            std::string::npos);
  // Only the two loads are recorded: busy from 2 to 7.
  EXPECT_NE(text.find("#0\n$dumpvars\n0!\nb0 \"\n$end\n#2\n1!\nb1 \"\n#7\n0!\nb0 \"\n"), std::string::npos);
}

TEST(VcdWriter, TimescaleFromClock) {
  // 1 ns -> 1ns x1; 800 MHz = 1.25 ns = 125 x 10ps; 2 ns -> 2 x 1ns; 1 GHz via from_mhz.
  EXPECT_EQ(vcd_timescale(TraceClock{1'000'000}).text, "1ns");
  EXPECT_EQ(vcd_timescale(TraceClock{1'000'000}).units_per_cycle, 1u);
  VcdTimescale t = vcd_timescale(TraceClock::from_mhz(800));
  EXPECT_EQ(t.text, "10ps");
  EXPECT_EQ(t.units_per_cycle, 125u);
  EXPECT_EQ(vcd_timescale(TraceClock::from_period_ns(2)).units_per_cycle, 2u);
  EXPECT_EQ(vcd_timescale(TraceClock::from_period_ns(100)).text, "100ns");
}

TEST(VcdWriter, NonUnitTimescaleScalesTimes) {
  TraceConfig cfg;
  cfg.clock = TraceClock::from_mhz(800);  // 125 x 10ps per cycle
  TraceRecorder rec(cfg);
  int t = rec.track("g", "u");
  rec.slice(t, 2, 3, "op");
  std::string text = vcd(rec);
  // Cycle 2 -> 250, cycle 3 -> 375.
  EXPECT_NE(text.find("$timescale 10ps $end\n"), std::string::npos);
  EXPECT_NE(text.find("#250\n1!\nb1 \"\n#375\n0!\nb0 \"\n"), std::string::npos);
}

TEST(VcdWriter, NamesAreMadeLegalAndUnique) {
  TraceRecorder rec;
  rec.counter(rec.track("tile 0", "q-depth"), 0, 1);
  rec.counter(rec.track("tile 0", "q_depth"), 0, 2);
  rec.counter(rec.track("tile 0", "3rd"), 0, 3);
  std::string text = vcd(rec);
  EXPECT_NE(text.find("$scope module tile_0 $end\n"), std::string::npos);
  EXPECT_NE(text.find("$scope module q_depth $end\n"), std::string::npos);
  EXPECT_NE(text.find("$scope module q_depth_2 $end\n"), std::string::npos);
  EXPECT_NE(text.find("$scope module _3rd $end\n"), std::string::npos);
}

TEST(VcdWriter, CounterWidthAndZeroStart) {
  TraceRecorder rec;
  int small = rec.track("g", "small");
  int big = rec.track("g", "big");
  rec.counter(small, 5, -1);          // 32-bit two's complement: 32 ones
  rec.counter(big, 0, 1);
  rec.counter(big, 1, 0x100000000);   // needs 64 bits
  std::string text = vcd(rec);
  EXPECT_NE(text.find("$var integer 32 ! value $end\n$upscope $end\n"), std::string::npos);
  EXPECT_NE(text.find("$var integer 64 \" value $end\n"), std::string::npos);
  // small has no sample before cycle 5: it starts at 0, never x.
  EXPECT_EQ(text.find("bx"), std::string::npos);
  EXPECT_NE(text.find("$dumpvars\nb0 !\nb1 \"\n$end\n#1\nb100000000000000000000000000000000 \"\n"
                      "#5\nb11111111111111111111111111111111 !\n"),
            std::string::npos);
}

TEST(VcdWriter, TruncationIsNoted) {
  TraceConfig cfg;
  cfg.max_events = 2;
  TraceRecorder rec(cfg);
  int t = rec.track("g", "u");
  for (uint64_t c = 0; c < 5; ++c) rec.slice(t, c * 10, c * 10 + 5, "op");
  // Slices 3 to 5 are dropped; the first dropped one begins at cycle 20.
  EXPECT_NE(vcd(rec).find("$comment\n\tTRUNCATED: 3 events dropped after reaching max_events 2 "
                          "(first drop at cycle 20); the signals show only recorded events\n$end\n"),
            std::string::npos);
}

TEST(VcdWriter, ExtendToAddsFinalTimestamp) {
  TraceRecorder rec;
  rec.slice(rec.track("g", "u"), 0, 2, "op");
  rec.extend_to(10);
  std::string text = vcd(rec);
  // The slice ends at 2 (busy and slice back to 0); cycle 10 gets a final timestamp.
  const std::string tail = "#2\n0!\nb0 \"\n#10\n";
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
}

// Integrates the busy wire of a random out-of-order trace from the VCD text and compares
// it with the profile's union-of-slices computation (two independent derivations).
TEST(VcdWriter, BusyWireMatchesProfileOnRandomTrace) {
  TraceRecorder rec;
  int tracks[3] = {rec.track("p", "a"), rec.track("p", "b"), rec.track("p", "c")};
  uint64_t x = 12345;
  for (int i = 0; i < 20000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t begin = (x >> 33) % 50000, len = (x >> 20) % 7;
    rec.slice(tracks[i % 3], begin, begin + len, (x >> 10) % 2 ? "x" : "y");
  }
  std::string text = vcd(rec);
  std::istringstream in(text.substr(text.find("#0\n")));
  std::string line;
  uint64_t now = 0, busy_since[3] = {0, 0, 0}, busy_total[3] = {0, 0, 0};
  bool busy[3] = {false, false, false};
  bool monotonic = true;
  const std::string ids = "!#%";  // busy ids: a '!', b '#', c '%'
  while (std::getline(in, line)) {
    if (line[0] == '#') {
      uint64_t t = std::stoull(line.substr(1));
      if (t <= now && t != 0) monotonic = false;
      now = t;
    } else if ((line[0] == '0' || line[0] == '1') && line.size() == 2) {
      size_t k = ids.find(line[1]);
      ASSERT_NE(k, std::string::npos) << line;
      if (line[0] == '1' && !busy[k]) busy_since[k] = now;
      if (line[0] == '0' && busy[k]) busy_total[k] += now - busy_since[k];
      busy[k] = line[0] == '1';
    }
  }
  EXPECT_TRUE(monotonic);
  Profile p = profile_from_recorder(rec);
  std::map<std::string, uint64_t> expected;
  for (const TrackProfile& t : p.tracks) expected[t.name] = t.busy_cycles;
  EXPECT_EQ(busy_total[0], expected["p.a"]);
  EXPECT_EQ(busy_total[1], expected["p.b"]);
  EXPECT_EQ(busy_total[2], expected["p.c"]);
  EXPECT_GT(busy_total[0], 0u);
}

TEST(VcdWriter, EmptyRecorderGivesAValidEmptyDump) {
  TraceRecorder rec;
  rec.track("g", "unused");  // a track without events declares nothing
  std::string text = vcd(rec);
  EXPECT_EQ(text.substr(text.find("$timescale")),
            "$timescale 1ns $end\n$enddefinitions $end\n#0\n$dumpvars\n$end\n");
}

TEST(VcdWriter, UnwritablePathNamesThePath) {
  TraceRecorder rec;
  try {
    write_vcd_file(rec, "/nonexistent-dir/trace.vcd");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/trace.vcd"), std::string::npos);
  }
}

}  // namespace
}  // namespace tlmcraft::traces
