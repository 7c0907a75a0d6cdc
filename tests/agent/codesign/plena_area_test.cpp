// PLENA's codesign adapter prices an overlay with the platform's area model
// (platforms/plena/plena_area.h): the same figures `isa check` prints, derived in
// tests/platforms/plena_area_test.cpp, on a 64-lane vector unit (the hardware default).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>

#include "agent/codesign/kernel_dataflow.h"
#include "agent/codesign/overlay_yaml.h"

namespace tlmcraft::agent::codesign {
namespace {

nlohmann::json example(const std::string& file) {
  return json_of_yaml(YAML::LoadFile(std::string(TLMCRAFT_SOURCE_DIR) + "/examples/isa_ext/plena/" + file));
}

// Composed V_SILU_V: a second adder per lane (64 x 1360 um2) and four 16-bit temps
// (4 x 64 x 16 x (4.522 + 1.862) um2) = 113188.864 um2.
TEST(PlenaCodesignArea, ComposedOverlayIsPricedFromItsSteps) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  EXPECT_NEAR(a->overlay_area(example("silu_composed.yaml"), nlohmann::json::object()), 113188.864e-6, 1e-12);
}

// `semantics: rd = silu(rs1)`: (exp 6000 + add 1360 + reciprocal 4640 + multiply 1640) um2
// per lane x 64 lanes = 872960 um2, no declared area needed.
TEST(PlenaCodesignArea, SemanticsOverlayIsPricedFromItsExpression) {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  ASSERT_NE(a, nullptr);
  EXPECT_NEAR(a->overlay_area(example("silu_semantics.yaml"), nlohmann::json::object()), 872960e-6, 1e-12);
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
