#include "platforms/plena/pack/agent/plena_search.h"

#include <cctype>
#include <memory>
#include <set>
#include <sstream>

#include "agent/codesign/overlay_scope.h"
#include "platforms/plena/pack/agent/plena_candidates.h"
#include "platforms/plena/pack/agent/plena_use_composed.h"

namespace tlmcraft::agent::search::plena {

using nlohmann::json;

namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string first_word(const std::string& line) {
  std::istringstream in(line);
  std::string w;
  in >> w;
  return upper(w);
}

// The mnemonics of the kernel's instructions (the first word of each line outside comments).
std::set<std::string> kernel_mnemonics(const std::string& kernel) {
  std::set<std::string> out;
  std::istringstream in(kernel);
  for (std::string line; std::getline(in, line);) {
    size_t at = std::string::npos;
    for (const std::string& marker : plena_spec().syntax().comments) at = std::min(at, line.find(marker));
    const std::string w = first_word(line.substr(0, at));
    if (!w.empty()) out.insert(w);
  }
  return out;
}

// The search agent's context: get_hardware_config's form (its timing mode beside the config).
SearchContext search_context(const json& hardware) {
  SearchContext ctx;
  ctx.platform = "plena";
  ctx.hardware = hardware;
  ctx.max_instructions = kSearchMaxInstructions;
  const json timing = hardware.value("config", json::object()).value("timing", json::object());
  if (!hardware.contains("timing_mode") && timing.is_object() && timing.contains("mode") && timing["mode"].is_string())
    ctx.hardware["timing_mode"] = timing["mode"];
  return ctx;
}

// Each instruction of `names` in the kernel: its copies and the times they run.
void count_uses(const Block& code, uint64_t times, const std::set<std::string>& names,
                std::map<std::string, codesign::KernelRewrite::Use>& uses) {
  for (const Node& n : code) {
    if (n.is_loop) {
      count_uses(n.body, times * static_cast<uint64_t>(n.count), names, uses);
    } else if (names.count(n.op.mnemonic())) {
      ++uses[n.op.mnemonic()].static_count;
      uses[n.op.mnemonic()].executions += times;
    }
  }
}

// `r` with the uses of `instructions` (an overlay's) in its kernel.
codesign::KernelRewrite with_uses(codesign::KernelRewrite r, const json& instructions) {
  std::set<std::string> names;
  for (const json& ins : instructions) names.insert(ins.value("mnemonic", ""));
  Kernel parsed;
  std::string error;
  if (!names.empty() && parse_kernel(r.kernel, parsed, error)) count_uses(parsed.code, 1, names, r.uses);
  return r;
}

}  // namespace

codesign::KernelRewrite plena_search_kernel(const std::string& kernel, const json& overlay, const json& hardware) {
  std::unique_ptr<codesign::ScopedOverlay> scope;
  const json instructions = overlay.value("instructions", json::array());
  if (!instructions.empty()) scope = std::make_unique<codesign::ScopedOverlay>(overlay, "plena");
  const SearchContext ctx = search_context(hardware);
  codesign::KernelRewrite out{kernel, {}};
  Kernel parsed;
  std::string error;
  if (!parse_kernel(kernel, parsed, error)) return out;  // the suite run reports why
  if (static_size(parsed.code) > kSearchMaxInstructions) return with_uses(out, instructions);
  double best = estimate_cycles(parsed.code, arch_of(ctx.hardware));
  for (int round = 0; round < kSearchRounds; ++round) {
    const std::vector<Candidate> next = generate_plena_candidates(out.kernel, ctx);
    if (next.empty() || !(next.front().estimate < best)) break;
    best = next.front().estimate;
    out.kernel = next.front().text;
  }
  return with_uses(out, instructions);
}

json plena_search_overlay(const std::string& kernel, const json& overlay, const json& hardware) {
  (void)hardware;
  std::set<std::string> present = kernel_mnemonics(kernel);
  std::map<std::string, std::vector<std::string>> steps;  // by mnemonic: the steps' mnemonics
  for (const ComposedDefinition& d : composed_definitions(overlay))
    for (const std::string& s : d.steps) steps[upper(d.mnemonic)].push_back(first_word(s));
  const json instructions = overlay.value("instructions", json::array());
  std::vector<bool> kept(instructions.size(), false);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < instructions.size(); ++i) {
      const std::string m = upper(instructions[i].value("mnemonic", ""));
      const auto def = steps.find(m);
      bool placeable = present.count(m) || def == steps.end();
      if (!placeable) {
        placeable = true;
        for (const std::string& s : def->second) placeable = placeable && present.count(s);
      }
      if (kept[i] || !placeable) continue;
      kept[i] = grew = true;
      present.insert(m);
    }
  }
  json out = overlay;
  out["instructions"] = json::array();
  std::set<std::string> classes;
  for (size_t i = 0; i < instructions.size(); ++i)
    if (kept[i]) {
      out["instructions"].push_back(instructions[i]);
      classes.insert(instructions[i].value("latency_class", ""));
    }
  if (out["instructions"].empty()) return json::object();
  if (overlay.contains("latency_classes")) {
    out["latency_classes"] = json::array();
    for (const json& c : overlay["latency_classes"])
      if (classes.count(c.value("name", ""))) out["latency_classes"].push_back(c);
  }
  return out;
}

}  // namespace tlmcraft::agent::search::plena
