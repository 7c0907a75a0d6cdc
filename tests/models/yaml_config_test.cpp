#include <gtest/gtest.h>

#include <fstream>

#include "models/dma_engine.h"
#include "models/dram.h"
#include "models/scratchpad.h"
#include "models/yaml_config.h"

namespace tlmcraft::models {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(YamlConfig, ParsesSizes) {
  EXPECT_EQ(parse_size("4096", "x"), 4096u);
  EXPECT_EQ(parse_size("0x1000", "x"), 4096u);
  EXPECT_EQ(parse_size("64KiB", "x"), 65536u);
  EXPECT_EQ(parse_size("8GiB", "x"), 8ull << 30);
  EXPECT_NE(error_of([] { parse_size("12 apples", "cfg.yaml:3: key 'size'"); }).find("cfg.yaml:3: key 'size'"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_size("-1", "k"); }).find("non-negative"), std::string::npos);
  EXPECT_NE(error_of([] { parse_size("20000000TiB", "k"); }).find("does not fit"), std::string::npos);
}

TEST(YamlConfig, ScratchpadFromYaml) {
  const YAML::Node n = YAML::Load(
      "name: vram\nsize_bytes: 128KiB\nword_bytes: 128\nbanks: 4\nports_per_bank: 2\n"
      "read_latency: 2\nwrite_latency: 3\nclock_period_ns: 0.5\n");
  const ScratchpadConfig c = ScratchpadConfig::from_yaml(n, "vram.yaml");
  EXPECT_EQ(c.name, "vram");
  EXPECT_EQ(c.size_bytes, 131072u);
  EXPECT_EQ(c.word_bytes, 128u);
  EXPECT_EQ(c.banks, 4u);
  EXPECT_EQ(c.ports_per_bank, 2u);
  EXPECT_EQ(c.read_latency, 2u);
  EXPECT_EQ(c.write_latency, 3u);
  EXPECT_EQ(c.clock_period, sc_core::sc_time(500, sc_core::SC_PS));
}

TEST(YamlConfig, ErrorsNameSourceLineAndKey) {
  // Typo on line 3 must not silently fall back to a default.
  const YAML::Node typo = YAML::Load("size_bytes: 1024\nbanks: 2\nread_latncy: 4\n");
  EXPECT_EQ(error_of([&] { ScratchpadConfig::from_yaml(typo, "spad.yaml"); }), "spad.yaml:3: unknown key 'read_latncy'");
  const YAML::Node bad = YAML::Load("size_bytes: 1024\nbanks: many\n");
  EXPECT_NE(error_of([&] { ScratchpadConfig::from_yaml(bad, "spad.yaml"); }).find("spad.yaml:2: key 'banks'"),
            std::string::npos);
  const YAML::Node missing = YAML::Load("banks: 2\n");
  EXPECT_NE(error_of([&] { ScratchpadConfig::from_yaml(missing, "spad.yaml"); }).find("missing required key 'size_bytes'"),
            std::string::npos);
  const YAML::Node zero = YAML::Load("size_bytes: 1024\nbanks: 0\n");
  EXPECT_NE(error_of([&] { ScratchpadConfig::from_yaml(zero, "spad.yaml"); }).find("banks must be at least 1"),
            std::string::npos);
  const YAML::Node dram = YAML::Load("granule_bytes: 64\ninterleave_bytes: 96\n");
  EXPECT_NE(error_of([&] { DramConfig::from_yaml(dram, "d.yaml"); }).find("multiple of granule_bytes"),
            std::string::npos);
  const YAML::Node clk = YAML::Load("clock_period_ns: 0.0005\n");
  EXPECT_NE(error_of([&] { DmaConfig::from_yaml(clk, "dma.yaml"); }).find("whole number of picoseconds"),
            std::string::npos);
  EXPECT_NE(error_of([] { DramConfig::from_yaml_file("/nonexistent/hbm.yaml"); }).find("/nonexistent/hbm.yaml: cannot open"),
            std::string::npos);
}

TEST(YamlConfig, Hbm2PresetHasDocumentedValues) {
  const DramConfig c = DramConfig::from_yaml_file(TLMCRAFT_SOURCE_DIR "/models/presets/hbm2.yaml");
  EXPECT_EQ(c.channels, 8u);
  EXPECT_EQ(c.banks_per_channel, 16u);
  EXPECT_EQ(c.row_bytes, 2048u);
  EXPECT_EQ(c.granule_bytes, 64u);
  EXPECT_EQ(c.interleave_bytes, 64u);
  EXPECT_EQ(c.tRCD, 14u);
  EXPECT_EQ(c.tCL, 14u);
  EXPECT_EQ(c.tRP, 14u);
  EXPECT_EQ(c.tRAS, 0u);
  EXPECT_EQ(c.burst_cycles, 2u);
  EXPECT_EQ(c.capacity_bytes, 8ull << 30);
  EXPECT_EQ(c.clock_period, sc_core::sc_time(1, sc_core::SC_NS));
}

}  // namespace
}  // namespace tlmcraft::models
