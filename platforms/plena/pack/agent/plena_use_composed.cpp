#include "platforms/plena/pack/agent/plena_use_composed.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "isa/dataflow/placement_order.h"
#include "platforms/plena/pack/agent/plena_analysis.h"
#include "platforms/plena/pack/agent/plena_dataflow.h"
#include "platforms/plena/pack/agent/plena_kernel.h"
#include "platforms/plena/pack/agent/plena_loop_end.h"

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

// The tokens of the steps that are not names of the definition (literals, and registers
// the steps name directly such as f1).
std::set<std::string> literal_tokens(const ComposedDefinition& def, const std::map<std::string, std::string>& cls) {
  std::set<std::string> out;
  for (const std::string& s : def.steps)
    for (const std::string& t : split_step(s).second)
      if (!cls.count(t)) out.insert(t);
  return out;
}

// The next register "<prefix>N" (N from `next` up to `last`) no step names literally.
std::string free_register(const std::string& prefix, int& next, int last, const std::set<std::string>& taken,
                          const std::string& what) {
  while (next <= last && taken.count(prefix + std::to_string(next))) ++next;
  if (next > last) throw std::invalid_argument(what);
  return prefix + std::to_string(next++);
}

// A kernel holding the steps with every name in its own register (rows 4096
// elements apart), and what each row and each gp register stands for.
std::string synthetic_kernel(const ComposedDefinition& def, const std::map<std::string, std::string>& cls,
                             std::map<std::string, std::string>& storage_to_name,
                             std::map<std::string, std::string>& gp_to_name) {
  const std::set<std::string> taken = literal_tokens(def, cls);
  std::map<std::string, std::string> reg;
  int gp = 1, fp = 1;
  std::string text;
  for (const auto& [name, c] : cls) {
    if (c == "gp") {
      reg[name] = free_register("gp", gp, 15, taken, def.mnemonic + ": more row operands than gp registers");
      const std::string row = std::to_string(std::stoi(reg[name].substr(2)) * 4096);
      text += "S_ADDI_INT " + reg[name] + ", gp0, " + row + "\n";
      storage_to_name["VRAM@s0+" + row] = name;
      gp_to_name[reg[name]] = name;
    } else if (c == "fp") {
      reg[name] = free_register("f", fp, 7, taken, def.mnemonic + ": more fp operands than f registers");
      storage_to_name[reg[name]] = name;
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
    const char* key = ins.contains("compose")                                 ? "compose"
                      : ins.contains("semantics") && ins.contains("replaces") ? "replaces"
                                                                              : nullptr;
    if (!key || !ins[key].is_object() || ins.contains("loop")) continue;  // a loop end's: plena_loop_end.h
    ComposedDefinition d;
    d.mnemonic = ins.value("mnemonic", "");
    for (const auto& o : ins.value("operands", nlohmann::json::array()))
      d.operands.push_back({o.value("name", ""), o.value("kind", "")});
    d.temps = ins[key].value("temps", std::vector<std::string>{});
    d.steps = ins[key].value("steps", std::vector<std::string>{});
    defs.push_back(std::move(d));
  }
  return defs;
}

std::vector<ComposedDefinition> composed_definitions(const isa::IsaSpec& spec) {
  std::vector<ComposedDefinition> defs;
  for (const isa::InstructionSpec& ins : spec.instructions()) {
    const bool composed = ins.is_fused() && ins.semantics.empty();
    if ((!composed && ins.replaces.steps.empty()) || ins.loop != isa::LoopRole::None) continue;
    const isa::Composition& c = composed ? ins.compose : ins.replaces;
    ComposedDefinition d;
    d.mnemonic = ins.mnemonic;
    for (const isa::OperandSpec& o : ins.operands) {
      const isa::OperandKind& k = spec.kinds()[o.kind];
      ComposedDefinition::Operand op{o.placeholder ? "" : o.name, k.name};
      if (!o.placeholder)
        op.absent = (k.type == isa::KindType::Register ? spec.register_classes()[k.register_class].prefix : "") +
                    std::to_string(o.default_value);
      d.operands.push_back(op);
    }
    d.temps = c.temps;
    for (const auto& st : c.steps) d.steps.push_back(st.text);
    defs.push_back(std::move(d));
  }
  return defs;
}

namespace {

// A gp name some step uses as the register itself (S_ADDI_INT rd, rd, 64; a shift
// amount), not only as a row address: its register keeps the name and its row
// becomes "name[]", reached through it (Operand::address), so a match binds both.
void name_register_operands(const std::vector<df::Op>& steps, const std::map<std::string, std::string>& gp_to_name,
                            std::map<std::string, std::string>& storage_to_name) {
  std::set<std::string> updated;
  for (const df::Op& op : steps)
    for (const df::Operand& o : op.operands)
      if (o.access != df::Access::Literal && gp_to_name.count(o.storage)) updated.insert(o.storage);
  for (const std::string& reg : updated) {
    const std::string& name = gp_to_name.at(reg);
    for (auto& [storage, n] : storage_to_name)
      if (n == name) n = name + "[]";
    storage_to_name[reg] = name;
  }
}

}  // namespace

df::Pattern composed_pattern(const ComposedDefinition& def, const nlohmann::json& hardware) {
  const auto cls = name_classes(def);
  std::map<std::string, std::string> storage_to_name, gp_to_name;
  const std::string text = synthetic_kernel(def, cls, storage_to_name, gp_to_name);
  const codesign::KernelDataflow k = plena_dataflow(text, def.mnemonic + " (steps)", hardware);
  const size_t first_step = k.ops.size() - def.steps.size();
  name_register_operands({k.ops.begin() + long(first_step), k.ops.end()}, gp_to_name, storage_to_name);
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
        if (!storage_to_name.count(o.storage)) {
          // A register the steps name directly (V_ADD_VF t2, t1, f1: the constant 1.0 by
          // the kernels' convention) matches only itself; one the steps write would leak.
          if (o.storage.rfind("VRAM@", 0) == 0 || o.writes())
            throw std::invalid_argument(def.mnemonic + ": step " + std::to_string(s + 1) +
                                        " uses a register outside its operands");
          p.fixed[o.storage] = o.storage;
          storage_to_name[o.storage] = o.storage;
        }
        o.storage = storage_to_name.at(o.storage);
        // Reached through a register updated in place: the match binds that register too.
        o.address = o.address.size() && storage_to_name.count(o.address) ? storage_to_name.at(o.address) : "";
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

// The instruction nodes in the order plena_dataflow lists its ops (nullptr for a loop's
// C_LOOP_START and C_LOOP_END).
void flat_nodes(Block& block, std::vector<Node*>& out) {
  for (Node& n : block) {
    if (!n.is_loop) {
      out.push_back(&n);
      continue;
    }
    out.push_back(nullptr);
    flat_nodes(n.body, out);
    out.push_back(nullptr);
  }
}

void erase_nodes(Block& block, const std::set<const Node*>& gone) {
  Block kept;
  for (Node& n : block) {
    if (gone.count(&n)) continue;
    if (n.is_loop) erase_nodes(n.body, gone);
    kept.push_back(std::move(n));
  }
  block = std::move(kept);
}

// The new instruction's text for a match: its operands as the kernel writes them.
std::string instruction_text(const ComposedDefinition& def, const df::Match& m) {
  std::string text = def.mnemonic;
  for (size_t i = 0; i < def.operands.size(); ++i) {
    auto it = m.text.find(def.operands[i].name);
    text += (i ? ", " : " ") + (it == m.text.end() ? def.operands[i].absent : it->second);
  }
  return text;
}

// The new instruction as a tree node's op, assembled by the real assembler (so the ISA
// in force must have it; false when its operands do not assemble).
bool instruction_op(const ComposedDefinition& def, const df::Match& m, const std::string& first_comment, Op& out) {
  Kernel k;
  std::string error;
  if (!parse_kernel(instruction_text(def, m) + "\n", k, error) || k.code.size() != 1 || k.code[0].is_loop) return false;
  out = k.code[0].op;
  out.comment =
      "was " + std::to_string(m.ops.size()) + " instructions" + (first_comment.empty() ? "" : ": " + first_comment);
  return true;
}

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

// PLENA instructions whose rs1 and rs2 may be swapped without changing a bit of the
// result (IEEE addition, multiplication and max are commutative; so are integer add/mul).
bool commutative(const std::string& mnemonic) {
  static const std::set<std::string> names = {"V_ADD_VV", "V_MUL_VV",  "S_ADD_FP", "S_MUL_FP",
                                              "S_MAX_FP", "S_ADD_INT", "S_MUL_INT"};
  return names.count(mnemonic) > 0;
}

// The pattern and its variants with rs1 and rs2 swapped in commutative steps (at most 8),
// so `V_MUL_VV rd, rs1, t3` also matches a kernel's `V_MUL_VV gp2, gp4, gp2`.
std::vector<df::Pattern> pattern_variants(const df::Pattern& p) {
  std::vector<df::Pattern> out{p};
  for (size_t k = 0; k < p.steps.size() && out.size() < 8; ++k) {
    const isa::InstructionSpec* s = plena_spec().find(p.steps[k].mnemonic);
    if (!s || !commutative(s->mnemonic)) continue;
    int a = -1, b = -1;
    for (size_t i = 0; i < s->operands.size(); ++i) {
      if (s->operands[i].name == "rs1") a = int(i);
      if (s->operands[i].name == "rs2") b = int(i);
    }
    if (a < 0 || b < 0 || size_t(std::max(a, b)) >= p.steps[k].operands.size()) continue;
    const size_t n = out.size();
    for (size_t i = 0; i < n; ++i) {
      df::Pattern q = out[i];
      std::swap(q.steps[k].operands[size_t(a)], q.steps[k].operands[size_t(b)]);
      out.push_back(std::move(q));
    }
  }
  return out;
}

// Both places are fine here: the rewrite puts each match where Match::at says.
df::MatchLimits placing() {
  df::MatchLimits l;
  l.place_first = true;
  return l;
}

// The code after a region, as one barrier: it reads the registers live there and every
// memory space (a row the region writes may be read after it through any address), so no
// match treats them as a dead temporary.
df::Op region_exit(const Surroundings& around) {
  df::Op exit;
  exit.mnemonic = "(after the region)";
  exit.barrier = true;
  exit.falls_through = false;
  for (int key : around.live_out) exit.implicit_reads.push_back(key_name(key));
  for (const char* space : {"VRAM@*", "MSRAM@*", "FP_MEM@*", "INT_MEM@*", "HBM@*"})
    exit.implicit_reads.push_back(space);
  return exit;
}

// place_composed for one pattern.
int place_pattern(Kernel& kernel, const ComposedDefinition& def, const df::Pattern& pattern,
                  const nlohmann::json& hardware, uint64_t* executions) {
  codesign::KernelDataflow flow = plena_dataflow(kernel, hardware);
  std::vector<Node*> nodes;
  flat_nodes(kernel.code, nodes);
  if (nodes.size() != flow.ops.size()) return 0;  // the adapter and the tree disagree: leave it
  if (kernel.around.is_region) flow.ops.push_back(region_exit(kernel.around));
  std::set<const Node*> gone;
  int placed = 0;
  for (const df::Match& m : df::find_matches(flow.ops, pattern, placing())) {
    Op op;
    if (!instruction_op(def, m, nodes[m.ops.front()]->op.comment, op)) continue;
    for (size_t i : m.ops)
      if (i != m.at) gone.insert(nodes[i]);
    nodes[m.at]->op = op;  // in the place the matcher chose (the last step's, or the first's)
    if (executions) *executions += flow.executions[m.at];
    ++placed;
  }
  erase_nodes(kernel.code, gone);
  return placed;
}

}  // namespace

int place_composed(Kernel& kernel, const ComposedDefinition& def, const nlohmann::json& hardware,
                   uint64_t* executions) {
  int placed = 0;
  for (const df::Pattern& p : pattern_variants(composed_pattern(def, hardware)))
    placed += place_pattern(kernel, def, p, hardware, executions);
  return placed;
}

// On the text, so the ISA in force need not have the instructions (the co-design loop
// rewrites kernels for a variant before it runs them with the overlay).
UseReport use_composed(const std::string& kernel_text, const std::vector<ComposedDefinition>& defs,
                       const nlohmann::json& hardware) {
  UseReport report{kernel_text, {}, {}};
  Kernel kernel;
  std::string error;
  if (!parse_kernel(kernel_text, kernel, error)) return report;
  const Lines lines = printed_lines(print_kernel(kernel));
  const codesign::KernelDataflow flow = plena_dataflow(kernel, hardware);
  if (flow.ops.size() != lines.of_op.size()) return report;  // printing and flattening disagree: leave it
  std::vector<char> taken(flow.ops.size(), 0);
  std::map<size_t, std::string> replace;  // line -> new text ("" = delete)
  for (const ComposedDefinition& def : defs) {
    int placed = 0;
    for (const df::Pattern& p : pattern_variants(composed_pattern(def, hardware)))
      for (const df::Match& m : df::find_matches(flow.ops, p, placing())) {
        if (std::any_of(m.ops.begin(), m.ops.end(), [&](size_t i) { return taken[i]; })) continue;
        for (size_t i : m.ops) {
          taken[i] = 1;
          replace[lines.of_op[i]] = "";
        }
        const std::string& place = lines.text[lines.of_op[m.at]];
        replace[lines.of_op[m.at]] = place.substr(0, place.find_first_not_of(' ')) + instruction_text(def, m);
        report.executions[def.mnemonic] += flow.executions[m.at];
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
  df::order_larger_first(defs, [](const ComposedDefinition& d) { return d.steps.size(); });
  const UseReport r = use_composed(kernel_text, defs, hardware);
  codesign::KernelRewrite out;
  out.kernel = r.kernel;
  for (const auto& [m, n] : r.uses) out.uses[m].static_count = n;
  for (const auto& [m, n] : r.executions) out.uses[m].executions = n;
  // Loop ends last: the kernel tree cannot parse them (plena_loop_end.h).
  for (const auto& [m, use] : place_loop_ends(out.kernel, loop_end_definitions(overlay))) out.uses[m] = use;
  return out;
}

}  // namespace tlmcraft::agent::search::plena
