#include "platforms/plena/pack/agent/plena_loop_end.h"

#include <cctype>
#include <map>
#include <set>

#include "isa/compose.h"
#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {
namespace {

namespace df = isa::dataflow;

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// One line of a kernel: its indentation, mnemonic and operands (comment left out).
struct Line {
  std::string indent, mnemonic;
  std::vector<std::string> operands;
};

Line parse_line(const std::string& raw) {
  std::string code = raw;
  for (const std::string& marker : plena_spec().syntax().comments) code = code.substr(0, code.find(marker));
  Line l;
  l.indent = raw.substr(0, raw.find_first_not_of(" \t"));
  std::vector<isa::StepToken> tokens;
  isa::split_step(trim(code), l.mnemonic, tokens);
  for (const isa::StepToken& t : tokens) l.operands.push_back(t.text);
  return l;
}

// A gp register as written: gpN or a bare N (PLENA accepts both); -1 otherwise.
int register_number(const std::string& text) {
  const std::string digits = text.rfind("gp", 0) == 0 ? text.substr(2) : text;
  if (digits.empty() || digits.size() > 2) return -1;
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
  return std::stoi(digits);
}

isa::LoopRole loop_role(const std::string& mnemonic) {
  const isa::InstructionSpec* s = plena_spec().find(mnemonic);
  return s ? s->loop : isa::LoopRole::None;
}

bool names_register(const Line& l, int reg) {
  for (const std::string& o : l.operands)
    if (register_number(o) == reg) return true;
  return false;
}

// The register `l` updates as the definition's step does, or -1.
int update_of(const Line& l, const LoopEndDefinition& def) {
  const Line step = parse_line(def.step);
  if (l.mnemonic != step.mnemonic || l.operands.size() != step.operands.size()) return -1;
  int reg = -1;
  for (size_t i = 0; i < l.operands.size(); ++i) {
    if (step.operands[i] != def.update) {
      int64_t want = 0, have = 0;
      if (!isa::parse_integer(step.operands[i], want) || !isa::parse_integer(l.operands[i], have) || want != have)
        return -1;
      continue;
    }
    const int r = register_number(l.operands[i]);
    if (r <= 0 || (reg >= 0 && r != reg)) return -1;
    reg = r;
  }
  return reg;
}

// The line of the update the loop end at `end` can take (nothing after it up to the loop
// end names the register, no loop boundary between), or npos.
size_t fusable_update(const std::vector<Line>& lines, size_t end, int counter, const LoopEndDefinition& def) {
  for (size_t j = end; j-- > 0;) {
    const Line& l = lines[j];
    if (l.mnemonic.empty()) continue;
    if (loop_role(l.mnemonic) != isa::LoopRole::None) return std::string::npos;
    const int reg = update_of(l, def);
    if (reg < 0) continue;
    if (reg == counter) return std::string::npos;
    for (size_t k = j + 1; k < end; ++k)
      if (names_register(lines[k], reg)) return std::string::npos;
    return j;
  }
  return std::string::npos;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t nl = text.find('\n', at);
    out.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  return out;
}

}  // namespace

std::vector<LoopEndDefinition> loop_end_definitions(const nlohmann::json& overlay) {
  std::vector<LoopEndDefinition> defs;
  if (!overlay.is_object() || !overlay.contains("instructions")) return defs;
  for (const nlohmann::json& ins : overlay["instructions"]) {
    if (ins.value("loop", "") != "end" || !ins.contains("compose")) continue;
    const auto steps = ins["compose"].value("steps", std::vector<std::string>{});
    if (steps.size() != 1) continue;
    LoopEndDefinition d{ins.value("mnemonic", ""), ins.value("loop_counter", ""), "", steps[0]};
    for (const nlohmann::json& o : ins.value("operands", nlohmann::json::array()))
      if (o.value("name", "") != d.counter && o.value("kind", "") == "gp") d.update = o.value("name", "");
    if (!d.update.empty()) defs.push_back(d);
  }
  return defs;
}

bool plena_loop_end(const df::Op& op) {
  const isa::InstructionSpec* s = plena_spec().find(op.mnemonic);
  return s && s->loop == isa::LoopRole::End && !s->is_fused();
}

bool is_loop_end_pattern(const df::Pattern& p) {
  return !p.steps.empty() && loop_role(p.steps.back().mnemonic) == isa::LoopRole::End;
}

nlohmann::json plena_loop_end_overlay(const df::Pattern& p, const std::string& mnemonic, int64_t opcode,
                                      int64_t cycles) {
  const std::string step = df::step_text(p.steps.front(), {{"io0", "rs1"}});
  const std::string lclass = "codesign_" + mnemonic;
  nlohmann::json operands = {
      {{"name", "rd"}, {"kind", "gp"}, {"field", "rd"}, {"role", "readwrite"}, {"doc", "the innermost loop's counter"}},
      {{"name", "rs1"}, {"kind", "gp"}, {"field", "rs1"}, {"role", "readwrite"}, {"value", "gp"}}};
  nlohmann::json ins = {{"mnemonic", mnemonic},
                        {"opcode", opcode},
                        {"class", "C"},
                        {"unit", "control"},
                        {"latency_class", lclass},
                        {"loop", "end"},
                        {"loop_counter", "rd"},
                        {"operands", operands},
                        {"doc", "Mined loop-end fusion: " + step + " as C_LOOP_END rd runs"},
                        {"operation", step + "; then C_LOOP_END rd"},
                        {"compose", {{"temps", nlohmann::json::array()}, {"steps", {step}}}}};
  nlohmann::json lc = {
      {"name", lclass}, {"cycles", cycles}, {"doc", "estimate: the loop end's own latency (docs/codesign.md)"}};
  return {{"isa", "plena"}, {"instructions", {ins}}, {"latency_classes", {lc}}};
}

std::map<std::string, codesign::KernelRewrite::Use> place_loop_ends(std::string& kernel,
                                                                    const std::vector<LoopEndDefinition>& defs) {
  std::vector<std::string> raw = split_lines(kernel);
  std::vector<Line> lines;
  for (const std::string& r : raw) lines.push_back(parse_line(r));
  std::vector<uint64_t> counts;  // enclosing loops' iterations
  std::set<size_t> erased;
  std::map<std::string, codesign::KernelRewrite::Use> uses;
  for (size_t i = 0; i < lines.size(); ++i) {
    const isa::LoopRole role = loop_role(lines[i].mnemonic);
    int64_t n = 1;
    if (role == isa::LoopRole::Start && lines[i].operands.size() > 1) isa::parse_integer(lines[i].operands[1], n);
    if (role == isa::LoopRole::Start) counts.push_back(uint64_t(std::max<int64_t>(n, 1)));
    if (role != isa::LoopRole::End || lines[i].operands.empty() || counts.empty()) continue;
    uint64_t runs = 1;
    for (uint64_t c : counts) runs *= c;
    counts.pop_back();
    const int counter = register_number(lines[i].operands[0]);
    for (const LoopEndDefinition& def : defs) {
      const size_t j = fusable_update(lines, i, counter, def);
      if (j == std::string::npos) continue;
      const int reg = update_of(lines[j], def);
      raw[i] = lines[i].indent + def.mnemonic + " gp" + std::to_string(counter) + ", gp" + std::to_string(reg) +
               "  ; C_LOOP_END with " + trim(raw[j]);
      lines[i].operands.push_back("gp" + std::to_string(reg));  // still a loop end (for outer loops' scans)
      erased.insert(j);
      lines[j] = Line{};
      uses[def.mnemonic].static_count += 1;
      uses[def.mnemonic].executions += runs;
      break;
    }
  }
  if (uses.empty()) return uses;
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i)
    if (!erased.count(i)) out += raw[i] + "\n";
  kernel = out;
  return uses;
}

}  // namespace tlmcraft::agent::search::plena
