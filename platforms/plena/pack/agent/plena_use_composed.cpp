#include "platforms/plena/pack/agent/plena_use_composed.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "platforms/plena/pack/agent/plena_dataflow.h"
#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {
namespace {

namespace df = isa::dataflow;

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// "V_EXP_V t1, t0, 0" -> {"V_EXP_V", {"t1", "t0", "0"}}.
std::pair<std::string, std::vector<std::string>> split_step(const std::string& step) {
  const std::string t = trim(step);
  const size_t sp = t.find_first_of(" \t");
  std::pair<std::string, std::vector<std::string>> out{t.substr(0, sp), {}};
  if (sp == std::string::npos) return out;
  std::stringstream rest(t.substr(sp));
  for (std::string tok; std::getline(rest, tok, ',');) out.second.push_back(trim(tok));
  return out;
}

// Which register class (by name) or immediate each name of the definition
// stands for.
std::map<std::string, std::string> name_classes(const ComposedDefinition& def) {
  const isa::IsaSpec& spec = plena_spec();
  std::map<std::string, std::string> cls;
  for (const std::string& s : def.steps) {
    const auto [mn, toks] = split_step(s);
    const isa::InstructionSpec* ins = spec.find(mn);
    if (!ins) throw std::invalid_argument(def.mnemonic + ": step '" + s + "': unknown instruction " + mn);
    for (size_t i = 0; i < toks.size() && i < ins->operands.size(); ++i) {
      const isa::OperandKind& k = spec.kinds()[ins->operands[i].kind];
      const bool named =
          std::any_of(def.operands.begin(), def.operands.end(), [&](auto& o) { return o.name == toks[i]; }) ||
          std::count(def.temps.begin(), def.temps.end(), toks[i]);
      if (!named) continue;
      cls[toks[i]] = k.type == isa::KindType::Register ? spec.register_classes()[k.register_class].name : "immediate";
    }
  }
  return cls;
}

// A kernel holding the steps with every name in its own register (rows 4096
// elements apart), and what each register stands for.
std::string synthetic_kernel(const ComposedDefinition& def, const std::map<std::string, std::string>& cls,
                             std::map<std::string, std::string>& storage_to_name) {
  std::map<std::string, std::string> reg;
  int gp = 1, fp = 1;
  std::string text;
  for (const auto& [name, c] : cls) {
    if (c == "gp") {
      if (gp > 15) throw std::invalid_argument(def.mnemonic + ": more row operands than gp registers");
      reg[name] = "gp" + std::to_string(gp);
      text += "S_ADDI_INT gp" + std::to_string(gp) + ", gp0, " + std::to_string(gp * 4096) + "\n";
      storage_to_name["VRAM@s0+" + std::to_string(gp * 4096)] = name;
      ++gp;
    } else if (c == "fp") {
      if (fp > 7) throw std::invalid_argument(def.mnemonic + ": more fp operands than f registers");
      reg[name] = "f" + std::to_string(fp);
      storage_to_name[reg[name]] = name;
      ++fp;
    } else {
      reg[name] = "0";  // an immediate parameter: any legal value stands in
    }
  }
  for (const std::string& s : def.steps) {
    auto [mn, toks] = split_step(s);
    text += mn;
    for (size_t i = 0; i < toks.size(); ++i) text += (i ? ", " : " ") + (reg.count(toks[i]) ? reg[toks[i]] : toks[i]);
    text += "\n";
  }
  return text;
}

}  // namespace

std::vector<ComposedDefinition> composed_definitions(const nlohmann::json& overlay) {
  std::vector<ComposedDefinition> defs;
  if (!overlay.is_object() || !overlay.contains("instructions")) return defs;
  for (const auto& ins : overlay["instructions"]) {
    if (!ins.contains("compose")) continue;
    ComposedDefinition d;
    d.mnemonic = ins.value("mnemonic", "");
    for (const auto& o : ins.value("operands", nlohmann::json::array()))
      d.operands.push_back({o.value("name", ""), o.value("kind", "")});
    d.temps = ins["compose"].value("temps", std::vector<std::string>{});
    d.steps = ins["compose"].value("steps", std::vector<std::string>{});
    defs.push_back(std::move(d));
  }
  return defs;
}

df::Pattern composed_pattern(const ComposedDefinition& def, const nlohmann::json& hardware) {
  const auto cls = name_classes(def);
  std::map<std::string, std::string> storage_to_name;
  const std::string text = synthetic_kernel(def, cls, storage_to_name);
  const codesign::KernelDataflow k = plena_dataflow(text, def.mnemonic + " (steps)", hardware);
  df::Pattern p;
  p.name = def.mnemonic;
  p.temps = def.temps;
  std::set<std::string> written;
  const size_t first = k.ops.size() - def.steps.size();
  for (size_t s = 0; s < def.steps.size(); ++s) {
    const auto toks = split_step(def.steps[s]).second;
    const df::Op& op = k.ops[first + s];
    df::PatternStep step{op.mnemonic, {}};
    for (size_t i = 0; i < op.operands.size(); ++i) {
      df::Operand o = op.operands[i];
      if (o.access == df::Access::Literal) {
        if (i < toks.size() && cls.count(toks[i]) && cls.at(toks[i]) == "immediate") o.storage = toks[i];
        if (!o.storage.empty() && !std::count(p.parameters.begin(), p.parameters.end(), o.storage))
          p.parameters.push_back(o.storage);
      } else {
        o.text.clear();
        if (!storage_to_name.count(o.storage))
          throw std::invalid_argument(def.mnemonic + ": step " + std::to_string(s + 1) +
                                      " uses a register outside its operands");
        o.storage = storage_to_name.at(o.storage);
        const bool temp = std::count(def.temps.begin(), def.temps.end(), o.storage) > 0;
        if (o.reads() && !temp && !written.count(o.storage) && !std::count(p.inputs.begin(), p.inputs.end(), o.storage))
          p.inputs.push_back(o.storage);
        if (o.writes()) {
          written.insert(o.storage);
          if (!temp && !std::count(p.outputs.begin(), p.outputs.end(), o.storage)) p.outputs.push_back(o.storage);
        }
      }
      step.operands.push_back(o);
    }
    p.steps.push_back(step);
  }
  const auto problems = df::check_pattern(p);
  if (!problems.empty()) throw std::invalid_argument(def.mnemonic + ": " + problems.front());
  return p;
}

namespace {

// The printed kernel's lines and, per dataflow op, the line that holds it.
struct Lines {
  std::vector<std::string> text;
  std::vector<size_t> of_op;
};

Lines printed_lines(const std::string& printed) {
  Lines l;
  std::stringstream in(printed);
  for (std::string line; std::getline(in, line);) {
    const std::string t = trim(line);
    if (!t.empty() && t[0] != ';') l.of_op.push_back(l.text.size());
    l.text.push_back(line);
  }
  return l;
}

std::string instruction_text(const ComposedDefinition& def, const df::Match& m, const std::string& indent) {
  std::string s = indent + def.mnemonic;
  for (size_t i = 0; i < def.operands.size(); ++i) {
    auto it = m.text.find(def.operands[i].name);
    s += (i ? ", " : " ") + (it == m.text.end() ? std::string("0") : it->second);
  }
  return s;
}

}  // namespace

UseReport use_composed(const std::string& kernel_text, const std::vector<ComposedDefinition>& defs,
                       const nlohmann::json& hardware) {
  UseReport report{kernel_text, {}};
  Kernel kernel;
  std::string error;
  if (!parse_kernel(kernel_text, kernel, error)) return report;
  Lines lines = printed_lines(print_kernel(kernel));
  const codesign::KernelDataflow k = plena_dataflow(kernel_text, "kernel", hardware);
  if (k.ops.size() != lines.of_op.size()) return report;  // printing and flattening disagree: leave it
  std::vector<char> taken(k.ops.size(), 0);
  std::map<size_t, std::string> replace;  // line -> new text ("" = delete)
  for (const ComposedDefinition& def : defs) {
    int placed = 0;
    for (const df::Match& m : df::find_matches(k.ops, composed_pattern(def, hardware))) {
      if (std::any_of(m.ops.begin(), m.ops.end(), [&](size_t i) { return taken[i]; })) continue;
      for (size_t i : m.ops) {
        taken[i] = 1;
        replace[lines.of_op[i]] = "";
      }
      const std::string& last = lines.text[lines.of_op[m.ops.back()]];
      replace[lines.of_op[m.ops.back()]] = instruction_text(def, m, last.substr(0, last.find_first_not_of(' ')));
      report.executions[def.mnemonic] += k.executions[m.ops.back()];
      ++placed;
    }
    if (placed) report.uses.push_back({def.mnemonic, placed});
  }
  if (replace.empty()) return report;
  std::string out;
  for (size_t i = 0; i < lines.text.size(); ++i) {
    auto it = replace.find(i);
    if (it == replace.end())
      out += lines.text[i] + "\n";
    else if (!it->second.empty())
      out += it->second + "\n";
  }
  report.kernel = out;
  return report;
}

}  // namespace tlmcraft::agent::search::plena

namespace tlmcraft::agent::search::plena {

codesign::KernelRewrite plena_use_overlay(const std::string& kernel_text, const nlohmann::json& overlay,
                                          const nlohmann::json& hardware) {
  std::vector<ComposedDefinition> defs = composed_definitions(overlay);
  std::stable_sort(defs.begin(), defs.end(), [](const ComposedDefinition& a, const ComposedDefinition& b) {
    return a.steps.size() > b.steps.size();  // a larger instruction first:
                                             // it saves more per match
  });
  const UseReport r = use_composed(kernel_text, defs, hardware);
  codesign::KernelRewrite out;
  out.kernel = r.kernel;
  for (const auto& [m, n] : r.uses) out.uses[m].static_count = n;
  for (const auto& [m, n] : r.executions) out.uses[m].executions = n;
  return out;
}

}  // namespace tlmcraft::agent::search::plena
