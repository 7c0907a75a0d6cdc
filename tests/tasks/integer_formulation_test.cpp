// The registry of integer formulations (tasks/integer_formulation.h): a platform's
// numerics policy selects a formulation by name, shared code finds references,
// constants and tables through it, and bad registrations are refused with the cause.
#include <gtest/gtest.h>

#include "tasks/integer_formulation.h"
#include "tasks/numerics.h"
#include "tasks/reference/reference.h"

namespace tlmcraft::tasks {
namespace {

std::string registration_error(const std::string& name, IntegerFormulation f) {
  try {
    register_integer_formulation(name, std::move(f));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(IntegerFormulation, PlatformsSelectTheirsThroughTheirNumerics) {
  const IntegerFormulation* coral = platform_integer_formulation(PlatformId("coral"));
  ASSERT_NE(coral, nullptr);
  EXPECT_EQ(coral, find_integer_formulation("coral_int8"));
  // relu .. conv_block, the five attention tasks, rope and the two decoders: every task Coral supports
  EXPECT_EQ(coral->references.size(), 23u);
  EXPECT_EQ(platform_integer_formulation(PlatformId("plena")), nullptr);  // float references
  EXPECT_EQ(find_integer_formulation("no_such_formulation"), nullptr);
  EXPECT_TRUE(has_reference("gemm", PlatformId("coral")));
  EXPECT_TRUE(has_reference("rope", PlatformId("coral")));
  EXPECT_FALSE(has_reference("multiply", PlatformId("coral")));  // a CPU program: its reference is not an int8 formulation
}

TEST(IntegerFormulation, ConstantsComeFromTheSelectedFormulation) {
  const Params gemm{{"M", 4}, {"K", 64}, {"N", 4}};
  const auto shifts = integer_constants(PlatformId("coral"), "gemm", gemm);
  ASSERT_EQ(shifts.size(), 1u);
  EXPECT_EQ(shifts[0].name, "shift");
  EXPECT_EQ(shifts[0].value, 10);  // round(log2(73.9^2 * 8 / 32)) = round(10.41)
  EXPECT_TRUE(integer_constants(PlatformId("plena"), "gemm", gemm).empty());
  EXPECT_TRUE(integer_constants(PlatformId("coral"), "relu", {{"n", 4}}).empty());
}

TEST(IntegerFormulation, TablesAreFoundByName) {
  const std::vector<std::string> names{"exp_q15", "gelu_lut", "silu_lut"};
  EXPECT_EQ(lookup_table_names(), names);
  EXPECT_EQ(lookup_table("exp_q15").size(), 256u);
  EXPECT_EQ(lookup_table("exp_q15")[0], 32767);
}

TEST(IntegerFormulation, BadRegistrationsAreRefusedNamingTheCause) {
  EXPECT_EQ(registration_error("", {}), "an integer formulation needs a name");
  EXPECT_EQ(registration_error("coral_int8", {}), "integer formulation 'coral_int8' is registered twice");
  IntegerFormulation clash;
  clash.tables["gelu_lut"] = [] { return std::vector<int64_t>(256, 0); };
  EXPECT_EQ(registration_error("mine", clash),
            "integer formulation 'mine' registers table 'gelu_lut', which formulation 'coral_int8' already registered");
  IntegerFormulation empty_table;
  empty_table.tables["my_lut"] = nullptr;
  EXPECT_EQ(registration_error("mine", empty_table), "integer formulation 'mine': table 'my_lut' has no function");
  // Nothing of a refused registration stays behind.
  EXPECT_EQ(find_integer_formulation("mine"), nullptr);
  EXPECT_EQ(lookup_table_names().size(), 3u);
}

TEST(IntegerFormulation, APolicyNamingAnUnregisteredFormulationIsAnError) {
  const PlatformId p("formulation_test_platform");
  register_numerics(p, {"int8", "int8", /*stage_bf16=*/false, /*integer_formulation=*/"int4_nowhere"});
  try {
    platform_integer_formulation(p);
    FAIL() << "an unregistered formulation was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "platform 'formulation_test_platform' selects integer formulation 'int4_nowhere', which nobody "
                 "registered (tasks::register_integer_formulation)");
  }
}

}  // namespace
}  // namespace tlmcraft::tasks
