// The search agent end to end on a small AIE-ML workload (silu C1) through the real
// toolbox: it must submit a correct kernel (3 trials) faster than the baseline, made of
// compacted bundles.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "agent/providers.h"
#include "agent/toolbox.h"
#include "isa/aie_ml/program_text.h"

namespace tlmcraft::agent {
namespace {

struct Outcome {
  nlohmann::json last_evaluation;
  std::string last_code;  // the kernel written right before submit
  bool submitted = false;
  int rounds = 0;
};

// Runs every tool call of each turn in order (the real loop is agent/loop.*).
Outcome drive(Provider& provider, Toolbox& tools, int budget) {
  std::vector<Message> conversation;
  Message intro;
  intro.role = Role::User;
  intro.content = "Optimise the kernel. Budget: " + std::to_string(budget) + " rounds.";
  conversation.push_back(intro);
  Outcome out;
  for (int round = 0; round < budget && !out.submitted; ++round) {
    const Completion c = provider.complete(conversation, tools.specs());
    conversation.push_back(c.message);
    ++out.rounds;
    if (c.message.tool_calls.empty()) break;
    for (const auto& call : c.message.tool_calls) {
      const ToolResult r = tools.call(call.name, call.arguments);
      Message m;
      m.role = Role::Tool;
      m.tool_call_id = call.id;
      m.tool_name = call.name;
      m.content = r.text;
      m.is_error = r.is_error;
      m.data = r.data;
      conversation.push_back(m);
      if (call.name == "write_code") out.last_code = nlohmann::json::parse(call.arguments).value("code", "");
      if (call.name == "run_evaluation") out.last_evaluation = r.data;
      if (call.name == "submit" && !r.is_error) out.submitted = true;
    }
  }
  return out;
}

TEST(AieSearchAgent, SpeedsUpSiluC1WithACorrectCompactedKernel) {
  char templ[] = "/tmp/tlmcraft-aie-search-XXXXXX";
  const char* dir = ::mkdtemp(templ);
  ToolboxOptions to;
  to.workspace_dir = dir ? dir : "/tmp";
  to.workload = {"aie_ml", "silu", "C1"};
  to.trials = 3;
  auto tools = make_toolbox(to);
  ProviderOptions po;
  po.kind = "search";
  po.workload = to.workload;
  auto provider = make_search_provider(po);
  const Outcome r = drive(*provider, *tools, 4);
  ASSERT_TRUE(r.submitted);
  // The submitted kernel passed 3 trials on fresh seeds and beats the baseline.
  EXPECT_EQ(r.last_evaluation.value("status", ""), "pass") << r.last_evaluation.dump();
  EXPECT_GT(r.last_evaluation.value("speedup", 0.0), 1.0) << r.last_evaluation.dump();
  EXPECT_LT(r.last_evaluation.value("cycles", 0.0), r.last_evaluation.value("baseline_cycles", 0.0));
  // It is built of multi-op bundles (the baseline has one op per bundle in its loop).
  isa::aie_ml::AieKernel k;
  std::string error;
  ASSERT_TRUE(isa::aie_ml::parse_aie_kernel(r.last_code, k, error)) << error;
  size_t multi = 0;
  for (const auto& t : k.tiles)
    for (const auto& l : t.lines) multi += l.kind == isa::aie_ml::AieLine::Kind::Bundle && l.ops.size() > 1;
  EXPECT_GT(multi, 10u);
}

}  // namespace
}  // namespace tlmcraft::agent
