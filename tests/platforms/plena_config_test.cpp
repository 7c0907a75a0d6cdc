#include <gtest/gtest.h>

#include "platforms/plena/plena_config.h"
#include "platforms/platform.h"

namespace tlmcraft::plena {
namespace {

std::string error_of(const std::vector<std::string>& overrides) {
  try {
    load_plena_config("default", overrides);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PlenaConfig, DefaultIsTheBenchmarkConfiguration) {
  const PlenaConfig c = load_plena_config("default");
  EXPECT_EQ(c.mlen, 64u);
  EXPECT_EQ(c.vlen, 64u);
  EXPECT_EQ(c.blen, 4u);
  EXPECT_EQ(c.hlen, 16u);
  EXPECT_EQ(c.msram_elements, 16384u);
  EXPECT_EQ(c.vram_elements, 65536u);
  EXPECT_EQ(c.mode, TimingMode::Serial);
  EXPECT_EQ(c.latency_of("matrix_mm"), 64u);
  EXPECT_EQ(c.latency_of("vector_sum"), 8u);
  EXPECT_EQ(c.latency_of("map_v_fp"), 128u);  // serial: the reference's 2 x VLEN
  EXPECT_EQ(load_plena_config("default", {"timing.mode=pipelined"}).latency_of("map_v_fp"), 64u);
  EXPECT_EQ(c.serial_free_when_rd_zero.count("V_RED_SUM"), 1u);
  EXPECT_EQ(c.loop_iteration_limit, 0u);  // the reference's 10000 is opt-in (some C5 baselines exceed it)
  EXPECT_EQ(c.hbm_timing_preset, "hbm2_8gb_2gbps");
  EXPECT_EQ(c.ii_of("matrix_mm"), 4u);
  EXPECT_EQ(c.ii_of("vector_add"), 1u);
  ASSERT_EQ(c.hbm_formats.size(), 3u);
  EXPECT_EQ(c.hbm_formats[2], HbmFormat::BF16);
}

TEST(PlenaConfig, OverridesChangeAnyEntry) {
  const PlenaConfig c = load_plena_config(
      "default", {"timing.mode=pipelined", "timing.latency.vector_exp=6", "arch.mlen=128", "arch.vlen=128",
                  "memory.msram.elements=65536", "memory.hbm_formats=[bf16]"});
  EXPECT_EQ(c.mode, TimingMode::Pipelined);
  EXPECT_EQ(c.latency_of("vector_exp"), 6u);
  EXPECT_EQ(c.mlen, 128u);
  EXPECT_EQ(c.raw["timing"]["latency"]["vector_exp"], 6);
  ASSERT_EQ(c.hbm_formats.size(), 1u);
}

TEST(PlenaConfig, BadInputGetsClearErrors) {
  EXPECT_EQ(error_of({"timing.lantency.vector_exp=6"}),
            "--set 'timing.lantency.vector_exp=6': unknown key 'timing.lantency' (known here: mode, latency, "
            "serial, initiation_interval, dma, sram_bank_conflicts, quantum_cycles)");
  EXPECT_EQ(error_of({"timing.mode"}), "--set 'timing.mode': expected KEY=VALUE, e.g. timing.mode=pipelined");
  EXPECT_NE(error_of({"timing.mode=fast"}).find("timing.mode must be 'serial' or 'pipelined', got 'fast'"),
            std::string::npos);
  EXPECT_NE(error_of({"arch.blen=5"}).find("mlen % blen == 0"), std::string::npos);
  EXPECT_EQ(error_of({"arch.mlen=abc"}), "--set 'arch.mlen=abc': 'arch.mlen' must be a number, got 'abc'");
  // A value from --set is named by the --set that wrote it; one from the file by file:line:col.
  EXPECT_EQ(error_of({"arch.vlen=0"}), "--set 'arch.vlen=0': 'arch.vlen' = 0 is out of range [4, 1024]");
  const std::string e = error_of({"arch.blen=5"});
  EXPECT_NE(e.find("default.yaml:7:3: need mlen % blen == 0"), std::string::npos) << e;
  EXPECT_NE(error_of({"memory.hbm_formats=[fp4]"}).find("unknown HBM format 'fp4'"), std::string::npos);
  // A scalar where a mapping belongs (fuzz_platform_config finding: yaml-cpp's error once
  // escaped the loader and ended the process).
  EXPECT_EQ(error_of({"timing.dma=5"}), "--set 'timing.dma=5': 'timing.dma' must be a mapping");
}

TEST(PlenaConfig, MissingFileIsAnInputError) {
  try {
    load_plena_config("/nonexistent/plena.yaml");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/plena.yaml: platform config not found");
  }
}

}  // namespace
}  // namespace tlmcraft::plena
