// Platform packs register their search transformations (agent/search/search_transformations.h):
// the first generator that applies decides, a name registers once, and the search agent's
// turns use what a test "platform" registers (no platform of the tree involved).
#include <gtest/gtest.h>

#include "agent/search/candidates.h"
#include "agent/search/search_policy.h"

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

TEST(CandidateRegistry, TheBuiltInPacksRegisterInFolderOrderBeforeAnyOtherGenerator) {
  const std::vector<std::string> names = candidate_generator_names();
  ASSERT_GE(names.size(), 3u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 3),
            (std::vector<std::string>{"aie_ml bundles", "coral C", "plena assembly"}));
  const CandidateGeneratorRegistration* plena = find_candidate_generator("plena assembly");
  ASSERT_NE(plena, nullptr);
  EXPECT_FALSE(plena->uses_profile);
  EXPECT_TRUE(find_candidate_generator("coral C")->uses_profile);
  EXPECT_EQ(find_candidate_generator("no such generator"), nullptr);
  // A built-in name cannot be taken (a plugin registers after the packs).
  EXPECT_EQ(error_of([] {
              register_candidate_generator({"plena assembly", [](const SearchContext&) { return false; },
                                            [](const std::string&, const SearchContext&) {
                                              return std::vector<Candidate>{};
                                            }});
            }),
            "candidate generator 'plena assembly' registered twice");
}

// ---- the search agent with a test platform's transformation -------------------------

using nlohmann::json;

Message assistant(std::vector<ToolCall> calls) {
  Message m;
  m.role = Role::Assistant;
  m.tool_calls = std::move(calls);
  return m;
}

Message tool(const std::string& id, const std::string& name, json data) {
  Message m;
  m.role = Role::Tool;
  m.tool_call_id = id;
  m.tool_name = name;
  m.data = std::move(data);
  return m;
}

// After turn 1 on `platform`: the baseline "x = x + 1" (assembly) at 30 cycles.
std::vector<Message> after_info(const std::string& platform) {
  Message intro;
  intro.role = Role::User;
  intro.content = "Optimise the kernel. Budget: 6 rounds.";
  return {intro,
          assistant({{"a", "get_task", "{}"}, {"b", "get_hardware_config", "{}"}, {"c", "get_baseline", "{}"}}),
          tool("a", "get_task", {{"level", 1}}),
          tool("b", "get_hardware_config", {{"platform", platform}, {"config", {{"lanes", 8}}}}),
          tool("c", "get_baseline", {{"source", "x = x + 1\n"}, {"cycles", 30}})};
}

// The test platform's one transformation: doubles every line (a toy "unroll"), named by
// the lanes it read from the hardware configuration.
std::vector<Candidate> double_lines(const std::string& parent, const SearchContext& ctx) {
  const int lanes = ctx.hardware.at("config").at("lanes").get<int>();
  return {{"double x" + std::to_string(lanes), parent + parent, 1.0}};
}

TEST(CandidateRegistry, TheSearchAgentEvaluatesARegisteredPlatformsCandidatesThenSubmitsTheBest) {
  register_candidate_generator({"toy doubling", [](const SearchContext& c) { return c.platform == "toy_simd"; },
                                double_lines});
  std::vector<Message> c = after_info("toy_simd");
  const Turn second = plan_turn(read_history(c), PolicyOptions{});
  // The baseline, then the registered transformation's one candidate; no profile calls.
  ASSERT_EQ(second.calls.size(), 4u);
  EXPECT_EQ(second.calls[0].second["code"], "x = x + 1\n");
  EXPECT_EQ(second.calls[2].first, "write_code");
  EXPECT_EQ(second.calls[2].second["code"], "x = x + 1\nx = x + 1\n");
  EXPECT_EQ(second.calls[3].first, "run_evaluation");
  EXPECT_NE(second.text.find("Trying: double x8"), std::string::npos) << second.text;
  // The candidate passes in 20 cycles: the next turn tries its own candidate.
  std::vector<ToolCall> calls;
  for (size_t i = 0; i < second.calls.size(); ++i)
    calls.push_back({"t" + std::to_string(i), second.calls[i].first, second.calls[i].second.dump()});
  c.push_back(assistant(calls));
  c.push_back(tool("t0", "write_code", {{"success", true}}));
  c.push_back(tool("t1", "run_evaluation", {{"status", "pass"}, {"cycles", 30}}));
  c.push_back(tool("t2", "write_code", {{"success", true}}));
  c.push_back(tool("t3", "run_evaluation", {{"status", "pass"}, {"cycles", 20}}));
  const Turn third = plan_turn(read_history(c), PolicyOptions{});
  ASSERT_EQ(third.calls.size(), 2u);
  EXPECT_EQ(third.calls[0].second["code"], "x = x + 1\nx = x + 1\nx = x + 1\nx = x + 1\n");
  EXPECT_NE(third.text.find("best so far 20 cycles (baseline 30, speedup 1.500x)"), std::string::npos) << third.text;
}

TEST(CandidateRegistry, AGeneratorThatUsesTheProfileGetsAProfileCallAfterEachEvaluation) {
  register_candidate_generator({"toy profiled", [](const SearchContext& c) { return c.platform == "toy_profiled"; },
                                double_lines, /*uses_profile=*/true});
  PolicyOptions o;
  o.profile = true;  // the run offers the profile tool
  const Turn t = plan_turn(read_history(after_info("toy_profiled")), o);
  std::vector<std::string> names;
  for (const auto& call : t.calls) names.push_back(call.first);
  EXPECT_EQ(names, (std::vector<std::string>{"write_code", "run_evaluation", "profile", "write_code", "run_evaluation",
                                             "profile"}));
}

TEST(CandidateRegistry, APlatformWithoutTransformationsEvaluatesAndSubmitsTheBaselineSayingWhy) {
  std::vector<Message> c = after_info("toy_bare");
  const Turn second = plan_turn(read_history(c), PolicyOptions{});
  ASSERT_EQ(second.calls.size(), 2u);  // the baseline only
  EXPECT_EQ(second.calls[1].first, "run_evaluation");
  const std::string why = "No search transformations are registered for assembly kernels on platform 'toy_bare'";
  EXPECT_NE(second.text.find(why), std::string::npos) << second.text;
  c.push_back(assistant({{"d", "write_code", json({{"code", "x = x + 1\n"}}).dump()}, {"e", "run_evaluation", "{}"}}));
  c.push_back(tool("d", "write_code", {{"success", true}}));
  c.push_back(tool("e", "run_evaluation", {{"status", "pass"}, {"cycles", 30}}));
  const Turn last = plan_turn(read_history(c), PolicyOptions{});
  ASSERT_EQ(last.calls.size(), 3u);
  EXPECT_EQ(last.calls[2].first, "submit");
  EXPECT_EQ(last.text.rfind(why, 0), 0u) << last.text;
  EXPECT_NE(last.text.find("(registered: aie_ml bundles, coral C, plena assembly"), std::string::npos) << last.text;
}

}  // namespace
}  // namespace tlmcraft::agent::search
