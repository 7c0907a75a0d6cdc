// Platform packs register their layouts and baselines (tasks/layout_registry.h,
// tasks/baselines/baseline.h); the registries refuse a second or an empty registration.
#include <gtest/gtest.h>

#include "tasks/baselines/baseline.h"
#include "tasks/layout_registry.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(PackRegistry, EveryPlatformsPackRegisteredItsLayout) {
  for (PlatformId p : all_platforms()) {
    EXPECT_TRUE(has_layout(p)) << platform_name(p);
    ASSERT_NE(find_layout(p), nullptr) << platform_name(p);
  }
  // Only the platform whose poison byte is a valid value resolves unwritten flags.
  EXPECT_TRUE(find_layout(PlatformId("coral"))->resolve_unwritten);
  EXPECT_FALSE(find_layout(PlatformId("plena"))->resolve_unwritten);
  EXPECT_FALSE(find_layout(PlatformId("aie_ml"))->resolve_unwritten);
}

TEST(PackRegistry, LayoutComesFromThePlatformsFactory) {
  const Instance inst = Registry::builtin().instance("relu", "aie_ml", "C1");
  EXPECT_EQ(inst.layout()->platform(), PlatformId("aie_ml"));
}

TEST(PackRegistry, ASecondOrEmptyLayoutRegistrationIsRefused) {
  find_layout(PlatformId("plena"));  // the packs are registered
  LayoutRegistration again{[](const TaskSpec&, const Params&) { return std::unique_ptr<PlatformLayout>(); }, nullptr};
  EXPECT_EQ(error_of([&] { register_layout(PlatformId("plena"), again); }), "platform plena registered a layout twice");
  EXPECT_EQ(error_of([] { register_layout(PlatformId("coral"), {}); }), "layout registration for coral has no factory");
}

TEST(PackRegistry, BaselineExtensionComesFromTheRegistration) {
  EXPECT_EQ(baseline_file_name(Registry::builtin().instance("relu", "coral", "C1")), "baseline_relu_C1.c");
  EXPECT_EQ(baseline_file_name(Registry::builtin().instance("relu", "plena", "C2")), "baseline_relu_C2.asm");
  EXPECT_EQ(baseline_file_name(Registry::builtin().instance("relu", "aie_ml", "C3")), "baseline_relu_C3.asm");
}

TEST(PackRegistry, ASecondOrIncompleteBaselineRegistrationIsRefused) {
  has_baseline(Registry::builtin().instance("relu", "plena", "C1"));  // the packs are registered
  BaselineRegistration again{[](const std::string&) { return true; },
                             [](const Instance&, const nlohmann::json&) { return std::string(); }, ".asm"};
  EXPECT_EQ(error_of([&] { register_baselines(PlatformId("aie_ml"), again); }),
            "platform aie_ml registered baselines twice");
  again.extension.clear();
  EXPECT_EQ(error_of([&] { register_baselines(PlatformId("aie_ml"), again); }),
            "baseline registration for aie_ml needs has, kernel and extension");
}

}  // namespace
}  // namespace tlmcraft::tasks
