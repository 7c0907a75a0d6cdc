#include "agent/loop.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "agent/context_compaction.h"
#include "agent/tool_text.h"
#include "agent/transcript.h"
#include "tasks/registry.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

json opt_u64(const std::optional<uint64_t>& v) { return v ? json(*v) : json(); }
json opt_double(const std::optional<double>& v) { return v ? json(*v) : json(); }

json tokens_json(const Usage& u) {
  return {{"input", u.input_tokens}, {"output", u.output_tokens}, {"cached_input", u.cached_input_tokens},
          {"cache_write", u.cache_write_tokens}, {"reasoning", u.reasoning_tokens}};
}

std::string first_user_message(const Workload& w, int budget) {
  return "Write a correct kernel for " + w.task + " (configuration " + w.config + ") on " + w.platform +
         ", then make it as fast as you can. You have " + std::to_string(budget) +
         " rounds. Start by writing the kernel with write_code.";
}

std::string phase2_message(const LoopResult& r) {
  std::ostringstream o;
  o << "Phase 2: version " << r.best_version << " is correct with " << r.best_cycles << " cycles";
  if (r.baseline_cycles) o << " (baseline " << *r.baseline_cycles;
  if (r.speedup) o << ", speedup " << fixed(*r.speedup, 2) << "x";
  if (r.baseline_cycles) o << ")";
  o << ". Now reduce the cycles while keeping every output correct: use profile to see where the time goes, write "
       "and evaluate faster versions (the best correct one is kept), and call submit when you cannot improve it.";
  return o.str();
}

const char* kReminder =
    "Your last reply had no tool call. This run only makes progress through tools: write the kernel with "
    "write_code, evaluate it with run_evaluation, or call submit when you are done.";

int level_of(const Workload& w) {
  try {
    return tasks::Registry::builtin().instance(w.task, w.platform, w.config).task().level;
  } catch (const std::exception&) {
    return 0;
  }
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Compacts `conv` and returns the transcript event describing it (null: nothing changed).
json compact_and_describe(std::vector<Message>& conv, const std::vector<ToolSpec>& specs, const std::string& reason,
                          size_t keep_rounds) {
  const size_t before = estimate_request_tokens(conv, specs);
  CompactionOptions co;
  co.keep_recent_rounds = keep_rounds;
  const std::vector<CompactionChange> changes = compact_conversation(conv, co);
  if (changes.empty()) return nullptr;
  json list = json::array();
  for (const auto& ch : changes) list.push_back(ch.to_json());
  return {{"type", "compaction"}, {"reason", reason}, {"tokens_before", before},
          {"tokens_after", estimate_request_tokens(conv, specs)}, {"changes", list}};
}

// One model turn into `out`. A context-length error compacts once more (keeping only the
// newest round) and retries once instead of ending the run. Returns the error text ("" = ok).
std::string request_turn(Provider& provider, const std::vector<Message>& conv, const std::vector<ToolSpec>& specs,
                         const std::function<bool(const std::string&, size_t)>& compact, Completion& out) {
  for (bool retried = false;; retried = true) {
    try {
      out = provider.complete(conv, specs);
      return "";
    } catch (const ContextLengthError& e) {
      if (retried || !compact("context_length_error", 1)) return e.what();
    } catch (const std::exception& e) {
      return e.what();
    }
  }
}

}  // namespace

json LoopResult::to_json() const {
  json best = nullptr;
  if (best_version > 0) {
    best = {{"version", best_version}, {"path", best_path}, {"cycles", best_cycles},
            {"baseline_cycles", opt_u64(baseline_cycles)}, {"speedup", opt_double(speedup)}};
    if (!best_kernel.empty()) best["kernel"] = best_kernel;
  }
  return {{"stop_reason", stop_reason},
          {"error", error},
          {"rounds", rounds},
          {"budget", budget},
          {"first_correct_round", first_correct_round ? json(first_correct_round) : json()},
          {"evaluations", evaluations},
          {"tool_calls", tool_calls},
          {"tool_errors", tool_errors},
          {"tokens", tokens_json(usage)},
          {"cost_usd", opt_double(cost_usd)},
          {"compactions", compactions},
          {"phase", phase},
          {"solved", solved()},
          {"best", best},
          {"resumed", resumed}};
}

LoopResult LoopResult::from_json(const json& j) {
  LoopResult r;
  r.stop_reason = j.value("stop_reason", "");
  r.error = j.value("error", "");
  r.rounds = j.value("rounds", 0);
  r.budget = j.value("budget", 0);
  r.first_correct_round = j.contains("first_correct_round") && j["first_correct_round"].is_number()
                              ? j["first_correct_round"].get<int>() : 0;
  r.evaluations = j.value("evaluations", 0);
  r.tool_calls = j.value("tool_calls", 0);
  r.tool_errors = j.value("tool_errors", 0);
  if (j.contains("tokens")) {
    r.usage.input_tokens = j["tokens"].value("input", uint64_t(0));
    r.usage.output_tokens = j["tokens"].value("output", uint64_t(0));
    r.usage.cached_input_tokens = j["tokens"].value("cached_input", uint64_t(0));
    r.usage.cache_write_tokens = j["tokens"].value("cache_write", uint64_t(0));
    r.usage.reasoning_tokens = j["tokens"].value("reasoning", uint64_t(0));
  }
  if (j.contains("cost_usd") && j["cost_usd"].is_number()) r.cost_usd = j["cost_usd"].get<double>();
  r.compactions = j.value("compactions", 0);
  r.phase = j.value("phase", 1);
  r.resumed = j.value("resumed", false);
  if (j.contains("best") && j["best"].is_object()) {
    const json& b = j["best"];
    r.best_version = b.value("version", 0);
    r.best_path = b.value("path", "");
    r.best_kernel = b.value("kernel", "");
    r.best_cycles = b.value("cycles", uint64_t(0));
    if (b.contains("baseline_cycles") && b["baseline_cycles"].is_number()) r.baseline_cycles = b["baseline_cycles"].get<uint64_t>();
    if (b.contains("speedup") && b["speedup"].is_number()) r.speedup = b["speedup"].get<double>();
  }
  return r;
}

LoopResult run_agent_loop(Provider& provider, Toolbox& toolbox, const LoopOptions& o) {
  const std::string key = o.workload.key();
  LoopResult res;
  res.budget = o.budget > 0 ? o.budget : default_budget(o.level > 0 ? o.level : level_of(o.workload));
  std::vector<Message> conv;
  int reminders = 0;
  std::unique_ptr<TranscriptWriter> tw;
  auto emit = [&](json ev) {
    if (tw) tw->write(std::move(ev));
  };
  auto log = [&](const std::string& s) {
    if (o.log) o.log(s);
  };
  auto push = [&](Message m, int round, json extra = json::object()) {
    json ev = {{"type", "message"}, {"round", round}, {"message", m.to_json()}};
    for (auto& [k, v] : extra.items()) ev[k] = v;
    emit(ev);
    conv.push_back(std::move(m));
  };
  auto round_end = [&](int round) {
    json state = res.to_json();
    state["reminders"] = reminders;
    emit({{"type", "round_end"}, {"round", round}, {"state", state}});
  };

  bool fresh = true;
  if (o.resume) {
    if (o.transcript_path.empty()) throw std::runtime_error("--resume needs a transcript file");
    if (std::filesystem::exists(o.transcript_path)) {
      TranscriptState st = read_transcript(o.transcript_path);
      if (!st.start.is_null() && st.start.contains("workload") && st.start["workload"].value("key", key) != key)
        throw std::runtime_error(o.transcript_path + ": transcript of " + st.start["workload"].value("key", std::string("?")) +
                                 ", not of " + key);
      if (st.result && (*st.result)["result"].value("stop_reason", "") != "provider_error") {
        // Finished: the recorded result stands; nothing is asked of the provider again.
        LoopResult done = LoopResult::from_json((*st.result)["result"]);
        done.resumed = true;
        log("transcript already finished (" + done.stop_reason + "); nothing to resume");
        return done;
      }
      if (!st.last_round_end.is_null()) {
        fresh = false;
        conv = st.conversation;
        const json& state = st.last_round_end["state"];
        const int budget = res.budget;
        res = LoopResult::from_json(state);
        res.budget = budget;  // the budget given now wins (it may have been raised)
        res.stop_reason.clear();
        res.error.clear();
        res.resumed = true;
        reminders = state.value("reminders", 0);
        tw = std::make_unique<TranscriptWriter>(o.transcript_path);
        emit({{"type", "resume"}, {"from_round", res.rounds}, {"messages", conv.size()}, {"dropped_torn_bytes", st.torn_bytes}});
        log("resuming " + key + " after round " + std::to_string(res.rounds) + " (" + std::to_string(conv.size()) +
            " messages)");
      }
    }
  }

  if (fresh) {
    if (!o.transcript_path.empty()) tw = std::make_unique<TranscriptWriter>(o.transcript_path);
    json start = {{"type", "start"},
                  {"workload", {{"platform", o.workload.platform}, {"task", o.workload.task}, {"config", o.workload.config}, {"key", key}}},
                  {"provider", provider.name()},
                  {"budget", res.budget}};
    if (!o.run_info.is_null()) start["run"] = o.run_info;
    emit(start);
    json parts = json::array();
    for (const auto& p : o.prompt.parts) parts.push_back({{"name", p.name}, {"tokens", p.tokens}, {"bytes", p.text.size()}});
    emit({{"type", "prompt_parts"}, {"parts", parts}, {"tokens", o.prompt.tokens()}});
    push(Message::text(Role::System, o.prompt.text()), 0);
    push(Message::text(Role::User, first_user_message(o.workload, res.budget)), 0);
    round_end(0);
  }

  const std::vector<ToolSpec> specs = toolbox.specs();
  // Compacts older rounds; the transcript records each change so a resume repeats it.
  auto compact = [&](const std::string& reason, size_t keep_rounds) {
    const json event = compact_and_describe(conv, specs, reason, keep_rounds);
    if (event.is_null()) return false;
    ++res.compactions;
    json ev = event;
    ev["round"] = res.rounds + 1;
    emit(ev);
    log("compacted " + std::to_string(ev["changes"].size()) + " item(s) (" + reason + "): about " +
        ev["tokens_before"].dump() + " -> " + ev["tokens_after"].dump() + " tokens");
    return true;
  };
  while (true) {
    if (res.rounds >= res.budget) {
      res.stop_reason = "budget";
      break;
    }
    if (o.context_tokens > 0 && estimate_request_tokens(conv, specs) + o.output_reserve_tokens > o.context_tokens)
      compact("context_budget", 2);
    Completion c;
    const std::string failure = request_turn(provider, conv, specs, compact, c);
    if (!failure.empty()) {
      res.stop_reason = "provider_error";
      res.error = failure;
      emit({{"type", "provider_error"}, {"round", res.rounds + 1}, {"error", res.error}});
      log("provider error: " + res.error);
      break;
    }
    const int round = ++res.rounds;
    res.usage += c.usage;
    std::optional<double> turn_cost;
    if (o.price) {
      turn_cost = cost_usd(c.usage, *o.price);
      res.cost_usd = res.cost_usd.value_or(0.0) + *turn_cost;
    }
    Message a = c.message;
    a.role = Role::Assistant;
    // Every call needs an id its answer can name, unique within the turn.
    for (size_t i = 0; i < a.tool_calls.size(); ++i) {
      bool taken = a.tool_calls[i].id.empty();
      for (size_t j = 0; j < i && !taken; ++j) taken = a.tool_calls[j].id == a.tool_calls[i].id;
      if (taken) a.tool_calls[i].id = "call_" + std::to_string(round) + "_" + std::to_string(i + 1);
    }
    const std::vector<ToolCall> calls = a.tool_calls;
    push(std::move(a), round,
         {{"usage", c.usage.to_json()},
          {"cost_usd", opt_double(turn_cost)},
          {"seconds", c.seconds},
          {"stop_reason", c.stop_reason}});

    if (calls.empty()) {
      if (reminders < o.max_reminders) {
        ++reminders;
        push(Message::text(Role::User, kReminder), round);
        round_end(round);
        log("round " + std::to_string(round) + ": no tool call; reminded");
        continue;
      }
      res.stop_reason = "no_tool_call";
      round_end(round);
      log("round " + std::to_string(round) + ": no tool call again; stopping");
      break;
    }
    reminders = 0;

    bool submitted = false;
    std::string summary;
    for (const auto& call : calls) {
      const auto t0 = std::chrono::steady_clock::now();
      ToolResult r;
      try {
        r = toolbox.call(call.name, call.arguments);
      } catch (const std::exception& e) {  // a toolbox must not throw; if one does, the model hears it
        r.is_error = true;
        r.text = call.name + ": " + e.what();
      }
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++res.tool_calls;
      if (r.is_error) ++res.tool_errors;
      emit({{"type", "tool_call"}, {"round", round}, {"id", call.id}, {"name", call.name}, {"arguments", call.arguments},
            {"is_error", r.is_error}, {"seconds", secs}, {"text", r.text}});
      summary += (summary.empty() ? "" : ", ") + call.name + (r.is_error ? " (error)" : "");

      const bool ours = r.data.is_object() && r.data.value("workload", key) == key;
      if (!r.is_error && ours && call.name == "run_evaluation") {
        ++res.evaluations;
        const std::string status = r.data.value("status", "");
        summary += " -> " + status;
        if (status == "pass") {
          const uint64_t cycles = r.data.value("cycles", uint64_t(0));
          summary += " " + std::to_string(cycles) + " cycles";
          if (!res.first_correct_round) res.first_correct_round = round;
          if (res.best_version == 0 || cycles < res.best_cycles) {
            res.best_version = r.data.value("version", 0);
            res.best_cycles = cycles;
            res.best_path = r.data.contains("kernel") ? r.data["kernel"].value("path", "") : "";
            res.baseline_cycles.reset();
            res.speedup.reset();
            if (r.data.contains("baseline_cycles") && r.data["baseline_cycles"].is_number())
              res.baseline_cycles = r.data["baseline_cycles"].get<uint64_t>();
            if (r.data.contains("speedup") && r.data["speedup"].is_number()) res.speedup = r.data["speedup"].get<double>();
          }
        }
      }
      if (!r.is_error && ours && call.name == "submit") submitted = true;
      Message reply = Message::text(Role::Tool, r.text);
      reply.tool_call_id = call.id;
      reply.tool_name = call.name;
      reply.is_error = r.is_error;
      reply.data = r.data;
      push(std::move(reply), round);
    }
    if (res.phase == 1 && res.best_version > 0 && !submitted) {
      res.phase = 2;
      emit({{"type", "phase"}, {"round", round}, {"phase", 2},
            {"reason", "version " + std::to_string(res.best_version) + " passed"}});
      push(Message::text(Role::User, phase2_message(res)), round);
    }
    round_end(round);
    log("round " + std::to_string(round) + ": " + summary);
    if (submitted) {
      res.stop_reason = "submit";
      break;
    }
  }

  if (res.best_version > 0 && !res.best_path.empty()) res.best_kernel = read_text(res.best_path);
  emit({{"type", "result"}, {"result", res.to_json()}});
  return res;
}

}  // namespace tlmcraft::agent
