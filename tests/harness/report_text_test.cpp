// The text form of an evaluation report (what `tlmcraft run` prints without --json).
#include <gtest/gtest.h>

#include "harness/report_text.h"

namespace tlmcraft {
namespace {

TEST(ReportText, ListsThePhasesOfAMultiPhaseKernelBeforeItsUnits) {
  const nlohmann::json report = {
      {"platform", "aie_ml"},
      {"task", "llama_decoder"},
      {"config", "C1"},
      {"status", "pass"},
      {"cycles", 3100},
      {"instructions", 40},
      {"memory",
       {{"phases",
         {{{"name", "norm_attn"}, {"start_cycle", 0}, {"end_cycle", 2100}},
          {{"name", "self_q"}, {"start_cycle", 2600}, {"end_cycle", 3100}}}}}},
      {"units", {{{"name", "tile(0,0).core"}, {"busy_cycles", 310}, {"utilisation", 0.1}}}}};
  EXPECT_EQ(format_report_text(report),
            "aie_ml / llama_decoder / C1: pass\n"
            "  cycles:       3100\n"
            "  instructions: 40\n"
            "  phase norm_attn          cycles 0 .. 2100 (2100)\n"
            "  phase self_q             cycles 2600 .. 3100 (500)\n"
            "  unit tile(0,0).core busy 310 (10.0%)\n");
}

TEST(ReportText, SinglePhaseReportsHaveNoPhaseLines) {
  const nlohmann::json report = {{"platform", "plena"}, {"task", "silu"}, {"config", "C1"}, {"status", "pass"},
                                 {"cycles", 138},      {"instructions", 12}, {"memory", {{"hbm", {{"reads", 2}}}}}};
  EXPECT_EQ(format_report_text(report).find("phase"), std::string::npos);
}

TEST(ReportText, ShowsTheEnergyAreaAndRooflineEstimates) {
  const nlohmann::json report = {
      {"platform", "plena"}, {"task", "gemv"}, {"config", "C1"}, {"status", "pass"}, {"cycles", 100},
      {"instructions", 5},
      {"energy", {{"total_pj", 2500.0}, {"average_power_mw", 25.0}, {"by_component", {{"hbm", 2000.0}, {"matrix", 500.0}}},
                  {"unpriced_actions", {"vector.tanh.bf16"}}}},
      {"area", {{"total_mm2", 1.065}}},
      {"roofline", {{"ops_per_cycle", 9.5}, {"peak_ops_per_cycle", 96.0}, {"fraction_of_peak", 0.099},
                    {"offchip_bytes_per_cycle", 22.0}, {"bound", "memory"}}}};
  const std::string text = format_report_text(report);
  EXPECT_NE(text.find("  energy:       2.5 nJ, 25.0 mW (estimate; hbm 2.0 matrix 0.5 nJ)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  warning:      actions without a price in ppa.energy (not in the energy): vector.tanh.bf16\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  area:         1.065 mm2 (estimate)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  roofline:     9.50 ops/cycle of 96.00 peak (9.9%), 22.00 off-chip bytes/cycle, memory bound\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace tlmcraft
