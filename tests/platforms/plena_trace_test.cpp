// PLENA's HBM trace tracks on small programs, values derived by hand from the HBM2 address
// map (models/dram_address_map.h: 16-byte requests; bits 4-5 low column, 6-8 channel, 9
// pseudo-channel, 10-11 bank group, 12-13 bank, row from bit 17; the low column bits
// XORed into the channel) and open-row policy: per-channel activity, row outcomes, the
// scope filter, and tracing leaving cycles and HBM statistics unchanged.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "tests/platforms/perfetto_json.h"
#include "tests/platforms/plena_test_util.h"

namespace tlmcraft::plena {
namespace {

namespace fs = std::filesystem;

// Three BF16 transfers of 4 rows x 64 elements = 512 contiguous bytes (8 blocks of 64 B,
// 32 requests). Block b at byte 64b has base channel b & 7 and its 4 requests go to
// channels base ^ 0..3, so every channel gets 4 requests, all in one bank:
//   prefetch HBM [0, 512)            bank 0, row 0: a miss (bank closed), then 3 hits
//   prefetch HBM [131072, +512)      bank 0, row 1: a conflict (row 0 open), then 3 hits
//   store    HBM [4096, +512)        bank 1, row 0: a miss, then 3 hits
const char* kKernel =
    "S_ADDI_INT gp1, gp0, 0\n"
    "H_PREFETCH_V gp1, gp0, a0, 0, 2\n"
    "S_ADDI_INT gp2, gp0, 131072\n"
    "C_SET_ADDR_REG a1, gp0, gp2\n"
    "S_ADDI_INT gp3, gp0, 256\n"
    "H_PREFETCH_V gp3, gp0, a1, 0, 2\n"
    "S_ADDI_INT gp4, gp0, 4096\n"
    "C_SET_ADDR_REG a2, gp0, gp4\n"
    "H_STORE_V gp1, gp0, a2, 0, 2\n";

struct Traced {
  RunResult result;
  tlmcraft::testing::PerfettoTrace trace;
  std::vector<std::pair<uint64_t, int64_t>> vcd_conflicts, vcd_channel0;  // VCD signals' changes
};

Traced run_traced(const std::string& mode, TraceOptions t = {}) {
  const fs::path dir = fs::temp_directory_path() / ("plena_trace_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  t.perfetto_path = (dir / "t.json").string();
  t.vcd_path = (dir / "t.vcd").string();
  PlenaPlatform p(testing::config(mode));
  testing::load(p, kKernel);
  Traced out;
  out.result = p.run({}, t);
  out.trace = tlmcraft::testing::read_perfetto(t.perfetto_path);
  out.vcd_conflicts = tlmcraft::testing::vcd_changes(t.vcd_path, "plena.hbm.row_conflicts.value");
  out.vcd_channel0 = tlmcraft::testing::vcd_changes(t.vcd_path, "plena.hbm.channel0.slice");
  fs::remove_all(dir);
  return out;
}

TEST(PlenaTrace, HbmChannelsShowEachTransfersRequestsBanksAndRowOutcomes) {
  const Traced r = run_traced("serial");
  ASSERT_TRUE(r.result.ok()) << r.result.message;
  const auto prefetches = r.trace.on("dma.prefetch");
  ASSERT_EQ(prefetches.size(), 2u);
  for (int c = 0; c < 8; ++c) {
    const auto ch = r.trace.on("hbm.channel" + std::to_string(c));
    ASSERT_EQ(ch.size(), 3u) << "channel " << c;
    const char* names[] = {"H_PREFETCH_V", "H_PREFETCH_V", "H_STORE_V"};
    const int pcs[] = {1, 5, 8}, hits[] = {3, 3, 3}, misses[] = {1, 0, 1}, conflicts[] = {0, 1, 0};
    for (int k = 0; k < 3; ++k) {
      SCOPED_TRACE("channel " + std::to_string(c) + " transfer " + std::to_string(k));
      EXPECT_EQ(ch[k].name, names[k]);
      EXPECT_EQ(ch[k].args["pc"], pcs[k]);
      EXPECT_EQ(ch[k].args["requests"], 4);
      EXPECT_EQ(ch[k].args["banks"], 1);
      EXPECT_EQ(ch[k].args["row_hits"], hits[k]);
      EXPECT_EQ(ch[k].args["row_misses"], misses[k]);
      EXPECT_EQ(ch[k].args["row_conflicts"], conflicts[k]);
    }
    // Serial mode: a prefetch's channel activity starts at its issue, and the last data to
    // return on any channel ends it.
    for (int k = 0; k < 2; ++k) {
      EXPECT_EQ(ch[k].begin, prefetches[k].begin);
      EXPECT_LE(ch[k].end, prefetches[k].end);
    }
  }
  for (int k = 0; k < 2; ++k) {
    uint64_t last = 0;
    for (int c = 0; c < 8; ++c) last = std::max(last, r.trace.on("hbm.channel" + std::to_string(c))[k].end);
    EXPECT_EQ(last, prefetches[k].end);
  }
  // Run totals: 24 + 24 + 24 hits, 8 + 8 misses, 8 conflicts, as the engine counts them.
  EXPECT_EQ(r.trace.counters.at("hbm.row_hits").back().second, 72);
  EXPECT_EQ(r.trace.counters.at("hbm.row_misses").back().second, 16);
  EXPECT_EQ(r.trace.counters.at("hbm.row_conflicts").back().second, 8);
  EXPECT_EQ(r.trace.value_at("hbm.row_hits", prefetches[0].end), 24);
  EXPECT_EQ(r.trace.value_at("hbm.row_conflicts", prefetches[0].end), 0);
  EXPECT_EQ(r.trace.value_at("hbm.row_conflicts", prefetches[1].end), 8);
  // The VCD carries the same: the conflict count steps 0 -> 8 when the second prefetch's
  // last request finishes, and channel 0's slice signal names the transfers in turn.
  ASSERT_EQ(r.vcd_conflicts.size(), 2u);
  EXPECT_EQ(r.vcd_conflicts[0], (std::pair<uint64_t, int64_t>{0, 0}));
  EXPECT_EQ(r.vcd_conflicts[1].second, 8);
  uint64_t first_eight = 0;
  for (auto [cycle, v] : r.trace.counters.at("hbm.row_conflicts"))
    if (v == 8 && !first_eight) first_eight = cycle;
  EXPECT_EQ(r.vcd_conflicts[1].first, first_eight);
  EXPECT_EQ(first_eight, prefetches[1].end);
  const auto ch0 = r.trace.on("hbm.channel0");
  std::vector<uint64_t> nonzero;
  for (auto [time, v] : r.vcd_channel0)
    if (v) nonzero.push_back(time);
  EXPECT_EQ(nonzero, (std::vector<uint64_t>{ch0[0].begin, ch0[1].begin, ch0[2].begin}));
}

TEST(PlenaTrace, TracingLeavesCyclesAndHbmStatisticsUnchanged) {
  for (const char* mode : {"serial", "pipelined"}) {
    SCOPED_TRACE(mode);
    PlenaPlatform p(testing::config(mode));
    const RunResult plain = testing::run(p, kKernel);
    const Traced r = run_traced(mode);
    EXPECT_EQ(r.result.cycles, plain.cycles);
    EXPECT_EQ(r.result.memory["hbm"].dump(), plain.memory["hbm"].dump());
    // The store's writes drain after the run (the model never waits for them): the trace
    // still shows where they went.
    EXPECT_EQ(r.trace.on("hbm.channel0").size(), 3u);
  }
}

TEST(PlenaTrace, ScopeKeepsOneHbmChannel) {
  TraceOptions t;
  t.scopes = "plena.hbm.channel3";
  const Traced r = run_traced("pipelined", t);
  ASSERT_TRUE(r.result.ok()) << r.result.message;
  EXPECT_EQ(r.trace.tracks, (std::vector<std::string>{"hbm.channel3"}));
  EXPECT_EQ(r.trace.slices.size(), 3u);
  EXPECT_TRUE(r.trace.counters.empty());
  EXPECT_TRUE(r.trace.flows.empty());
}

// A scope that keeps no HBM track: the engine is not observed and none is written.
TEST(PlenaTrace, ScopeWithoutHbmTracksDropsThemAll) {
  TraceOptions t;
  t.scopes = "plena.dma";
  const Traced r = run_traced("pipelined", t);
  ASSERT_TRUE(r.result.ok()) << r.result.message;
  for (const auto& s : r.trace.slices) EXPECT_EQ(s.track.rfind("dma.", 0), 0u) << s.track;
  EXPECT_EQ(r.trace.on("dma.prefetch").size(), 2u);
  EXPECT_EQ(r.trace.counters.count("hbm.row_hits"), 0u);
}

}  // namespace
}  // namespace tlmcraft::plena
