#include "agent/bench_metrics.h"

#include <map>
#include <set>
#include <sstream>

#include "agent/tool_text.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

struct Acc {
  int runs = 0, solved = 0;
  long first_sum = 0;
  uint64_t in = 0, out = 0, cached = 0, cache_write = 0, reasoning = 0;
  double cost = 0;
  int priced = 0;  // runs with a cost
  int tool_calls = 0, tool_errors = 0;
  std::set<std::string> configs_run, configs_solved;
  int level = 0;
  void add(const json& r) {
    const json& a = r["agent"];
    ++runs;
    const bool ok = r.value("status", "") == "pass";
    const std::string config = r.value("config", "");
    configs_run.insert(config);
    if (ok) {
      ++solved;
      configs_solved.insert(config);
      if (a.contains("first_correct_round") && a["first_correct_round"].is_number())
        first_sum += a["first_correct_round"].get<long>();
    }
    if (a.contains("tokens")) {
      in += a["tokens"].value("input", uint64_t(0));
      out += a["tokens"].value("output", uint64_t(0));
      cached += a["tokens"].value("cached_input", uint64_t(0));
      cache_write += a["tokens"].value("cache_write", uint64_t(0));
      reasoning += a["tokens"].value("reasoning", uint64_t(0));
    }
    if (a.contains("cost_usd") && a["cost_usd"].is_number()) {
      cost += a["cost_usd"].get<double>();
      ++priced;
    }
    tool_calls += a.value("tool_calls", 0);
    tool_errors += a.value("tool_errors", 0);
    if (r.contains("level") && r["level"].is_number()) level = r["level"].get<int>();
  }
  json tokens() const {
    return {{"input", in}, {"output", out}, {"cached_input", cached}, {"cache_write", cache_write}, {"reasoning", reasoning}};
  }
  // The campaign's cost: the sum over priced runs (null when no run was priced).
  json cost_json() const { return priced ? json(cost) : json(); }
  json mean_first() const { return solved ? json(double(first_sum) / solved) : json(); }
};

}  // namespace

json agent_bench_metrics(const std::vector<json>& records) {
  Acc all;
  std::map<std::string, int> stops;
  std::map<std::pair<std::string, std::string>, Acc> per_task;
  std::vector<std::pair<std::string, std::string>> order;
  for (const auto& r : records) {
    if (!r.is_object() || !r.contains("agent") || !r["agent"].is_object()) continue;
    all.add(r);
    ++stops[r["agent"].value("stop_reason", "?")];
    const auto key = std::make_pair(r.value("platform", ""), r.value("task", ""));
    if (!per_task.count(key)) order.push_back(key);
    per_task[key].add(r);
  }
  json tasks = json::array();
  for (const auto& key : order) {
    const Acc& a = per_task[key];
    tasks.push_back({{"platform", key.first}, {"task", key.second}, {"level", a.level},
                     {"configs_solved", a.configs_solved.size()}, {"configs_run", a.configs_run.size()},
                     {"runs", a.runs}, {"solved_runs", a.solved}, {"mean_first_correct_round", a.mean_first()},
                     {"tokens", a.tokens()}, {"cost_usd", a.cost_json()}});
  }
  return {{"schema", "tlmcraft.agent_metrics/1"}, {"runs", all.runs}, {"solved_runs", all.solved},
          {"mean_first_correct_round", all.mean_first()}, {"tokens", all.tokens()},
          {"cost_usd", all.cost_json()}, {"priced_runs", all.priced}, {"tool_calls", all.tool_calls}, {"tool_errors", all.tool_errors}, {"stop_reasons", stops}, {"tasks", tasks}};
}

std::string agent_bench_metrics_text(const json& m) {
  std::ostringstream o;
  auto mean = [](const json& v) { return v.is_number() ? fixed(v.get<double>(), 1) : std::string("-"); };
  o << "agent runs: " << m["runs"].get<int>() << ", solved " << m["solved_runs"].get<int>()
    << ", mean rounds to first correct " << mean(m["mean_first_correct_round"]) << ", tokens "
    << m["tokens"]["input"].get<uint64_t>() << " in / " << m["tokens"]["output"].get<uint64_t>() << " out, tool calls "
    << m["tool_calls"].get<int>() << " (" << m["tool_errors"].get<int>() << " errors)\n";
  const json& t = m["tokens"];
  o << "tokens: " << t.value("cached_input", uint64_t(0)) << " cached input, " << t.value("cache_write", uint64_t(0))
    << " cache writes, " << t.value("reasoning", uint64_t(0)) << " reasoning; cost "
    << (m.value("cost_usd", json()).is_number() ? "$" + fixed(m["cost_usd"].get<double>(), 4) + " over " +
                                                      std::to_string(m.value("priced_runs", 0)) + " priced run(s)"
                                                : std::string("unknown (no price for the model)"))
    << "\nstop reasons:";
  for (const auto& [k, v] : m["stop_reasons"].items()) o << " " << k << " " << v.get<int>();
  o << "\n";
  if (!m["tasks"].empty()) {
    o << "per task (configs solved/run, runs solved/run, mean rounds to first correct, tokens in/out):\n";
    for (const auto& t : m["tasks"]) {
      o << "  " << t["platform"].get<std::string>() << "/" << t["task"].get<std::string>() << ": "
        << t["configs_solved"].get<int>() << "/" << t["configs_run"].get<int>() << ", " << t["solved_runs"].get<int>()
        << "/" << t["runs"].get<int>() << ", " << mean(t["mean_first_correct_round"]) << ", "
        << t["tokens"]["input"].get<uint64_t>() << "/" << t["tokens"]["output"].get<uint64_t>() << "\n";
    }
  }
  return o.str();
}

}  // namespace tlmcraft::agent
