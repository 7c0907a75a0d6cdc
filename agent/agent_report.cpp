#include "agent/agent_report.h"

#include <sstream>

#include "agent/tool_text.h"

namespace tlmcraft::agent {

using nlohmann::json;

json agent_report(const Workload& w, int level, const LoopResult& r, const Workspace& ws, const std::string& provider,
                  const std::string& transcript_path, const json& verdict) {
  json rep;
  if (!verdict.is_null()) {
    rep = verdict;
    if (rep.value("status", "") != "pass") {
      const std::string why = rep.value("reason", "");
      rep["reason"] = "version " + std::to_string(r.best_version) +
                      " passed its development evaluations but failed the final verdict on fresh inputs: " + why;
      rep["speedup"] = nullptr;
    }
  } else if (r.best_version > 0) {
    if (auto best = ws.report(w, r.best_version)) rep = *best;
  }
  if (rep.is_null()) {
    if (auto last = ws.last_report(w)) rep = last->second;
  }
  const bool solved = r.best_version > 0 && rep.value("status", "") == "pass";
  const bool failed_verdict = !verdict.is_null() && !solved;
  if (rep.is_null()) {
    rep = {{"schema", "tlmcraft.report/1"}, {"platform", w.platform}, {"task", w.task}, {"level", level},
           {"config", w.config}, {"kernel", {{"path", ""}, {"source", "agent"}}}, {"baseline_cycles", nullptr},
           {"speedup", nullptr}};
  }
  if (!solved && !failed_verdict) {
    // The run's outcome is "not solved", whatever its last evaluation said.
    const std::string last_status = rep.value("status", "");
    rep["status"] = last_status.empty() || last_status == "pass" ? "fail" : last_status;
    std::string reason = "no correct kernel in " + std::to_string(r.rounds) + " of " + std::to_string(r.budget) +
                         " rounds (stop: " + r.stop_reason + (r.error.empty() ? "" : ": " + r.error) + ")";
    if (rep.contains("reason") && rep["reason"].is_string() && !rep["reason"].get<std::string>().empty())
      reason += "; last evaluation: " + rep["reason"].get<std::string>();
    rep["reason"] = reason;
    rep["speedup"] = nullptr;
  }
  rep["agent"] = {{"provider", provider},
                  {"stop_reason", r.stop_reason},
                  {"error", r.error},
                  {"rounds", r.rounds},
                  {"budget", r.budget},
                  {"first_correct_round", r.first_correct_round ? json(r.first_correct_round) : json()},
                  {"evaluations", r.evaluations},
                  {"tool_calls", r.tool_calls},
                  {"tool_errors", r.tool_errors},
                  {"tokens", {{"input", r.usage.input_tokens}, {"output", r.usage.output_tokens},
                              {"cached_input", r.usage.cached_input_tokens}, {"cache_write", r.usage.cache_write_tokens},
                              {"reasoning", r.usage.reasoning_tokens}}},
                  {"cost_usd", r.cost_usd ? nlohmann::json(*r.cost_usd) : nlohmann::json()},
                  {"compactions", r.compactions},
                  {"best_version", r.best_version ? json(r.best_version) : json()},
                  {"resumed", r.resumed},
                  {"transcript", transcript_path},
                  {"workspace", ws.root()}};
  return rep;
}

std::string agent_result_text(const Workload& w, const LoopResult& r) {
  std::ostringstream o;
  if (r.solved()) {
    o << "solved " << w.key() << ": best version " << r.best_version << ", " << r.best_cycles << " cycles";
    if (r.baseline_cycles) o << " (baseline " << *r.baseline_cycles;
    if (r.speedup) o << ", speedup " << fixed(*r.speedup, 2) << "x";
    if (r.baseline_cycles) o << ")";
    o << "; first correct in round " << r.first_correct_round;
  } else {
    o << "not solved " << w.key();
  }
  o << "\nrounds " << r.rounds << "/" << r.budget << ", stop: " << r.stop_reason;
  if (!r.error.empty()) o << " (" << r.error << ")";
  o << "\ntool calls " << r.tool_calls << " (" << r.tool_errors << " errors), evaluations " << r.evaluations
    << ", tokens " << r.usage.input_tokens << " in (" << r.usage.cached_input_tokens << " cached, "
    << r.usage.cache_write_tokens << " cache writes) / " << r.usage.output_tokens << " out ("
    << r.usage.reasoning_tokens << " reasoning)";
  if (r.cost_usd) o << ", cost $" << fixed(*r.cost_usd, 4);
  if (r.compactions) o << ", " << r.compactions << " compaction(s)";
  if (r.resumed) o << ", resumed";
  o << "\n";
  return o.str();
}

}  // namespace tlmcraft::agent
