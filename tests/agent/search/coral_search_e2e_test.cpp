// The search agent end to end on a small Coral workload (ReLU C1, 512 int8) through the
// real toolbox: the C baseline is transformed at source level, every candidate is
// compiled by clang-16 and evaluated on 3 seeds, and the submitted kernel must be
// correct and faster than the baseline.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "agent/providers.h"
#include "agent/toolbox.h"

namespace tlmcraft::agent {
namespace {

struct CoralRun {
  nlohmann::json last_evaluation;  // run_evaluation's data just before submit
  std::string submitted_code;      // the last write_code before submit
  bool submitted = false;
  int rounds = 0;
  int evaluations = 0;
};

// A minimal driver (the real loop lives in agent/loop.*): every tool call of a turn in
// order, each answered by a Tool message, until submit or a turn without tool calls.
CoralRun drive(Provider& provider, Toolbox& tools, int budget) {
  std::vector<Message> conversation;
  Message intro;
  intro.role = Role::User;
  intro.content = "Optimise the kernel. Budget: " + std::to_string(budget) + " rounds.";
  conversation.push_back(intro);
  CoralRun out;
  std::string code;
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
      if (call.name == "write_code") code = nlohmann::json::parse(call.arguments).value("code", "");
      if (call.name == "run_evaluation") {
        out.last_evaluation = r.data;
        ++out.evaluations;
      }
      if (call.name == "submit" && !r.is_error) {
        out.submitted = true;
        out.submitted_code = code;
      }
    }
  }
  return out;
}

std::string temp_dir() {
  char templ[] = "/tmp/tlmcraft-coral-search-test-XXXXXX";
  const char* d = ::mkdtemp(templ);
  return d ? d : "/tmp";
}

TEST(CoralSearchAgent, ImprovesReluC1WithACorrectCKernel) {
  ToolboxOptions to;
  to.workspace_dir = temp_dir();
  to.workload = {"coral", "relu", "C1"};
  to.trials = 3;
  auto tools = make_toolbox(to);
  ProviderOptions po;
  po.kind = "search";
  po.workload = to.workload;
  auto provider = make_search_provider(po);
  // Round 1 reads the task, round 2 evaluates the baseline and 4 candidates, round 3
  // writes, re-evaluates and submits the best one.
  const CoralRun r = drive(*provider, *tools, 3);
  ASSERT_TRUE(r.submitted);
  EXPECT_EQ(r.rounds, 3);
  EXPECT_EQ(r.evaluations, 6);
  EXPECT_EQ(r.last_evaluation.value("status", ""), "pass") << r.last_evaluation.dump();
  const double cycles = r.last_evaluation.value("cycles", 0.0);
  const double baseline = r.last_evaluation.value("baseline_cycles", 0.0);
  ASSERT_GT(baseline, 0);
  EXPECT_LT(cycles, baseline);
  EXPECT_GT(r.last_evaluation.value("speedup", 0.0), 1.0);
  // The kept kernel is a source-level transformation of the C baseline: the e8m4 strip
  // loop at LMUL 8 (the first preference: fewer strip iterations).
  EXPECT_NE(r.submitted_code.find("__riscv_vsetvl_e8m8(DIM_N - i)"), std::string::npos) << r.submitted_code;
  EXPECT_NE(r.submitted_code.find("int main(void)"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::agent
