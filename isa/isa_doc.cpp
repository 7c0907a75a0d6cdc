// Markdown ISA reference generated from an IsaSpec (see isa_doc.h).
#include "isa/isa_doc.h"

#include <cstdio>
#include <set>
#include <sstream>

namespace tlmcraft::isa {

namespace {

std::string bits(int lsb, int msb) { return lsb == msb ? std::to_string(lsb) : std::to_string(msb) + ":" + std::to_string(lsb); }

// Table cells: '|' would end the cell, newlines would end the row.
std::string cell(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '|') o += "\\|";
    else if (c == '\n') o += ' ';
    else o += c;
  }
  return o;
}

std::string code(const std::string& s) { return "`" + s + "`"; }

std::string hex_opcode(uint32_t op) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%02X", op);
  return buf;
}

std::string anchor(const std::string& mnemonic) {
  std::string a;
  for (char c : mnemonic) a += char(std::tolower(static_cast<unsigned char>(c)));
  return a;
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

class Writer {
 public:
  Writer(const IsaSpec& spec, const std::map<std::string, std::string>& notes) : s_(spec), notes_(notes) {}
  std::string run();

 private:
  const IsaSpec& s_;
  const std::map<std::string, std::string>& notes_;
  std::ostringstream o_;

  // The platform's note for a class, else the YAML's own `cycles:` ("" if neither).
  std::string cycles_note(const std::string& cls) const {
    auto it = notes_.find(cls);
    if (it != notes_.end() && !it->second.empty()) return it->second;
    const int64_t c = s_.default_cycles(cls);
    return c < 0 ? "" : std::to_string(c) + (c == 1 ? " cycle" : " cycles") + " (declared in the ISA)";
  }
  std::string latency_text(const std::string& cls) const {
    const std::string note = cycles_note(cls);
    return note.empty() ? cls : cls + " (" + note + ")";
  }
  std::string range_text(const OperandSpec& op) const;
  std::string kind_label(const OperandSpec& op) const;
  std::string encoding_text(const InstructionSpec& ins) const;

  void overview();
  void registers();
  void state();
  void encoding();
  void syntax();
  void units();
  void instruction_class(const ClassInfo& c);
  void instruction(const InstructionSpec& ins);
};

std::string Writer::range_text(const OperandSpec& op) const {
  const OperandKind& k = s_.kinds()[op.kind];
  switch (k.type) {
    case KindType::Register: {
      std::string r = s_.register_classes()[k.register_class].range_text();
      if (op.literal_zero) r += ", or 0 (= " + s_.register_classes()[k.register_class].prefix + "0)";
      return r;
    }
    case KindType::Zero: return "0";
    case KindType::Immediate: {
      const int64_t lo = s_.operand_min(op), hi = s_.operand_max(op);
      return lo == 0 && hi == 1 ? "0 or 1" : std::to_string(lo) + ".." + std::to_string(hi);
    }
  }
  return "";
}

std::string Writer::kind_label(const OperandSpec& op) const {
  const OperandKind& k = s_.kinds()[op.kind];
  return k.type == KindType::Zero ? "placeholder" : k.name;
}

std::string Writer::encoding_text(const InstructionSpec& ins) const {
  std::vector<std::string> parts{"opcode " + hex_opcode(ins.opcode) + " in bits " + bits(s_.opcode_lsb(), s_.opcode_msb())};
  for (const auto& op : ins.operands) {
    if (op.field < 0) continue;
    const OperandKind& k = s_.kinds()[op.kind];
    const FieldSpec& f = s_.fields()[op.field];
    const std::string where = k.has_bits() ? bits(k.lsb, k.msb) : bits(f.lsb, f.msb);
    const std::string what = op.placeholder ? f.name + " = 0" : (op.name == f.name ? f.name : op.name + " -> " + f.name);
    parts.push_back(what + " in bits " + where);
  }
  return join(parts, "; ") + "; other bits 0";
}

void Writer::overview() {
  o_ << "# " << s_.display_name() << " ISA reference\n\n";
  o_ << "<!-- Generated from isa/" << s_.name() << "/" << s_.name()
     << ".yaml by tlmcraft (`tlmcraft isa doc " << s_.name() << "`); do not edit by hand. -->\n\n";
  if (!s_.description().empty()) o_ << s_.description() << "\n\n";
  size_t implemented = 0;
  for (const auto& i : s_.instructions()) implemented += i.implemented;
  o_ << s_.instructions().size() << " instructions (" << implemented << " implemented) in " << s_.classes().size()
     << " classes: ";
  std::vector<std::string> cls;
  for (const auto& c : s_.classes()) cls.push_back(c.name + " (" + std::string(1, c.letter) + ")");
  o_ << join(cls, ", ") << ".\n\n";
  if (!s_.parameters().empty()) {
    o_ << "## Architectural parameters\n\n";
    o_ << "The platform configuration sets these; the values shown are the typical ones.\n\n";
    o_ << "| Name | Typical | Meaning |\n|---|---|---|\n";
    for (const auto& p : s_.parameters()) o_ << "| " << p.name << " | " << cell(p.value) << " | " << cell(p.doc) << " |\n";
    o_ << "\n";
  }
}

void Writer::registers() {
  o_ << "## Registers\n\n";
  o_ << "| Class | Names | Count | Zero register | Meaning |\n|---|---|---|---|---|\n";
  for (const auto& rc : s_.register_classes()) {
    std::string zero = "none";
    if (rc.zero_register >= 0)
      zero = rc.prefix + std::to_string(rc.zero_register) + " always reads zero; writes to it " +
             (rc.zero_writes_dropped ? "are dropped" : "are rejected by the assembler");
    o_ << "| " << rc.name << " | " << code(rc.range_text()) << " | " << rc.count << " | " << cell(zero) << " | "
       << cell(rc.doc) << " |\n";
  }
  o_ << "\n";
}

void Writer::state() {
  if (s_.resources().empty()) return;
  o_ << "## Implicit state\n\n";
  o_ << "| Name | Meaning | Written by | Read by |\n|---|---|---|---|\n";
  for (size_t r = 0; r < s_.resources().size(); ++r) {
    std::vector<std::string> w, rd;
    for (const auto& i : s_.instructions()) {
      for (auto x : i.implicit_writes)
        if (x == r) w.push_back(i.mnemonic);
      for (auto x : i.implicit_reads)
        if (x == r) rd.push_back(i.mnemonic);
    }
    o_ << "| " << s_.resources()[r].name << " | " << cell(s_.resources()[r].doc) << " | " << join(w, ", ") << " | "
       << join(rd, ", ") << " |\n";
  }
  o_ << "\n";
}

void Writer::encoding() {
  o_ << "## Encoding\n\n";
  o_ << "Every instruction is one " << s_.word_bits() << "-bit word (little-endian in binary files). Fields:\n\n";
  o_ << "| Field | Bits | Used for |\n|---|---|---|\n";
  o_ << "| opcode | " << bits(s_.opcode_lsb(), s_.opcode_msb()) << " | the instruction (see each instruction) |\n";
  for (const auto& f : s_.fields()) {
    if (f.has_bits()) {
      o_ << "| " << f.name << " | " << bits(f.lsb, f.msb) << " | register numbers and flags |\n";
    } else {
      for (const auto& k : s_.kinds())
        if (k.type == KindType::Immediate && k.has_bits())
          o_ << "| " << f.name << " (" << k.name << ") | " << bits(k.lsb, k.msb) << " | "
             << cell(k.doc.empty() ? "immediate" : k.doc) << " |\n";
    }
  }
  o_ << "\nAn instruction never uses a field that overlaps its immediate. Unused fields are 0.\n\n";
  o_ << "### Operand kinds\n\n| Kind | Range | Meaning |\n|---|---|---|\n";
  for (const auto& k : s_.kinds()) {
    std::string range;
    if (k.type == KindType::Register) range = s_.register_classes()[k.register_class].range_text();
    else if (k.type == KindType::Zero) range = "0";
    else range = std::to_string(k.min) + ".." + std::to_string(k.max);
    o_ << "| " << k.name << " | " << code(range) << " | " << cell(k.doc) << " |\n";
  }
  o_ << "\n";
}

void Writer::syntax() {
  o_ << "## Assembly syntax\n\n";
  std::vector<std::string> markers;
  for (const auto& m : s_.syntax().comments) markers.push_back(code(m));
  std::vector<std::string> prefixes;
  for (const auto& rc : s_.register_classes()) prefixes.push_back(code(rc.prefix + "N"));
  o_ << "- One instruction per line: `MNEMONIC operand, operand, ...` (operands separated by commas, any spaces or tabs around them).\n";
  o_ << "- Mnemonics are upper case. Registers are lower case: " << join(prefixes, ", ") << ".\n";
  o_ << "- Immediates are decimal (`128`) or hexadecimal (`0x80`); they are unsigned unless an operand says otherwise.\n";
  o_ << "- Comments run from " << join(markers, ", ") << " to the end of the line. Blank lines are ignored.\n";
  o_ << "- Operands in `[brackets]` in a syntax line are optional and default to 0. An operand written `0` in a syntax line is an unused position and must be the literal `0`.\n";
  o_ << "- Labels (`name:`) are not supported";
  if (!s_.syntax().label_hint.empty()) o_ << ": " << s_.syntax().label_hint;
  o_ << ".\n";
  std::string start, end;
  for (const auto& i : s_.instructions()) {
    if (i.loop == LoopRole::Start) start = i.mnemonic;
    if (i.loop == LoopRole::End) end = i.mnemonic;
  }
  if (!start.empty() && !end.empty())
    o_ << "- Hardware loops: every " << code(start) << " needs a matching " << code(end)
       << " with the same counter register; loops nest, inner loops close first, and open loops use different counters. "
          "The assembler checks this.\n";
  o_ << "- The assembler reports every error of a file as `file:line:col: error: message (hint: ...)`.\n\n";
}

void Writer::units() {
  o_ << "## Units and latency classes\n\n";
  o_ << "| Unit | Meaning | Instructions |\n|---|---|---|\n";
  for (const auto& u : s_.units()) {
    std::vector<std::string> m;
    for (const auto& i : s_.instructions())
      if (i.unit == u.name) m.push_back(i.mnemonic);
    o_ << "| " << u.name << " | " << cell(u.doc) << " | " << join(m, ", ") << " |\n";
  }
  o_ << "\n| Latency class | Cycles | Meaning | Instructions |\n|---|---|---|---|\n";
  for (const auto& l : s_.latency_classes()) {
    std::vector<std::string> m;
    for (const auto& i : s_.instructions())
      if (i.latency_class == l.name) m.push_back(i.mnemonic);
    const std::string note = cycles_note(l.name);
    o_ << "| " << l.name << " | " << cell(note.empty() ? "see platform" : note)
       << " | " << cell(l.doc) << " | " << join(m, ", ") << " |\n";
  }
  o_ << "\n";
}

void Writer::instruction_class(const ClassInfo& c) {
  std::vector<const InstructionSpec*> list;
  for (const auto& i : s_.instructions())
    if (i.cls == c.letter) list.push_back(&i);
  if (list.empty()) return;
  o_ << "## " << c.name << " instructions (" << c.letter << ")\n\n";
  if (!c.doc.empty()) o_ << c.doc << "\n\n";
  o_ << "| Instruction | Syntax | Operation | Unit | Latency class |\n|---|---|---|---|---|\n";
  for (const auto* i : list) {
    o_ << "| [" << i->mnemonic << "](#" << anchor(i->mnemonic) << ")" << (i->implemented ? "" : " (not implemented)")
       << " | " << code(cell(i->syntax())) << " | " << code(cell(i->operation)) << " | " << i->unit << " | "
       << cell(latency_text(i->latency_class)) << " |\n";
  }
  o_ << "\n";
  for (const auto* i : list) instruction(*i);
}

void Writer::instruction(const InstructionSpec& ins) {
  o_ << "### " << ins.mnemonic << "\n\n";
  if (!ins.implemented)
    o_ << "**Not implemented on this platform**: listed in the " << s_.display_name()
       << " ISA, rejected by the assembler.\n\n";
  o_ << "```\n" << ins.syntax() << "\n```\n\n";
  o_ << ins.doc << "\n\n";
  o_ << "Operation: `" << ins.operation << "`\n\n";
  if (!ins.operands.empty()) {
    o_ << "| Operand | Kind | Range | Field | Role | Meaning |\n|---|---|---|---|---|---|\n";
    for (const auto& op : ins.operands) {
      std::string meaning = op.doc;
      if (op.placeholder && meaning.empty()) meaning = "unused, write 0";
      if (op.optional) meaning += std::string(meaning.empty() ? "" : "; ") + "optional, default " + std::to_string(op.default_value);
      o_ << "| " << (op.placeholder ? "0" : op.name) << " | " << kind_label(op) << " | " << code(cell(range_text(op)))
         << " | " << (op.field >= 0 ? s_.fields()[op.field].name : "-") << " | " << role_name(op.role) << " | "
         << cell(meaning) << " |\n";
    }
    o_ << "\n";
  }
  o_ << "- Unit: " << ins.unit << "; latency class: " << latency_text(ins.latency_class) << "\n";
  std::vector<std::string> r, w;
  for (auto x : ins.implicit_reads) r.push_back(s_.resources()[x].name);
  for (auto x : ins.implicit_writes) w.push_back(s_.resources()[x].name);
  if (!r.empty() || !w.empty()) {
    o_ << "- Implicit state:";
    if (!r.empty()) o_ << " reads " << join(r, ", ") << (w.empty() ? "" : ";");
    if (!w.empty()) o_ << " writes " << join(w, ", ");
    o_ << "\n";
  }
  o_ << "- Encoding: " << encoding_text(ins) << "\n";
  if (ins.is_fused()) {
    o_ << "- Fused: runs, in order, ";
    for (size_t k = 0; k < ins.fused.size(); ++k) o_ << (k ? ", then " : "") << "`" << ins.fused[k] << "`";
    o_ << " (the operand names stand for this instruction's operands); one issue, its own latency\n";
    if (!ins.compose.temps.empty() && !ins.compose.from_fused)
      o_ << "- Temporaries (hidden storage, never visible to other instructions): " << join(ins.compose.temps, ", ")
         << "; every input is read before any output is written, so operands may name the same register\n";
  }
  if (!ins.semantics.empty()) {
    std::string text;
    for (char c : ins.semantics) text += c == '\n' ? std::string("; ") : std::string(1, c);
    while (text.size() >= 2 && text.compare(text.size() - 2, 2, "; ") == 0) text.resize(text.size() - 2);
    o_ << "- Semantics: `" << text << "` (every input is read before any output is written)\n";
  }
  if (!ins.replaces.steps.empty()) {
    o_ << "- Replaces: ";
    for (size_t k = 0; k < ins.replaces.steps.size(); ++k)
      o_ << (k ? ", then " : "") << "`" << ins.replaces.steps[k].text << "`";
    o_ << " (kernels are rewritten to use it wherever this sequence's dataflow matches)\n";
  }
  for (const auto& n : ins.notes) o_ << "- Note: " << n << "\n";
  o_ << "\n";
}

std::string Writer::run() {
  overview();
  registers();
  state();
  encoding();
  syntax();
  units();
  std::set<char> seen;
  for (const auto& c : s_.classes()) {
    instruction_class(c);
    seen.insert(c.letter);
  }
  return o_.str();
}

}  // namespace

std::string render_isa_markdown(const IsaSpec& spec, const std::map<std::string, std::string>& latency_notes) {
  return Writer(spec, latency_notes).run();
}

}  // namespace tlmcraft::isa
