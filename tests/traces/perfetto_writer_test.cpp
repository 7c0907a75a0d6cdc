#include "traces/perfetto_writer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/traces/example_trace.h"
#include "tests/traces/perfetto_events.h"
#include "tests/unique_temp_dir.h"

namespace tlmcraft::traces {
namespace {

using nlohmann::json;
using test::events_with;

json perfetto(const TraceRecorder& rec) {
  std::ostringstream os;
  write_perfetto(rec, os);
  return json::parse(os.str());  // throws (fails the test) on invalid JSON
}

TEST(PerfettoWriter, CyclesToMicrosecondsIsExact) {
  TraceClock ghz;  // 1 ns
  EXPECT_EQ(cycles_to_us(0, ghz), "0");
  EXPECT_EQ(cycles_to_us(1, ghz), "0.001");
  EXPECT_EQ(cycles_to_us(1234, ghz), "1.234");
  EXPECT_EQ(cycles_to_us(1000, ghz), "1");
  EXPECT_EQ(cycles_to_us(3, TraceClock::from_mhz(800)), "0.00375");  // 3 x 1.25 ns
  // 2^64-1 cycles x 1 ns = 18446744073709551615 ns, beyond 64-bit femtoseconds.
  EXPECT_EQ(cycles_to_us(UINT64_MAX, ghz), "18446744073709551.615");
}

TEST(PerfettoWriter, ExampleTraceStructure) {
  TraceRecorder rec;
  test::record_example(rec);
  json trace = perfetto(rec);
  EXPECT_EQ(trace["displayTimeUnit"], "ns");
  EXPECT_EQ(trace["otherData"]["clock_period"], "1 ns");
  EXPECT_EQ(trace["otherData"]["truncated"], false);
  EXPECT_TRUE(trace["otherData"]["window_end_cycle"].is_null());
  // Metadata: 1 process x 2 records; threads: vector (1 lane), dma.prefetch (2 lanes, its
  // loads overlap) x 2 records = 6; pc has counters only, so no thread.
  // Data: 4 slices, 1 instant, 3 counter samples. Total 2 + 6 + 8 = 16.
  EXPECT_EQ(trace["traceEvents"].size(), 16u);
  EXPECT_EQ(events_with(trace, "M").size(), 8u);
  EXPECT_EQ(events_with(trace, "X").size(), 4u);
  EXPECT_EQ(events_with(trace, "i").size(), 1u);
  EXPECT_EQ(events_with(trace, "C").size(), 3u);

  std::map<int, std::string> threads;
  for (const json& m : events_with(trace, "M")) {
    if (m["name"] == "thread_name") threads[m["tid"].get<int>()] = m["args"]["name"];
    if (m["name"] == "process_name") {
      EXPECT_EQ(m["args"]["name"], "plena");
    }
  }
  EXPECT_EQ(threads, (std::map<int, std::string>{{1, "vector"}, {2, "dma.prefetch"}, {3, "dma.prefetch #2"}}));

  std::map<std::string, json> slices;  // keyed by name and begin cycle
  for (const json& x : events_with(trace, "X"))
    slices[x["name"].get<std::string>() + "@" + std::to_string(x["args"]["begin_cycle"].get<int>())] = x;
  // vmul [4,6) at 1 ns/cycle: ts 0.004 us, dur 0.002 us, args as recorded.
  const json& vmul = slices.at("vmul@4");
  EXPECT_DOUBLE_EQ(vmul["ts"].get<double>(), 0.004);
  EXPECT_DOUBLE_EQ(vmul["dur"].get<double>(), 0.002);
  EXPECT_EQ(vmul["tid"], 1);
  EXPECT_EQ(vmul["args"]["end_cycle"], 6);
  EXPECT_EQ(vmul["args"]["pc"], 1);
  EXPECT_EQ(vmul["args"]["line"], "kernel.asm:2");
  // Loads sorted by begin: [2,5) takes lane 1 (tid 2); [3,7) overlaps it -> lane 2 (tid 3).
  EXPECT_EQ(slices.at("load@2")["tid"], 2);
  EXPECT_EQ(slices.at("load@3")["tid"], 3);
  EXPECT_DOUBLE_EQ(slices.at("load@3")["dur"].get<double>(), 0.004);

  json halt = events_with(trace, "i")[0];
  EXPECT_EQ(halt["name"], "halt");
  EXPECT_EQ(halt["s"], "t");
  EXPECT_DOUBLE_EQ(halt["ts"].get<double>(), 0.006);
  std::vector<int> pcs;
  for (const json& c : events_with(trace, "C")) {
    EXPECT_EQ(c["name"], "pc");
    pcs.push_back(c["args"]["value"]);
  }
  EXPECT_EQ(pcs, (std::vector<int>{0, 1, 2}));  // sorted by cycle, though recorded 1, 0, 2
}

TEST(PerfettoWriter, BackToBackSlicesShareALane) {
  TraceRecorder rec;
  int t = rec.track("g", "u");
  rec.slice(t, 4, 8, "b");
  rec.slice(t, 0, 4, "a");
  rec.slice(t, 0, 4, "a2");  // same interval as "a": needs a second lane
  json trace = perfetto(rec);
  std::set<int> tids;
  for (const json& x : events_with(trace, "X")) tids.insert(x["tid"].get<int>());
  EXPECT_EQ(tids.size(), 2u);
  // "a" (first recorded of the equal pair) takes lane 1; "b" begins when "a" ends: lane 1.
  std::map<std::string, int> lane;
  for (const json& x : events_with(trace, "X")) lane[x["name"]] = x["tid"];
  EXPECT_EQ(lane["a"], lane["b"]);
  EXPECT_NE(lane["a"], lane["a2"]);
}

TEST(PerfettoWriter, WindowClipsAndCarriesCounterIn) {
  TraceConfig cfg;
  cfg.window_begin = 3;
  cfg.window_end = 6;
  TraceRecorder rec(cfg);
  test::record_example(rec);
  json trace = perfetto(rec);
  EXPECT_EQ(trace["otherData"]["window_begin_cycle"], 3);
  EXPECT_EQ(trace["otherData"]["window_end_cycle"], 6);
  for (const json& x : events_with(trace, "X"))
    if (x["name"] == "vadd") {
      // [0,4) clipped to [3,4): ts 0.003, dur 0.001; args keep the recorded cycles.
      EXPECT_DOUBLE_EQ(x["ts"].get<double>(), 0.003);
      EXPECT_DOUBLE_EQ(x["dur"].get<double>(), 0.001);
      EXPECT_EQ(x["args"]["begin_cycle"], 0);
    }
  // pc: 0 carried in at cycle 3 (last sample before the window), then 1 at cycle 4.
  std::vector<json> counters = events_with(trace, "C");
  ASSERT_EQ(counters.size(), 2u);
  EXPECT_DOUBLE_EQ(counters[0]["ts"].get<double>(), 0.003);
  EXPECT_EQ(counters[0]["args"]["value"], 0);
  EXPECT_EQ(counters[1]["args"]["value"], 1);
  EXPECT_TRUE(events_with(trace, "i").empty());  // halt at 6 is outside
}

TEST(PerfettoWriter, ScopeFilterDropsOtherTracks) {
  TraceConfig cfg;
  cfg.scopes = {"plena.vector"};
  TraceRecorder rec(cfg);
  test::record_example(rec);
  json trace = perfetto(rec);
  for (const json& x : events_with(trace, "X")) {
    EXPECT_TRUE(x["name"] == "vadd" || x["name"] == "vmul") << x.dump();
  }
  EXPECT_EQ(events_with(trace, "X").size(), 2u);
  EXPECT_TRUE(events_with(trace, "C").empty());
}

TEST(PerfettoWriter, TruncationIsNoted) {
  TraceConfig cfg;
  cfg.max_events = 2;
  TraceRecorder rec(cfg);
  int t = rec.track("g", "u");
  for (uint64_t c = 0; c < 5; ++c) rec.slice(t, c * 10, c * 10 + 5, "op");
  json trace = perfetto(rec);
  EXPECT_EQ(trace["otherData"]["truncated"], true);
  EXPECT_EQ(trace["otherData"]["dropped_events"], 3);
  std::vector<json> instants = events_with(trace, "i");
  ASSERT_EQ(instants.size(), 1u);
  EXPECT_EQ(instants[0]["s"], "g");
  EXPECT_EQ(instants[0]["name"], "TRACE TRUNCATED: 3 events dropped after max_events 2");
  EXPECT_DOUBLE_EQ(instants[0]["ts"].get<double>(), 0.02);  // first dropped slice began at 20
}

TEST(PerfettoWriter, OddNamesStayValidJson) {
  TraceRecorder rec;
  int t = rec.track("g\"roup", "u\\n");
  rec.slice(t, 0, 1, std::string("bad\xff utf8 \"quoted\"\n"), {{"k\t", "v\x01"}});
  json trace = perfetto(rec);
  json x = events_with(trace, "X").at(0);
  EXPECT_EQ(x["name"], "bad\xef\xbf\xbd utf8 \"quoted\"\n");  // invalid byte -> U+FFFD
  EXPECT_EQ(x["args"]["k\t"], "v\x01");
}

TEST(PerfettoWriter, FileRoundTrip) {
  TraceRecorder rec;
  test::record_example(rec);
  const ::tlmcraft::test::UniqueTempDir dir("perfetto-writer");
  const std::string path = dir.file("example.json");
  write_perfetto_file(rec, path);
  std::ifstream in(path);
  json trace = json::parse(in);
  EXPECT_EQ(trace["traceEvents"].size(), 16u);  // as in ExampleTraceStructure
}

TEST(PerfettoWriter, EmptyRecorderGivesAnEmptyEventList) {
  TraceRecorder rec;
  rec.track("g", "unused");
  json trace = perfetto(rec);
  EXPECT_TRUE(trace["traceEvents"].is_array());
  EXPECT_TRUE(trace["traceEvents"].empty());
}

TEST(PerfettoWriter, UnwritablePathNamesThePath) {
  TraceRecorder rec;
  EXPECT_THROW(
      {
        try {
          write_perfetto_file(rec, "/nonexistent-dir/trace.json");
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(),
                       "cannot open Perfetto trace file '/nonexistent-dir/trace.json' for writing");
          throw;
        }
      },
      std::runtime_error);
}

}  // namespace
}  // namespace tlmcraft::traces
