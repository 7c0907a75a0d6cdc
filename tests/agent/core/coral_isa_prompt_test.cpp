// The Coral system prompt and grep_docs use the kernel writer's reference docs/isa/coral.md
// (not the ISS internals in docs/isa/riscv*.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "agent/docs_index.h"
#include "agent/system_prompt.h"
#include "platforms/registry.h"

namespace tlmcraft::agent {
namespace {

std::string committed_coral_md() {
  std::ifstream in(std::string(TLMCRAFT_SOURCE_DIR) + "/docs/isa/coral.md", std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool coral_built() {
  const auto names = platform_names();
  return std::find(names.begin(), names.end(), "coral") != names.end();
}

TEST(CoralIsaReference, IsTheKernelWritersPage) {
  const std::string doc = committed_coral_md();
  ASSERT_FALSE(doc.empty()) << "docs/isa/coral.md is missing";
  EXPECT_EQ(isa_reference_name("coral"), "isa/coral.md");
  // Exactly the one file: riscv.md / riscv-vector.md do not share the "coral" prefix.
  EXPECT_EQ(isa_reference("coral", nlohmann::json::object()), doc);
  EXPECT_EQ(doc.find("Decoded-instruction cache"), std::string::npos);  // riscv.md's simulator internals
}

TEST(CoralIsaReference, PromptCarriesTheKeySections) {
  if (!coral_built()) GTEST_SKIP() << "coral platform not built";
  const SystemPrompt p = build_system_prompt({{"coral", "relu", "C1"}, "default", {}, 0});
  ASSERT_EQ(p.parts[2].name, "isa");
  const std::string& isa = p.parts[2].text;
  for (const char* key : {"## Kernel contract", "## Registers and ABI", "## Vector model", "vsetvli",
                          "## Fixed point and requantisation", "vnclip.wi", "csrwi   vxrm, 0", "## The C route",
                          "__riscv_vadd_vv_i8m1", "## Worked example", "## Timing: what costs cycles", "mpause"})
    EXPECT_NE(isa.find(key), std::string::npos) << key;
  // VLMAX row for e8: VLEN 128 / 8 bits x LMUL (1/4 .. 8) = 4, 8, 16, 32, 64, 128 lanes.
  EXPECT_NE(isa.find("| e8 | 4 | 8 | 16 | 32 | 64 | 128 |"), std::string::npos);
  EXPECT_NE(p.text().find("## ISA reference\n\n# Coral NPU: ISA reference for kernel writers"), std::string::npos);
}

TEST(CoralIsaReference, GrepFindsTheRequantisationIdiom) {
  const std::vector<DocFile> files{{isa_reference_name("coral"), split_lines(committed_coral_md())}};
  size_t total = 0;
  std::string mode;
  const auto m = grep_docs(files, "vnclip.wi v4, v8, 7", 5, total, mode);
  ASSERT_EQ(total, 1u);  // the one line of the requantisation snippet
  EXPECT_EQ(m[0].file, "isa/coral.md");
  EXPECT_NE(m[0].context.find("vsetvli zero, zero, e8, m1"), std::string::npos) << m[0].context;
}

}  // namespace
}  // namespace tlmcraft::agent
