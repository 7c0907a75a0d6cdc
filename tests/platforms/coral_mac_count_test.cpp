// Coral's vector MACs by element width: one per element below vl of a multiply-class
// instruction (vmul, vmacc, vwmacc, ...) at its (source) element width, reported as
// macs_by_format for the energy table (docs/energy-area.md).
#include "tests/platforms/coral_test_util.h"

namespace tlmcraft::coral {
namespace {

TEST(CoralMacCount, VectorMultipliesCountTheirElementsByWidth) {
  const std::string src =
      "  .text\n  .globl main\nmain:\n"
      "  vsetivli t0, 16, e8, m1, ta, ma\n"
      "  vmul.vv v1, v2, v3\n"      // 16 int8
      "  vadd.vv v1, v2, v3\n"      // no multiply
      "  vsetivli t0, 5, e16, m1, ta, ma\n"
      "  vmacc.vv v1, v2, v3\n"     // 5 int16
      "  vwmacc.vv v4, v2, v3\n"    // 5 int16 (widening: the width it multiplies)
      "  vsetivli t0, 4, e32, m1, ta, ma\n"
      "  vmul.vx v1, v2, a0\n"      // 4 int32
      "  ret\n";
  CoralPlatform p = testing::make_platform();
  const isa::Program prog = testing::build(p, src);
  p.load(prog);
  const RunResult r = p.run({}, {});
  ASSERT_EQ(r.stop, StopReason::Halted) << r.message;
  const std::map<std::string, uint64_t> want = {{"int16", 10}, {"int32", 4}, {"int8", 16}};
  EXPECT_EQ(r.macs_by_format, want);
}

TEST(CoralMacCount, AScalarProgramReportsEveryWidthAsZero) {
  CoralPlatform p = testing::make_platform();
  p.load(testing::build(p, "  .text\n  .globl main\nmain:\n  mul a0, a0, a0\n  ret\n"));
  const RunResult r = p.run({}, {});
  ASSERT_EQ(r.stop, StopReason::Halted) << r.message;
  const std::map<std::string, uint64_t> want = {{"int16", 0}, {"int32", 0}, {"int8", 0}};
  EXPECT_EQ(r.macs_by_format, want);
}

}  // namespace
}  // namespace tlmcraft::coral
