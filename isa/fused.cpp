#include "isa/fused.h"

#include <cctype>

#include <map>

#include "isa/assembler.h"
#include "isa/compose.h"

namespace tlmcraft::isa {
namespace {

// An operand value written as assembly text ("gp3", "f1", "0", "42").
std::string operand_text(const IsaSpec& spec, const OperandSpec& op, int64_t value) {
  const OperandKind& k = spec.kinds()[op.kind];
  if (k.type == KindType::Register) return spec.register_classes()[k.register_class].prefix + std::to_string(value);
  if (k.type == KindType::Zero) return "0";
  return std::to_string(value);
}

// Value of operand `op` in `in` (not-encoded placeholders are 0).
int64_t operand_value(const OperandSpec& op, const Instruction& in) {
  return op.field >= 0 ? in.field[op.field] : op.default_value;
}

// Register number of a literal register token of class `rc` ("gp5" -> 5); -1 if not one.
int literal_register(const RegisterClass& rc, const std::string& tok) {
  if (tok.size() <= rc.prefix.size() || tok.compare(0, rc.prefix.size(), rc.prefix) != 0) return -1;
  int64_t v;
  return parse_integer(tok.substr(rc.prefix.size()), v) && v >= 0 && v < rc.count ? int(v) : -1;
}

// `step` with each token that names an operand of `ins` replaced by its value's text and
// each temporary by its register.
std::string substitute(const IsaSpec& spec, const InstructionSpec& ins, const Instruction& in,
                       const std::vector<int>& temp_regs, const std::string& step) {
  std::string mnemonic;
  std::vector<StepToken> toks;
  split_step(step, mnemonic, toks);
  std::string out = mnemonic;
  for (size_t i = 0; i < toks.size(); ++i) {
    std::string text = toks[i].text;
    for (const auto& op : ins.operands)
      if (!op.placeholder && op.name == text) text = operand_text(spec, op, operand_value(op, in));
    for (size_t t = 0; t < ins.compose.temps.size() && t < temp_regs.size(); ++t)
      if (ins.compose.temps[t] == toks[i].text && ins.compose.temp_class[t] >= 0)
        text = spec.register_classes()[ins.compose.temp_class[t]].prefix + std::to_string(temp_regs[t]);
    out += (i ? ", " : " ") + text;
  }
  return out;
}

// Registers of class `cls` that the steps of `in` name (operand values and literals).
std::vector<bool> named_registers(const IsaSpec& spec, const InstructionSpec& ins, const Instruction& in, int cls) {
  const RegisterClass& rc = spec.register_classes()[cls];
  std::vector<bool> used(size_t(rc.count), false);
  if (rc.zero_register >= 0) used[rc.zero_register] = true;
  for (const auto& op : ins.operands) {
    const OperandKind& k = spec.kinds()[op.kind];
    if (k.type == KindType::Register && k.register_class == cls && op.field >= 0) {
      const int64_t v = in.field[op.field];
      if (v >= 0 && v < rc.count) used[size_t(v)] = true;
    }
  }
  for (const auto& st : ins.compose.steps) {
    std::string mnemonic;
    std::vector<StepToken> toks;
    split_step(st.text, mnemonic, toks);
    for (const auto& t : toks)
      if (const int r = literal_register(rc, t.text); r >= 0) used[size_t(r)] = true;
  }
  return used;
}

}  // namespace

bool choose_temp_registers(const IsaSpec& spec, const Instruction& in, std::vector<int>& regs, std::string& error) {
  const InstructionSpec& ins = spec.instruction(in);
  regs.assign(ins.compose.temps.size(), -1);
  std::map<int, std::vector<bool>> used;
  for (size_t t = 0; t < regs.size(); ++t) {
    const int cls = ins.compose.temp_class[t];
    if (cls < 0) continue;  // never used by a step
    if (!used.count(cls)) used[cls] = named_registers(spec, ins, in, cls);
    std::vector<bool>& u = used[cls];
    for (size_t r = 0; r < u.size() && regs[t] < 0; ++r)
      if (!u[r]) regs[t] = int(r), u[r] = true;
    if (regs[t] < 0) {
      error = ins.mnemonic + ": no " + spec.register_classes()[cls].name + " register is left for temporary '" +
              ins.compose.temps[t] + "' (the steps name them all)";
      return false;
    }
  }
  return true;
}

bool expand_fused(const IsaSpec& spec, const Instruction& in, std::vector<Instruction>& steps, std::string& error) {
  const InstructionSpec& ins = spec.instruction(in);
  if (!ins.compose.temps.empty()) {
    std::string names;
    for (const auto& t : ins.compose.temps) names += (names.empty() ? "" : ", ") + t;
    error = ins.mnemonic + " needs temporaries (" + names + "), which this platform gives no hidden storage";
    return false;
  }
  return expand_fused(spec, in, {}, steps, error);
}

bool expand_fused(const IsaSpec& spec, const Instruction& in, const std::vector<int>& temp_regs,
                  std::vector<Instruction>& steps, std::string& error) {
  steps.clear();
  const InstructionSpec& fused = spec.instruction(in);
  for (size_t k = 0; k < fused.compose.steps.size(); ++k) {
    const std::string& text = fused.compose.steps[k].text;
    const std::string where = fused.mnemonic + " step " + std::to_string(k + 1) + " ('" + text + "')";
    const std::string line = substitute(spec, fused, in, temp_regs, text);
    Program prog;
    std::vector<Diagnostic> diags;
    if (!assemble(spec, line, where, prog, diags) || prog.code.size() != 1) {
      std::string causes;
      for (const auto& d : diags) {
        if (d.severity != Severity::Error) continue;
        const bool names_token = d.token.empty() || d.message.find(d.token) != std::string::npos;
        causes += (causes.empty() ? "" : "; ") + d.message + (names_token ? "" : " '" + d.token + "'");
      }
      if (prog.code.size() > 1) causes = "a step must be exactly one instruction";
      error = where + " as '" + line + "': " + causes;
      return false;
    }
    Instruction step = prog.code[0];
    step.line = in.line;
    step.col = in.col;
    steps.push_back(step);
  }
  return true;
}

std::vector<std::string> check_fused_instruction(const IsaSpec& spec, const InstructionSpec& ins) {
  // Sample operand values inside every operand's range: register 1 (not a zero
  // register), the smallest immediate.
  Instruction sample;
  sample.id = ins.id;
  sample.opcode = ins.opcode;
  for (const auto& op : ins.operands) {
    if (op.field < 0) continue;
    const OperandKind& k = spec.kinds()[op.kind];
    sample.field[op.field] =
        k.type == KindType::Register ? std::min<int64_t>(1, spec.operand_max(op)) : spec.operand_min(op);
  }
  std::vector<int> regs;
  std::vector<Instruction> steps;
  std::string err;
  const auto& first = ins.compose.steps.front();
  const std::string at = spec.where_line(first.line) + ":" + std::to_string(first.col) +
                         ": instruction " + ins.mnemonic + ": ";
  if (!choose_temp_registers(spec, sample, regs, err) || !expand_fused(spec, sample, regs, steps, err))
    return {at + err};
  return {};
}

}  // namespace tlmcraft::isa
