// AIE-ML bundle compaction on kernel text: exact text in, exact text out, and refusals.
#include <gtest/gtest.h>

#include "agent/search/aie_analysis.h"
#include "agent/search/aie_kernel.h"
#include "agent/search/aie_schedule.h"

namespace tlmcraft::agent::search::aie {
namespace {

std::string compacted(const std::string& text, CompactStats* stats = nullptr) {
  AieKernel k;
  std::string error;
  EXPECT_TRUE(parse_aie_kernel(text, k, error)) << error;
  compact(k, stats);
  return print_aie_kernel(k);
}

TEST(AieCompaction, Smoke) {
  const std::string in =
      "  MOVXM r0, 458752\n"
      "  MOVXM r1, 475136\n"
      "  VCLR x2\n"
      "  MOV p0, r0\n"
      "  MOV p1, r1\n"
      "  MOVXM ls, top\n"
      "  MOVXM le, end\n"
      "  MOVXM lc, 16\n"
      "top:\n"
      "  VLDA w0, [p0], #32\n"
      "  VMAX.BF16 x1, x0, x2\n"
      "end:\n"
      "  VST w2, [p1], #32\n"
      "  DONE\n";
  std::cout << compacted(in);
}

}  // namespace
}  // namespace tlmcraft::agent::search::aie
