// The system prompt's parts and their token estimates.
#include <gtest/gtest.h>

#include "agent/system_prompt.h"
#include "platforms/registry.h"

namespace tlmcraft::agent {
namespace {

TEST(SystemPrompt, TokenEstimateIsCeilBytesOverFour) {
  EXPECT_EQ(estimate_tokens(""), 0u);
  EXPECT_EQ(estimate_tokens("abcd"), 1u);
  EXPECT_EQ(estimate_tokens("abcde"), 2u);  // ceil(5 / 4)
}

TEST(SystemPrompt, DefaultBudgetsByLevel) {
  EXPECT_EQ(default_budget(1), 15);
  EXPECT_EQ(default_budget(2), 20);
  EXPECT_EQ(default_budget(3), 25);
}

TEST(SystemPrompt, PlenaPartsArePresentWithTokenCounts) {
  const SystemPrompt p = build_system_prompt({{"plena", "silu", "C1"}, "default", {}, 0});
  std::vector<std::string> names;
  for (const auto& part : p.parts) {
    names.push_back(part.name);
    EXPECT_FALSE(part.text.empty()) << part.name;
    EXPECT_EQ(part.tokens, (part.text.size() + 3) / 4) << part.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"role", "task", "isa", "hardware", "layout", "budget"}));
  const auto part = [&](const std::string& n) { return p.parts[size_t(std::find(names.begin(), names.end(), n) - names.begin())].text; };
  EXPECT_EQ(part("task").rfind("Task silu (level 1): SiLU activation", 0), 0u);
  EXPECT_NE(part("isa").find("V_EXP_V"), std::string::npos);           // generated from the ISA YAML
  EXPECT_NE(part("isa").find("64 cycles"), std::string::npos);         // matrix_mm latency note from the config
  EXPECT_NE(part("hardware").find("timing mode serial"), std::string::npos);
  EXPECT_NE(part("hardware").find("vlen: 64"), std::string::npos);
  EXPECT_EQ(part("task").find(part("layout")), std::string::npos);    // the layout is not repeated in the task part
  EXPECT_EQ(part("budget").rfind("You have 15 tool rounds", 0), 0u);   // level 1
  const std::string text = p.text();
  EXPECT_NE(text.find("## ISA reference\n\n"), std::string::npos);
  EXPECT_NE(text.find("## Memory layout\n\n"), std::string::npos);
  size_t sum = 0;
  for (const auto& x : p.parts) sum += x.tokens;
  EXPECT_EQ(p.tokens(), sum);
}

TEST(SystemPrompt, BudgetOverrideAndUnknownWorkload) {
  const SystemPrompt p = build_system_prompt({{"plena", "gemm", "C1"}, "default", {}, 40});
  EXPECT_EQ(p.parts.back().text.rfind("You have 40 tool rounds", 0), 0u);
  EXPECT_ANY_THROW(build_system_prompt({{"plena", "nosuch", "C1"}, "default", {}, 0}));
}

TEST(SystemPrompt, CoralUsesTheRiscvReference) {
  const auto names = platform_names();
  if (std::find(names.begin(), names.end(), "coral") == names.end()) GTEST_SKIP() << "coral platform not built";
  const SystemPrompt p = build_system_prompt({{"coral", "relu", "C1"}, "default", {}, 0});
  EXPECT_NE(p.parts[2].text.find("RISC-V"), std::string::npos);
  EXPECT_EQ(p.parts[4].text.rfind("Coral memory layout for task relu", 0), 0u) << p.parts[4].text;
  EXPECT_EQ(p.parts[1].text.find("Coral memory layout"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::agent
