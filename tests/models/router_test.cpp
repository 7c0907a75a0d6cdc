#include <gtest/gtest.h>

#include "models/router.h"
#include "models/scratchpad.h"
#include "models/yaml_config.h"
#include "tests/models/test_support.h"

namespace tlmcraft::models {
namespace {

using testing::Initiator;
using testing::ns;
using testing::SimTest;

ScratchpadConfig spad_config(uint64_t size) {
  ScratchpadConfig c;
  c.size_bytes = size;
  c.word_bytes = 4;
  c.banks = 1;
  c.read_latency = 1;
  c.write_latency = 1;
  return c;
}

RouterConfig two_targets(uint64_t hop) {
  RouterConfig r;
  r.name = "bus";
  r.hop_latency = hop;
  r.map = {{"a", 0x0, 0x1000, 0}, {"b", 0x8000, 0x400, 1}};
  return r;
}

struct Fabric {
  Initiator init{"init"};
  Router bus;
  Scratchpad a{"a", spad_config(0x1000)};
  Scratchpad b{"b", spad_config(0x400)};
  explicit Fabric(uint64_t hop) : bus("bus", two_targets(hop)) {
    init.socket.bind(bus.target_socket);
    bus.initiator(0).bind(a.socket);
    bus.initiator(1).bind(b.socket);
  }
};

class RouterTest : public SimTest {};

TEST_F(RouterTest, ForwardsWithAddressTranslation) {
  Fabric f(0);
  elaborate();
  uint8_t w[4] = {1, 2, 3, 4};
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  ASSERT_EQ(f.init.send(tlm::TLM_WRITE_COMMAND, 0x8010, w, 4, delay), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(f.b.data()[0x10], 1);  // 0x8010 - base 0x8000 = local 0x10
  EXPECT_EQ(f.b.data()[0x13], 4);
  EXPECT_EQ(f.a.data()[0x10], 0);
  uint8_t r[4] = {};
  EXPECT_EQ(f.init.dbg(tlm::TLM_READ_COMMAND, 0x8010, r, 4), 4u);
  EXPECT_EQ(r[2], 3);
  EXPECT_EQ(f.bus.stats()["forwarded"]["b"], 1u);
  ASSERT_NE(f.bus.lookup(0x83FF), nullptr);
  EXPECT_EQ(f.bus.lookup(0x83FF)->name, "b");
  EXPECT_EQ(f.bus.lookup(0x8400), nullptr);
}

TEST_F(RouterTest, UnmappedAndStraddlingAddressesAreErrors) {
  Fabric f(0);
  elaborate();
  uint8_t buf[8] = {};
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(f.init.send(tlm::TLM_READ_COMMAND, 0x4000, buf, 4, delay), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  // 8 bytes at 0xFFC run past the end of 'a' (0x1000).
  EXPECT_EQ(f.init.send(tlm::TLM_READ_COMMAND, 0xFFC, buf, 8, delay), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(f.init.dbg(tlm::TLM_READ_COMMAND, 0x4000, buf, 4), 0u);
  EXPECT_EQ(f.bus.stats()["unmapped"], 2u);
}

TEST_F(RouterTest, HopLatencyOnRequestAndResponse) {
  Fabric f(2);
  elaborate();
  uint8_t r[4] = {};
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  // Request reaches the scratchpad at cycle 2, read done at 3, response back at 3 + 2 = 5.
  ASSERT_EQ(f.init.send(tlm::TLM_READ_COMMAND, 0x20, r, 4, delay), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(ns(delay), 5u);
}

TEST_F(RouterTest, DmiRangesAreBackTranslated) {
  Fabric f(1);
  elaborate();
  tlm::tlm_generic_payload t;
  t.set_address(0x8005);
  t.set_command(tlm::TLM_READ_COMMAND);
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(f.init.socket->get_direct_mem_ptr(t, dmi));
  EXPECT_EQ(dmi.get_start_address(), 0x8000u);
  EXPECT_EQ(dmi.get_end_address(), 0x83FFu);
  EXPECT_EQ(dmi.get_dmi_ptr(), f.b.data());
  EXPECT_EQ(t.get_address(), 0x8005u);  // restored for the caller
  // Scratchpad latency 1 + two hops of 1.
  EXPECT_EQ(dmi.get_read_latency(), sc_core::sc_time(3, sc_core::SC_NS));
  t.set_address(0x5000);
  EXPECT_FALSE(f.init.socket->get_direct_mem_ptr(t, dmi));
}

TEST_F(RouterTest, RejectsBadMaps) {
  RouterConfig overlap;
  overlap.name = "bus";
  overlap.map = {{"msram", 0x0, 0x5000, 0}, {"vram", 0x4000, 0x2000, 1}};
  try {
    overlap.validate();
    FAIL() << "overlap accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "router 'bus': map entry 'vram' [0x4000, 0x6000) overlaps 'msram' [0x0, 0x5000)");
  }
  EXPECT_THROW(Router("r", overlap), ConfigError);  // also at construction

  RouterConfig zero;
  zero.map = {{"x", 0x100, 0, 0}};
  EXPECT_THROW(zero.validate(), ConfigError);
  RouterConfig dup;
  dup.map = {{"x", 0x0, 0x10, 0}, {"x", 0x10, 0x10, 1}};
  EXPECT_THROW(dup.validate(), ConfigError);
  RouterConfig wrap;
  wrap.map = {{"x", ~0ull - 4, 0x10, 0}};
  EXPECT_THROW(wrap.validate(), ConfigError);

  const YAML::Node n = YAML::Load(
      "name: bus\nhop_latency: 1\nmap:\n"
      "  - {name: hbm, base: 0x0, size: 1GiB, target: 0}\n"
      "  - {name: spad, base: 0x80000000, size: 64KiB, target: 1}\n");
  const RouterConfig ok = RouterConfig::from_yaml(n, "bus.yaml");
  ASSERT_EQ(ok.map.size(), 2u);
  EXPECT_EQ(ok.map[1].base, 0x80000000u);
  EXPECT_EQ(ok.map[1].size, 65536u);
  EXPECT_EQ(ok.target_count(), 2u);
  const YAML::Node bad = YAML::Load("map:\n  - {name: hbm, base: 0x0, target: 0}\n");
  try {
    RouterConfig::from_yaml(bad, "bus.yaml");
    FAIL() << "missing size accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("bus.yaml:2: missing required key 'size'"), std::string::npos) << e.what();
  }
  Router r("r2", ok);
  EXPECT_THROW(r.initiator(2), ConfigError);
}

}  // namespace
}  // namespace tlmcraft::models
