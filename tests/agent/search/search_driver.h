// The search-agent end-to-end tests' driver: a minimal loop (the real one is agent/loop.*)
// that runs every tool call of each turn in order, answers it with a Tool message, and
// stops at submit or at a turn without tool calls.
#pragma once
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/providers.h"
#include "agent/toolbox.h"

namespace tlmcraft::agent::test {

struct SearchRun {
  nlohmann::json last_evaluation;  // run_evaluation's data, the last one
  std::string last_code;           // the kernel of the last write_code
  std::string submitted_code;      // the kernel written last before submit
  bool submitted = false;
  int rounds = 0;
  int evaluations = 0;
};

inline SearchRun drive_search(Provider& provider, Toolbox& tools, int budget) {
  std::vector<Message> conversation;
  Message intro;
  intro.role = Role::User;
  intro.content = "Optimise the kernel. Budget: " + std::to_string(budget) + " rounds.";
  conversation.push_back(intro);
  SearchRun out;
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
      if (call.name == "run_evaluation") {
        out.last_evaluation = r.data;
        ++out.evaluations;
      }
      if (call.name == "submit" && !r.is_error) {
        out.submitted = true;
        out.submitted_code = out.last_code;
      }
    }
  }
  return out;
}

// A fresh workspace directory under /tmp.
inline std::string search_workspace() {
  char templ[] = "/tmp/tlmcraft-search-test-XXXXXX";
  const char* d = ::mkdtemp(templ);
  return d ? d : "/tmp";
}

// The search provider on (platform, task, config) through a fresh real toolbox (3 trials
// per evaluation), driven for at most `budget` rounds.
// `variant`: the ISA variant the tools evaluate with (the caller makes it current for the
// search agent's own generation too, as the CLI does for the whole process).
inline SearchRun run_search(const std::string& platform, const std::string& task, const std::string& config,
                            int budget, const isa::IsaVariant& variant = {}) {
  ToolboxOptions to;
  to.isa = variant;
  to.workspace_dir = search_workspace();
  to.workload = {platform, task, config};
  to.trials = 3;
  auto tools = make_toolbox(to);
  ProviderOptions po;
  po.kind = "search";
  po.workload = to.workload;
  auto provider = make_search_provider(po);
  return drive_search(*provider, *tools, budget);
}

}  // namespace tlmcraft::agent::test
