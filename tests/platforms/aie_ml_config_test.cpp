// AIE-ML platform configuration: the default YAML, --set overrides, validation errors,
// and the platform registry entry.
#include <gtest/gtest.h>

#include "platforms/aie_ml/aie_config.h"
#include "platforms/registry.h"
#include "tests/platforms/aie_ml_test_util.h"

namespace tlmcraft::aie_ml::test {
namespace {

std::string error_of(const std::vector<std::string>& overrides) {
  try {
    load_aie_config("default", overrides);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(AieMlConfig, DefaultMatchesTheManuals) {
  const AieConfig c = load_aie_config("default");
  EXPECT_EQ(c.columns, 4u);
  EXPECT_EQ(c.rows, 4u);
  EXPECT_EQ(c.compute.memory_bytes, 65536u);
  EXPECT_EQ(c.compute.banks, 8u);
  EXPECT_EQ(c.compute.bank_bytes(), 8192u);
  EXPECT_EQ(c.compute.locks, 16u);
  EXPECT_EQ(c.compute.mm2s_channels, 2u);
  EXPECT_EQ(c.compute.s2mm_channels, 2u);
  EXPECT_EQ(c.mem_tile.memory_bytes, 524288u);
  EXPECT_EQ(c.mem_tile.banks, 16u);
  EXPECT_EQ(c.mem_tile.locks, 64u);
  EXPECT_EQ(c.mem_tile.mm2s_channels, 6u);
  EXPECT_EQ(c.mem_tile.dma_dims, 4u);
  EXPECT_EQ(c.shim.mm2s_channels, 2u);
  EXPECT_EQ(c.max_bundles(), 1024u);
  EXPECT_EQ(c.stream_bytes_per_cycle, 4u);
  EXPECT_EQ(c.ddr.name, "ddr");
  EXPECT_EQ(c.raw["array"]["columns"], 4);
}

TEST(AieMlConfig, OverridesChangeEntries) {
  const AieConfig c = load_aie_config("default", {"array.columns=2", "dma.bd_setup_cycles=9", "ddr.tCL=30"});
  EXPECT_EQ(c.columns, 2u);
  EXPECT_EQ(c.bd_setup_cycles, 9u);
  EXPECT_EQ(c.ddr.tCL, 30u);
  EXPECT_EQ(c.raw["array"]["columns"], 2);
}

TEST(AieMlConfig, BadInputIsNamed) {
  EXPECT_NE(error_of({"array.colums=2"}).find("unknown key 'array.colums' (known here: columns, rows)"), std::string::npos)
      << error_of({"array.colums=2"});
  EXPECT_NE(error_of({"array.columns"}).find("expected KEY=VALUE"), std::string::npos);
  EXPECT_NE(error_of({"array.columns=0"}).find("'array.columns' = 0 is out of range [1, 64]"), std::string::npos)
      << error_of({"array.columns=0"});
  EXPECT_NE(error_of({"stream.bytes_per_cycle=6"}).find("multiple of 4"), std::string::npos);
  EXPECT_NE(error_of({"compute.banks=lots"}).find("'compute.banks' must be a non-negative integer, got 'lots'"),
            std::string::npos);
  EXPECT_NE(error_of({"ddr.channels=0"}).find("DDR configuration"), std::string::npos) << error_of({"ddr.channels=0"});
  EXPECT_THROW(load_aie_config("no_such_config"), InputError);
}

TEST(AieMlConfig, RegistryCreatesThePlatform) {
  const auto names = platform_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "aie_ml"), names.end());
  auto p = make_platform("aie_ml", "default", {"array.rows=2"});
  EXPECT_EQ(p->name(), "aie_ml");
  EXPECT_EQ(p->config()["array"]["rows"], 2);
  const auto mems = p->memories();
  EXPECT_EQ(mems.front(), "ddr");
  EXPECT_NE(std::find(mems.begin(), mems.end(), "tile_3_1"), mems.end());
  EXPECT_EQ(std::find(mems.begin(), mems.end(), "tile_3_2"), mems.end());
}

TEST(AieMlConfig, MemoryAccessIsChecked) {
  auto p = make();
  p->write_memory("ddr", 100, {1, 2, 3});
  EXPECT_EQ(p->read_memory("ddr", 100, 3), (std::vector<uint8_t>{1, 2, 3}));
  p->write_memory("mem3", 524284, {9, 9, 9, 9});
  EXPECT_THROW(p->write_memory("mem3", 524285, {9, 9, 9, 9}), InputError);
  EXPECT_THROW(p->read_memory("tile_4_0", 0, 4), InputError);
  EXPECT_THROW(p->read_memory("hbm", 0, 4), InputError);
  EXPECT_THROW(p->run(RunLimits{}, TraceOptions{}), InputError);  // nothing loaded
}

}  // namespace
}  // namespace tlmcraft::aie_ml::test
