#include "agent/codesign/architect.h"

#include <algorithm>
#include <cmath>
#include <regex>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "agent/codesign/overlay_yaml.h"
#include "agent/json_schema.h"
#include "agent/transcript.h"
#include "harness/variant_uses.h"

namespace tlmcraft::agent::codesign {
namespace {

using nlohmann::json;

ToolResult error(const std::string& text) { return {true, text, {{"error", text}}}; }

std::string fixed(double v, int digits) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(digits);
  os << v;
  return os.str();
}

const json kNoArguments = {{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}};

// Each instruction of the variant's candidates over the suite's `kernels`, worded as every
// report words it (harness/variant_uses.h): placements, executions, area (x area_scale).
json instruction_uses(const Exploration& ex, const VariantResult& v, size_t kernels) {
  json out = json::array();
  for (const std::string& name : v.candidates)
    for (const ExploreCandidate& c : ex.candidates()) {
      if (c.name != name) continue;
      const json instructions = c.overlay.value("instructions", json::array());
      for (const json& ins : instructions) {
        const std::string m = ins.value("mnemonic", "?");
        json t = {{"name", m}, {"static", 0}, {"executions", 0}, {"runs", kernels}, {"runs_using", 0},
                  {"used_by", json::array()}, {"mm2", nullptr}};
        const double mm2 = c.area_mm2 * ex.options().area_scale;
        if (instructions.size() == 1) t["mm2"] = mm2;
        else t["unpriced"] = "one of candidate " + name + "'s instructions, " + fixed(mm2, 6) + " mm2 in all";
        if (v.uses.count(m)) {
          t["static"] = v.uses.at(m).static_count;
          t["executions"] = v.uses.at(m).executions;
        }
        if (v.used_by.count(m)) {
          t["used_by"] = v.used_by.at(m);
          t["runs_using"] = v.used_by.at(m).size();
        }
        t["text"] = harness::suite_variant_use_text(t);
        out.push_back(t);
      }
    }
  return out;
}

// One variant's outcome as the model reads it.
std::string describe(const VariantResult& base, const VariantResult& v, double base_area, const json& uses) {
  std::ostringstream os;
  os << v.id << ": ";
  if (!v.ok) {
    os << "FAILS (never on the front):";
    for (const std::string& f : v.failures) os << " " << f << ";";
  } else {
    os << "pass, suite speedup " << fixed(geomean_speedup(base, v), 4) << "x";
  }
  os << ", area " << fixed(v.area_mm2, 4) << " mm2 (+" << fixed(100 * (v.area_mm2 - base_area) / base_area, 2)
     << "%)";
  for (const json& u : uses) os << "; " << u.value("text", std::string());
  return os.str();
}

}  // namespace

ArchitectToolbox::ArchitectToolbox(Exploration& exploration, const DataflowAdapter& adapter, json hardware)
    : ex_(exploration), adapter_(adapter), hardware_(std::move(hardware)) {}

std::vector<ToolSpec> ArchitectToolbox::specs() const {
  return {
      {"list_candidates",
       "The candidate instructions: name, steps, estimated cycles saved over the suite, area in mm2, the kernels "
       "they come from. Mined ones come first, your proposals after.",
       kNoArguments},
      {"propose_instruction",
       "Add a candidate: an ISA overlay (YAML text with isa:, instructions: and optional latency_classes:, the "
       "format of docs/isa-extensions.md) under a new name. A composed instruction's area is computed from its "
       "steps; give area_mm2 for an instruction with semantics: instead.",
       {{"type", "object"},
        {"properties",
         {{"name", {{"type", "string"}, {"minLength", 1}, {"maxLength", 32}}},
          {"overlay_yaml", {{"type", "string"}, {"minLength", 1}, {"maxLength", kMaxOverlayBytes}}},
          {"area_mm2", {{"type", "number"}, {"minimum", 0}}}}},
        {"required", {"name", "overlay_yaml"}},
        {"additionalProperties", false}}},
      {"evaluate_isa_variant",
       "Evaluate the suite on the ISA with these candidates added (kernels rewritten to use them, fresh seeds). "
       "Returns pass/fail per kernel, the suite speedup against the shipped ISA and the area. A variant is "
       "evaluated once; asking again returns the stored result.",
       {{"type", "object"},
        {"properties",
         {{"candidates", {{"type", "array"}, {"items", {{"type", "string"}}}}}}},
        {"required", {"candidates"}},
        {"additionalProperties", false}}},
      {"get_pareto", "The Pareto front (suite cycles, energy, area) over every variant evaluated so far.", kNoArguments},
  };
}

ToolResult ArchitectToolbox::call(const std::string& tool, const std::string& arguments_json) {
  json args;
  std::string perr;
  if (!parse_arguments(arguments_json, args, perr)) return error(tool + ": " + perr);
  for (const ToolSpec& s : specs()) {
    if (s.name != tool) continue;
    const std::vector<std::string> problems = validate_json(args, s.parameters);
    if (!problems.empty()) return error(tool + ": " + problems.front());
    try {
      if (tool == "list_candidates") return list_candidates();
      if (tool == "propose_instruction") return propose(args);
      if (tool == "evaluate_isa_variant") return evaluate(args);
      return pareto();
    } catch (const std::exception& e) {
      return error(tool + ": " + e.what());
    }
  }
  return error("unknown tool '" + tool + "' (list_candidates, propose_instruction, evaluate_isa_variant, get_pareto)");
}

ToolResult ArchitectToolbox::list_candidates() const {
  std::ostringstream os;
  json data = json::array();
  for (const ExploreCandidate& c : ex_.candidates()) {
    os << c.name << " (area " << fixed(c.area_mm2, 4) << " mm2):";
    for (const json& ins : c.overlay.value("instructions", json::array())) {
      const json steps = ins.contains("compose") ? ins["compose"].value("steps", json::array()) : json::array();
      os << " " << ins.value("mnemonic", "?") << " =";
      for (const json& st : steps) os << " [" << st.get<std::string>() << "]";
      if (ins.contains("semantics")) os << " semantics: " << ins["semantics"].dump();
    }
    os << "\n";
    data.push_back({{"name", c.name}, {"area_mm2", c.area_mm2}, {"overlay", c.overlay}});
  }
  return {false, os.str(), data};
}

ToolResult ArchitectToolbox::propose(const json& args) {
  const std::string name = args["name"];
  if (!std::regex_match(name, std::regex("[A-Z][A-Z0-9_]*")))
    return error("propose_instruction: name '" + name + "' must be upper case letters, digits and _");
  if (proposals_ >= kMaxProposals)
    return error("propose_instruction: at most " + std::to_string(kMaxProposals) + " proposals per run");
  json overlay;
  try {
    overlay = json_of_yaml(YAML::Load(args["overlay_yaml"].get<std::string>()));
  } catch (const YAML::Exception& e) {
    return error("propose_instruction: overlay_yaml:" + std::to_string(e.mark.line + 1) + ":" +
                 std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  if (!overlay.is_object() || overlay.value("isa", "") != adapter_.isa)
    return error("propose_instruction: the overlay must be a map with isa: " + adapter_.isa);
  if (!overlay.contains("instructions") || !overlay["instructions"].is_array() || overlay["instructions"].empty())
    return error("propose_instruction: the overlay adds no instructions");
  double area = 0;
  bool computed = true;
  try {
    area = adapter_.overlay_area(overlay, hardware_);
  } catch (const std::invalid_argument& e) {
    if (!args.contains("area_mm2"))
      return error(std::string("propose_instruction: ") + e.what() + "; give area_mm2 for it");
    area = args["area_mm2"].get<double>();
    computed = false;
  }
  ex_.add_candidate({name, overlay, area});
  ++proposals_;
  return {false,
          name + " added, area " + fixed(area, 4) + " mm2 (" +
              (computed ? "computed by the platform's model" : "as declared") +
              "). Evaluate it with evaluate_isa_variant.",
          {{"name", name}, {"area_mm2", area}, {"area_computed", computed}}};
}

ToolResult ArchitectToolbox::evaluate(const json& args) {
  std::vector<std::string> names = args["candidates"];
  const double added = ex_.added_area(names);
  if (added > ex_.options().area_budget_mm2)
    return error("evaluate_isa_variant: " + fixed(added, 4) + " mm2 added is over the budget of " +
                 fixed(ex_.options().area_budget_mm2, 4) + " mm2");
  const VariantResult& v = ex_.evaluate(names);  // names checked before anything runs
  const VariantResult& base = ex_.evaluate(std::vector<std::string>{});
  const json uses = instruction_uses(ex_, v, base.cycles.size());
  json data = v.to_json();
  data["isa_variant_uses"] = uses;
  return {false, describe(base, v, ex_.options().base_area_mm2, uses), data};
}

ToolResult ArchitectToolbox::pareto() {
  const ExploreResult r = ex_.result();
  std::ostringstream os;
  os << "Pareto front over " << r.variants.size() << " evaluated variants:\n";
  for (const json& v : r.summary["variants"])
    if (v.value("pareto", false))
      os << "  " << v["id"].get<std::string>() << ": speedup " << fixed(v["speedup"].get<double>(), 4) << "x, energy "
         << fixed(v["energy_ratio"].get<double>(), 4) << "x, area +" << fixed(100 * v["area_increase"].get<double>(), 2)
         << "%\n";
  return {false, os.str(), {{"pareto", r.pareto}}};
}

std::string architect_prompt(const Exploration& ex, const std::string& platform) {
  std::ostringstream os;
  os << "You are the architect of the " << platform
     << " accelerator's instruction set. Goal: the largest geometric-mean speedup of the benchmark suite over the "
        "shipped ISA, with every kernel still correct, adding at most "
     << fixed(ex.options().area_budget_mm2, 4) << " mm2 to a platform of " << fixed(ex.options().base_area_mm2, 4)
     << " mm2.\n\nKernels use a new composed instruction automatically wherever its steps' dataflow appears "
        "(registers renamed, independent instructions interleaved); an instruction no kernel matches buys nothing. "
        "Start from the mined candidates (list_candidates); propose your own as overlays (propose_instruction), "
        "combine candidates and measure (evaluate_isa_variant), and finish with get_pareto and a short answer naming "
        "the variant you recommend and why.\n\nAn overlay looks like the mined ones, for example:\n";
  if (!ex.candidates().empty()) os << to_yaml(ex.candidates().front().overlay);
  os << "\nA latency class's cycles are the instruction's latency; the break-even latency of each instruction is "
        "reported at the end.\n";
  return os.str();
}

namespace {

class ArchitectRun {
 public:
  ArchitectRun(Provider& p, ArchitectToolbox& t, Exploration& ex, const ArchitectOptions& o)
      : p_(p), t_(t), ex_(ex), o_(o), writer_(o.transcript_path) {}

  ArchitectResult run() {
    start_or_resume();
    ArchitectResult r;
    r.rounds = rounds_;
    while (r.rounds < o_.budget) {
      Completion c;
      try {
        c = p_.complete(conversation_, t_.specs());
      } catch (const ProviderError& e) {
        r.stop_reason = "provider_error";
        r.error = e.what();
        writer_.write({{"type", "provider_error"}, {"error", r.error}});
        break;
      }
      ++r.rounds;
      add(c.message, r.rounds);
      if (c.message.tool_calls.empty()) {
        r.stop_reason = "answer";
        r.answer = c.message.content;
        writer_.write({{"type", "round_end"}, {"rounds", r.rounds}});
        break;
      }
      for (const ToolCall& call : c.message.tool_calls) answer(call, r);
      writer_.write({{"type", "round_end"}, {"rounds", r.rounds}});
    }
    if (r.stop_reason.empty()) r.stop_reason = "budget";
    r.pareto = ex_.result().pareto;
    writer_.write({{"type", "result"},
                   {"stop_reason", r.stop_reason},
                   {"rounds", r.rounds},
                   {"pareto", r.pareto},
                   {"answer", r.answer}});
    return r;
  }

 private:
  Provider& p_;
  ArchitectToolbox& t_;
  Exploration& ex_;
  const ArchitectOptions& o_;
  TranscriptWriter writer_;
  std::vector<Message> conversation_;
  int rounds_ = 0;

  void start_or_resume() {
    if (o_.resume) {
      const TranscriptState st = read_transcript(o_.transcript_path);
      conversation_ = st.conversation;
      if (!st.last_round_end.is_null()) rounds_ = st.last_round_end.value("rounds", 0);
      writer_.write({{"type", "resume"}, {"rounds", rounds_}});
      if (!conversation_.empty()) return;
    }
    writer_.write({{"type", "start"}, {"agent", "architect"}, {"budget", o_.budget}});
    add(Message::text(Role::System, o_.system_prompt), 0);
    add(Message::text(Role::User, "Design the instruction-set extension. Budget: " + std::to_string(o_.budget) +
                                      " turns."),
        0);
  }

  void add(const Message& m, int round) {
    conversation_.push_back(m);
    writer_.write({{"type", "message"}, {"round", round}, {"message", m.to_json()}});
  }

  void answer(const ToolCall& call, ArchitectResult& r) {
    const ToolResult res = t_.call(call.name, call.arguments);
    ++r.tool_calls;
    if (res.is_error) ++r.tool_errors;
    if (o_.log) o_.log("round " + std::to_string(r.rounds) + ": " + call.name + (res.is_error ? " (error)" : ""));
    Message m = Message::text(Role::Tool, res.text);
    m.tool_call_id = call.id;
    m.tool_name = call.name;
    m.is_error = res.is_error;
    m.data = res.data;
    add(m, r.rounds);
  }
};

}  // namespace

ArchitectResult run_architect(Provider& provider, ArchitectToolbox& tools, Exploration& exploration,
                              const ArchitectOptions& options) {
  return ArchitectRun(provider, tools, exploration, options).run();
}

}  // namespace tlmcraft::agent::codesign
