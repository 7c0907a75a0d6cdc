// The built-in search agent: a Provider that needs no LLM. Each turn it emits tool calls
// (get_baseline, write_code + run_evaluation per candidate, submit) and reads the
// results from the conversation, so it runs through the same loop, transcript and
// agent-bench as a model. It keeps no state of its own between turns: everything is
// rebuilt from the conversation, so a resumed transcript continues the same search.
#include <algorithm>
#include <map>

#include "agent/providers.h"
#include "agent/search/candidates.h"
#include "agent/search/search_policy.h"

namespace tlmcraft::agent {

namespace {

using nlohmann::json;
using search::Candidate;
using search::Evaluated;

class SearchProvider : public Provider {
 public:
  explicit SearchProvider(const ProviderOptions& o) : options_(o) {}
  std::string name() const override { return "search"; }

  Completion complete(const std::vector<Message>& conversation, const std::vector<ToolSpec>& tools) override {
    for (const char* needed : {"get_baseline", "write_code", "run_evaluation", "submit"})
      if (std::none_of(tools.begin(), tools.end(), [&](const ToolSpec& t) { return t.name == needed; }))
        throw ProviderError(std::string("the search agent needs the tool '") + needed + "', which this run does not offer");
    const search::History h = search::read_history(conversation);
    search::PolicyOptions po;
    po.seed = options_.seed;
    po.profile = std::any_of(tools.begin(), tools.end(), [](const ToolSpec& t) { return t.name == "profile"; });
    const search::Turn turn = search::plan_turn(h, po, &cache_);
    Completion c;
    c.message.role = Role::Assistant;
    c.message.content = turn.text;
    int k = 0;
    for (const auto& call : turn.calls)
      c.message.tool_calls.push_back({"search_" + std::to_string(h.rounds + 1) + "_" + std::to_string(++k), call.first,
                                      call.second.dump()});
    c.stop_reason = c.message.tool_calls.empty() ? "end_turn" : "tool_calls";
    return c;
  }

 private:
  ProviderOptions options_;
  std::map<std::string, std::vector<Candidate>> cache_;  // candidates per parent text (speed only)
};

}  // namespace

std::unique_ptr<Provider> make_search_provider(const ProviderOptions& options) {
  return std::make_unique<SearchProvider>(options);
}

}  // namespace tlmcraft::agent
