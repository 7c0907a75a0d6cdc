// The search agent end to end on a small PLENA workload through the real toolbox:
// it must keep only correct kernels and submit one faster than the baseline.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "agent/providers.h"
#include "agent/toolbox.h"

namespace tlmcraft::agent {
namespace {

struct RunOutcome {
  nlohmann::json last_evaluation;  // run_evaluation's data just before submit
  bool submitted = false;
  int rounds = 0;
};

// A minimal driver (the real loop lives in agent/loop.*): run every tool call of each
// turn in order and answer it with a Tool message, until submit or no tool call.
RunOutcome drive(Provider& provider, Toolbox& tools, int budget) {
  std::vector<Message> conversation;
  Message intro;
  intro.role = Role::User;
  intro.content = "Optimise the kernel. Budget: " + std::to_string(budget) + " rounds.";
  conversation.push_back(intro);
  RunOutcome out;
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
      if (call.name == "run_evaluation") out.last_evaluation = r.data;
      if (call.name == "submit" && !r.is_error) out.submitted = true;
    }
  }
  return out;
}

std::string temp_dir() {
  char templ[] = "/tmp/tlmcraft-search-test-XXXXXX";
  const char* d = ::mkdtemp(templ);
  return d ? d : "/tmp";
}

TEST(SearchAgent, ImprovesSiluC1SeriallyWithACorrectKernel) {
  ToolboxOptions to;
  to.workspace_dir = temp_dir();
  to.workload = {"plena", "silu", "C1"};
  to.trials = 3;
  auto tools = make_toolbox(to);
  ProviderOptions po;
  po.kind = "search";
  po.workload = to.workload;
  auto provider = make_search_provider(po);
  ASSERT_EQ(provider->name(), "search");
  const RunOutcome r = drive(*provider, *tools, 5);
  ASSERT_TRUE(r.submitted);
  // info, at least one search round, the submit round; it may stop early when no
  // untried transformation is left
  EXPECT_GE(r.rounds, 3);
  EXPECT_LE(r.rounds, 5);
  // The submitted kernel was evaluated on fresh seeds (3 trials) right before submit.
  EXPECT_EQ(r.last_evaluation.value("status", ""), "pass") << r.last_evaluation.dump();
  const double cycles = r.last_evaluation.value("cycles", 0.0);
  const double baseline = r.last_evaluation.value("baseline_cycles", 0.0);
  ASSERT_GT(baseline, 0);
  EXPECT_LT(cycles, baseline);
  EXPECT_GT(r.last_evaluation.value("speedup", 0.0), 1.0);
}

}  // namespace
}  // namespace tlmcraft::agent
