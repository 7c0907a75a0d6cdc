// Coral trace tracks on small programs, values derived by hand from the timing model
// (docs/platforms/coral.md, platforms/coral/configs/default.yaml): the vector reorder
// buffer, micro-op and command queues, the retirement buffer, "load -> first use" flows,
// the scope filter and the size budget, and tracing leaving the cycle count unchanged.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "tests/platforms/coral_test_util.h"
#include "tests/platforms/perfetto_json.h"

namespace tlmcraft::coral {
namespace {

namespace fs = std::filesystem;
using Samples = std::vector<std::pair<uint64_t, int64_t>>;

std::string kernel(const std::string& body) {
  return "  .text\n  .globl main\nmain:\n" + body + "  ret\n  .data\n  .balign 16\nbuf:\n  .space 64\n";
}

struct Traced {
  RunResult result;
  tlmcraft::testing::PerfettoTrace trace;
  Samples vcd;  // one VCD signal's changes
};

// Runs `source` with a Perfetto trace and a VCD; `vcd_signal` names a VCD signal whose
// changes to return.
Traced run_traced(const std::string& source, TraceOptions t = {}, const std::string& vcd_signal = "") {
  const fs::path dir = fs::temp_directory_path() / ("coral_trace_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  t.perfetto_path = (dir / "t.json").string();
  t.vcd_path = (dir / "t.vcd").string();
  CoralPlatform p = testing::make_platform();
  p.load(testing::build(p, source));
  Traced out;
  out.result = p.run({}, t);
  out.trace = tlmcraft::testing::read_perfetto(t.perfetto_path);
  if (!vcd_signal.empty()) out.vcd = tlmcraft::testing::vcd_changes(t.vcd_path, vcd_signal);
  fs::remove_all(dir);
  return out;
}

// The counter's samples from `from` on, as offsets from `from`.
Samples from(const Samples& s, uint64_t first) {
  Samples out;
  for (auto [c, v] : s)
    if (c >= first) out.push_back({c - first, v});
  return out;
}

// Three independent 16-byte vector loads share the one LSU slot: each takes it for 5
// cycles (1 per instruction + 1 block + load_tail 3) right after the previous one. Their
// micro-ops all leave the micro-op queue at s-1 (the first reaches the LSU the cycle after)
// and each holds its reorder-buffer entry until the LSU hands its register over at the end
// of its access: [s-1, s+5), [s-1, s+10), [s-1, s+15). So the ROB holds 3, 2, 1 entries
// and empties at s+15.
TEST(CoralTrace, ThreeIndependentVectorLoadsInTheReorderBuffer) {
  const Traced r = run_traced(kernel(
      "  la a0, buf\n  li t0, 4\n  vsetvli t1, t0, e32, m1, ta, ma\n"
      "  vle32.v v1, (a0)\n  vle32.v v2, (a0)\n  vle32.v v3, (a0)\n"));
  ASSERT_TRUE(r.result.ok()) << r.result.message;
  const auto lsu = r.trace.on("vector_lsu");
  ASSERT_EQ(lsu.size(), 3u);
  const uint64_t s = lsu[0].begin;
  EXPECT_EQ(lsu[0].end, s + 5);
  EXPECT_EQ(lsu[1].begin, s + 5);
  EXPECT_EQ(lsu[2].begin, s + 10);
  EXPECT_EQ(lsu[2].end, s + 15);
  EXPECT_EQ(from(r.trace.counters.at("vector.rob"), s - 1), (Samples{{0, 3}, {6, 2}, {11, 1}, {16, 0}}));
  EXPECT_EQ(r.trace.counters.at("vector.rob").front(), (std::pair<uint64_t, int64_t>{0, 0}));
}

// One vadd at LMUL 8 (vl 32 x e32 = 8 registers): 8 micro-ops decoded the cycle after
// dispatch (td = t + 1), leaving the micro-op queue 3 per cycle (NUM_DP_UOP) at td, td, td,
// td+1 x3, td+2 x2 into the ALUs' reservation station, issued 2 per cycle to the 2 ALUs at
// td, td, td+1, td+1, ..., td+3, each done 2 cycles after issue (td+2, td+2, ..., td+5) and
// retired in order. Micro-op queue: 8 at td, 5, 2, 0. Reorder buffer [dispatch, retire):
// 3 at td, 6 at td+1 (td+2: 2 in, 2 out), 4 at td+3, 2 at td+4, 0 at td+5. Command
// queue: 1 from dispatch to decode.
TEST(CoralTrace, OneGroupedVaddFillsAndDrainsTheVectorQueues) {
  const Traced r = run_traced(kernel("  li t0, 32\n  vsetvli t1, t0, e32, m8, ta, ma\n  vadd.vv v8, v16, v24\n"), {},
                              "coral.vector.uop_queue.value");
  ASSERT_TRUE(r.result.ok()) << r.result.message;
  uint64_t t = 0;
  bool found = false;
  for (const auto& s : r.trace.slices)
    if (s.name.rfind("vadd.vv", 0) == 0 && s.track.rfind("issue", 0) == 0) {
      t = s.begin;
      found = true;
    }
  ASSERT_TRUE(found);
  const uint64_t td = t + 1;
  EXPECT_EQ(from(r.trace.counters.at("vector.command_queue"), t), (Samples{{0, 1}, {1, 0}}));
  EXPECT_EQ(from(r.trace.counters.at("vector.uop_queue"), td), (Samples{{0, 8}, {1, 5}, {2, 2}, {3, 0}}));
  EXPECT_EQ(from(r.vcd, td), (Samples{{0, 8}, {1, 5}, {2, 2}, {3, 0}}));  // the VCD's value signal
  EXPECT_EQ(r.vcd.front(), (std::pair<uint64_t, int64_t>{0, 0}));        // $dumpvars: empty
  EXPECT_EQ(from(r.trace.counters.at("vector.rob"), td), (Samples{{0, 3}, {1, 6}, {3, 4}, {4, 2}, {5, 0}}));
  std::vector<uint64_t> issues;
  for (const char* alu : {"vector_alu0", "vector_alu1"})
    for (const auto& s : r.trace.on(alu)) issues.push_back(s.begin - td);
  std::sort(issues.begin(), issues.end());
  EXPECT_EQ(issues, (std::vector<uint64_t>{0, 0, 1, 1, 2, 2, 3, 3}));
}

// A divide of a large dividend holds the in-order retirement buffer: the instructions
// after it dispatch and finish, but leave only after it, so the buffer fills to its 8
// entries and stays full until the cycle after the divide's result; it never holds more.
TEST(CoralTrace, RetirementBufferFillsBehindADivideAndNeverExceedsItsEightEntries) {
  std::string body = "  li a1, 0x7fffffff\n  li a2, 3\n  div a0, a1, a2\n";
  for (int i = 0; i < 12; ++i) body += "  addi t" + std::to_string(i % 6) + ", zero, " + std::to_string(i) + "\n";
  const Traced r = run_traced(kernel(body));
  ASSERT_TRUE(r.result.ok()) << r.result.message;
  const auto div = r.trace.on("div");
  ASSERT_EQ(div.size(), 1u);
  const Samples& rb = r.trace.counters.at("retirement_buffer");
  int64_t peak = 0;
  for (auto [c, v] : rb) peak = std::max(peak, v);
  EXPECT_EQ(peak, 8);
  EXPECT_EQ(r.trace.value_at("retirement_buffer", div[0].end), 8);
  EXPECT_LT(r.trace.value_at("retirement_buffer", div[0].end + 1), 8);
  EXPECT_EQ(rb.back().second, 0);
}

// Arrows from each vector load to the first instruction reading a register it wrote: v1
// and v2 to the first vadd, v3 to the second; v4 is overwritten before anything reads it.
TEST(CoralTrace, LoadToFirstUseFlows) {
  const Traced r = run_traced(kernel(
      "  la a0, buf\n  li t0, 4\n  vsetvli t1, t0, e32, m1, ta, ma\n"
      "  vle32.v v1, (a0)\n  vle32.v v2, (a0)\n  vle32.v v3, (a0)\n  vle32.v v4, (a0)\n"
      "  vmv.v.i v4, 0\n  vadd.vv v5, v1, v2\n  vadd.vv v6, v1, v3\n  vadd.vv v7, v4, v3\n"));
  ASSERT_TRUE(r.result.ok()) << r.result.message;
  const auto lsu = r.trace.on("vector_lsu");
  ASSERT_EQ(lsu.size(), 4u);
  // The vadds' micro-ops in program order (pc args) on the ALU tracks.
  std::vector<tlmcraft::testing::PerfettoSlice> adds;
  for (const auto& s : r.trace.slices)
    if (s.track.rfind("vector_alu", 0) == 0) adds.push_back(s);
  std::sort(adds.begin(), adds.end(), [](const auto& a, const auto& b) { return a.args["pc"] < b.args["pc"]; });
  ASSERT_EQ(adds.size(), 4u);  // vmv.v.i, then the three vadds
  ASSERT_EQ(r.trace.flows.size(), 3u);
  std::vector<std::pair<uint64_t, uint64_t>> got;
  for (const auto& f : r.trace.flows) {
    EXPECT_EQ(f.name, "load -> first use");
    EXPECT_EQ(f.from_track, "vector_lsu");
    got.push_back({f.from, f.to});
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::pair<uint64_t, uint64_t>>{
                     {lsu[0].end - 1, adds[1].begin}, {lsu[1].end - 1, adds[1].begin}, {lsu[2].end - 1, adds[2].begin}}));
}

TEST(CoralTrace, ScopeKeepsOnlyTheChosenQueueAndTracingKeepsTheCycleCount) {
  const std::string src = kernel("  li t0, 32\n  vsetvli t1, t0, e32, m8, ta, ma\n  vadd.vv v8, v16, v24\n");
  CoralPlatform p = testing::make_platform();
  const RunResult plain = testing::run(p, testing::build(p, src));
  TraceOptions t;
  t.scopes = "coral.vector.rob";
  const Traced r = run_traced(src, t);
  EXPECT_EQ(r.result.cycles, plain.cycles);
  EXPECT_TRUE(r.trace.slices.empty());
  ASSERT_EQ(r.trace.counters.size(), 1u);
  EXPECT_EQ(r.trace.counters.begin()->first, "vector.rob");
}

// The relu kernel's full trace is more than twice a 15 kB budget: the writer aggregates, and the
// queue counters survive as per-bin peaks.
TEST(CoralTrace, QueueTracksStayWithinTheSizeBudget) {
  std::ifstream in(std::string(TLMCRAFT_SOURCE_DIR) + "/platforms/coral/kernels/relu_c1.s");
  const std::string src((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const fs::path dir = fs::temp_directory_path() / ("coral_budget_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  CoralPlatform p = testing::make_platform();
  const isa::Program prog = testing::build(p, src);
  TraceOptions t;
  t.perfetto_path = (dir / "full.json").string();
  t.perfetto_max_bytes = 0;
  p.load(prog);
  ASSERT_TRUE(p.run({}, t).ok());
  const uint64_t full = fs::file_size(t.perfetto_path);
  t.perfetto_path = (dir / "small.json").string();
  t.perfetto_max_bytes = 15'000;
  p.load(prog);
  ASSERT_TRUE(p.run({}, t).ok());
  EXPECT_GT(full, 30'000u);
  EXPECT_LE(fs::file_size(t.perfetto_path), 15'000u);
  const auto small = tlmcraft::testing::read_perfetto(t.perfetto_path);
  EXPECT_GT(small.json["otherData"]["aggregation_bin_cycles"].get<uint64_t>(), 1u);
  int64_t peak = 0;
  for (auto [c, v] : small.counters.at("vector.rob")) peak = std::max(peak, v);
  EXPECT_EQ(peak, 8);  // the m8 load fills the reorder buffer
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tlmcraft::coral
