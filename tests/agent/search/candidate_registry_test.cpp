// Platform packs register their search transformations (agent/search/candidates.h):
// the first generator that applies decides, a name registers once.
#include <gtest/gtest.h>

#include "agent/search/candidates.h"

namespace tlmcraft::agent::search {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(CandidateRegistry, ARegisteredGeneratorHandlesTheKernelsItAppliesTo) {
  register_candidate_generator({"registry test", [](const SearchContext& c) { return c.platform == "registry_test"; },
                                [](const std::string& parent, const SearchContext&) {
                                  return std::vector<Candidate>{{"echo", parent + "\n", 1.0}};
                                }});
  SearchContext ctx;
  ctx.platform = "registry_test";
  const auto out = generate_candidates("KERNEL", ctx);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, "echo");
  EXPECT_EQ(out[0].text, "KERNEL\n");
  // The same name twice, or a registration without a predicate, is refused.
  EXPECT_EQ(error_of([] {
              register_candidate_generator({"registry test", [](const SearchContext&) { return false; },
                                            [](const std::string&, const SearchContext&) {
                                              return std::vector<Candidate>{};
                                            }});
            }),
            "candidate generator 'registry test' registered twice");
  EXPECT_EQ(error_of([] { register_candidate_generator({"no predicate", nullptr, nullptr}); }),
            "candidate generator registration needs a name, applies and generate");
}

TEST(CandidateRegistry, CKernelsGoToTheRegisteredCGenerator) {
  SearchContext ctx;
  ctx.language = "c";
  // Not valid C for the C view: the C generator (not the assembly transforms) answers with none.
  EXPECT_TRUE(generate_candidates("S_ADDI_INT gp1, gp0, 1\n", ctx).empty());
}

}  // namespace
}  // namespace tlmcraft::agent::search
