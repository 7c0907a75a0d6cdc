// The Perfetto size budget's aggregation, flows and gzip output, checked on small traces.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "traces/gzip_stream.h"
#include "traces/perfetto_budget.h"
#include "traces/perfetto_writer.h"
#include "tests/traces/perfetto_events.h"
#include "tests/unique_temp_dir.h"

namespace tlmcraft::traces {
namespace {

using nlohmann::json;
using test::events_with;

json perfetto(const TraceRecorder& rec, uint64_t max_bytes) {
  std::ostringstream os;
  PerfettoOptions o;
  o.max_bytes = max_bytes;
  write_perfetto(rec, os, o);
  return json::parse(os.str());
}

// 100 one-cycle "vmac" slices at 0..99, a 40-cycle "load" [10, 50) and a counter 0..99.
void record_busy_unit(TraceRecorder& rec) {
  const int core = rec.track("tile", "core");
  const int q = rec.track("tile", "queue");
  for (uint64_t c = 0; c < 100; ++c) {
    rec.slice(core, c, c + 1, c == 17 ? "vadd" : "vmac", {{"pc", c}});
    rec.counter(q, c, static_cast<int64_t>(c % 7));
  }
  rec.slice(core, 10, 50, "load");
}

TEST(PerfettoBudget, UnderBudgetKeepsEveryEvent) {
  TraceRecorder rec;
  record_busy_unit(rec);
  EXPECT_EQ(choose_bin_cycles(rec, 0), 1u);          // no budget
  EXPECT_EQ(choose_bin_cycles(rec, 10'000'000), 1u);  // fits
  const json t = perfetto(rec, 10'000'000);
  EXPECT_EQ(t["otherData"]["aggregation_bin_cycles"], 1);
  EXPECT_EQ(events_with(t, "X").size(), 101u);
  EXPECT_EQ(events_with(t, "C").size(), 100u);
}

TEST(PerfettoBudget, OverBudgetAggregatesShortSlicesIntoSummaries) {
  TraceRecorder rec;
  record_busy_unit(rec);
  // The size model's estimate (PerfettoSizeModel): 21,220 bytes as recorded; 2,812 with
  // 16-cycle bins (7 summaries, the load, 7 x 2 counter samples); 1,672 with 32-cycle bins.
  EXPECT_EQ(choose_bin_cycles(rec, 2'812), 16u);
  EXPECT_EQ(choose_bin_cycles(rec, 2'811), 32u);
  const json t = perfetto(rec, 2'000);
  EXPECT_EQ(t["otherData"]["aggregation_bin_cycles"], 32);
  EXPECT_EQ(t["otherData"]["size_budget_bytes"], 2000);
  std::map<std::string, json> by_name;
  std::vector<uint64_t> vmac32_begins;
  for (const json& e : events_with(t, "X")) {
    by_name[e["name"]] = e;
    if (e["name"] == "vmac x32") vmac32_begins.push_back(e["args"]["begin_cycle"]);
  }
  // Bins [0,32) [32,64) [64,96) [96,100): the first holds vadd, the others only vmac.
  EXPECT_EQ(events_with(t, "X").size(), 5u);
  ASSERT_EQ(by_name.size(), 4u);
  EXPECT_EQ(vmac32_begins, (std::vector<uint64_t>{32, 64}));
  const json& first = by_name.at("32 slices, mostly vmac");
  EXPECT_EQ(first["args"]["aggregated_slices"], 32);
  EXPECT_EQ(first["args"]["slice_cycles"], 32);
  EXPECT_EQ(first["args"]["top_names"], "vmac 31, vadd 1");
  EXPECT_EQ(first["ts"], 0.0);
  EXPECT_DOUBLE_EQ(first["dur"].get<double>(), 0.032);
  EXPECT_EQ(by_name.at("vmac x4")["args"]["end_cycle"], 100);
  // The 40-cycle load is longer than a bin: kept as recorded, with its own args.
  EXPECT_EQ(by_name.at("load")["args"]["begin_cycle"], 10);
  EXPECT_EQ(by_name.at("load")["args"]["end_cycle"], 50);
  // Counters: per bin the peak (6) and the last value.
  std::vector<std::pair<uint64_t, int64_t>> samples;
  for (const json& e : events_with(t, "C"))
    samples.push_back({static_cast<uint64_t>(std::llround(e["ts"].get<double>() * 1000)), e["args"]["value"]});
  const std::vector<std::pair<uint64_t, int64_t>> expected = {{6, 6},  {31, 3}, {34, 6}, {63, 0},
                                                              {69, 6}, {95, 4}, {97, 6}, {99, 1}};
  EXPECT_EQ(samples, expected);
}

TEST(PerfettoBudget, BinnedCounterKeepsPeakAndLast) {
  const std::vector<std::pair<uint64_t, int64_t>> in = {{0, 1}, {1, 5}, {2, 2}, {4, 3}, {5, 3}};
  const std::vector<std::pair<uint64_t, int64_t>> out = binned_counter(in, 4);
  const std::vector<std::pair<uint64_t, int64_t>> expected = {{1, 5}, {2, 2}, {4, 3}, {5, 3}};
  EXPECT_EQ(out, expected);
  EXPECT_EQ(binned_counter(in, 1), in);
}

TEST(PerfettoFlows, ArrowBindsToTheSlicesAtItsEnds) {
  TraceRecorder rec;
  const int dma = rec.track("tile", "dma.s2mm0");
  const int core = rec.track("tile", "core.vector");
  rec.slice(dma, 0, 10, "in_buf");
  rec.slice(core, 12, 14, "vmac");
  rec.slice(core, 13, 15, "vmac");  // overlaps: second lane
  rec.flow(dma, 9, core, 13, "lock 3");
  rec.flow(dma, 9, core, 11, "lock 4");  // no core slice covers 11: binds to the next
  const json t = perfetto(rec, 0);
  EXPECT_EQ(t["otherData"]["flows"], 2);
  const auto s = events_with(t, "s"), f = events_with(t, "f");
  ASSERT_EQ(s.size(), 2u);
  ASSERT_EQ(f.size(), 2u);
  // Threads: tid 1 = dma.s2mm0, 2 = core.vector, 3 = core.vector #2.
  EXPECT_EQ(s[0]["tid"], 1);
  EXPECT_EQ(s[0]["name"], "lock 3");
  EXPECT_EQ(s[0]["cat"], "flow");
  EXPECT_DOUBLE_EQ(s[0]["ts"].get<double>(), 0.009);
  EXPECT_EQ(f[0]["id"], s[0]["id"]);
  EXPECT_EQ(f[0]["tid"], 3);  // the slice covering 13 that began latest: [13,15) on lane 2
  EXPECT_EQ(f[0]["bp"], "e");
  EXPECT_EQ(f[1]["tid"], 2);
  EXPECT_FALSE(f[1].contains("bp"));
}

TEST(PerfettoFlows, OutsideWindowOrScopeAreNotKept) {
  TraceConfig cfg;
  cfg.window_begin = 5;
  cfg.window_end = 20;
  cfg.scopes = {"a"};
  TraceRecorder rec(cfg);
  const int a1 = rec.track("a", "x"), a2 = rec.track("a", "y"), b = rec.track("b", "z");
  rec.flow(a1, 6, a2, 7, "kept");
  rec.flow(a1, 4, a2, 7, "source before window");
  rec.flow(a1, 6, a2, 20, "end after window");
  rec.flow(a1, 6, b, 7, "scope");
  ASSERT_EQ(rec.flows().size(), 1u);
  EXPECT_EQ(rec.text(rec.flows()[0].name), "kept");
}

std::string gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  EXPECT_NE(f, nullptr);
  std::string out;
  char buf[4096];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  gzclose(f);
  return out;
}

TEST(PerfettoGzip, DotGzPathIsGzipOfTheSameJson) {
  TraceRecorder rec;
  record_busy_unit(rec);
  const ::tlmcraft::test::UniqueTempDir dir("perfetto-gzip");
  const std::string gz = dir.file("trace.json.gz");
  write_perfetto_file(rec, gz);
  std::ifstream raw(gz, std::ios::binary);
  char magic[2] = {};
  raw.read(magic, 2);
  EXPECT_EQ(static_cast<unsigned char>(magic[0]), 0x1f);  // gzip magic
  EXPECT_EQ(static_cast<unsigned char>(magic[1]), 0x8b);
  std::ostringstream plain;
  write_perfetto(rec, plain);
  EXPECT_EQ(gunzip(gz), plain.str());
  std::filesystem::remove(gz);
  EXPECT_TRUE(wants_gzip("a.json.gz"));
  EXPECT_FALSE(wants_gzip("a.json"));
}

TEST(PerfettoGzip, UnwritablePathNamesThePath) {
  TraceRecorder rec;
  try {
    write_perfetto_file(rec, "/nonexistent-dir/x.json.gz");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot open gzip file '/nonexistent-dir/x.json.gz' for writing");
  }
}

}  // namespace
}  // namespace tlmcraft::traces
