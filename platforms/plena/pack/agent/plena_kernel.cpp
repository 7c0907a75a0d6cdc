#include "platforms/plena/pack/agent/plena_kernel.h"

#include <map>
#include <mutex>
#include <algorithm>
#include <memory>
#include <stdexcept>

#include "isa/assembler.h"
#include "isa/isa_variant.h"

namespace tlmcraft::agent::search::plena {

// The cache keeps every parsed variant alive, so the reference stays valid.
const isa::IsaSpec& plena_spec() { return *isa::cached_isa_spec("plena"); }

int Op::operand_index(const std::string& name) const {
  for (size_t i = 0; i < spec->operands.size(); ++i)
    if (spec->operands[i].name == name) return static_cast<int>(i);
  return -1;
}

int64_t Op::operand(const std::string& name) const {
  const int i = operand_index(name);
  if (i < 0) throw std::logic_error(spec->mnemonic + " has no operand '" + name + "'");
  return operands[i];
}

isa::Instruction Op::to_instruction() const {
  isa::Instruction in;
  in.id = spec->id;
  in.opcode = spec->opcode;
  for (size_t i = 0; i < spec->operands.size(); ++i)
    if (spec->operands[i].field >= 0) in.field[spec->operands[i].field] = operands[i];
  return in;
}

Op make_op(const std::string& mnemonic, std::vector<int64_t> operands, std::string comment) {
  const isa::InstructionSpec* s = plena_spec().find(mnemonic);
  if (!s) throw std::logic_error("unknown PLENA mnemonic " + mnemonic);
  if (operands.size() < s->min_operands() || operands.size() > s->operands.size())
    throw std::logic_error(mnemonic + ": wrong number of operands");
  for (size_t i = operands.size(); i < s->operands.size(); ++i) operands.push_back(s->operands[i].default_value);
  Op op;
  op.spec = s;
  op.operands = std::move(operands);
  op.comment = std::move(comment);
  return op;
}

namespace {

// Trailing comment of a source line: text after the first comment marker, trimmed.
std::string trailing_comment(const std::string& line) {
  size_t at = std::string::npos;
  for (const auto& marker : plena_spec().syntax().comments) at = std::min(at, line.find(marker));
  if (at == std::string::npos) return {};
  size_t b = at;
  while (b < line.size() && (line[b] == ';' || line[b] == '#' || line[b] == '/')) ++b;
  while (b < line.size() && (line[b] == ' ' || line[b] == '\t')) ++b;
  size_t e = line.size();
  while (e > b && (line[e - 1] == ' ' || line[e - 1] == '\t' || line[e - 1] == '\r')) --e;
  return line.substr(b, e - b);
}

Op op_from(const isa::IsaSpec& spec, const isa::Instruction& in, const std::vector<std::string>& lines) {
  Op op;
  op.spec = &spec.instruction(in);
  for (const auto& o : op.spec->operands) op.operands.push_back(o.field >= 0 ? in.field[o.field] : 0);
  if (in.line >= 1 && in.line <= lines.size()) op.comment = trailing_comment(lines[in.line - 1]);
  return op;
}

void print_block(const Block& block, int depth, std::string& out) {
  const std::string indent(2 * depth, ' ');
  auto emit = [&](const std::string& text, const std::string& comment) {
    std::string line = indent + text;
    if (!comment.empty()) {
      if (line.size() < 37) line.resize(37, ' ');
      else line += ' ';
      line += "; " + comment;
    }
    out += line + "\n";
  };
  for (const Node& n : block) {
    if (!n.is_loop) {
      emit(print_op(n.op), n.op.comment);
      continue;
    }
    emit("C_LOOP_START gp" + std::to_string(n.counter) + ", " + std::to_string(n.count), n.comment);
    print_block(n.body, depth + 1, out);
    emit("C_LOOP_END gp" + std::to_string(n.counter), {});
  }
}

}  // namespace

std::string print_op(const Op& op) {
  const isa::IsaSpec& spec = plena_spec();
  // Trailing optional operands at their default are left out, as people write them.
  size_t shown = op.operands.size();
  while (shown > 0 && op.spec->operands[shown - 1].optional &&
         op.operands[shown - 1] == op.spec->operands[shown - 1].default_value)
    --shown;
  std::string text = op.spec->mnemonic;
  for (size_t i = 0; i < shown; ++i) {
    const isa::OperandSpec& o = op.spec->operands[i];
    const isa::OperandKind& kind = spec.kinds()[o.kind];
    text += i == 0 ? " " : ", ";
    if (kind.type == isa::KindType::Register)
      text += spec.register_classes()[kind.register_class].prefix + std::to_string(op.operands[i]);
    else
      text += std::to_string(op.operands[i]);
  }
  return text;
}

bool parse_kernel(const std::string& text, Kernel& out, std::string& error) {
  const isa::IsaSpec& spec = plena_spec();
  isa::Program program;
  std::vector<isa::Diagnostic> diags;
  if (!isa::assemble(spec, text, "kernel.asm", program, diags)) {
    error = "the kernel does not assemble";
    for (const auto& d : diags)
      if (d.severity == isa::Severity::Error) {
        error = d.format();
        break;
      }
    return false;
  }
  out = Kernel{};
  // Header: comment and blank lines before the first instruction.
  const uint32_t first_line = program.code.empty() ? static_cast<uint32_t>(program.source_lines.size() + 1)
                                                   : program.code.front().line;
  for (uint32_t l = 1; l < first_line && l <= program.source_lines.size(); ++l) {
    const std::string& s = program.source_lines[l - 1];
    if (s.find_first_not_of(" \t\r") != std::string::npos) out.header += s + "\n";
  }
  // Loops nest properly (the assembler checked it): a stack of open bodies.
  std::vector<Block*> open = {&out.code};
  std::vector<Node*> loops;
  for (const isa::Instruction& in : program.code) {
    const isa::InstructionSpec& is = spec.instruction(in);
    if (is.loop == isa::LoopRole::End && is.is_fused()) {  // its update would be lost as a plain loop end
      error = "kernel.asm:" + std::to_string(in.line) + ": " + is.mnemonic +
              " (a loop end with a composed update) is not supported by the search transformations";
      return false;
    }
    if (is.loop == isa::LoopRole::Break) {
      error = "kernel.asm:" + std::to_string(in.line) + ": " + is.mnemonic +
              " (leaving a loop) is not supported by the search transformations";
      return false;
    }
    if (is.loop == isa::LoopRole::Start) {
      Node loop;
      loop.is_loop = true;
      loop.counter = static_cast<int>(in.field[isa::kRd]);
      loop.count = in.field[isa::kImm];
      if (in.line >= 1 && in.line <= program.source_lines.size())
        loop.comment = trailing_comment(program.source_lines[in.line - 1]);
      open.back()->push_back(std::move(loop));
      loops.push_back(&open.back()->back());
      open.push_back(&loops.back()->body);
    } else if (is.loop == isa::LoopRole::End) {
      if (loops.empty()) {
        error = "kernel.asm:" + std::to_string(in.line) + ": C_LOOP_END without an open loop";
        return false;
      }
      loops.pop_back();
      open.pop_back();
    } else {
      open.back()->push_back(Node{false, op_from(spec, in, program.source_lines), 0, 0, {}, {}});
    }
  }
  if (!loops.empty()) {
    error = "kernel.asm: a hardware loop is not closed";
    return false;
  }
  return true;
}

std::string print_kernel(const Kernel& kernel) {
  std::string out = kernel.header;
  print_block(kernel.code, 0, out);
  return out;
}

size_t static_size(const Block& block) {
  size_t n = 0;
  for (const Node& node : block) n += node.is_loop ? 2 + static_size(node.body) : 1;
  return n;
}

uint64_t dynamic_size(const Block& block) {
  uint64_t n = 0;
  for (const Node& node : block)
    n += node.is_loop ? 1 + static_cast<uint64_t>(node.count) * (1 + dynamic_size(node.body)) : 1;
  return n;
}

}  // namespace tlmcraft::agent::search::plena
