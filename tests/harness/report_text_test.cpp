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

}  // namespace
}  // namespace tlmcraft
