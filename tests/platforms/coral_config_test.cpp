// Coral configuration: the default YAML, --set overrides, and errors that name the key.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "platforms/coral/coral_config.h"
#include "platforms/platform.h"
#include "platforms/registry.h"

namespace tlmcraft::coral {
namespace {

std::string error_of(const std::vector<std::string>& overrides, const std::string& file = "default") {
  try {
    load_coral_config(file, overrides);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CoralConfig, DefaultMatchesTheCoralNpu) {
  const CoralConfig c = load_coral_config();
  EXPECT_EQ(c.name, "default");
  EXPECT_EQ(c.itcm_bytes, 8192u);
  EXPECT_EQ(c.dtcm_bytes, 32768u);
  EXPECT_EQ(c.ext_base, 0x20000000u);
  EXPECT_EQ(c.ext_bytes, 4u << 20);
  EXPECT_EQ(c.axi.bytes_per_cycle, 16u);  // 128-bit AXI
  EXPECT_EQ(c.vector.command_queue, 16u);  // rvv_backend_define.svh: CQ_DEPTH
  EXPECT_EQ(c.vector.uop_queue, 16u);      // UQ_DEPTH
  EXPECT_EQ(c.vector.rob, 8u);             // ROB_DEPTH
  EXPECT_EQ(c.scalar.retirement_buffer, 8u);
  EXPECT_EQ(c.vector.alu_units, 2u);
  EXPECT_EQ(c.vector.mul_units, 2u);
  EXPECT_FALSE(c.dma.enabled);
  EXPECT_EQ(c.raw["memory"]["axi"]["read_latency"], 24);
}

TEST(CoralConfig, OverridesReplaceEntries) {
  const CoralConfig c = load_coral_config("default", {"memory.axi.read_latency=40", "dma.enabled=true", "scalar.mul.latency=3"});
  EXPECT_EQ(c.axi.read_latency, 40u);
  EXPECT_TRUE(c.dma.enabled);
  EXPECT_EQ(c.scalar.mul_latency, 3u);
  EXPECT_EQ(c.raw["memory"]["axi"]["read_latency"], 40);
}

TEST(CoralConfig, BadOverridesNameTheKey) {
  EXPECT_NE(error_of({"memory.axi.bogus=1"}).find("unknown key 'memory.axi.bogus' (known here: read_latency, write_latency, bytes_per_cycle)"),
            std::string::npos)
      << error_of({"memory.axi.bogus=1"});
  EXPECT_NE(error_of({"memory.axi.read_latency"}).find("expected KEY=VALUE"), std::string::npos);
  EXPECT_NE(error_of({"scalar.dispatch_width=0"}).find("'scalar.dispatch_width' = 0 is out of range [1, 8]"), std::string::npos)
      << error_of({"scalar.dispatch_width=0"});
  EXPECT_NE(error_of({"scalar.mul.latency=fast"}).find("'scalar.mul.latency' must be a number, got 'fast'"), std::string::npos)
      << error_of({"scalar.mul.latency=fast"});
  EXPECT_NE(error_of({"scalar.fetch_line_bytes=24"}).find("power of two"), std::string::npos);
}

TEST(CoralConfig, OverlappingRegionsAreRejected) {
  const std::string e = error_of({"dma.enabled=true", "dma.base=0x10000"});
  EXPECT_NE(e.find("memory regions 'dtcm' and 'dma' overlap"), std::string::npos) << e;
}

TEST(CoralConfig, FileErrorsNameFileAndLine) {
  namespace fs = std::filesystem;
  const fs::path f = fs::temp_directory_path() / ("coral_cfg_" + std::to_string(::getpid()) + ".yaml");
  {
    std::ifstream in(coral_config_path("default"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.replace(text.find("  dispatch_width: 4"), 19, "  dispatch_width: 4\n  dispach_width: 4");
    std::ofstream(f) << text;
  }
  const std::string e = error_of({}, f.string());
  EXPECT_NE(e.find(f.string() + ":"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown key 'scalar.dispach_width'"), std::string::npos) << e;
  fs::remove(f);
  EXPECT_NE(error_of({}, "/nonexistent/coral.yaml").find("platform config not found"), std::string::npos);
}

TEST(CoralConfig, RegistryBuildsTheCoralPlatform) {
  const auto p = make_platform("coral", "default", {"memory.axi.read_latency=30"});
  EXPECT_EQ(p->name(), "coral");
  const auto j = p->config();
  EXPECT_EQ(j["memory"]["axi"]["read_latency"], 30);
  EXPECT_EQ(j["clock_ns"], 1.0);
  ASSERT_TRUE(j["kernel_contract"].is_array());
  EXPECT_NE(j["kernel_contract"][1].get<std::string>().find("mpause"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::coral
