// The tables compiled into PLENA's semantics (isa/plena/opcodes.h, the register files of
// isa/plena/state.h) agree with isa/plena/plena.yaml in both directions, and a
// description that disagrees is named line by line (`tlmcraft isa check` runs this too).
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "isa/plena/opcodes.h"
#include "platforms/plena/plena_isa_tools.h"

namespace tlmcraft::plena {
namespace {

std::string plena_yaml() {
  std::ifstream in(std::string(TLMCRAFT_SOURCE_DIR) + "/isa/plena/plena.yaml");
  std::ostringstream o;
  o << in.rdbuf();
  return o.str();
}

void replace_once(std::string& s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  s.replace(at, from.size(), to);
}

TEST(PlenaIsaTables, ShippedYamlMatchesTheCompiledTables) {
  const isa::IsaSpec spec = isa::IsaSpec::parse(plena_yaml(), "plena.yaml");
  EXPECT_TRUE(compiled_table_mismatches(spec).empty());
  // Every YAML instruction is in the compiled table and vice versa, same numbers.
  EXPECT_EQ(spec.instructions().size(), size_t(isa::plena::kMaxOpcode));
  for (const auto& ins : spec.instructions()) EXPECT_STREQ(isa::plena::mnemonic(ins.opcode), ins.mnemonic.c_str());
}

TEST(PlenaIsaTables, DisagreementsAreNamed) {
  std::string y = plena_yaml();
  replace_once(y, "  - mnemonic: V_EXP_V\n    opcode: 0x13", "  - mnemonic: V_EXP_V\n    opcode: 0x3A");
  replace_once(y, "{name: fp, prefix: f, count: 8,", "{name: fp, prefix: f, count: 16,");
  const isa::IsaSpec spec = isa::IsaSpec::parse(y, "p.yaml");
  const std::vector<std::string> m = compiled_table_mismatches(spec);
  const size_t line = spec.find("V_EXP_V")->line;
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0], "opcode 0x13 (V_EXP_V in isa/plena/opcodes.h) is not in the YAML");
  EXPECT_EQ(m[1], "p.yaml:" + std::to_string(line) +
                      ": V_EXP_V (opcode 0x3a) has no semantics: add it to isa/plena/opcodes.h and semantics_*.cpp, "
                      "or give it compose: or semantics: (docs/isa-extensions.md)");
  EXPECT_EQ(m[2], "register class 'fp' has 16 registers, the semantics 8");
}

}  // namespace
}  // namespace tlmcraft::plena
