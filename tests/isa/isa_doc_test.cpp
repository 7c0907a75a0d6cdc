// The generated ISA reference: content checks and the committed docs/isa/plena.md
// must equal what the generator produces (so it never drifts from the YAML).
// Regenerate the file with: TLMCRAFT_UPDATE_DOCS=1 ./isa_tests --gtest_filter='IsaDoc.*'
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "isa/isa_doc.h"
#include "tests/isa/test_support.h"

namespace tlmcraft::isa {
namespace {

using test::plena;

const std::string kDocPath = std::string(TLMCRAFT_SOURCE_DIR) + "/docs/isa/plena.md";

TEST(IsaDoc, CommittedReferenceMatchesTheGenerator) {
  const std::string generated = render_isa_markdown(plena());
  if (const char* update = std::getenv("TLMCRAFT_UPDATE_DOCS"); update && std::string(update) == "1") {
    std::ofstream(kDocPath, std::ios::binary | std::ios::trunc) << generated;
  }
  std::ifstream in(kDocPath, std::ios::binary);
  ASSERT_TRUE(in) << kDocPath << " is missing; regenerate it with TLMCRAFT_UPDATE_DOCS=1";
  std::ostringstream committed;
  committed << in.rdbuf();
  EXPECT_TRUE(committed.str() == generated)
      << kDocPath << " is out of date; regenerate it with TLMCRAFT_UPDATE_DOCS=1 ./isa_tests --gtest_filter='IsaDoc.*'";
}

TEST(IsaDoc, CoversEveryInstructionAndSection) {
  const std::string md = render_isa_markdown(plena());
  for (const char* section : {"# PLENA ISA reference", "## Architectural parameters", "## Registers",
                              "## Implicit state", "## Encoding", "## Assembly syntax", "## Units and latency classes",
                              "## Matrix instructions (M)", "## Vector instructions (V)", "## Scalar instructions (S)",
                              "## Memory instructions (H)", "## Control instructions (C)"})
    EXPECT_NE(md.find(section), std::string::npos) << section;
  for (const auto& ins : plena().instructions()) {
    EXPECT_NE(md.find("\n### " + ins.mnemonic + "\n"), std::string::npos) << ins.mnemonic;
    EXPECT_NE(md.find("```\n" + ins.syntax() + "\n```"), std::string::npos) << ins.mnemonic;
  }
  // Unimplemented instructions are marked in the summary and in their section.
  EXPECT_NE(md.find("[V_PS_V](#v_ps_v) (not implemented)"), std::string::npos);
  EXPECT_NE(md.find("### V_TOPK\n\n**Not implemented on this platform**"), std::string::npos);
  // Syntax rules name the comment markers and the label rule.
  EXPECT_NE(md.find("Comments run from `;`, `#`, `//` to the end of the line."), std::string::npos);
  EXPECT_NE(md.find("PLENA has no labels or branches; use C_LOOP_START/C_LOOP_END"), std::string::npos);
  // Encoding of one instruction, spelled out.
  EXPECT_NE(md.find("- Encoding: opcode 0x22 in bits 5:0; rd in bits 9:6; rs1 in bits 13:10; imm in bits 31:14; "
                    "other bits 0"),
            std::string::npos);
  // '|' inside a table cell is escaped.
  EXPECT_NE(md.find("`a[rd] = (gp[rs1] << 32) \\| gp[rs2]`"), std::string::npos);
}

TEST(IsaDoc, LatencyNotesAppear) {
  const std::string md = render_isa_markdown(plena(), {{"matrix_mm", "64 cycles"}, {"vector_sum", "8 cycles"}});
  EXPECT_NE(md.find("- Unit: matrix; latency class: matrix_mm (64 cycles)"), std::string::npos);
  EXPECT_NE(md.find("| matrix_mm | 64 cycles |"), std::string::npos);
  EXPECT_NE(md.find("| vector_sum | 8 cycles |"), std::string::npos);
  EXPECT_NE(md.find("| matrix_wo | see platform |"), std::string::npos);
  // Without notes the latency class is named alone.
  EXPECT_NE(render_isa_markdown(plena()).find("- Unit: matrix; latency class: matrix_mm\n"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::isa
