// The AIE-ML ISA reference an agent gets: the ISA page (docs/isa/aie-ml.md) followed by the
// kernel-file format from the platform page (docs/platforms/aie-ml.md, "The kernel file",
// with the data-movement section and phases), and nothing else of that page.
#include <gtest/gtest.h>

#include "agent/docs_index.h"

namespace tlmcraft::agent {
namespace {

TEST(AieIsaPrompt, TheIsaPageThenTheKernelFileSection) {
  const std::string ref = isa_reference("aie_ml", nlohmann::json::object());
  const size_t isa = ref.find("# AIE-ML ISA reference"), file = ref.find("\n## The kernel file\n");
  ASSERT_NE(isa, std::string::npos);
  ASSERT_NE(file, std::string::npos);
  EXPECT_LT(isa, file);
  for (const char* part : {"### Phases", ".phase", "### The data-movement section", "buffers:"})
    EXPECT_NE(ref.find(part, file), std::string::npos) << part;
  // The section ends where the platform page's next chapter begins.
  EXPECT_EQ(ref.find("\n## Timing\n"), std::string::npos);
}

TEST(AieIsaPrompt, TellsAnAgentAboutTheExposedPipelineAndItsReport) {
  // The hardware has no register interlocks and neither has the default platform: an agent
  // reads that, how to wait, what the report says about early reads, which hazards stop a
  // run, the tool that adds the waits, and the interlocked mode as the exception.
  const std::string ref = isa_reference("aie_ml", nlohmann::json::object());
  for (const char* part :
       {"The pipeline is EXPOSED, as on the real core (no register interlocks; the default",
        "a read before that sees the OLD value", "`--set compute.pipeline=interlocked` instead",
        "a load: 6 bundles between; a VMAC: 5, or 3 before a VMAC that takes its result as the accumulator input",
        "`early_reads`", "pipeline hazard", "tlmcraft asm --waits"})
    EXPECT_NE(ref.find(part), std::string::npos) << part;
}

}  // namespace
}  // namespace tlmcraft::agent
