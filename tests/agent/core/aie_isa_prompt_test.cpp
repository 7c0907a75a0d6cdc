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

}  // namespace
}  // namespace tlmcraft::agent
