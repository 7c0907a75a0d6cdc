#include <gtest/gtest.h>

#include "models/scratchpad.h"
#include "tests/models/test_support.h"

namespace tlmcraft::models {
namespace {

using testing::Initiator;
using testing::ns;
using testing::SimTest;

// 4 banks of 4-byte words: word w (address 4w) is in bank w % 4.
ScratchpadConfig small_config() {
  ScratchpadConfig c;
  c.name = "spad";
  c.size_bytes = 1024;
  c.word_bytes = 4;
  c.banks = 4;
  c.ports_per_bank = 1;
  c.read_latency = 1;
  c.write_latency = 2;
  return c;
}

class ScratchpadTest : public SimTest {};

TEST_F(ScratchpadTest, LatencyThroughBTransport) {
  Scratchpad spad("spad", small_config());
  Initiator init("init");
  init.socket.bind(spad.socket);
  elaborate();

  uint8_t w[4] = {1, 2, 3, 4};
  sc_core::sc_time delay(5, sc_core::SC_NS);
  // Write arrives at cycle 5, bank free -> port at 5, done 5 + 1 - 1 + write_latency 2 = 7.
  ASSERT_EQ(init.send(tlm::TLM_WRITE_COMMAND, 16, w, 4, delay), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(ns(delay), 7u);
  uint8_t r[4] = {};
  delay = sc_core::sc_time(9, sc_core::SC_NS);
  // Read at cycle 9 of the same bank (free again): done 9 + read_latency 1 = 10.
  ASSERT_EQ(init.send(tlm::TLM_READ_COMMAND, 16, r, 4, delay), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(ns(delay), 10u);
  EXPECT_EQ(r[0], 1);
  EXPECT_EQ(r[3], 4);
  EXPECT_EQ(spad.data()[17], 2);
}

TEST_F(ScratchpadTest, ByteEnablesMaskWrites) {
  Scratchpad spad("spad", small_config());
  Initiator init("init");
  init.socket.bind(spad.socket);
  elaborate();
  uint8_t w[4] = {1, 2, 3, 4};
  unsigned char be[2] = {TLM_BYTE_ENABLED, TLM_BYTE_DISABLED};  // repeats: bytes 0 and 2 only
  tlm::tlm_generic_payload t;
  t.set_command(tlm::TLM_WRITE_COMMAND);
  t.set_address(8);
  t.set_data_ptr(w);
  t.set_data_length(4);
  t.set_streaming_width(4);
  t.set_byte_enable_ptr(be);
  t.set_byte_enable_length(2);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  init.socket->b_transport(t, delay);
  ASSERT_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(spad.data()[8], 1);
  EXPECT_EQ(spad.data()[9], 0);
  EXPECT_EQ(spad.data()[10], 3);
  EXPECT_EQ(spad.data()[11], 0);
  // Streaming bursts (streaming width < length) are not modelled.
  t.set_byte_enable_ptr(nullptr);
  t.set_streaming_width(2);
  init.socket->b_transport(t, delay);
  EXPECT_EQ(t.get_response_status(), tlm::TLM_BURST_ERROR_RESPONSE);
}

TEST_F(ScratchpadTest, BankConflictDelaysSecondAccessOneCycle) {
  Scratchpad spad("spad", small_config());
  // Words 0 and 4 (addresses 0 and 16) share bank 0; word 1 (address 4) is bank 1.
  EXPECT_EQ(spad.bank_of(0), 0u);
  EXPECT_EQ(spad.bank_of(16), 0u);
  EXPECT_EQ(spad.bank_of(4), 1u);
  EXPECT_EQ(spad.reserve(0, 4, 10, false), 10u);
  EXPECT_EQ(spad.reserve(16, 4, 10, false), 11u);  // bank 0 taken in cycle 10 -> cycle 11
  EXPECT_EQ(spad.reserve(4, 4, 10, false), 10u);   // bank 1 free
  const auto s = spad.stats();
  EXPECT_EQ(s["accesses"], 3u);
  EXPECT_EQ(s["bytes_read"], 12u);
  EXPECT_EQ(s["conflicts"], 1u);
  EXPECT_EQ(s["conflict_stall_cycles"], 1u);
}

TEST_F(ScratchpadTest, PortsPerBankAllowParallelAccesses) {
  ScratchpadConfig c = small_config();
  c.ports_per_bank = 2;
  Scratchpad spad("spad", c);
  // Two ports: two bank-0 accesses in cycle 3, the third waits to cycle 4.
  EXPECT_EQ(spad.reserve(0, 4, 3, false), 3u);
  EXPECT_EQ(spad.reserve(16, 4, 3, true), 3u);
  EXPECT_EQ(spad.reserve(32, 4, 3, false), 4u);
}

TEST_F(ScratchpadTest, OutOfOrderReservations) {
  Scratchpad spad("spad", small_config());
  // A DMA books bank 0 for future cycle 100 first ...
  EXPECT_EQ(spad.reserve(0, 4, 100, true), 100u);
  // ... then a compute unit books the present cycle 10: not blocked by the future booking.
  EXPECT_EQ(spad.reserve(16, 4, 10, false), 10u);
  // Another access asking for cycle 100 finds bank 0 taken and gets 101.
  EXPECT_EQ(spad.reserve(32, 4, 100, false), 101u);
  // Cycle 99 is still free (a gap before the booking at 100).
  EXPECT_EQ(spad.reserve(48, 4, 99, false), 99u);
  // 99, 100, 101 now taken: asking for 99 again -> 102.
  EXPECT_EQ(spad.reserve(0, 4, 99, false), 102u);
}

TEST_F(ScratchpadTest, WideAccessOccupiesBanksForSeveralCycles) {
  Scratchpad spad("spad", small_config());
  // 32 bytes at 0 = words 0..7: two words in each of the 4 banks -> 2 cycles (0 and 1);
  // done = 0 + 2 - 1 + read_latency 1 = 2.
  const BankReservation r = spad.book(0, 32, 0, false);
  EXPECT_EQ(r.start, 0u);
  EXPECT_EQ(r.occupancy, 2u);
  EXPECT_EQ(r.done, 2u);
  // A bank-2 word (address 8) wanted at cycle 1 waits for cycle 2.
  EXPECT_EQ(spad.reserve(8, 4, 1, false), 2u);
  // An unaligned 6-byte access at address 2 touches words 0 and 1 (banks 0 and 1), free at 2.
  EXPECT_EQ(spad.reserve(2, 6, 0, false), 2u);
}

TEST_F(ScratchpadTest, PruneForgetsOldHistory) {
  Scratchpad spad("spad", small_config());
  spad.reserve(0, 4, 10, false);
  spad.reserve(0, 4, 60, false);
  spad.prune(50);
  // The booking at 10 is forgotten, the one at 60 kept.
  EXPECT_EQ(spad.reserve(0, 4, 10, false), 10u);
  EXPECT_EQ(spad.reserve(0, 4, 60, false), 61u);
}

TEST_F(ScratchpadTest, BoundsChecks) {
  Scratchpad spad("spad", small_config());
  Initiator init("init");
  init.socket.bind(spad.socket);
  elaborate();
  uint8_t buf[8] = {};
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(init.send(tlm::TLM_READ_COMMAND, 1020, buf, 8, delay), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(init.send(tlm::TLM_WRITE_COMMAND, 5000, buf, 1, delay), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(init.send(tlm::TLM_READ_COMMAND, 1016, buf, 8, delay), tlm::TLM_OK_RESPONSE);
  try {
    spad.reserve(1020, 8, 0, false);
    FAIL() << "expected out_of_range";
  } catch (const std::out_of_range& e) {
    EXPECT_STREQ(e.what(), "scratchpad 'spad': read of 8 bytes at 0x3fc is outside [0, 0x400)");
  }
  EXPECT_THROW(spad.write(1024, buf, 1), std::out_of_range);
}

TEST_F(ScratchpadTest, DebugTransportAndDmi) {
  Scratchpad spad("spad", small_config());
  Initiator init("init");
  init.socket.bind(spad.socket);
  elaborate();
  uint8_t w[3] = {7, 8, 9};
  EXPECT_EQ(init.dbg(tlm::TLM_WRITE_COMMAND, 100, w, 3), 3u);
  EXPECT_EQ(spad.data()[101], 8);
  uint8_t r[8] = {};
  EXPECT_EQ(init.dbg(tlm::TLM_READ_COMMAND, 1020, r, 8), 4u);  // clipped at the end
  EXPECT_EQ(spad.stats()["accesses"], 0u);                   // debug accesses are untimed and uncounted

  tlm::tlm_generic_payload t;
  t.set_address(40);
  t.set_command(tlm::TLM_READ_COMMAND);
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(init.socket->get_direct_mem_ptr(t, dmi));
  EXPECT_EQ(dmi.get_dmi_ptr(), spad.data());
  EXPECT_EQ(dmi.get_start_address(), 0u);
  EXPECT_EQ(dmi.get_end_address(), 1023u);
  EXPECT_TRUE(dmi.is_read_write_allowed());
  EXPECT_EQ(dmi.get_read_latency(), sc_core::sc_time(1, sc_core::SC_NS));
  EXPECT_EQ(dmi.get_write_latency(), sc_core::sc_time(2, sc_core::SC_NS));
}

}  // namespace
}  // namespace tlmcraft::models
