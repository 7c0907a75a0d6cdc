#include <gtest/gtest.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "models/dma_engine.h"
#include "models/dram.h"
#include "models/router.h"
#include "models/scratchpad.h"
#include "tests/models/test_support.h"

namespace tlmcraft::models {
namespace {

using testing::SimTest;

constexpr uint64_t kSpad = 0x80000000;  // scratchpad base on the bus

// DMA -> router -> {DRAM (hbm2-like, 8 channels, miss = 30 cycles, hit behind a burst = +2),
//                    scratchpad (64 KiB, 64-byte words, 4 banks, 1 port, latency 1)}.
struct System {
  Dram hbm;
  Scratchpad spad;
  Router bus;
  DmaEngine dma;

  static DramConfig hbm_config() {
    DramConfig c;
    c.name = "hbm";
    c.capacity_bytes = 1ull << 30;
    return c;  // defaults: 8 ch, 16 banks, 2 KiB rows, 64 B granule/interleave, 14/14/14, burst 2
  }
  static ScratchpadConfig spad_config() {
    ScratchpadConfig c;
    c.name = "spad";
    c.size_bytes = 64 * 1024;
    c.word_bytes = 64;
    c.banks = 4;
    c.read_latency = 1;
    c.write_latency = 1;
    return c;
  }
  static RouterConfig bus_config() {
    RouterConfig r;
    r.name = "bus";
    r.map = {{"hbm", 0, 1ull << 30, 0}, {"spad", kSpad, 64 * 1024, 1}};
    return r;
  }
  explicit System(const DmaConfig& d)
      : hbm("hbm", hbm_config()), spad("spad", spad_config()), bus("bus", bus_config()), dma("dma", d) {
    dma.socket.bind(bus.target_socket);
    bus.initiator(0).bind(hbm.socket);
    bus.initiator(1).bind(spad.socket);
  }
  void fill_hbm(uint64_t addr, uint64_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (uint64_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 7);
    hbm.write_bytes(addr, v.data(), n);
  }
};

DmaConfig dma_config() {
  DmaConfig c;
  c.name = "dma";
  c.queue_depth = 4;
  return c;  // unlimited bandwidth and outstanding accesses, 64 B granule
}

// 2-D gather used by several tests: 4 rows of 64 B at HBM 0x10000 with row stride 1024 ->
// all in channel 0, bank 4, row 0 (chunks 1024, 1040, 1056, 1072 are multiples of 8).
// Scattered to scratchpad rows 0x0, 0x100, 0x200, 0x300 = words 0, 4, 8, 12 -> all bank 0.
DmaDescriptor gather_2d() {
  DmaDescriptor d;
  d.src = {DmaSegment::strided(0x10000, 64, 4, 1024)};
  d.dst = {DmaSegment::strided(kSpad, 64, 4, 0x100)};
  d.label = "gather";
  return d;
}

class DmaTest : public SimTest {};

TEST_F(DmaTest, OneDimensionalHbmToScratchpad) {
  System s(dma_config());
  elaborate();
  s.fill_hbm(0, 256, 3);
  DmaDescriptor d;
  d.src = {DmaSegment::linear(0, 256)};
  d.dst = {DmaSegment::linear(kSpad, 256)};
  const DmaCompletion c = s.dma.submit(d, 10);
  ASSERT_TRUE(c.ok) << c.error;
  // Read: 4 blocks on channels 0..3, all issued at 10, each a miss: 10 + 30 = 40.
  // Write: 4 words (banks 0..3) at 40, no conflict: 40 + 1 = 41.
  EXPECT_EQ(c.start_cycle, 10u);
  EXPECT_EQ(c.read_done_cycle, 40u);
  EXPECT_EQ(c.done_cycle, 41u);
  EXPECT_EQ(c.read_accesses, 4u);
  EXPECT_EQ(c.write_accesses, 4u);
  std::vector<uint8_t> expect(256), got(256);
  s.hbm.read_bytes(0, expect.data(), 256);
  s.spad.read(0, got.data(), 256);
  EXPECT_EQ(got, expect);
  EXPECT_EQ(s.dma.stats()["bytes_in"], 256u);
  EXPECT_EQ(s.dma.stats()["busy_cycles"], 31u);
}

TEST_F(DmaTest, TwoDimensionalGatherScatter) {
  System s(dma_config());
  elaborate();
  s.fill_hbm(0x10000, 4096, 11);
  const DmaCompletion c = s.dma.submit(gather_2d(), 0);
  ASSERT_TRUE(c.ok) << c.error;
  // Read on channel 0: miss done 30, then hits on the bus at 32, 34, 36.
  EXPECT_EQ(c.read_done_cycle, 36u);
  // Write at 36: four words in bank 0 -> ports at 36, 37, 38, 39 -> last done 40.
  EXPECT_EQ(c.done_cycle, 40u);
  EXPECT_EQ(s.spad.stats()["conflicts"], 3u);
  EXPECT_EQ(s.spad.stats()["conflict_stall_cycles"], 6u);  // 1 + 2 + 3
  for (int r = 0; r < 4; ++r) {
    std::vector<uint8_t> expect(64), got(64);
    s.hbm.read_bytes(0x10000 + r * 1024, expect.data(), 64);
    s.spad.read(r * 0x100, got.data(), 64);
    EXPECT_EQ(got, expect) << "row " << r;
  }
}

TEST_F(DmaTest, UnalignedRowsSplitAtGranuleBoundaries) {
  System s(dma_config());
  elaborate();
  s.fill_hbm(0, 128, 5);
  DmaDescriptor d;
  d.src = {DmaSegment::linear(32, 96)};     // [32,64) on channel 0 + [64,128) on channel 1
  d.dst = {DmaSegment::linear(kSpad, 96)};  // [0,64) bank 0 + [64,96) bank 1
  const DmaCompletion c = s.dma.submit(d, 0);
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.read_accesses, 2u);
  EXPECT_EQ(c.write_accesses, 2u);
  EXPECT_EQ(c.read_done_cycle, 30u);  // two misses in parallel
  EXPECT_EQ(c.done_cycle, 31u);
  std::vector<uint8_t> expect(96), got(96);
  s.hbm.read_bytes(32, expect.data(), 96);
  s.spad.read(0, got.data(), 96);
  EXPECT_EQ(got, expect);
}

TEST_F(DmaTest, WorkedExampleMxTilePrefetch) {
  // docs/models.md: 4096 data + 512 scale bytes, one descriptor, all 72 reads at cycle 0 -> 46.
  System s(dma_config());
  elaborate();
  DmaDescriptor d;
  d.src = {DmaSegment::linear(0, 4096), DmaSegment::linear(4096, 512)};
  d.dst = {DmaSegment::linear(kSpad, 4608)};
  const DmaCompletion c = s.dma.submit(d, 0);
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.read_accesses, 72u);
  EXPECT_EQ(c.read_done_cycle, 46u);
  // Writes: 72 words over 4 banks = 18 per bank, one per cycle from 46 -> last port 63, done 64.
  EXPECT_EQ(c.done_cycle, 64u);
}

TEST_F(DmaTest, TransformBetweenReadAndWrite) {
  System s(dma_config());
  elaborate();
  s.fill_hbm(0, 64, 1);
  DmaDescriptor d;
  d.src = {DmaSegment::linear(0, 64)};
  d.dst = {DmaSegment::linear(kSpad, 128)};
  d.transform = [](const std::vector<uint8_t>& in, std::vector<uint8_t>& out) {
    for (uint8_t b : in) {  // byte doubling: each byte written twice
      out.push_back(b);
      out.push_back(b);
    }
  };
  const DmaCompletion c = s.dma.submit(d, 0);
  ASSERT_TRUE(c.ok) << c.error;
  // Read 1 block: miss, done 30. Write 2 words (banks 0, 1) at 30 -> 31.
  EXPECT_EQ(c.read_done_cycle, 30u);
  EXPECT_EQ(c.done_cycle, 31u);
  EXPECT_EQ(c.bytes_read, 64u);
  EXPECT_EQ(c.bytes_written, 128u);
  std::vector<uint8_t> in(64), out(128);
  s.hbm.read_bytes(0, in.data(), 64);
  s.spad.read(0, out.data(), 128);
  for (int i = 0; i < 64; ++i) {
    ASSERT_EQ(out[2 * i], in[i]);
    ASSERT_EQ(out[2 * i + 1], in[i]);
  }

  // A transform producing the wrong size is reported, and the destination stays untouched.
  d.transform = [](const std::vector<uint8_t>& in, std::vector<uint8_t>& out) { out = in; };
  d.dst = {DmaSegment::linear(kSpad + 1024, 128)};
  const DmaCompletion bad = s.dma.submit(d, 100);
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.error, "dma 'dma': descriptor #1: transform produced 64 bytes but the destination has 128");
  EXPECT_EQ(s.spad.data()[1024], 0);
}

TEST_F(DmaTest, QueueFullStallsIssue) {
  DmaConfig cfg = dma_config();
  cfg.queue_depth = 1;
  System s(cfg);
  elaborate();
  DmaDescriptor a, b;
  a.src = {DmaSegment::linear(0, 64)};
  a.dst = {DmaSegment::linear(kSpad, 64)};
  b.src = {DmaSegment::linear(64, 64)};
  b.dst = {DmaSegment::linear(kSpad + 64, 64)};
  // A: read miss 0 -> 30, write bank 0 -> 31.
  const DmaCompletion ca = s.dma.submit(a, 0);
  EXPECT_EQ(ca.done_cycle, 31u);
  // B issued at 5 with a 1-deep queue: accepted when A completes (31), starts at 31,
  // reads channel 1 (miss) 31 -> 61, writes bank 1 61 -> 62.
  const DmaCompletion cb = s.dma.submit(b, 5);
  EXPECT_EQ(cb.accept_cycle, 31u);
  EXPECT_EQ(cb.start_cycle, 31u);
  EXPECT_EQ(cb.done_cycle, 62u);
  EXPECT_EQ(s.dma.stats()["queue_full_stalls"], 1u);
  EXPECT_EQ(s.dma.stats()["queue_full_stall_cycles"], 26u);

  // With a 2-deep queue B is accepted at once (5) but still starts when the engine is free (31).
  fresh_sim_context();
  cfg.queue_depth = 2;
  System t(cfg);
  elaborate();
  t.dma.submit(a, 0);
  const DmaCompletion cb2 = t.dma.submit(b, 5);
  EXPECT_EQ(cb2.accept_cycle, 5u);
  EXPECT_EQ(cb2.start_cycle, 31u);
  EXPECT_EQ(cb2.done_cycle, 62u);
  EXPECT_EQ(t.dma.stats()["queue_full_stall_cycles"], 0u);
}

TEST_F(DmaTest, BandwidthLimit) {
  DmaConfig cfg = dma_config();
  cfg.bytes_per_cycle = 16;
  System s(cfg);
  elaborate();
  DmaDescriptor d;
  d.src = {DmaSegment::linear(0, 256)};
  d.dst = {DmaSegment::linear(kSpad, 256)};
  const DmaCompletion c = s.dma.submit(d, 0);
  ASSERT_TRUE(c.ok) << c.error;
  // Reads leave at 0, 4, 8, 12 (64 B / 16 B per cycle) to channels 0..3 (misses):
  // done 30, 34, 38, 42 -> read phase 42 (>= 0 + 256/16 = 16).
  EXPECT_EQ(c.read_done_cycle, 42u);
  // Writes leave at 42, 46, 50, 54 (banks 0..3) -> done 55, but the phase cannot finish
  // before 42 + 256/16 = 58.
  EXPECT_EQ(c.done_cycle, 58u);
}

TEST_F(DmaTest, OutstandingAccessLimit) {
  DmaConfig cfg = dma_config();
  cfg.max_outstanding = 2;
  System s(cfg);
  elaborate();
  DmaDescriptor d;
  d.src = {DmaSegment::linear(0, 256)};
  d.dst = {DmaSegment::linear(kSpad, 256)};
  const DmaCompletion c = s.dma.submit(d, 0);
  ASSERT_TRUE(c.ok) << c.error;
  // Reads 0, 1 at 0 (return 30); reads 2, 3 wait for a return: issue 30, return 60.
  EXPECT_EQ(c.read_done_cycle, 60u);
  // Writes 0, 1 at 60 (done 61); writes 2, 3 at 61 (done 62).
  EXPECT_EQ(c.done_cycle, 62u);
}

TEST_F(DmaTest, ErrorsComeBackInTheCompletion) {
  System s(dma_config());
  elaborate();
  DmaDescriptor unmapped;
  unmapped.src = {DmaSegment::linear(0x40000000, 64)};  // between hbm and spad
  unmapped.dst = {DmaSegment::linear(kSpad, 64)};
  const DmaCompletion c = s.dma.submit(unmapped, 0);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.error,
            "dma 'dma': descriptor #0: read of 64 bytes at 0x40000000 failed: address error "
            "(TLM_ADDRESS_ERROR_RESPONSE: no memory at this address)");

  // Destination running off the end of the scratchpad: the second 32-byte piece fails.
  DmaDescriptor past_end;
  past_end.src = {DmaSegment::linear(0, 64)};
  past_end.dst = {DmaSegment::linear(kSpad + 64 * 1024 - 32, 64)};
  past_end.label = "tail";
  const DmaCompletion e = s.dma.submit(past_end, 0);
  EXPECT_FALSE(e.ok);
  EXPECT_EQ(e.error, "dma 'dma': descriptor #1 (tail): write of 32 bytes at 0x80010000 failed: address error "
                     "(TLM_ADDRESS_ERROR_RESPONSE: no memory at this address)");

  DmaDescriptor mismatch;
  mismatch.src = {DmaSegment::linear(0, 64)};
  mismatch.dst = {DmaSegment::linear(kSpad, 32)};
  const DmaCompletion m = s.dma.submit(mismatch, 0);
  EXPECT_FALSE(m.ok);
  EXPECT_EQ(m.error, "dma 'dma': descriptor #2: source has 64 bytes but destination has 32 (sizes must match without a transform)");

  DmaDescriptor huge;
  huge.src = {DmaSegment::strided(~0ull - 100, 64, 4, 64)};
  huge.dst = {DmaSegment::linear(kSpad, 256)};
  const DmaCompletion h = s.dma.submit(huge, 0);
  EXPECT_FALSE(h.ok);
  EXPECT_NE(h.error.find("wraps the address space"), std::string::npos);
  EXPECT_EQ(s.dma.stats()["errors"], 4u);
}

// The same transfer must complete at the same cycle however the caller reaches submit.
class DeterminismTest : public SimTest {};

// Hand-derived for gather_2d() issued at cycle 100: reads done 136, writes done 140.
constexpr uint64_t kIssue = 100, kDone = 140;

TEST_F(DeterminismTest, OutsideSimulationAtTimeZero) {
  System s(dma_config());
  elaborate();
  EXPECT_EQ(s.dma.submit(gather_2d(), kIssue).done_cycle, kDone);
}

TEST_F(DeterminismTest, SimulationTimeBeforeTheIssueCycle) {
  System s(dma_config());
  sc_core::sc_start(57, sc_core::SC_NS);
  EXPECT_EQ(s.dma.submit(gather_2d(), kIssue).done_cycle, kDone);
}

TEST_F(DeterminismTest, SimulationTimeAlreadyPastTheIssueCycle) {
  // The kernel is at 300 ns while the controller's local time is cycle 100.
  System s(dma_config());
  sc_core::sc_start(300, sc_core::SC_NS);
  EXPECT_EQ(s.dma.submit(gather_2d(), kIssue).done_cycle, kDone);
}

// A controller thread with a quantum keeper: runs ahead by a local offset, syncs at quantum
// ends, and issues with absolute cycle = kernel time + local offset.
struct Controller : sc_core::sc_module {
  DmaEngine& dma;
  uint64_t done = 0, woke_at = 0;
  SC_HAS_PROCESS(Controller);
  Controller(sc_core::sc_module_name n, DmaEngine& d) : sc_core::sc_module(n), dma(d) { SC_THREAD(run); }
  void run() {
    tlm_utils::tlm_quantumkeeper qk;
    qk.reset();
    const sc_core::sc_time cycle(1, sc_core::SC_NS);
    for (uint64_t i = 0; i < kIssue; ++i) {  // 100 one-cycle instructions
      qk.inc(cycle);
      if (qk.need_sync()) qk.sync();
    }
    const uint64_t issue = dma.clock().to_cycles_ceil(qk.get_current_time());
    done = dma.submit(gather_2d(), issue).done_cycle;
    qk.sync();
    sc_core::wait(dma.completion_event());
    woke_at = dma.clock().to_cycles_floor(sc_core::sc_time_stamp());
  }
};

TEST_F(DeterminismTest, IndependentOfTheQuantum) {
  for (int q : {1, 7, 64, 1000}) {
    fresh_sim_context();
    tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_core::sc_time(q, sc_core::SC_NS));
    System s(dma_config());
    Controller ctl("ctl", s.dma);
    std::vector<uint64_t> callbacks;
    s.dma.set_completion_callback([&](const DmaCompletion& c) {
      callbacks.push_back(c.done_cycle);
      EXPECT_EQ(s.dma.clock().to_cycles_floor(sc_core::sc_time_stamp()), c.done_cycle);
    });
    sc_core::sc_start(1, sc_core::SC_US);
    EXPECT_EQ(ctl.done, kDone) << "quantum " << q;
    EXPECT_EQ(ctl.woke_at, kDone) << "quantum " << q;
    EXPECT_EQ(callbacks, std::vector<uint64_t>{kDone}) << "quantum " << q;
  }
}

TEST_F(DeterminismTest, CompletionEventFiresForEveryDescriptor) {
  System s(dma_config());
  elaborate();
  DmaDescriptor a;
  a.src = {DmaSegment::linear(0, 64)};
  a.dst = {DmaSegment::linear(kSpad, 64)};
  // Three back-to-back descriptors, all hits after the first: completions 31, then the
  // second reads the open row at 31 (data 45, done 47, write done 48), third 48 -> 64 -> 65.
  std::vector<uint64_t> expect;
  for (int i = 0; i < 3; ++i) expect.push_back(s.dma.submit(a, 0).done_cycle);
  EXPECT_EQ(expect, (std::vector<uint64_t>{31, 48, 65}));
  std::vector<uint64_t> seen;
  s.dma.set_completion_callback([&](const DmaCompletion& c) { seen.push_back(c.done_cycle); });
  // Callbacks registered after submission are not retro-fired; submit more and run.
  for (int i = 0; i < 2; ++i) s.dma.submit(a, 0);
  sc_core::sc_start(500, sc_core::SC_NS);
  EXPECT_EQ(seen, (std::vector<uint64_t>{82, 99}));
}

TEST_F(DeterminismTest, CompletionNotificationsAreFreedAndCanBeTurnedOff) {
  System s(dma_config());
  elaborate();
  DmaDescriptor a;
  a.src = {DmaSegment::linear(0, 64)};
  a.dst = {DmaSegment::linear(kSpad, 64)};
  for (int i = 0; i < 3; ++i) s.dma.submit(a, 0);
  EXPECT_EQ(s.dma.pending_notifications(), 3u);
  sc_core::sc_start(500, sc_core::SC_NS);
  EXPECT_EQ(s.dma.pending_notifications(), 0u);  // delivered: nothing kept
  // Undelivered notifications are bounded: the descriptor beyond the limit fails. (Each
  // is issued when the previous one completes, so transfers never pile up.)
  uint64_t at = 1000;
  for (size_t i = 0; i < DmaEngine::kMaxPendingNotifications; ++i) {
    const DmaCompletion c = s.dma.submit(a, at);
    ASSERT_TRUE(c.ok) << c.error;
    at = c.done_cycle;
  }
  EXPECT_LE(s.dma.pending_transfers(), 1u);
  const DmaCompletion over = s.dma.submit(a, at);
  EXPECT_FALSE(over.ok);
  EXPECT_NE(over.error.find("more than 65536 transfers are pending completion"), std::string::npos) << over.error;
  s.dma.set_completion_notifications(false);  // an owner that never waits (PLENA): nothing is kept
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const size_t before = s.dma.pending_notifications();
  for (int i = 0; i < 1000; ++i) {
    const DmaCompletion c = s.dma.submit(a, at);
    EXPECT_TRUE(c.ok) << c.error;
    at = c.done_cycle;
  }
  EXPECT_EQ(s.dma.pending_notifications(), before);
}

TEST_F(DeterminismTest, TransfersIssuedFasterThanTheyCompleteAreBounded) {
  System s(dma_config());
  elaborate();
  s.dma.set_completion_notifications(false);
  DmaDescriptor a;
  a.src = {DmaSegment::linear(0, 64)};
  a.dst = {DmaSegment::linear(kSpad, 64)};
  // All issued at cycle 0 by an owner that ignores accept_cycle: they queue up in the engine.
  for (size_t i = 0; i < DmaEngine::kMaxPendingTransfers; ++i) ASSERT_TRUE(s.dma.submit(a, 0).ok);
  EXPECT_EQ(s.dma.pending_transfers(), DmaEngine::kMaxPendingTransfers);
  const DmaCompletion over = s.dma.submit(a, 0);
  EXPECT_FALSE(over.ok);
  EXPECT_NE(over.error.find("more than 16384 transfers are pending (the kernel issues transfers faster than the engine "
                            "completes them"),
            std::string::npos)
      << over.error;
  // Once the owner's time passes their completions, transfers are accepted again.
  EXPECT_TRUE(s.dma.submit(a, s.dma.free_cycle()).ok);
  EXPECT_EQ(s.dma.pending_transfers(), 1u);
}

}  // namespace
}  // namespace tlmcraft::models
