#include "agent/search/search_policy.h"

#include <cstdio>
#include <regex>

namespace tlmcraft::agent::search {

namespace {

using nlohmann::json;

double number(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return 0;
  const json& v = j[key];
  return v.is_number() ? v.get<double>() : 0;
}

// The loop's budget messages: "You have 15 rounds.", "... 12 rounds remaining ..." or
// "budget: 15 rounds".
void read_budget_text(const std::string& text, int rounds_so_far, History& h) {
  static const std::regex remaining(R"((\d+)\s+(?:tool\s+)?rounds?\s+(?:remain|left))", std::regex::icase);
  static const std::regex budget(R"(budget[^0-9\n]{0,30}(\d+))", std::regex::icase);
  static const std::regex you_have(R"(you have\s+(\d+)\s+(?:tool\s+)?rounds?)", std::regex::icase);
  std::smatch m;
  if (std::regex_search(text, m, you_have)) h.budget = std::stoi(m[1].str());
  for (auto it = std::sregex_iterator(text.begin(), text.end(), remaining); it != std::sregex_iterator(); ++it)
    h.remaining = rounds_so_far + std::stoi((*it)[1].str());  // stored as the implied total
  if (std::regex_search(text, m, budget)) h.budget = std::stoi(m[1].str());
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

std::string fmt_cycles(double c) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f", c);
  return b;
}

// Why a search without a generator only evaluates and submits the baseline.
std::string no_generator_text(const SearchContext& ctx) {
  return "No search transformations are registered for " +
         (ctx.language.empty() ? std::string("assembly") : ctx.language) + " kernels on platform '" + ctx.platform +
         "' (registered: " + join(candidate_generator_names()) +
         "; docs/platform-sdk.md), so the search agent submits the baseline kernel.";
}

std::string fmt_speedup(double base, double c) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3fx", c > 0 ? base / c : 0.0);
  return b;
}

}  // namespace

History read_history(const std::vector<Message>& conversation) {
  History h;
  std::map<std::string, const Message*> results;
  for (const auto& m : conversation)
    if (m.role == Role::Tool) results[m.tool_call_id] = &m;
  for (const auto& m : conversation) {
    if (m.role == Role::System || m.role == Role::User) {
      read_budget_text(m.content, h.rounds, h);
      continue;
    }
    if (m.role != Role::Assistant) continue;
    ++h.rounds;
    std::string current;  // the kernel the next run_evaluation evaluates
    bool current_valid = false;
    for (const auto& call : m.tool_calls) {
      const auto rit = results.find(call.id);
      const Message* result = rit == results.end() ? nullptr : rit->second;
      const json data = result ? result->data : json();
      const bool failed = !result || result->is_error;
      if (call.name == "get_task" || call.name == "get_hardware_config" || call.name == "get_baseline") h.have_info = true;
      if (call.name == "get_task" && !failed) {
        h.level = static_cast<int>(number(data, "level"));
      } else if (call.name == "get_hardware_config" && !failed) {
        h.platform = data.value("platform", "");
        h.hardware = data;
      } else if (call.name == "get_baseline") {
        if (failed) {
          h.baseline_error = true;
          h.baseline_error_text = result ? result->content : "no answer";
        } else {
          h.baseline = data.value("source", "");
          const std::string file = data.value("file_name", "");
          if (file.size() > 2 && file.compare(file.size() - 2, 2, ".c") == 0) h.language = "c";
          h.baseline_cycles = number(data, "cycles");
        }
      } else if (call.name == "write_code") {
        current_valid = false;
        if (failed) continue;
        try {
          const json args = json::parse(call.arguments);
          current = args.at("code").get<std::string>();
          current_valid = true;
        } catch (const std::exception&) {
        }
      } else if (call.name == "run_evaluation") {
        if (!current_valid || !result) continue;
        Evaluated e;
        e.text = current;
        e.correct = !result->is_error && data.value("status", "") == "pass";
        e.cycles = number(data, "cycles");
        h.evaluated.push_back(e);
        if (current == h.baseline) h.baseline_evaluated = true;
      } else if (call.name == "profile" && !failed && !h.evaluated.empty() && data.contains("hot_lines") &&
                 data["hot_lines"].is_array()) {
        // profile reports the latest evaluation: the kernel just evaluated.
        for (const auto& l : data["hot_lines"])
          if (l.is_object()) h.evaluated.back().hot_lines.emplace_back(static_cast<int>(number(l, "line")), number(l, "cycles"));
      } else if (call.name == "submit" && !failed) {
        h.submitted = true;
      }
    }
  }
  return h;
}

int effective_budget(const History& h) {
  if (h.remaining >= 0) return h.remaining;
  if (h.budget > 0) return h.budget;
  if (h.level == 2) return 20;
  if (h.level == 3) return 25;
  return 15;
}

Turn plan_turn(const History& h, const PolicyOptions& options, std::map<std::string, std::vector<Candidate>>* cache) {
  Turn turn;
  auto call = [&](const std::string& name, json args = json::object()) {
    if (name == "write_code" && !h.language.empty()) args["language"] = h.language;
    turn.calls.emplace_back(name, std::move(args));
  };
  if (h.submitted) {
    turn.text = "The best kernel is submitted.";
    return turn;
  }
  if (!h.have_info) {
    turn.text = "Reading the task, the hardware configuration and the baseline kernel.";
    call("get_task");
    call("get_hardware_config");
    call("get_baseline");
    return turn;
  }
  if (h.baseline_error || h.baseline.empty()) {
    turn.text = "There is no baseline kernel to start from (" +
                (h.baseline_error_text.empty() ? std::string("empty baseline") : h.baseline_error_text) +
                "); the search agent only transforms existing kernels, so it stops here.";
    return turn;
  }
  const int budget = effective_budget(h);
  const int remaining = budget - h.rounds;  // rounds left including this one
  const Evaluated* best = best_correct(h.evaluated);
  const double base = h.baseline_cycles > 0 ? h.baseline_cycles : (h.evaluated.empty() ? 0 : h.evaluated.front().cycles);

  auto finish = [&](const std::string& why) {
    const std::string code = best ? best->text : h.baseline;
    turn.text = why + " Submitting " +
                (best ? "the best correct kernel (" + fmt_cycles(best->cycles) + " cycles, baseline " + fmt_cycles(base) +
                            ", speedup " + fmt_speedup(base, best->cycles) + ")."
                      : std::string("the baseline kernel (no correct kernel was found)."));
    call("write_code", {{"code", code}});
    call("run_evaluation");
    call("submit");
    return turn;
  };

  if (remaining <= 1) return finish("Last round of " + std::to_string(budget) + ".");

  SearchContext ctx;
  ctx.hardware = h.hardware;
  ctx.seed = options.seed;
  ctx.max_instructions = options.max_instructions;
  ctx.language = h.language;
  ctx.platform = h.platform;
  // Until the baseline's own evaluation comes back, get_baseline's cycles stand in for it.
  std::vector<Evaluated> known = h.evaluated;
  if (!h.baseline_evaluated) known.push_back({h.baseline, true, h.baseline_cycles, {}});
  const CandidateGeneratorRegistration* generator = find_candidate_generator(ctx);
  const std::string none_registered = generator ? "" : no_generator_text(ctx);
  const std::vector<Candidate> batch = next_batch(known, ctx, options.batch, cache);
  if (batch.empty() && h.baseline_evaluated)
    return finish(generator ? "No untried transformation is left." : none_registered);

  std::string text = "Round " + std::to_string(h.rounds + 1) + " of " + std::to_string(budget) + ": ";
  if (best)
    text += "best so far " + fmt_cycles(best->cycles) + " cycles (baseline " + fmt_cycles(base) + ", speedup " +
            fmt_speedup(base, best->cycles) + ").";
  else
    text += "no correct kernel evaluated yet.";
  // A generator that ranks by profile gets each evaluation's hottest source lines.
  const bool profile = options.profile && generator && generator->uses_profile;
  if (!h.baseline_evaluated) {
    text += " Evaluating the baseline." + (generator ? std::string() : " " + none_registered);
    call("write_code", {{"code", h.baseline}});
    call("run_evaluation");
    if (profile) call("profile");
  }
  if (!batch.empty()) text += " Trying:";
  for (size_t i = 0; i < batch.size(); ++i) {
    text += (i ? "; " : " ") + batch[i].name;
    call("write_code", {{"code", batch[i].text}});
    call("run_evaluation");
    if (profile) call("profile");
  }
  turn.text = text;
  return turn;
}

}  // namespace tlmcraft::agent::search
