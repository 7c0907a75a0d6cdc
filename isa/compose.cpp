#include "isa/compose.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "isa/fused.h"

namespace tlmcraft::isa {
namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool has_word(const std::string& text, const std::string& word) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool left = at == 0 || !word_char(text[at - 1]);
    const bool right = at + word.size() >= text.size() || !word_char(text[at + word.size()]);
    if (left && right) return true;
  }
  return false;
}

// Position of the assignment '=' of an operation text (not ==, <=, >=, !=); npos if none.
// `compound` is set for +=, -=, ... (the target is read too).
size_t assignment(const std::string& op, bool& compound) {
  for (size_t i = 0; i < op.size(); ++i) {
    if (op[i] != '=') continue;
    if (i + 1 < op.size() && op[i + 1] == '=') {
      ++i;
      continue;
    }
    const char prev = i ? op[i - 1] : ' ';
    if (prev == '<' || prev == '>' || prev == '!') continue;
    compound = prev == '+' || prev == '-' || prev == '*' || prev == '/' || prev == '|' || prev == '&' || prev == '^';
    return i;
  }
  return std::string::npos;
}

// True when every whole-word occurrence of `word` in `text` is inside two or more
// brackets ("VRAM[gp[rd]]"), and there is one.
bool only_nested(const std::string& text, const std::string& word) {
  bool any = false;
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '[') ++depth;
    if (text[i] == ']') --depth;
    if (text.compare(i, word.size(), word) != 0) continue;
    const bool left = i == 0 || !word_char(text[i - 1]);
    const bool right = i + word.size() >= text.size() || !word_char(text[i + word.size()]);
    if (!left || !right) continue;
    if (depth < 2) return false;
    any = true;
  }
  return any;
}

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

// True when `text` is a register of class `rc` written as a literal ("gp5", "f0").
bool register_literal(const RegisterClass& rc, const std::string& text) {
  if (text.size() <= rc.prefix.size() || text.compare(0, rc.prefix.size(), rc.prefix) != 0) return false;
  for (size_t i = rc.prefix.size(); i < text.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  return true;
}

enum class Name { Operand, Temp, Literal };

struct Token {
  std::string text;
  size_t offset = 0;
  int op = -1;  // operand index in the step's instruction
  Name name = Name::Literal;
  int index = -1;  // operand index of the composed instruction, or temp index
  bool def = false, use = false;
  bool addressed = false;  // def/use are of the memory the register addresses
};

struct Step {
  const InstructionSpec* spec = nullptr;
  std::string mnemonic;
  std::vector<Token> tokens;
};

class Normaliser {
 public:
  // `c` is the instruction's `compose:` or its `replaces:` (`label` "replaces: "), which
  // is checked the same way but never executed.
  Normaliser(IsaSpec& spec, InstructionSpec& ins, Composition& c, std::vector<std::string>& errors,
             const std::string& label = "")
      : spec_(spec), ins_(ins), c_(c), errors_(errors), label_(label) {}

  void run() {
    if (!parse_steps()) return;
    if (!infer_temp_classes()) return;
    if (c_.from_fused && !convert_fused()) return;
    if (!check_roles() || !check_alias_safety()) return;
    if (label_.empty() && (!check_loop_end() || !check_write_ports())) return;
    rebuild_text();
  }

 private:
  IsaSpec& spec_;
  InstructionSpec& ins_;
  Composition& c_;
  std::vector<std::string>& errors_;
  std::string label_;
  std::vector<Step> steps_;

  void error(size_t k, size_t offset, const std::string& msg) {
    const Composition::Step& s = c_.steps[k];
    errors_.push_back(spec_.where_line(s.line) + ":" + std::to_string(s.col + int(offset)) +
                      ": instruction " + ins_.mnemonic + ": " + label_ + "step " + std::to_string(k + 1) + " ('" + s.text +
                      "'): " + msg);
  }

  std::string kind_text(int kind) const {
    const OperandKind& k = spec_.kinds()[kind];
    if (k.type == KindType::Register) return "a " + spec_.register_classes()[k.register_class].name + " register";
    if (k.type == KindType::Zero) return "the literal 0";
    return "an immediate (" + k.name + ")";
  }

  bool parse_steps() {
    bool ok = true;
    for (size_t k = 0; k < c_.steps.size(); ++k) {
      Step st;
      std::vector<StepToken> toks;
      split_step(c_.steps[k].text, st.mnemonic, toks);
      st.spec = spec_.find(st.mnemonic);
      std::string problem;
      if (!st.spec) problem = "unknown instruction '" + st.mnemonic + "'";
      else if (st.spec->is_fused()) problem = st.mnemonic + " is itself composed (steps must be ordinary instructions)";
      else if (!st.spec->semantics.empty()) problem = st.mnemonic + " has expression semantics (steps must be ordinary instructions)";
      else if (st.spec->loop != LoopRole::None) problem = st.mnemonic + " is a loop instruction (not allowed in a composed instruction)";
      else if (!st.spec->implemented) problem = st.mnemonic + " is not implemented";
      if (!problem.empty()) {
        error(k, 0, problem);
        ok = false;
        continue;
      }
      const std::vector<OperandEffect> fx = operand_effects(spec_, *st.spec);
      const std::vector<int> ops = token_operands(*st.spec, toks.size());
      if (!label_.empty() && !arity_ok(k, *st.spec, toks)) {
        ok = false;
        continue;
      }
      for (size_t i = 0; i < toks.size(); ++i) {
        Token t;
        t.text = toks[i].text;
        t.offset = toks[i].offset;
        t.op = ops[i];
        if (t.op >= 0) t.def = fx[t.op].def, t.use = fx[t.op].use, t.addressed = fx[t.op].addressed;
        ok = resolve(k, *st.spec, t) && ok;
        st.tokens.push_back(t);
      }
      steps_.push_back(std::move(st));
    }
    return ok;
  }

  // A `replaces:` step is never assembled, so its operand count is checked here (a
  // composed step's is checked by assembling it, check_fused_instruction).
  bool arity_ok(size_t k, const InstructionSpec& step, const std::vector<StepToken>& toks) {
    if (toks.size() > step.operands.size()) {
      error(k, toks[step.operands.size()].offset, step.mnemonic + " takes at most " +
                                                      std::to_string(step.operands.size()) + " operands, got " +
                                                      std::to_string(toks.size()));
      return false;
    }
    if (toks.size() < step.min_operands()) {
      error(k, 0, step.mnemonic + " needs at least " + std::to_string(step.min_operands()) + " operands (" +
                      step.syntax() + "), got " + std::to_string(toks.size()));
      return false;
    }
    return true;
  }

  // Names the token: one of the instruction's operands, a temporary or a literal; checks
  // that the step's operand at that position can hold it.
  bool resolve(size_t k, const InstructionSpec& step, Token& t) {
    for (size_t i = 0; i < ins_.operands.size(); ++i)
      if (!ins_.operands[i].placeholder && ins_.operands[i].name == t.text) t.name = Name::Operand, t.index = int(i);
    for (size_t i = 0; i < c_.temps.size(); ++i)
      if (c_.temps[i] == t.text) t.name = Name::Temp, t.index = int(i);
    if (t.op < 0) return true;  // too many operands: the assembler reports it at expansion
    const int want = step.operands[t.op].kind;
    const OperandKind& wk = spec_.kinds()[want];
    const std::string& what = step.operands[t.op].name;
    if (t.name == Name::Literal) {
      if (t.text.empty() || !is_identifier_start(t.text[0])) return true;
      if (wk.type == KindType::Register && register_literal(spec_.register_classes()[wk.register_class], t.text))
        return true;
      std::string names;
      for (const auto& op : ins_.operands)
        if (!op.placeholder) names += (names.empty() ? "" : ", ") + op.name;
      for (const auto& n : c_.temps) names += (names.empty() ? "" : ", ") + n;
      error(k, t.offset, "unknown operand or temporary '" + t.text + "' (known: " + names + ")");
      return false;
    }
    if (t.name == Name::Temp) {
      if (wk.type != KindType::Register) {
        error(k, t.offset, "temporary '" + t.text + "' is used as " + step.mnemonic + "'s " + what + ", which is " +
                               kind_text(want) + " (a temporary is a register)");
        return false;
      }
      return true;
    }
    const int have = ins_.operands[t.index].kind;
    const OperandKind& hk = spec_.kinds()[have];
    const bool regs = hk.type == KindType::Register && wk.type == KindType::Register;
    if ((regs && hk.register_class != wk.register_class) || (hk.type == KindType::Register) != (wk.type == KindType::Register)) {
      error(k, t.offset, "type error: operand '" + t.text + "' is " + kind_text(have) + " but " + step.mnemonic + "'s " +
                             what + " is " + kind_text(want));
      return false;
    }
    return true;
  }

  bool infer_temp_classes() {
    c_.temp_class.assign(c_.temps.size(), -1);
    std::vector<size_t> first(c_.temps.size(), 0);
    bool ok = true;
    for (size_t k = 0; k < steps_.size(); ++k)
      for (const Token& t : steps_[k].tokens) {
        if (t.name != Name::Temp || t.op < 0) continue;
        const int cls = spec_.kinds()[steps_[k].spec->operands[t.op].kind].register_class;
        int& known = c_.temp_class[t.index];
        if (known < 0) known = cls, first[t.index] = k;
        else if (known != cls) {
          error(k, t.offset, "type error: temporary '" + t.text + "' is a " + spec_.register_classes()[known].name +
                                 " register in step " + std::to_string(first[t.index] + 1) + " but a " +
                                 spec_.register_classes()[cls].name + " register here");
          ok = false;
        }
      }
    return ok;
  }

  // Legacy form: every write of an output but its last goes to a fresh temporary; reads
  // between two writes read the temporary holding the latest value.
  bool convert_fused() {
    std::map<int, size_t> last_def;  // output operand -> last step writing it
    for (size_t k = 0; k < steps_.size(); ++k)
      for (const Token& t : steps_[k].tokens)
        if (t.name == Name::Operand && t.def) last_def[t.index] = k;
    std::map<int, std::string> current;  // output operand -> name holding its latest value
    for (size_t k = 0; k < steps_.size(); ++k) {
      for (Token& t : steps_[k].tokens)
        if (t.name == Name::Operand && t.use && !t.def && current.count(t.index)) rename(t, current[t.index]);
      for (Token& t : steps_[k].tokens) {
        if (t.name != Name::Operand || !t.def) continue;
        const int out = t.index;
        const bool held = current.count(out) && current[out] != ins_.operands[out].name;
        if (last_def[out] == k) {
          if (t.use && held) {
            error(k, t.offset, "reads and writes " + ins_.operands[out].name + " in one operand after an earlier step "
                                   "wrote it: this fused sequence cannot be made alias-safe (write it with compose:)");
            return false;
          }
          current[out] = ins_.operands[out].name;
          continue;
        }
        if (t.use && !held) {
          error(k, t.offset, "updates " + ins_.operands[out].name + " in place before its last write: this fused "
                                 "sequence cannot be made alias-safe (write it with compose:)");
          return false;
        }
        if (t.use) {
          rename(t, current[out]);
          continue;
        }
        const std::string temp = "_" + ins_.operands[out].name + std::to_string(k + 1);
        c_.temps.push_back(temp);
        c_.temp_class.push_back(spec_.kinds()[steps_[k].spec->operands[t.op].kind].register_class);
        rename(t, temp);
        current[out] = temp;
      }
    }
    return true;
  }

  void rename(Token& t, const std::string& name) {
    t.text = name;
    if (name == ins_.operands[t.index].name) return;
    t.name = Name::Temp;
    for (size_t i = 0; i < c_.temps.size(); ++i)
      if (c_.temps[i] == name) t.index = int(i);
  }

  // An operand declared with a value class says what happens to it: a `read` one is never
  // written, a `write` one is never read before it is written.
  bool check_roles() {
    std::set<int> written;
    std::map<int, std::pair<size_t, size_t>> first_use;  // operand -> (step, token offset)
    for (size_t k = 0; k < steps_.size(); ++k)
      for (const Token& t : steps_[k].tokens) {
        if (t.name != Name::Operand) continue;
        const OperandSpec& op = ins_.operands[t.index];
        if (op.value.empty()) continue;
        first_use.emplace(t.index, std::make_pair(k, t.offset));
        const ValueClass* vc = spec_.value_class(op.value);
        if (t.def && !t.addressed && vc && vc->address) {
          error(k, t.offset, "writes the register " + op.name + ", whose value class " + op.value +
                                 " is an address (only read); to update the register in place declare value: " +
                                 vc->register_class + ", role: readwrite");
          return false;
        }
        if (t.def && op.role == Role::Read) {
          error(k, t.offset, "writes " + op.name + ", whose role is read (declare role: write or readwrite)");
          return false;
        }
        if (t.use && op.role == Role::Write && !written.count(t.index)) {
          error(k, t.offset, "reads " + op.name + " before any step writes it, but its role is write (declare role: readwrite)");
          return false;
        }
        if (t.def) written.insert(t.index);
      }
    return updates_written(first_use);
  }

  // A register operand declared readwrite (not an address class) is updated in place:
  // some step must write the register itself.
  bool updates_written(const std::map<int, std::pair<size_t, size_t>>& first_use) {
    for (const auto& [index, at] : first_use) {
      const OperandSpec& op = ins_.operands[index];
      const ValueClass* vc = spec_.value_class(op.value);
      if (op.role != Role::ReadWrite || !vc || vc->address) continue;
      bool updated = false;
      for (const Step& st : steps_)
        for (const Token& t : st.tokens) updated = updated || (t.name == Name::Operand && t.index == index && t.def && !t.addressed);
      if (updated) continue;
      error(at.first, at.second, op.name + " is declared role: readwrite (a register updated in place) but no step "
                                 "writes the register");
      return false;
    }
    return true;
  }

  // Every input is read before any output is written: once a step has written an output,
  // no later step reads an operand of the same kind (an input may name the same register
  // as that output, or address the same memory; a register and memory never alias; an
  // operand that addresses memory also reads its register); each output is written
  // once; a temporary is written before it is read. Outputs are keyed by operand and
  // kind (2 * index + addressed): a post-increment writes the row at rd, then the
  // register rd.
  bool check_alias_safety() {
    auto key = [](const Token& t) { return 2 * t.index + (t.addressed ? 1 : 0); };
    auto name_of = [&](int k) { return ins_.operands[size_t(k / 2)].name; };
    std::map<int, size_t> written;  // output key -> step
    std::set<int> temps_set;
    for (size_t k = 0; k < steps_.size(); ++k) {
      for (const Token& t : steps_[k].tokens) {
        if (t.use && t.name == Name::Temp && !temps_set.count(t.index)) {
          error(k, t.offset, "reads temporary '" + t.text + "' before any step writes it");
          return false;
        }
        if (t.name != Name::Operand) continue;
        // What the token reads: the memory it addresses (a use through the register) and
        // the register itself (its own value, or the address it holds).
        std::vector<int> reads;
        if (t.use) reads.push_back(key(t));
        if (t.addressed) reads.push_back(2 * t.index);
        for (const int r : reads) {
          if (auto w = written.find(r); w != written.end() && w->second < k) {
            error(k, t.offset, "output " + t.text + " is read after step " + std::to_string(w->second + 1) +
                                   " wrote it; keep the value in a temporary and write " + t.text + " last");
            return false;
          }
          for (const auto& [out, at] : written)
            if (at < k && out % 2 == r % 2 && !commuting_updates(at, k)) {
              error(k, t.offset, "reads input " + t.text + " after step " + std::to_string(at + 1) + " wrote output " +
                                     name_of(out) + " (the two may name the same register); compute into a "
                                     "temporary and write " + name_of(out) + " in the last step");
              return false;
            }
        }
      }
      for (const Token& t : steps_[k].tokens) {
        if (!t.def) continue;
        if (t.name == Name::Temp) temps_set.insert(t.index);
        if (t.name != Name::Operand) continue;
        if (auto w = written.find(key(t)); w != written.end() && w->second != k) {
          error(k, t.offset, "output " + t.text + " is written by step " + std::to_string(w->second + 1) +
                                 " and again here; write it once, in the last step (use a temporary before)");
          return false;
        }
        written[key(t)] = k;
      }
    }
    return true;
  }

  // A loop end with composed steps (loop-end fusion): the steps update registers only and
  // leave the counter to the loop end, whose decrement and branch follow them unchanged.
  bool check_loop_end() {
    if (ins_.loop != LoopRole::End) return true;
    for (size_t k = 0; k < steps_.size(); ++k)
      for (const Token& t : steps_[k].tokens) {
        if (t.name == Name::Operand && t.index == ins_.loop_counter) {
          error(k, t.offset,
                "names the loop counter " + t.text +
                    ": the loop end updates its counter itself, its composed steps may not read or write it");
          return false;
        }
        if (t.def && t.addressed) {
          error(k, t.offset,
                "writes memory through " + t.text + ": the composed steps of a loop end update registers only");
          return false;
        }
      }
    return true;
  }

  // One instruction writes at most as many registers of a class as the class's register
  // file has write ports (`register_ports:`; a loop end's counter takes one).
  bool check_write_ports() {
    std::map<int, std::vector<std::string>> written;  // register class -> operands written as registers
    auto class_of = [&](int operand) {
      const OperandKind& k = spec_.kinds()[ins_.operands[size_t(operand)].kind];
      return k.type == KindType::Register ? k.register_class : -1;
    };
    if (ins_.loop == LoopRole::End && ins_.loop_counter >= 0 && class_of(ins_.loop_counter) >= 0)
      written[class_of(ins_.loop_counter)].push_back(ins_.operands[size_t(ins_.loop_counter)].name);
    for (size_t k = 0; k < steps_.size(); ++k)
      for (const Token& t : steps_[k].tokens) {
        if (t.name != Name::Operand || !t.def || t.addressed || class_of(t.index) < 0) continue;
        std::vector<std::string>& names = written[class_of(t.index)];
        if (std::count(names.begin(), names.end(), t.text)) continue;
        names.push_back(t.text);
        const RegisterClass& rc = spec_.register_classes()[size_t(class_of(t.index))];
        if (rc.write_ports < 0 || int(names.size()) <= rc.write_ports) continue;
        std::string list;
        for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
        const std::string ports = std::to_string(rc.write_ports) + " write port" + (rc.write_ports == 1 ? "" : "s");
        const std::string fix = "register_ports: [{name: " + rc.name +
                                ", write_ports: " + std::to_string(names.size()) + ", replace: true}]";
        error(k, t.offset,
              "writes " + std::to_string(names.size()) + " " + rc.name + " registers (" + list +
                  ") in one instruction, but the " + rc.name + " register file has " + ports +
                  " (register_ports:); another port is a hardware change the overlay declares: " + fix);
        return false;
      }
    return true;
  }

  // Step k updates one register from itself and literals (`S_ADDI_INT rs1, rs1, 64`), and
  // so does the earlier step j, with the same instruction: were the two registers one,
  // both updates would apply, in either order (r + a + b), so reading after the write is
  // safe (two post-increments in one instruction).
  bool commuting_updates(size_t j, size_t k) const {
    return in_place_update(j) && in_place_update(k) && steps_[j].mnemonic == steps_[k].mnemonic;
  }
  bool in_place_update(size_t k) const {
    int index = -1;
    bool def = false, use = false;
    for (const Token& t : steps_[k].tokens) {
      if (t.name == Name::Literal) continue;
      if (t.name != Name::Operand || t.addressed || (index >= 0 && t.index != index)) return false;
      index = t.index, def = def || t.def, use = use || t.use;
    }
    return def && use;
  }

  void rebuild_text() {
    for (size_t k = 0; k < steps_.size(); ++k) {
      std::string line = steps_[k].mnemonic;
      for (size_t i = 0; i < steps_[k].tokens.size(); ++i) line += (i ? ", " : " ") + steps_[k].tokens[i].text;
      c_.steps[k].text = line;
    }
  }
};

}  // namespace

void split_step(const std::string& line_in, std::string& mnemonic, std::vector<StepToken>& tokens) {
  tokens.clear();
  const std::string& line = line_in;
  size_t b = 0;
  while (b < line.size() && std::isspace(static_cast<unsigned char>(line[b]))) ++b;
  size_t e = b;
  while (e < line.size() && !std::isspace(static_cast<unsigned char>(line[e]))) ++e;
  mnemonic = line.substr(b, e - b);
  if (trim(line.substr(e)).empty()) return;
  size_t start = e;
  for (;;) {
    const size_t comma = line.find(',', start);
    const std::string raw = line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t lead = 0;
    while (lead < raw.size() && std::isspace(static_cast<unsigned char>(raw[lead]))) ++lead;
    tokens.push_back({trim(raw), start + lead});
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

std::vector<OperandEffect> operand_effects(const IsaSpec& spec, const InstructionSpec& ins) {
  std::vector<OperandEffect> fx(ins.operands.size());
  bool compound = false;
  const size_t eq = assignment(ins.operation, compound);
  const std::string lhs = eq == std::string::npos ? "" : ins.operation.substr(0, eq);
  const std::string rhs = eq == std::string::npos ? "" : ins.operation.substr(eq + 1);
  for (size_t i = 0; i < ins.operands.size(); ++i) {
    const OperandSpec& op = ins.operands[i];
    if (spec.kinds()[op.kind].type != KindType::Register) continue;
    const bool role_def = op.role == Role::Write || op.role == Role::ReadWrite;
    const bool role_use = op.role == Role::Read || op.role == Role::ReadWrite;
    const bool in_lhs = has_word(lhs, op.name), in_rhs = has_word(rhs, op.name);
    const ValueClass* vc = op.value.empty() ? nullptr : spec.value_class(op.value);
    fx[i].addressed = (vc && vc->address) || only_nested(ins.operation, op.name);
    if (eq == std::string::npos) {
      fx[i].def = role_def, fx[i].use = role_use;
      continue;
    }
    fx[i].def = role_def || in_lhs;
    fx[i].use = op.role == Role::ReadWrite || in_rhs || (in_lhs && compound) || (role_use && !in_lhs);
  }
  return fx;
}

std::vector<int> token_operands(const InstructionSpec& ins, size_t n_tokens) {
  size_t required = 0, omissible = 0;
  for (const auto& op : ins.operands) required += !op.optional, omissible += op.omissible;
  size_t omit = n_tokens < required ? std::min(omissible, required - n_tokens) : 0;
  std::vector<int> out;
  for (size_t i = 0; i < ins.operands.size() && out.size() < n_tokens; ++i) {
    if (ins.operands[i].omissible && omit > 0) {
      --omit;
      continue;
    }
    out.push_back(int(i));
  }
  out.resize(n_tokens, -1);
  return out;
}

std::vector<std::string> normalise_compositions(IsaSpec& spec) {
  std::vector<std::string> errors;
  for (auto& ins : spec.instructions_) {
    if (!ins.replaces.steps.empty()) Normaliser(spec, ins, ins.replaces, errors, "replaces: ").run();
    if (!ins.is_fused()) continue;
    const size_t before = errors.size();
    Normaliser(spec, ins, ins.compose, errors).run();
    if (errors.size() == before) {
      for (const auto& e : check_fused_instruction(spec, ins)) errors.push_back(e);
    }
  }
  return errors;
}

}  // namespace tlmcraft::isa
