#include <gtest/gtest.h>

#include "models/dma_engine.h"
#include "models/dram.h"
#include "tests/models/test_support.h"

namespace tlmcraft::models {
namespace {

using testing::Initiator;
using testing::ns;
using testing::SimTest;

// tRCD = tCL = tRP = 14, burst 2: hit = 16, miss = 30, conflict = 44 cycles when idle.
DramConfig one_channel() {
  DramConfig c;
  c.name = "dram";
  c.capacity_bytes = 1ull << 30;
  c.channels = 1;
  c.banks_per_channel = 16;
  c.row_bytes = 2048;
  c.granule_bytes = 64;
  c.interleave_bytes = 64;
  c.tRCD = c.tCL = c.tRP = 14;
  c.burst_cycles = 2;
  c.queue_depth = 32;
  return c;
}

class DramTest : public SimTest {};

TEST_F(DramTest, AddressDecoding) {
  DramConfig c = one_channel();
  c.channels = 8;
  Dram d("dram", c);
  // 0x10400: chunk 0x10400/64 = 1040 -> channel 1040 % 8 = 0; channel-local address
  // (1040/8)*64 = 8320 -> row index 8320/2048 = 4 -> bank 4, row 0, column 8320 % 2048 = 128.
  const DramLocation l = d.decode(0x10400);
  EXPECT_EQ(l.channel, 0u);
  EXPECT_EQ(l.bank, 4u);
  EXPECT_EQ(l.row, 0u);
  EXPECT_EQ(l.column, 128u);
  // 0x40: chunk 1 -> channel 1, local 0.
  EXPECT_EQ(d.decode(0x40).channel, 1u);
  EXPECT_EQ(d.decode(0x40).column, 0u);
  // Channel-local row index 16 (local 32 KiB, address 32 KiB * 8 channels) wraps to bank 0, row 1.
  const DramLocation w = d.decode(32768ull * 8);
  EXPECT_EQ(w.channel, 0u);
  EXPECT_EQ(w.bank, 0u);
  EXPECT_EQ(w.row, 1u);
}

TEST_F(DramTest, RowHitMissConflict) {
  Dram d("dram", one_channel());
  // Miss (closed bank) at 0: ACT 0, column at 0+tRCD = 14, data 14+tCL = 28, done 28+2 = 30.
  DramAccessTiming t = d.access(0, 0, false);
  EXPECT_EQ(t.outcome, RowOutcome::Miss);
  EXPECT_EQ(t.data, 28u);
  EXPECT_EQ(t.done, 30u);
  // Hit (same row 0 of bank 0) at 100: column 100, data 114, done 116 (= 100 + tCL + 2).
  t = d.access(64, 100, false);
  EXPECT_EQ(t.outcome, RowOutcome::Hit);
  EXPECT_EQ(t.done, 116u);
  // Conflict: address 32768 = row index 16 -> bank 0, row 1 while row 0 is open.
  // PRE 200, ACT 214, column 228, data 242, done 244 (= 200 + tRP + tRCD + tCL + 2).
  t = d.access(32768, 200, true);
  EXPECT_EQ(t.where.bank, 0u);
  EXPECT_EQ(t.where.row, 1u);
  EXPECT_EQ(t.outcome, RowOutcome::Conflict);
  EXPECT_EQ(t.done, 244u);
  const auto s = d.stats();
  EXPECT_EQ(s["row_hits"], 1u);
  EXPECT_EQ(s["row_misses"], 1u);
  EXPECT_EQ(s["row_conflicts"], 1u);
}

TEST_F(DramTest, TrasDelaysPrecharge) {
  DramConfig c = one_channel();
  c.tRAS = 40;
  Dram d("dram", c);
  // Miss at 0: ACT 0, done 30. Conflict at 10: PRE waits for ACT + tRAS = 40,
  // ACT 54, column 68, data 82, done 84.
  EXPECT_EQ(d.access(0, 0, false).done, 30u);
  EXPECT_EQ(d.access(32768, 10, false).done, 84u);

  fresh_sim_context();
  Dram e("dram", one_channel());  // tRAS = 0: PRE after the first column command (14) + 1 = 15
  // -> ACT 29, column 43, data 57, done 59.
  EXPECT_EQ(e.access(0, 0, false).done, 30u);
  EXPECT_EQ(e.access(32768, 10, false).done, 59u);
}

TEST_F(DramTest, ChannelsInParallelVersusOneChannelSerialised) {
  DramConfig c = one_channel();
  c.channels = 8;
  Dram d("dram", c);
  // Addresses 0 and 64 are channels 0 and 1: both misses complete at 30.
  EXPECT_EQ(d.access(0, 0, false).done, 30u);
  EXPECT_EQ(d.access(64, 0, false).done, 30u);
  // Address 512 = chunk 8 -> channel 0 again (same row, a hit): its column could issue at
  // 14 (data 28), but channel 0's bus is busy until 30 -> data 30, done 32.
  const DramAccessTiming t = d.access(512, 0, false);
  EXPECT_EQ(t.where.channel, 0u);
  EXPECT_EQ(t.outcome, RowOutcome::Hit);
  EXPECT_EQ(t.done, 32u);
  // A different bank on channel 0 (row index 1 = local 2048 = address 2048*8): a miss,
  // ready for data at 28, serialised behind the bus -> data 32, done 34.
  EXPECT_EQ(d.access(2048 * 8, 0, false).done, 34u);
  EXPECT_EQ(d.stats()["channel_busy_cycles"][0], 6u);
  EXPECT_EQ(d.stats()["channel_busy_cycles"][1], 2u);
}

TEST_F(DramTest, QueueFullWaitsForOldest) {
  DramConfig c = one_channel();
  c.queue_depth = 2;
  Dram d("dram", c);
  // Three requests to row 0 at cycle 0 with a 2-entry queue: the first two complete at 30
  // and 32; the third is admitted when the oldest finishes (30): column 30, data 44, done 46.
  EXPECT_EQ(d.access(0, 0, false).done, 30u);
  EXPECT_EQ(d.access(64, 0, false).done, 32u);
  const DramAccessTiming t = d.access(128, 0, false);
  EXPECT_EQ(t.admitted, 30u);
  EXPECT_EQ(t.done, 46u);
  EXPECT_EQ(d.stats()["queue_full_waits"], 1u);
  EXPECT_EQ(d.stats()["queue_stall_cycles"], 30u);

  fresh_sim_context();
  c.queue_depth = 0;  // unbounded: the third would be done at 34
  Dram e("dram", c);
  e.access(0, 0, false);
  e.access(64, 0, false);
  EXPECT_EQ(e.access(128, 0, false).done, 34u);
}

// docs/models.md worked example: a 64x64 MX tile, 4096 data bytes at 0 and 512 scale bytes
// at 4096, = 72 blocks of 64 B issued together at cycle 0 on the hbm2 preset.
// Blocks interleave over 8 channels: each channel gets 8 data blocks + 1 scale block, all in
// channel-local bytes [0, 576) = bank 0, row 0. Per channel: the first is a miss (data 28,
// done 30), the other 8 are hits that stream behind it on the bus: 30 + 8 * 2 = 46.
TEST_F(DramTest, WorkedExampleMxTileOnHbm2Preset) {
  Dram d("hbm", DramConfig::from_yaml_file(TLMCRAFT_SOURCE_DIR "/models/presets/hbm2.yaml"));
  Initiator init("init");
  init.socket.bind(d.socket);
  elaborate();
  std::vector<uint8_t> block(64);
  uint64_t last = 0;
  for (uint64_t addr = 0; addr < 4096 + 512; addr += 64) {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;  // all issued at cycle 0
    ASSERT_EQ(init.send(tlm::TLM_READ_COMMAND, addr, block.data(), 64, delay), tlm::TLM_OK_RESPONSE);
    last = std::max(last, ns(delay));
  }
  EXPECT_EQ(last, 46u);
  const auto s = d.stats();
  EXPECT_EQ(s["accesses"], 72u);
  EXPECT_EQ(s["row_misses"], 8u);
  EXPECT_EQ(s["row_hits"], 64u);
  EXPECT_EQ(s["bytes_read"], 4608u);
  for (int ch = 0; ch < 8; ++ch) EXPECT_EQ(s["channel_busy_cycles"][ch], 18u);  // 9 bursts x 2
  EXPECT_EQ(s["active_window"]["last_done_cycle"], 46u);
  EXPECT_DOUBLE_EQ(s["achieved_bytes_per_cycle"].get<double>(), 4608.0 / 46.0);
}

TEST_F(DramTest, SparseStorageRoundTrip) {
  DramConfig c = one_channel();
  c.capacity_bytes = 8ull << 30;  // 8 GiB address space, nothing allocated up front
  Dram d("dram", c);
  Initiator init("init");
  init.socket.bind(d.socket);
  elaborate();
  EXPECT_EQ(d.allocated_bytes(), 0u);
  // 16 bytes straddling a 4 KiB page boundary at 6 GiB.
  const uint64_t addr = (6ull << 30) + 4090;
  std::vector<uint8_t> w(16), r(16, 0xEE);
  for (int i = 0; i < 16; ++i) w[i] = static_cast<uint8_t>(i + 1);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  ASSERT_EQ(init.send(tlm::TLM_WRITE_COMMAND, addr, w.data(), 16, delay), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(d.allocated_bytes(), 2u * 4096);  // exactly the two touched pages
  delay = sc_core::SC_ZERO_TIME;
  ASSERT_EQ(init.send(tlm::TLM_READ_COMMAND, addr, r.data(), 16, delay), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(r, w);
  // Unwritten memory reads as zero (and reading allocates nothing).
  std::vector<uint8_t> z(100, 0xEE);
  EXPECT_EQ(init.dbg(tlm::TLM_READ_COMMAND, 1ull << 32, z.data(), 100), 100u);
  EXPECT_EQ(z, std::vector<uint8_t>(100, 0));
  EXPECT_EQ(d.allocated_bytes(), 2u * 4096);
  // Debug write + functional read.
  uint8_t v[2] = {0xAB, 0xCD};
  EXPECT_EQ(init.dbg(tlm::TLM_WRITE_COMMAND, 12345, v, 2), 2u);
  uint8_t back[2] = {};
  d.read_bytes(12345, back, 2);
  EXPECT_EQ(back[0], 0xAB);
  EXPECT_EQ(back[1], 0xCD);
  // Beyond the capacity: address error, and no DMI.
  delay = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(init.send(tlm::TLM_READ_COMMAND, (8ull << 30) - 8, r.data(), 16, delay), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  tlm::tlm_generic_payload t;
  t.set_address(0);
  tlm::tlm_dmi dmi;
  EXPECT_FALSE(init.socket->get_direct_mem_ptr(t, dmi));
}

TEST_F(DramTest, MultiGranuleTransactionCompletesWithLastBurst) {
  DramConfig c = one_channel();
  c.channels = 2;
  Dram d("dram", c);
  Initiator init("init");
  init.socket.bind(d.socket);
  elaborate();
  // 256 bytes at 0 = 4 granules: channel 0 gets granules 0 and 2, channel 1 gets 1 and 3.
  // Per channel: miss done 30, hit done 32 -> the transaction completes at 32. Arrival 3
  // (delay 3 ns) shifts everything by 3 -> 35.
  std::vector<uint8_t> buf(256);
  sc_core::sc_time delay(3, sc_core::SC_NS);
  ASSERT_EQ(init.send(tlm::TLM_READ_COMMAND, 0, buf.data(), 256, delay), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(ns(delay), 35u);
  EXPECT_EQ(d.stats()["accesses"], 4u);
  EXPECT_EQ(d.stats()["transactions"], 1u);
}

}  // namespace
}  // namespace tlmcraft::models
