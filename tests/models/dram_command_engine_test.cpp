// Command-level DRAM engine (models/dram_command_engine.h) on the HBM2 preset: counts
// derived by hand from the preset's rules (docs/models.md, "Command-level DRAM timing").
#include <gtest/gtest.h>

#include "models/dram_command_engine.h"
#include "models/yaml_config.h"

namespace {

using namespace tlmcraft::models;

DramCommandEngine hbm2() {
  return DramCommandEngine(DramCommandConfig::from_yaml_file(std::string(TLMCRAFT_SOURCE_DIR) +
                                                             "/models/presets/hbm2_8gb_2gbps.yaml"));
}

TEST(DramAddressMap, Mop4ClXorSpreadsABlockOverFourChannels) {
  const DramAddressMap map(DramCommandConfig{}.org);
  // 16-byte requests: bits 4-5 column, 6-8 channel, 9 pseudo-channel, 10-11 bank group,
  // 12-13 bank, 14-16 column, 17+ row; column bits 0-2 XOR into the channel.
  for (uint32_t k = 0; k < 4; ++k) EXPECT_EQ(map.decode(16 * k).channel, k);
  EXPECT_EQ(map.decode(64).channel, 1u);
  EXPECT_EQ(map.decode(64 + 16).channel, 0u);
  const DramCoord c = map.decode((5ull << 17) | (2u << 12) | (3u << 10) | (1u << 9));
  EXPECT_EQ(c.row, 5u);
  EXPECT_EQ(c.bank, 2u);
  EXPECT_EQ(c.bank_group, 3u);
  EXPECT_EQ(c.pseudo_channel, 1u);
  EXPECT_EQ(map.decode(16384 + 256).channel, 0u);  // column 4 XOR channel 4
}

// One request at 0: ACT in the step at cycle 0 (controller clock 1), RD tRCD = 7 later
// (clock 8), data nCL + nBL = 11 after the RD (clock 19), served in the step at cycle 18.
TEST(DramCommandEngine, OneRequestOnAClosedBankTakes18Cycles) {
  auto e = hbm2();
  EXPECT_EQ(e.read({0}, 0), 18u);
  // A 64-byte block is four requests on four channels: the same 18 cycles.
  auto f = hbm2();
  EXPECT_EQ(f.read(f.requests_for(0, 64), 100), 118u);
}

// Same bank and row, columns 0 and 4: RD at clock 8, the second RD nBL = 4 later on the
// pseudo-channel's data bus (clock 12), its data at clock 23: cycle 22.
TEST(DramCommandEngine, RowHitWaitsForTheDataBus) {
  auto e = hbm2();
  EXPECT_EQ(e.read({0, 16384 + 256}, 0), 22u);
}

// Same bank, rows 0 and 1: ACT 1, RD 8; PRE at ACT + nRAS = 18; ACT at PRE + nRP = 25
// (nRC from the first ACT allows 20); RD 32; data at clock 43: cycle 42.
TEST(DramCommandEngine, RowConflictPaysRasPrechargeAndActivate) {
  auto e = hbm2();
  EXPECT_EQ(e.read({0, 1ull << 17}, 0), 42u);
  const auto s = e.stats();
  EXPECT_EQ(s["row_misses"], 1u);
  EXPECT_EQ(s["row_conflicts"], 1u);
  EXPECT_EQ(s["precharges"], 1u);
}

// Writes complete when the controller accepts them: a batch that fits the buffers is done
// at its start cycle.
TEST(DramCommandEngine, WritesCompleteOnAcceptance) {
  auto e = hbm2();
  EXPECT_EQ(e.write(e.requests_for(4096, 64), 50), 50u);
}

// A channel's read buffer holds 33 requests: a 34th to the same channel is refused and
// offered again every cycle until a request leaves the buffer.
TEST(DramCommandEngine, FullReadBufferRefusesAndRetries) {
  auto e = hbm2();
  std::vector<uint64_t> ch0;
  const DramAddressMap map(e.config().org);
  for (uint64_t a = 0; ch0.size() < 34; a += 16)
    if (map.decode(a).channel == 0) ch0.push_back(a);
  e.read(ch0, 0);
  EXPECT_GE(e.stats()["refusals"].get<uint64_t>(), 1u);
}

TEST(DramCommandConfig, RejectsBadValues) {
  DramCommandConfig c;
  c.org.banks = 3;
  EXPECT_THROW(c.validate(), ConfigError);
  YAML::Node n = YAML::Load("mapping: linear");
  EXPECT_THROW(DramCommandConfig::from_yaml(n, "test"), ConfigError);
  n = YAML::Load("timing: {nXYZ: 3}");
  EXPECT_THROW(DramCommandConfig::from_yaml(n, "test"), ConfigError);
}

}  // namespace
