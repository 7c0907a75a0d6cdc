#include "isa/fused.h"

#include <cctype>

#include "isa/assembler.h"

namespace tlmcraft::isa {
namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

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

// `step` with each operand that names an operand of `fused` replaced by its value's text.
std::string substitute(const IsaSpec& spec, const InstructionSpec& fused, const Instruction& in,
                       const std::string& step) {
  const std::string line = trim(step);
  const size_t sp = line.find_first_of(" \t");
  if (sp == std::string::npos) return line;
  std::string out = line.substr(0, sp) + " ";
  const std::string rest = line.substr(sp + 1);
  size_t start = 0;
  bool first = true;
  while (start <= rest.size()) {
    const size_t comma = rest.find(',', start);
    const std::string tok = trim(rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    std::string text = tok;
    for (const auto& op : fused.operands)
      if (!op.placeholder && op.name == tok) text = operand_text(spec, op, operand_value(op, in));
    out += (first ? "" : ", ") + text;
    first = false;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// The step's mnemonic must be an ordinary, implemented, non-loop instruction.
std::string step_problem(const IsaSpec& spec, const std::string& step) {
  const std::string line = trim(step);
  const std::string mnemonic = line.substr(0, line.find_first_of(" \t"));
  const InstructionSpec* s = spec.find(mnemonic);
  if (!s) return "unknown instruction '" + mnemonic + "'";
  if (s->is_fused()) return mnemonic + " is itself fused (steps must be ordinary instructions)";
  if (s->loop != LoopRole::None) return mnemonic + " is a loop instruction (not allowed in a fused sequence)";
  if (!s->implemented) return mnemonic + " is not implemented";
  return "";
}

}  // namespace

bool expand_fused(const IsaSpec& spec, const Instruction& in, std::vector<Instruction>& steps, std::string& error) {
  steps.clear();
  const InstructionSpec& fused = spec.instruction(in);
  for (size_t k = 0; k < fused.fused.size(); ++k) {
    const std::string where = fused.mnemonic + " step " + std::to_string(k + 1) + " ('" + fused.fused[k] + "')";
    if (const std::string p = step_problem(spec, fused.fused[k]); !p.empty()) {
      error = where + ": " + p;
      return false;
    }
    const std::string line = substitute(spec, fused, in, fused.fused[k]);
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

std::vector<std::string> check_fused_instructions(const IsaSpec& spec) {
  std::vector<std::string> errors;
  for (const auto& ins : spec.instructions()) {
    if (!ins.is_fused()) continue;
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
    std::vector<Instruction> steps;
    std::string err;
    if (!expand_fused(spec, sample, steps, err))
      errors.push_back(spec.where_line(ins.line) + ": instruction " + ins.mnemonic + ": " + err);
  }
  return errors;
}

}  // namespace tlmcraft::isa
