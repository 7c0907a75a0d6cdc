// End to end with yaml-cpp: the position yaml-cpp gives a `semantics:` scalar, through
// locate_yaml_scalar, makes an error inside the text name its true line and column in
// the file (1-based, counted by hand below).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "tests/isa/extension/test_support.h"

namespace tlmcraft::isa::extension::test {
namespace {

std::string error_at_node(const std::string& yaml, const YAML::Node& node) {
  const SourceLocation where = locate_yaml_scalar(yaml, node.Mark().line, node.Mark().column, "ov.yaml");
  return error_of(node.as<std::string>(), vector_operands(), where);
}

TEST(SemanticsYamlLocation, LiteralBlock) {
  // Line 4 is "      s = sigmoid(rs1)", line 5 "      rd = rs1 + gp2": the text starts
  // at column 7 and its '+' is text column 9, so file column 16 of line 5.
  const std::string yaml =
      "instructions:\n"
      "  - mnemonic: V_X\n"
      "    semantics: |\n"
      "      s = sigmoid(rs1)\n"
      "      rd = rs1 + gp2\n";
  const YAML::Node root = YAML::Load(yaml);
  EXPECT_EQ(error_at_node(yaml, root["instructions"][0]["semantics"]),
            "ov.yaml:5:16: cannot add vector<bf16> and u32; convert with bf16(...)");
}

TEST(SemanticsYamlLocation, LiteralBlockWithABlankFirstLineAndChompIndicator) {
  // "|-" then a blank line 3; the text's second line is file line 4, indented by 4:
  // "    rd = exp(rs1, rs1)", exp at column 10.
  const std::string yaml =
      "- mnemonic: V_X\n"
      "  semantics: |-\n"
      "\n"
      "    rd = exp(rs1, rs1)\n";
  const YAML::Node root = YAML::Load(yaml);
  EXPECT_EQ(error_at_node(yaml, root[0]["semantics"]), "ov.yaml:4:10: exp takes 1 argument, got 2");
}

TEST(SemanticsYamlLocation, QuotedAndPlainScalars) {
  // Line 1: `semantics: "rd = rs1 + gp2"`: the quote is column 12, the text starts at
  // 13, its '+' (text column 9) is column 22. Line 2 plain from column 10: '+' at 19.
  const std::string yaml =
      "quoted:    \"rd = rs1 + gp2\"\n"
      "plain:   rd = rs1 + gp2\n";
  const YAML::Node root = YAML::Load(yaml);
  EXPECT_EQ(error_at_node(yaml, root["quoted"]), "ov.yaml:1:22: cannot add vector<bf16> and u32; convert with bf16(...)");
  EXPECT_EQ(error_at_node(yaml, root["plain"]), "ov.yaml:2:19: cannot add vector<bf16> and u32; convert with bf16(...)");
}

}  // namespace
}  // namespace tlmcraft::isa::extension::test
