// Overrides the active configuration ignores are warned about (issue 22, item 7): PLENA's
// serial timing (the default) does not use the DMA queue model, so a sweep over
// timing.dma.prefetch.bytes_per_cycle gave 1.000x on every cell with no word of why.
#include "harness/inert_settings.h"

#include <cstdlib>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "harness/report_text.h"
#include "platforms/registry.h"

namespace tlmcraft::harness {
namespace {

using nlohmann::json;

json config(const std::string& mode) {
  return {{"timing", {{"mode", mode}, {"dma", {{"prefetch", {{"bytes_per_cycle", 64}}}}}}},
          {"inert_settings", json::parse(R"([{"when": {"timing.mode": "serial"}, "keys": ["timing.dma", "timing.sram_bank_conflicts"]},
                                             {"when": {"timing.mode": "pipelined"}, "keys": ["timing.serial"]}])")}};
}

TEST(InertSettings, AKeyUnderAListedKeyWarnsOnlyInItsMode) {
  const std::vector<std::string> set = {"timing.dma.prefetch.bytes_per_cycle=32", "timing.latency.vector_exp=6",
                                        "timing.dmax=1", "timing.serial.latency.map_v_fp=64"};
  EXPECT_EQ(inert_setting_warnings(config("serial"), set),
            std::vector<std::string>{"--set timing.dma.prefetch.bytes_per_cycle has no effect: timing.dma is not used "
                                     "while timing.mode is serial"});
  EXPECT_EQ(inert_setting_warnings(config("pipelined"), set),
            std::vector<std::string>{"--set timing.serial.latency.map_v_fp has no effect: timing.serial is not used "
                                     "while timing.mode is pipelined"});
  EXPECT_TRUE(inert_setting_warnings(json{{"timing", {{"mode", "serial"}}}}, set).empty());  // no rules: no warnings
}

// End to end on PLENA's shipped config: the report carries the warning and its text shows it.
TEST(InertSettings, PlenaSerialRunWarnsAboutTheDmaBandwidth) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  for (const std::string mode : {"serial", "pipelined"}) {
    EvalOptions o;
    o.platform = "plena";
    o.overrides = {"timing.mode=" + mode, "timing.dma.prefetch.bytes_per_cycle=32"};
    o.task = "silu";
    o.config = "C1";
    o.use_baseline = true;
    o.trials = 1;
    o.seed = 1;
    auto p = make_platform("plena", "default", o.overrides);
    const json rep = evaluate(*p, o);
    ASSERT_EQ(rep["status"], "pass") << rep["reason"];
    if (mode == "serial") {
      ASSERT_TRUE(rep.contains("warnings"));
      EXPECT_EQ(rep["warnings"], json::array({"--set timing.dma.prefetch.bytes_per_cycle has no effect: timing.dma is "
                                              "not used while timing.mode is serial"}));
      EXPECT_NE(format_report_text(rep).find("\n  warning: --set timing.dma.prefetch.bytes_per_cycle has no effect"),
                std::string::npos);
    } else {
      EXPECT_FALSE(rep.contains("warnings")) << rep["warnings"];
    }
  }
}

}  // namespace
}  // namespace tlmcraft::harness
