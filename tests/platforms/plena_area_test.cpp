// The datapath area a PLENA instruction added by data adds (platforms/plena/plena_area.h),
// from the [H14]/[N45] 45 nm operator table (isa/operator_area.h), on the default
// 64-lane vector unit, derived here by hand.
#include "platforms/plena/plena_area.h"

#include <gtest/gtest.h>

#include <string>

#include "isa/isa_spec.h"

namespace tlmcraft::plena {
namespace {

isa::IsaSpec with_overlay(const std::string& file) {
  const std::string src = TLMCRAFT_SOURCE_DIR;
  return isa::IsaSpec::load(src + "/isa/plena/plena.yaml", {src + "/examples/isa_ext/plena/" + file});
}

// V_SILU_V (compose: SUB, EXP, ADD, RECI, MUL over 4 temps) chains the vector unit's
// existing adder, exp, reciprocal and multiplier; the adder is used twice, so one more
// bf16 adder per lane: 64 x 1360 = 87040 um2. Each temp is a 16-bit pipeline register
// with a bypass multiplexer per lane: 4 x 64 x 16 x (4.522 + 1.862) = 26148.864 um2.
// Total 113188.864 um2.
TEST(PlenaArea, ComposedSiluAddsOneAdderAndFourPipelineRegisters) {
  const isa::IsaSpec spec = with_overlay("silu_composed.yaml");
  EXPECT_NEAR(plena_added_area_mm2(spec, *spec.find("V_SILU_V"), 64), 113188.864e-6, 1e-12);
}

// V_SILU (`semantics: rd = silu(rs1)`): silu = exp + add + reciprocal + multiply per lane
// (isa/actions.cpp), all new datapath. bf16 is priced as fp16: exp = 2 multipliers + 2
// adders = 2 x 1640 + 2 x 1360 = 6000, adder 1360, reciprocal = 2 x 1640 + 1360 = 4640,
// multiplier 1640: 13640 um2 per lane, x 64 lanes = 872960 um2.
TEST(PlenaArea, SemanticsSiluIsItsExpressionsOperatorsOnEveryLane) {
  const isa::IsaSpec spec = with_overlay("silu_semantics.yaml");
  EXPECT_NEAR(plena_added_area_mm2(spec, *spec.find("V_SILU"), 64), 872960e-6, 1e-12);
  // Twice the lanes, twice the datapath.
  EXPECT_NEAR(plena_added_area_mm2(spec, *spec.find("V_SILU"), 128), 2 * 872960e-6, 1e-12);
}

// A built-in instruction adds nothing.
TEST(PlenaArea, BuiltInInstructionAddsNoArea) {
  const isa::IsaSpec spec = with_overlay("silu_semantics.yaml");
  EXPECT_EQ(plena_added_area_mm2(spec, *spec.find("V_EXP_V"), 64), 0.0);
}

}  // namespace
}  // namespace tlmcraft::plena
