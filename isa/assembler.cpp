// Line-by-line assembler driven by an IsaSpec. One pass, no regular expressions: each
// line is cut at its first comment marker, split at commas and checked operand by
// operand, so a 10,000-line kernel assembles in a few milliseconds. Errors never stop
// the pass; every line is checked and every problem reported.
#include "isa/assembler.h"
#include "isa/input_limits.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace tlmcraft::isa {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

std::string upper(std::string_view s) {
  std::string u(s);
  for (auto& c : u) c = char(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// "an fp", "a gp", "an addr": short register-class names are read letter by letter.
std::string with_article(const std::string& word) {
  if (word.empty()) return word;
  const char c = char(std::tolower(static_cast<unsigned char>(word[0])));
  const bool vowel_sound = word.size() <= 2 ? std::string("aefhilmnorsx").find(c) != std::string::npos
                                            : std::string("aeiou").find(c) != std::string::npos;
  return (vowel_sound ? "an " : "a ") + word;
}

std::string ordinal_operand(size_t idx, const OperandSpec& op) {
  return "operand " + std::to_string(idx + 1) + (op.placeholder ? "" : " (" + op.name + ")");
}

// Fills {value}, {value >> N} and {value & M} in an operand's range hint.
std::string fill_hint(const std::string& tmpl, int64_t value) {
  std::string out;
  size_t i = 0;
  while (i < tmpl.size()) {
    const size_t open = tmpl.find('{', i);
    if (open == std::string::npos) break;
    const size_t close = tmpl.find('}', open);
    if (close == std::string::npos) break;
    out.append(tmpl, i, open - i);
    std::string_view expr = trim(std::string_view(tmpl).substr(open + 1, close - open - 1));
    bool done = false;
    if (expr.substr(0, 5) == "value") {
      std::string_view rest = trim(expr.substr(5));
      int64_t n = 0;
      if (rest.empty()) {
        out += std::to_string(value), done = true;
      } else if (rest.substr(0, 2) == ">>" && parse_integer(trim(rest.substr(2)), n) && n >= 0 && n < 63) {
        out += std::to_string(value >> n), done = true;
      } else if (rest.substr(0, 1) == "&" && parse_integer(trim(rest.substr(1)), n)) {
        out += std::to_string(value & n), done = true;
      }
    }
    if (!done) out.append(tmpl, open, close - open + 1);
    i = close + 1;
  }
  out.append(tmpl, i, std::string::npos);
  return out;
}

struct OperandToken {
  std::string_view text;
  uint32_t col = 0;
};

class Assembler {
 public:
  Assembler(const IsaSpec& spec, const std::string& file, const AssembleOptions& opt, std::vector<Diagnostic>& diags)
      : spec_(spec), file_(file), opt_(opt), diags_(diags) {
    // Longest prefix first so a prefix that starts another ("a" vs "acc") never shadows it.
    for (size_t i = 0; i < spec.register_classes().size(); ++i) by_prefix_.push_back(int(i));
    std::sort(by_prefix_.begin(), by_prefix_.end(), [&](int a, int b) {
      return spec.register_classes()[a].prefix.size() > spec.register_classes()[b].prefix.size();
    });
  }

  void line(std::string_view text, uint32_t lineno, Program& out);
  void finish(uint32_t last_line);
  size_t errors() const { return errors_; }

 private:
  const IsaSpec& spec_;
  const std::string& file_;
  const AssembleOptions& opt_;
  std::vector<Diagnostic>& diags_;
  std::vector<int> by_prefix_;
  size_t errors_ = 0;

  struct OpenLoop {
    uint32_t line, col;
    int64_t counter;
    const InstructionSpec* ins;
  };
  std::vector<OpenLoop> loops_;
  // Per-line scratch, reused so a line allocates nothing once they have grown.
  std::vector<OperandToken> toks_, op_toks_;
  std::vector<int64_t> values_;
  std::vector<bool> ok_;

  void report(Severity sev, uint32_t line, uint32_t col, std::string_view token, std::string message,
              std::string hint = {}) {
    if (sev == Severity::Error) ++errors_;
    Diagnostic d;
    d.severity = sev;
    d.file = file_;
    d.line = line;
    d.col = col;
    d.token = std::string(token);
    d.message = std::move(message);
    d.hint = std::move(hint);
    diags_.push_back(std::move(d));
  }

  // Register syntax: <prefix><decimal digits>. Returns the class index or -1.
  int parse_register(std::string_view tok, int64_t& number) const {
    for (int c : by_prefix_) {
      const std::string& p = spec_.register_classes()[c].prefix;
      if (tok.size() <= p.size() || tok.compare(0, p.size(), p) != 0) continue;
      std::string_view digits = tok.substr(p.size());
      if (!std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) continue;
      if (!parse_integer(digits, number)) continue;
      return c;
    }
    return -1;
  }

  std::string reg_name(int cls, int64_t n) const {
    return spec_.register_classes()[cls].prefix + std::to_string(n);
  }

  std::string where(const InstructionSpec& ins, size_t idx) const {
    return ordinal_operand(idx, ins.operands[idx]) + " of " + ins.mnemonic + "; syntax: " + ins.syntax();
  }

  bool operand(const InstructionSpec& ins, size_t idx, const OperandToken& t, uint32_t line, int64_t& value);
  const std::vector<OperandToken>& operand_tokens(const InstructionSpec& ins, const std::vector<OperandToken>& toks,
                                                  uint32_t col);
  void mnemonic_error(std::string_view word, uint32_t line, uint32_t col);
  void static_checks(const InstructionSpec& ins, const std::vector<int64_t>& values, const std::vector<bool>& ok,
                     const std::vector<OperandToken>& toks, uint32_t line, uint32_t col);
};

void Assembler::mnemonic_error(std::string_view word, uint32_t line, uint32_t col) {
  const std::string w(word);
  std::string hint;
  if (const InstructionSpec* ins = spec_.find(upper(word))) {
    hint = "mnemonics are upper case: " + ins->mnemonic;
  } else {
    const auto near = nearest_mnemonics(spec_, w);
    if (!near.empty()) {
      hint = "did you mean ";
      for (size_t i = 0; i < near.size(); ++i) hint += (i ? ", " : "") + near[i];
      hint += "?";
    } else {
      hint = "see the instruction list in the " + spec_.display_name() + " ISA reference";
    }
  }
  report(Severity::Error, line, col, word, "unknown mnemonic '" + w + "'", hint);
}

bool Assembler::operand(const InstructionSpec& ins, size_t idx, const OperandToken& t, uint32_t line, int64_t& value) {
  const OperandSpec& op = ins.operands[idx];
  const OperandKind& k = spec_.kinds()[op.kind];
  // Message text is built only on the error paths: this function runs per operand.
  const std::string_view tok_view = t.text;
  auto expected = [&] { return "expected " + spec_.describe_operand(op); };
  int64_t num = 0;
  switch (k.type) {
    case KindType::Register: {
      const RegisterClass& rc = spec_.register_classes()[k.register_class];
      const int cls = parse_register(t.text, num);
      if (cls == k.register_class) {
        if (num >= rc.count) {
          report(Severity::Error, line, t.col, t.text,
                 "register number out of range: '" + std::string(tok_view) + "' (" + rc.name + " registers are " + rc.range_text() + ")",
                 spec_.display_name() + " has " + std::to_string(rc.count) + " " + rc.name + " registers; " +
                     where(ins, idx));
          return false;
        }
        value = num;
        return true;
      }
      if (cls >= 0) {
        const RegisterClass& got = spec_.register_classes()[cls];
        report(Severity::Error, line, t.col, t.text, expected() + ", got '" + std::string(tok_view) + "'",
               "'" + std::string(tok_view) + "' is " + with_article(got.name) + " register; " + where(ins, idx));
        return false;
      }
      if (parse_integer(t.text, num)) {
        if (op.literal_zero && num == 0) {
          value = rc.zero_register;
          return true;
        }
        if (rc.bare_numbers && num >= 0 && num < rc.count) {  // "M_MM_WO 3, gp0, 0" as the templates write it
          value = num;
          return true;
        }
        if (rc.bare_numbers) {
          report(Severity::Error, line, t.col, t.text,
                 "register number out of range: '" + std::string(tok_view) + "' (" + rc.name + " registers are " +
                     rc.range_text() + ", or the numbers 0.." + std::to_string(rc.count - 1) + ")",
                 where(ins, idx));
          return false;
        }
        report(Severity::Error, line, t.col, t.text, expected() + ", got '" + std::string(tok_view) + "'",
               "registers are written " + rc.prefix + "0.." + rc.prefix + std::to_string(rc.count - 1) +
                   ", not as numbers; " + where(ins, idx));
        return false;
      }
      // Right name in the wrong case (GP3, F1).
      std::string lower(tok_view);
      for (auto& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
      if (lower != tok_view && parse_register(lower, num) >= 0) {
        report(Severity::Error, line, t.col, t.text, expected() + ", got '" + std::string(tok_view) + "'",
               "register names are lower case: " + lower + "; " + where(ins, idx));
        return false;
      }
      report(Severity::Error, line, t.col, t.text, expected() + ", got '" + std::string(tok_view) + "'", where(ins, idx));
      return false;
    }
    case KindType::Zero: {
      if (parse_integer(t.text, num) && num == 0) {
        value = 0;
        return true;
      }
      if (k.register_class >= 0 && parse_register(t.text, num) == k.register_class &&
          num == spec_.register_classes()[k.register_class].zero_register) {
        value = 0;
        return true;
      }
      report(Severity::Error, line, t.col, t.text, expected() + ", got '" + std::string(tok_view) + "'",
             "this operand position is unused and must be 0; " + where(ins, idx));
      return false;
    }
    case KindType::Immediate: {
      const int64_t lo = spec_.operand_min(op), hi = spec_.operand_max(op);
      if (!parse_integer(t.text, num)) {
        const int cls = parse_register(t.text, num);
        std::string hint = cls >= 0 ? "'" + std::string(tok_view) + "' is a register, but this operand is a number written in the "
                                      "instruction; "
                                    : std::string("immediates are decimal (123) or hex (0x7B); ");
        report(Severity::Error, line, t.col, t.text, expected() + ", got '" + std::string(tok_view) + "'", hint + where(ins, idx));
        return false;
      }
      if (num < lo || num > hi) {
        std::string hint;
        if (!op.range_hint.empty()) hint = fill_hint(op.range_hint, num);
        else if (lo == 0 && hi == 1) hint = op.name + " is 0 or 1" + (op.doc.empty() ? "" : " (" + op.doc + ")");
        else if (num < 0 && lo >= 0) hint = "immediates are unsigned; " + where(ins, idx);
        else hint = where(ins, idx);
        if (lo == 0 && hi == 1)
          report(Severity::Error, line, t.col, t.text,
                 "expected a flag (0 or 1) for " + op.name + " of " + ins.mnemonic + ", got '" + std::string(tok_view) + "'", hint);
        else
          report(Severity::Error, line, t.col, t.text,
                 "immediate out of range: expected " + std::to_string(lo) + ".." + std::to_string(hi) + " for " +
                     op.name + " of " + ins.mnemonic + ", got '" + std::string(tok_view) + "'",
                 hint);
        return false;
      }
      value = num;
      return true;
    }
  }
  return false;
}

void Assembler::static_checks(const InstructionSpec& ins, const std::vector<int64_t>& values,
                              const std::vector<bool>& ok, const std::vector<OperandToken>& toks, uint32_t line,
                              uint32_t mnemonic_col) {
  // Point at the operand when it was written, else at the mnemonic.
  auto col_of = [&](size_t i) { return i < toks.size() ? toks[i].col : mnemonic_col; };
  // Writes to a hardwired-zero register.
  for (size_t i = 0; i < ins.operands.size() && i < values.size(); ++i) {
    const OperandSpec& op = ins.operands[i];
    if (!ok[i] || (op.role != Role::Write && op.role != Role::ReadWrite)) continue;
    const OperandKind& k = spec_.kinds()[op.kind];
    const RegisterClass& rc = spec_.register_classes()[k.register_class];
    if (values[i] != rc.zero_register || ins.loop != LoopRole::None) continue;
    const std::string r = reg_name(k.register_class, values[i]);
    if (rc.zero_writes_dropped)
      report(Severity::Warning, line, col_of(i), r, ins.mnemonic + " writes " + r + ", but writes to '" + r + "' are dropped",
             r + " always reads zero; use another " + rc.name + " register");
    else
      report(Severity::Error, line, col_of(i), r, "'" + r + "' is hardwired to zero and cannot be written by " + ins.mnemonic,
             "use another " + rc.name + " register");
  }

  // Hardware loops: balanced, properly nested, one counter per open loop. A break leaves
  // the innermost loop (which then needs no end; an end for it finds no open loop).
  if (ins.loop == LoopRole::Break) {
    if (loops_.empty())
      report(Severity::Warning, line, mnemonic_col, ins.mnemonic,
             ins.mnemonic + " outside any loop faults when it executes",
             ins.mnemonic + " leaves the innermost open hardware loop");
    else
      loops_.pop_back();
    return;
  }
  if (ins.loop == LoopRole::None || ins.loop_counter < 0 || !ok[ins.loop_counter]) return;
  const OperandSpec& cop = ins.operands[ins.loop_counter];
  const int cls = spec_.kinds()[cop.kind].register_class;
  const int64_t counter = values[ins.loop_counter];
  const std::string cname = reg_name(cls, counter);
  const auto& rc = spec_.register_classes()[cls];
  const uint32_t col = col_of(size_t(ins.loop_counter));
  if (ins.loop == LoopRole::Start) {
    if (counter == rc.zero_register) {
      report(Severity::Error, line, col, cname,
             "the loop counter of " + ins.mnemonic + " cannot be '" + cname + "' (it always reads 0)",
             "use a free " + rc.name + " register as the counter, e.g. " + reg_name(cls, rc.count - 1));
    }
    for (const auto& open : loops_) {
      if (open.counter != counter) continue;
      report(Severity::Error, line, col, cname,
             "'" + cname + "' is already the counter of an enclosing loop (" + open.ins->mnemonic + " at line " +
                 std::to_string(open.line) + ")",
             "nested loops need different counter registers");
      report(Severity::Note, open.line, open.col, cname, "the enclosing loop with counter " + cname + " starts here");
      break;
    }
    loops_.push_back({line, mnemonic_col, counter, &ins});
    return;
  }
  if (loops_.empty()) {
    report(Severity::Error, line, col, ins.mnemonic, ins.mnemonic + " " + cname + " has no open loop to close",
           "every " + ins.mnemonic + " closes the innermost open loop; is a loop start missing or closed twice?");
    return;
  }
  const OpenLoop top = loops_.back();
  loops_.pop_back();
  if (top.counter != counter) {
    const std::string top_name = reg_name(cls, top.counter);
    report(Severity::Error, line, col, cname,
           ins.mnemonic + " " + cname + " does not match the innermost open loop, " + top.ins->mnemonic + " " +
               top_name + " at line " + std::to_string(top.line),
           "close the innermost loop first: " + ins.mnemonic + " " + top_name);
    report(Severity::Note, top.line, top.col, top_name, "the innermost open loop (counter " + top_name + ") starts here");
  }
}

// Token of each operand position. Omissible placeholders are left out (empty text) when
// the line has fewer operands than the full form's required ones, first ones first.
const std::vector<OperandToken>& Assembler::operand_tokens(const InstructionSpec& ins,
                                                           const std::vector<OperandToken>& toks, uint32_t col) {
  size_t required = 0, omissible = 0;
  for (const auto& op : ins.operands) {
    required += !op.optional;
    omissible += op.omissible;
  }
  size_t omit = toks.size() < required ? std::min(omissible, required - toks.size()) : 0;
  op_toks_.clear();
  size_t next = 0;
  for (const auto& op : ins.operands) {
    if (op.omissible && omit > 0) {
      --omit;
      op_toks_.push_back({std::string_view(), col});
    } else if (next < toks.size()) {
      op_toks_.push_back(toks[next++]);
    }
  }
  return op_toks_;
}

void Assembler::line(std::string_view text, uint32_t lineno, Program& out) {
  // Cut at the first comment marker.
  size_t cut = text.size();
  for (const auto& m : spec_.syntax().comments) cut = std::min(cut, text.find(m));
  std::string_view code = text.substr(0, cut);
  size_t pos = 0;
  auto skip_space = [&] {
    while (pos < code.size() && is_space(code[pos])) ++pos;
  };
  skip_space();
  if (pos >= code.size()) return;

  // Mnemonic (or a label, which PLENA-style ISAs do not have).
  size_t start = pos;
  while (pos < code.size() && !is_space(code[pos]) && code[pos] != ',' && code[pos] != ':') ++pos;
  size_t after = pos;
  skip_space();
  if (pos < code.size() && code[pos] == ':') {
    const std::string label = std::string(code.substr(start, after - start)) + ":";
    report(Severity::Error, lineno, uint32_t(start + 1), label, "labels are not supported: '" + label + "'",
           spec_.syntax().label_hint.empty() ? "remove the label" : spec_.syntax().label_hint);
    ++pos;  // an instruction may follow the label on the same line
    skip_space();
    if (pos >= code.size()) return;
    start = pos;
    while (pos < code.size() && !is_space(code[pos]) && code[pos] != ',' && code[pos] != ':') ++pos;
    after = pos;
  }
  const std::string_view word = code.substr(start, after - start);
  const uint32_t col = uint32_t(start + 1);
  if (word.empty()) {
    report(Severity::Error, lineno, col, code.substr(start, 1), "expected a mnemonic at the start of the line");
    return;
  }
  const InstructionSpec* ins = spec_.find(std::string(word));
  if (!ins) return mnemonic_error(word, lineno, col);
  if (!ins->implemented && !opt_.allow_unimplemented) {
    report(Severity::Error, lineno, col, word,
           "'" + ins->mnemonic + "' is listed in the " + spec_.display_name() +
               " ISA but not implemented on this platform",
           "see the " + spec_.display_name() + " ISA reference for the implemented instructions");
    return;
  }

  // Operands: comma-separated, each a single token.
  std::vector<OperandToken>& toks = toks_;
  toks.clear();
  bool line_ok = true;
  pos = after;
  if (!trim(code.substr(pos)).empty()) {
    while (true) {
      const size_t comma = code.find(',', pos);
      const size_t end = comma == std::string_view::npos ? code.size() : comma;
      size_t b = pos;
      while (b < end && is_space(code[b])) ++b;
      size_t e = b;
      while (e < end && !is_space(code[e])) ++e;
      if (b == end) {
        const bool trailing = comma == std::string_view::npos;
        report(Severity::Error, lineno, uint32_t(trailing ? pos : b + 1), trailing ? std::string_view(",") : std::string_view(),
               trailing ? "trailing comma ',' after the last operand" : "empty operand between commas",
               "syntax: " + ins->syntax());
        line_ok = false;
      } else {
        toks.push_back({code.substr(b, e - b), uint32_t(b + 1)});
        size_t j = e;
        while (j < end && is_space(code[j])) ++j;
        if (j < end) {
          std::string_view junk = trim(code.substr(j, end - j));
          report(Severity::Error, lineno, uint32_t(j + 1), junk,
                 "unexpected '" + std::string(junk) + "' after operand '" + std::string(code.substr(b, e - b)) + "'",
                 "separate operands with commas; comments start with " + spec_.syntax().comments.front());
          line_ok = false;
        }
      }
      if (comma == std::string_view::npos) break;
      pos = comma + 1;
    }
  }

  const size_t min_ops = ins->min_operands(), max_ops = ins->operands.size();
  // After a split error the operand count says nothing new, so it is not reported.
  if (line_ok && (toks.size() < min_ops || toks.size() > max_ops)) {
    const std::string want =
        min_ops == max_ops ? std::to_string(max_ops) : std::to_string(min_ops) + " to " + std::to_string(max_ops);
    const std::string msg = ins->mnemonic + " takes " + want + " operand" + (max_ops == 1 ? "" : "s") + ", got " +
                            std::to_string(toks.size());
    if (toks.size() > max_ops)
      report(Severity::Error, lineno, toks[max_ops].col, toks[max_ops].text,
             "too many operands: " + msg + " (extra operand '" + std::string(toks[max_ops].text) + "')",
             "syntax: " + ins->syntax());
    else
      report(Severity::Error, lineno, col, word, "too few operands: " + msg, "syntax: " + ins->syntax());
    return;
  }
  if (toks.size() > max_ops) return;

  std::vector<int64_t>& values = values_;
  std::vector<bool>& ok = ok_;
  values.assign(max_ops, 0);
  ok.assign(max_ops, true);
  const std::vector<OperandToken>& op_toks = operand_tokens(*ins, toks, col);
  for (size_t i = 0; i < max_ops; ++i) {
    if (i < op_toks.size() && !op_toks[i].text.empty()) {
      ok[i] = operand(*ins, i, op_toks[i], lineno, values[i]);
      line_ok = line_ok && ok[i];
    } else {
      values[i] = ins->operands[i].default_value;
    }
  }
  static_checks(*ins, values, ok, op_toks, lineno, col);
  if (!line_ok) return;

  Instruction in;
  in.id = ins->id;
  in.opcode = ins->opcode;
  in.line = lineno;
  in.col = col;
  for (size_t i = 0; i < max_ops; ++i)
    if (ins->operands[i].field >= 0) in.field[ins->operands[i].field] = values[i];
  out.code.push_back(in);
}

void Assembler::finish(uint32_t last_line) {
  for (const auto& open : loops_) {
    const std::string cname =
        reg_name(spec_.kinds()[open.ins->operands[open.ins->loop_counter].kind].register_class, open.counter);
    std::string closer;
    for (const auto& i : spec_.instructions())
      if (i.loop == LoopRole::End) closer = i.mnemonic;
    report(Severity::Error, open.line, open.col, cname,
           open.ins->mnemonic + " " + cname + " is never closed",
           "add " + closer + " " + cname + " after the loop body (the file ends at line " + std::to_string(last_line) +
               ")");
  }
  loops_.clear();
}

}  // namespace

bool assemble(const IsaSpec& spec, const std::string& source, const std::string& file_name, Program& out,
              std::vector<Diagnostic>& diags) {
  return assemble(spec, source, file_name, out, diags, AssembleOptions{});
}

bool assemble(const IsaSpec& spec, const std::string& source, const std::string& file_name, Program& out,
              std::vector<Diagnostic>& diags, const AssembleOptions& options) {
  out = Program{};
  out.isa = spec.name();
  out.source_name = file_name;
  Assembler as(spec, file_name, options, diags);
  std::string_view src(source);
  uint32_t lineno = 0;
  size_t pos = 0;
  while (pos < src.size()) {
    size_t nl = src.find('\n', pos);
    if (nl == std::string_view::npos) nl = src.size();
    std::string_view line = src.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++lineno;
    out.source_lines.emplace_back(line);
    as.line(line, lineno, out);
    pos = nl + 1;
    // A file of bad lines gives one message per line: past the cap, stop reading.
    if (diags.size() > max_diagnostics() && as.errors() > 0) break;
  }
  const bool stopped = pos < src.size();
  if (!stopped) as.finish(lineno);
  if (diags.size() > max_diagnostics() || stopped) cap_diagnostics(diags, max_diagnostics(), !stopped);
  if (as.errors() > 0) {
    out.code.clear();
    return false;
  }
  return true;
}

InstructionCounts count_instructions(const IsaSpec& spec, const Program& program) {
  InstructionCounts c;
  for (const auto& in : program.code) {
    if (in.id >= spec.instructions().size()) continue;
    const InstructionSpec& ins = spec.instructions()[in.id];
    ++c.total;
    ++c.by_class[std::string(1, ins.cls)];
    ++c.by_unit[ins.unit];
    ++c.by_mnemonic[ins.mnemonic];
  }
  return c;
}

std::vector<std::string> nearest_mnemonics(const IsaSpec& spec, const std::string& word, size_t max) {
  const std::string w = upper(word);
  std::vector<std::pair<size_t, std::string>> scored;
  const size_t limit = std::max<size_t>(2, w.size() / 3);
  for (const auto& ins : spec.instructions()) {
    const size_t d = edit_distance(w, ins.mnemonic);
    // A truncated mnemonic (S_ADDI for S_ADDI_INT) is a good guess even when far in edits.
    const bool prefix = w.size() >= 3 && ins.mnemonic.compare(0, w.size(), w) == 0;
    if (d <= limit || prefix) scored.emplace_back(d, ins.mnemonic);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < max; ++i) out.push_back(scored[i].second);
  return out;
}

size_t error_count(const std::vector<Diagnostic>& diags) {
  return size_t(std::count_if(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

}  // namespace tlmcraft::isa
