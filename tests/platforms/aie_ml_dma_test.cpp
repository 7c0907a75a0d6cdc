// Data movement without cores: DMA channels, buffer descriptors, locks, stream routes,
// memory tiles, shim/DDR. Cycle counts are derived by hand from the documented model
// (docs/platforms/aie-ml.md): default config, bd_setup_cycles 4, lock_wake_cycles 1,
// 4 bytes per stream cycle, hop_cycles 1 per tile hop.
#include <gtest/gtest.h>

#include "tests/platforms/aie_ml_test_util.h"

namespace tlmcraft::aie_ml::test {
namespace {

// tile(0,0) -> mem0 -> tile(1,0): the memory tile's MM2S waits for the lock its S2MM releases.
const char* kThroughMemTile = R"(; data movement only
.movement
locks:
  - {tile: mem0, id: 0, init: 0}
buffers:
  - {name: src, tile: [0, 0], address: 0, size: 256}
  - {name: stage, tile: mem0, address: 4096, size: 256}
  - {name: dst, tile: [1, 0], address: 1024, size: 256}
bds:
  - {name: up, tile: [0, 0], channel: mm2s0, buffer: src, length: 256}
  - {name: in, tile: mem0, channel: s2mm0, buffer: stage, length: 256, release: {lock: 0, value: 1}}
  - {name: out, tile: mem0, channel: mm2s0, buffer: stage, length: 256, acquire: {lock: 0, value: 1}}
  - {name: down, tile: [1, 0], channel: s2mm0, buffer: dst, length: 256}
routes:
  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: mem0, port: s2mm0}}
  - {from: {tile: mem0, port: mm2s0}, to: {tile: [1, 0], port: s2mm0}}
)";

TEST(AieMlDma, TransferThroughMemoryTileWithLockHandOff) {
  auto p = make();
  load(*p, kThroughMemTile);
  const auto data = pattern(256, 3);
  p->write_memory("tile_0_0", 0, data);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  // t=0: up, in, down load their BDs (ready at 4); out finds lock 0 = 0 and waits.
  // t=4: up -> in, 64 words at one per cycle: [4, 68); in's last word lands after one hop
  //      (tile(0,0) is directly above mem0) at 69, where in releases lock 0 (0 -> 1).
  // t=70: out wakes (release + 1), acquires (1 -> 0), loads its BD: ready at 74.
  // t=74: out -> down [74, 138); mem0 to tile(1,0) is 2 hops: down's BD completes at 140.
  EXPECT_EQ(r.cycles, 140u);
  EXPECT_EQ(p->read_memory("tile_1_0", 1024, 256), data);
  EXPECT_EQ(p->read_memory("mem0", 4096, 256), data);
  const UnitStats* out = unit(r, "mem0.mm2s0");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->busy_cycles, 64u);
  EXPECT_EQ(out->stall_cycles, 70u);  // lock wait 0..70, no stream wait (down was ready)
  const UnitStats* down = unit(r, "tile(1,0).s2mm0");
  ASSERT_NE(down, nullptr);
  EXPECT_EQ(down->stall_cycles, 70u);  // ready at 4, first word at 74
  EXPECT_EQ(r.memory["dma"]["mem0.s2mm0"]["bytes"], 256);
}

TEST(AieMlDma, StreamBandwidthAndHopLatencyComeFromTheConfig) {
  // 8 bytes per cycle halves the transfers (32 cycles each); 3 cycles per hop:
  // in completes at 4 + 32 + 3 = 39, out wakes at 40 and is ready at 44, down completes
  // at 44 + 32 + 2 * 3 = 82.
  auto p = make({"stream.bytes_per_cycle=8", "stream.hop_cycles=3"});
  load(*p, kThroughMemTile);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 82u);
}

TEST(AieMlDma, ChainedBdsPingPongThroughTwoLocks) {
  // Two BDs per channel chained in a ring; the producer fills ping/pong alternately
  // (lock 0 = empty slots, lock 1 = full slots), the consumer drains them.
  const char* k = R"(.movement
locks:
  - {tile: mem0, id: 0, init: 2}
  - {tile: mem0, id: 1, init: 0}
buffers:
  - {name: src, tile: [0, 0], address: 0, size: 512}
  - {name: ping, tile: mem0, address: 0, size: 128}
  - {name: pong, tile: mem0, address: 128, size: 128}
  - {name: dst, tile: [0, 1], address: 0, size: 512}
bds:
  - {name: up, tile: [0, 0], channel: mm2s0, buffer: src, length: 512}
  - {name: in_ping, tile: mem0, channel: s2mm0, buffer: ping, length: 128, next: in_pong,
     acquire: {lock: 0, value: 1}, release: {lock: 1, value: 1}}
  - {name: in_pong, tile: mem0, channel: s2mm0, buffer: pong, length: 128, next: in_ping,
     acquire: {lock: 0, value: 1}, release: {lock: 1, value: 1}}
  - {name: out_ping, tile: mem0, channel: mm2s0, buffer: ping, length: 128, next: out_pong,
     acquire: {lock: 1, value: 1}, release: {lock: 0, value: 1}}
  - {name: out_pong, tile: mem0, channel: mm2s0, buffer: pong, length: 128, next: out_ping,
     acquire: {lock: 1, value: 1}, release: {lock: 0, value: 1}}
  - {name: down, tile: [0, 1], channel: s2mm0, buffer: dst, length: 512}
routes:
  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: mem0, port: s2mm0}}
  - {from: {tile: mem0, port: mm2s0}, to: {tile: [0, 1], port: s2mm0}}
)";
  auto p = make();
  load(*p, k);
  const auto data = pattern(512, 11);
  p->write_memory("tile_0_0", 0, data);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(p->read_memory("tile_0_1", 0, 512), data);
  // lock0 = empty slots (2), lock1 = full slots (0); up sends 4 segments of 32 words.
  //  t=0   in_ping takes lock0 (2->1), setup to 4; out_ping waits for lock1.
  //  t=4   up -> in_ping [4, 36), lands 37 (1 hop): lock1 0->1, out_ping wakes at 38.
  //  t=37  in_pong takes lock0 (1->0), ready 41: up -> in_pong [41, 73), lands 74.
  //  t=38  out_ping takes lock1, ready 42: out_ping -> down [42, 74).
  //  t=74  in_pong lands (lock1 0->1); in_ping (3rd) finds lock0 = 0 and waits;
  //        out_ping ends: lock0 0->1 wakes in_ping at 75; out_pong takes lock1, ready 78.
  //  t=78  out_pong -> down [78, 110).  t=75 in_ping ready 79: up -> in_ping [79, 111), lands 112.
  //  t=112 lock1 0->1 wakes out_ping at 113 (ready 117); in_pong takes lock0, ready 116.
  //  t=116 up -> in_pong [116, 148), lands 149.  t=117 out_ping -> down [117, 149).
  //  t=149 in_pong's release (lock1 0->1) then out_ping's (lock0); out_pong takes lock1,
  //        ready 153: out_pong -> down [153, 185); down's last word lands 2 hops later: 187.
  EXPECT_EQ(r.cycles, 187u);
  EXPECT_EQ(r.memory["dma"]["mem0.s2mm0"]["bds"], 4);
  EXPECT_EQ(r.memory["dma"]["mem0.mm2s0"]["bds"], 4);
  // The rings end waiting: in_ping took the slot out_ping freed at 149 (woken 150, ready
  // 154) but `up` has finished; out_ping waits for a full slot that never comes.
  EXPECT_EQ(r.memory["dma"]["mem0.mm2s0"]["state"], "waiting for lock 1 (BD 'out_ping')");
  EXPECT_EQ(r.memory["dma"]["mem0.s2mm0"]["state"], "waiting for its stream partner (BD 'in_ping', 0 of 128 bytes)");
  EXPECT_EQ(r.memory["dma"]["tile(0,0).mm2s0"]["state"], "done");
}

TEST(AieMlDma, MemoryTileZeroPaddingAndStrides) {
  // mem0 holds a 2 x 3 word matrix; its MM2S streams it transposed-with-padding: inner
  // dimension walks a column (stride 3, size 2, one zero word before), outer the 3 columns.
  const char* k = R"(.movement
buffers:
  - {name: m, tile: mem0, address: 0, size: 24}
  - {name: out, tile: [0, 0], address: 0, size: 36}
bds:
  - {name: rd, tile: mem0, channel: mm2s0, buffer: m, length: 36,
     dims: [{size: 2, stride: 3, pad_before: 1}, {size: 3, stride: 1}]}
  - {name: wr, tile: [0, 0], channel: s2mm0, buffer: out, length: 36}
routes:
  - {from: {tile: mem0, port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}
)";
  auto p = make();
  load(*p, k);
  std::vector<uint8_t> m(24);
  for (uint32_t w = 0; w < 6; ++w) m[w * 4] = static_cast<uint8_t>(10 + w);
  p->write_memory("mem0", 0, m);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  const auto out = p->read_memory("tile_0_0", 0, 36);
  // Words: [0, m0, m3, 0, m1, m4, 0, m2, m5] with m_w = 10 + w in the low byte.
  const int expect[9] = {0, 10, 13, 0, 11, 14, 0, 12, 15};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out[i * 4], expect[i]) << "word " << i;
  // 9 words from 4 (setup) at one per cycle: [4, 13), one hop: 14.
  EXPECT_EQ(r.cycles, 14u);
}

TEST(AieMlDma, ShimMovesDdrThroughTheArrayAndBack) {
  const char* k = R"(.movement
locks:
  - {tile: mem0, id: 0}
buffers:
  - {name: in, tile: shim0, address: 0x1000, size: 1024}
  - {name: stage, tile: mem0, address: 0, size: 1024}
  - {name: out, tile: shim0, address: 0x8000, size: 1024}
bds:
  - {name: rd, tile: shim0, channel: mm2s0, buffer: in, length: 1024}
  - {name: in, tile: mem0, channel: s2mm0, buffer: stage, length: 1024, release: {lock: 0, value: 1}}
  - {name: out, tile: mem0, channel: mm2s1, buffer: stage, length: 1024, acquire: {lock: 0, value: 1}}
  - {name: wr, tile: shim0, channel: s2mm1, buffer: out, length: 1024}
routes:
  - {from: {tile: shim0, port: mm2s0}, to: {tile: mem0, port: s2mm0}}
  - {from: {tile: mem0, port: mm2s1}, to: {tile: shim0, port: s2mm1}}
)";
  auto p = make();
  load(*p, k);
  const auto data = pattern(1024, 5);
  p->write_memory("ddr", 0x1000, data);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(p->read_memory("ddr", 0x8000, 1024), data);
  EXPECT_EQ(r.memory["ddr"]["bytes_read"], 1024);
  EXPECT_EQ(r.memory["ddr"]["bytes_written"], 1024);
  // The stream alone would take 2 x 256 cycles plus setups; DDR latency only adds.
  EXPECT_GT(r.cycles, 2u * 256u + 8u);
}

// DDR timing through the DRAM model with the default `ddr:` parameters: 2 channels
// interleaved every 256 bytes, 64-byte granules, tRCD = tCL = 18, 4 bus cycles per
// granule. Addresses 0..255 are channel 0, bank 0, row 0 (closed at start).
std::string shim_kernel(bool read) {
  const std::string buffers = R"(buffers:
  - {name: ddr, tile: shim0, address: 0, size: 128}
  - {name: l1, tile: [0, 0], address: 0, size: 128}
)";
  if (read)
    return ".movement\n" + buffers + R"(bds:
  - {name: rd, tile: shim0, channel: mm2s0, buffer: ddr, length: 128}
  - {name: wr, tile: [0, 0], channel: s2mm0, buffer: l1, length: 128}
routes:
  - {from: {tile: shim0, port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}
)";
  return ".movement\n" + buffers + R"(bds:
  - {name: rd, tile: [0, 0], channel: mm2s0, buffer: l1, length: 128}
  - {name: wr, tile: shim0, channel: s2mm0, buffer: ddr, length: 128}
routes:
  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: shim0, port: s2mm0}}
)";
}

TEST(AieMlDma, ShimReadTimingFollowsTheDramModel) {
  // Segment of 32 words from t = 4 (BD setup). Two 64-byte reads issued at 4: the first
  // opens the row (ACT 4, column 22, data 40..44), the second hits it (data 44..48). A
  // word leaves after its granule arrived and one cycle after the previous word: the
  // first granule's 16 words + the rest need 44 + 32 = 76 (the second granule, 48 + 16,
  // is not later). The words land 2 hops later (shim row 0 -> compute row 2): 78.
  // shim.read_ahead_bytes = 64: segments of 16 words, each requesting the next 64 bytes.
  // At 4 the first segment requests its granule (data 40..44) and the next one (data
  // 44..48); it ends at max(4 + 16, 44 + 16) = 60. The second segment's words arrived at
  // 48: it ends at max(60 + 16, 48 + 16) = 76; they land at 78: one stream, same timing.
  for (const char* set : {"shim.read_ahead_bytes=0", "shim.read_ahead_bytes=64"}) {
    auto p = make({set});
    load(*p, shim_kernel(true));
    p->write_memory("ddr", 0, pattern(128, 9));
    const RunResult r = run(*p);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(r.cycles, 78u) << set;
    EXPECT_EQ(unit(r, "shim0.mm2s0")->busy_cycles, 72u) << set;
    EXPECT_EQ(p->read_memory("tile_0_0", 0, 128), pattern(128, 9)) << set;
  }
}

TEST(AieMlDma, ShimWriteTimingFollowsTheDramModel) {
  // Segment [4, 36), 2 hops: the first 64-byte piece is complete at 4 + 2 + 16 = 22 and
  // written then (ACT 22, column 40, data 58..62); the second at 38 (row hit: column 40,
  // bus free at 62: data 62..66). The BD completes when DDR has the last write: 66.
  auto p = make();
  load(*p, shim_kernel(false));
  p->write_memory("tile_0_0", 0, pattern(128, 4));
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 66u);
  EXPECT_EQ(p->read_memory("ddr", 0, 128), pattern(128, 4));
}

TEST(AieMlDma, BroadcastRouteWaitsForEveryDestination) {
  // mem0.mm2s0 feeds tile(0,0) and tile(1,0). tile(1,0)'s S2MM BD needs lock 0, which its
  // core releases with the bundle at cycle 2: the BD wakes at 3 and is ready at 7, so the
  // broadcast segment runs [7, 23) for both; tile(0,0) (1 hop) completes at 24, tile(1,0)
  // (2 hops) at 25. tile(0,0)'s S2MM was ready at 4 and waited 3 cycles for its partner.
  const char* k = R"(.tile 1 0
  NOP
  NOP
  REL 48, 1
  DONE
.movement
buffers:
  - {name: s, tile: mem0, address: 0, size: 64}
  - {name: a, tile: [0, 0], address: 0, size: 64}
  - {name: b, tile: [1, 0], address: 64, size: 64}
bds:
  - {name: send, tile: mem0, channel: mm2s0, buffer: s, length: 64}
  - {name: ra, tile: [0, 0], channel: s2mm0, buffer: a, length: 64}
  - {name: rb, tile: [1, 0], channel: s2mm1, buffer: b, length: 64, acquire: {lock: 0, value: 1}}
routes:
  - {from: {tile: mem0, port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}
  - {from: {tile: mem0, port: mm2s0}, to: {tile: [1, 0], port: s2mm1}}
)";
  auto p = make();
  load(*p, k);
  p->write_memory("mem0", 0, pattern(64, 2));
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 25u);
  EXPECT_EQ(r.memory["dma"]["tile(0,0).s2mm0"]["stream_wait"], 3);
  EXPECT_EQ(r.memory["dma"]["tile(1,0).s2mm1"]["lock_wait"], 3);
  EXPECT_EQ(p->read_memory("tile_0_0", 0, 64), pattern(64, 2));
  EXPECT_EQ(p->read_memory("tile_1_0", 64, 64), pattern(64, 2));
}

TEST(AieMlDma, LockValueOverflowIsAFault) {
  const char* k = R"(.movement
locks:
  - {tile: [0, 0], id: 3, init: 63}
buffers:
  - {name: a, tile: [0, 0], address: 0, size: 16}
  - {name: b, tile: [1, 0], address: 0, size: 16}
bds:
  - {name: s, tile: [0, 0], channel: mm2s1, buffer: a, length: 16, release: {lock: 3, value: 1}}
  - {name: d, tile: [1, 0], channel: s2mm0, buffer: b, length: 16}
routes:
  - {from: {tile: [0, 0], port: mm2s1}, to: {tile: [1, 0], port: s2mm0}}
)";
  auto p = make();
  load(*p, k);
  const RunResult r = run(*p);
  EXPECT_EQ(r.stop, StopReason::Fault);
  EXPECT_NE(r.message.find("tile(0,0).mm2s1 BD 's'"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("lock 3"), std::string::npos) << r.message;
}

TEST(AieMlDma, AnEndlessRingWithNoCoreIsAFaultNamingItsBd) {
  // A BD chained to itself on both ends, no lock, no core: nothing can ever stop it. It
  // used to run to the cycle limit (or the wall clock), booking banks all the way; now its
  // first completion (16 words, well within 100 cycles) is a fault naming the BD.
  const char* k = R"(.movement
buffers:
  - {name: a, tile: [0, 0], address: 0, size: 64}
  - {name: b, tile: [0, 1], address: 0, size: 64}
bds:
  - {name: s, tile: [0, 0], channel: mm2s0, buffer: a, length: 64, next: s}
  - {name: d, tile: [0, 1], channel: s2mm0, buffer: b, length: 64, next: d}
routes:
  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: [0, 1], port: s2mm0}}
)";
  auto p = make();
  load(*p, k);
  RunLimits lim;
  lim.max_cycles = 5000;
  const RunResult r = p->run(lim, TraceOptions{});
  EXPECT_EQ(r.stop, StopReason::Fault);
  EXPECT_EQ(r.message,
            "DMA tile(0,0).mm2s0 BD 's' (line 6): its chain repeats forever (it comes back to a BD it ran, acquiring no "
            "lock on the way, and its stream partners do the same) after every core has halted; end the chain (omit "
            "'next') or guard it with a lock");
  EXPECT_LT(r.cycles, 100u);
}

// The campaign's input: a copy between two buffers of one tile, each BD chained to itself,
// no locks. It grew memory by about 145 MB/s (every bank booking of the tile kept) until
// std::bad_alloc; now the first completion is the fault naming the BD.
TEST(AieMlDma, SelfChainedCopyWithinOneTileIsAFaultNamingTheBd) {
  const char* k = R"(.movement
buffers:
  - {name: a, tile: [0, 0], address: 0, size: 4096}
  - {name: b, tile: [0, 0], address: 8192, size: 4096}
bds:
  - {name: out, tile: [0, 0], channel: mm2s0, buffer: a, length: 4096, next: out}
  - {name: in, tile: [0, 0], channel: s2mm0, buffer: b, length: 4096, next: in}
routes:
  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}
)";
  auto p = make();
  load(*p, k);
  const RunResult r = p->run(RunLimits{}, TraceOptions{});  // the default limits
  EXPECT_EQ(r.stop, StopReason::Fault);
  EXPECT_EQ(r.message.substr(0, 52), "DMA tile(0,0).mm2s0 BD 'out' (line 6): its chain rep");
}

// A ring guarded by a lock it always gets back (acquire 1, release 1 on the same BD) runs
// until a limit: legal, but its bank bookings must not pile up. Before the fix every
// booking stayed (no core runs on the tile to prune them): 4096-byte BDs at 4 bytes a
// cycle book one 16-byte bank word per 4 words on each side, so 200,000 cycles left about
// 2 x 50,000 bookings. Now only bookings at or after the current cycle are kept, at most
// the 4096 below which pruning waits plus one segment per channel.
TEST(AieMlDma, ALockedRingKeepsItsBankBookingsBounded) {
  const char* k = R"(.movement
locks:
  - {tile: [0, 0], id: 0, init: 1}
buffers:
  - {name: a, tile: [0, 0], address: 0, size: 4096}
  - {name: b, tile: [0, 0], address: 8192, size: 4096}
bds:
  - {name: out, tile: [0, 0], channel: mm2s0, buffer: a, length: 4096, next: out,
     acquire: {lock: 0, value: 1}, release: {lock: 0, value: 1}}
  - {name: in, tile: [0, 0], channel: s2mm0, buffer: b, length: 4096, next: in}
routes:
  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}
)";
  auto p = make();
  load(*p, k);
  RunLimits lim;
  lim.max_cycles = 200000;
  const RunResult r = p->run(lim, TraceOptions{});
  EXPECT_EQ(r.stop, StopReason::CycleLimit);
  EXPECT_LE(p->array().compute_memory(0, 0).dma_bookings(), 4096u + 2 * 4096 / 16);
}

}  // namespace
}  // namespace tlmcraft::aie_ml::test
