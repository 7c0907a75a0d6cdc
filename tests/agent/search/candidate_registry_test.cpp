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
  const std::string src =
      "void f(int n) {\n"
      "  for (int i = 0; i < n; ++i) g(i);\n"
      "}\n";
  SearchContext ctx;
  ctx.language = "c";
  std::vector<std::string> names;
  for (const auto& c : generate_candidates(src, ctx)) names.push_back(c.name);
  // C loop unrolling (the assembly transformations cannot parse C and would give none).
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names[0].rfind("unroll loop 0", 0), 0u) << names[0];
}

}  // namespace
}  // namespace tlmcraft::agent::search
