// The AIE-ML bundle assembler: one core program (the lines of one `.tile` section) to an
// AieProgram. Syntax per line: a label (`name:`), or a bundle of slot operations separated
// by `;;`, optionally in braces. Comments: `;` (a single one; `;;` separates slots) or `#`
// not directly followed by a digit or sign (`#12` / `#-4` are immediates). Every error is
// reported with file:line:col, the token, what was expected and a hint.
#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "isa/aie_ml/aie_core.h"
#include "isa/aie_ml/extension_ops.h"
#include "isa/aie_ml/isa_tables.h"
#include "isa/aie_ml/op_codes.h"
#include "isa/isa_spec.h"

namespace tlmcraft::isa::aie_ml {
namespace {

struct Tok {
  std::string text;
  uint32_t col = 0;  // 1-based
};

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// Trims spaces, adjusting the column of the first kept character.
Tok trim(const std::string& s, uint32_t col) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {"", col};
  size_t e = s.find_last_not_of(" \t\r");
  return {s.substr(b, e - b + 1), col + uint32_t(b)};
}

// Splits on `sep` at bracket depth 0.
std::vector<Tok> split_top(const Tok& t, const std::string& sep) {
  std::vector<Tok> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < t.text.size(); ++i) {
    const char c = t.text[i];
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (depth == 0 && t.text.compare(i, sep.size(), sep) == 0) {
      out.push_back(trim(t.text.substr(start, i - start), t.col + uint32_t(start)));
      start = i + sep.size();
      i += sep.size() - 1;
    }
  }
  out.push_back(trim(t.text.substr(start), t.col + uint32_t(start)));
  return out;
}

// Register names: canonical prefixes plus the real AMD names (wl/wh, bml/bmh, amll..amhh).
bool parse_register(const std::string& text, RegClass& cls, int& num) {
  const std::string t = lower(text);
  size_t i = 0;
  while (i < t.size() && std::isalpha(static_cast<unsigned char>(t[i]))) ++i;
  const std::string prefix = t.substr(0, i), digits = t.substr(i);
  if (digits.empty()) {
    static const std::map<std::string, std::pair<RegClass, int>> singles = {
        {"ls", {RegClass::LS, 0}}, {"le", {RegClass::LE, 0}}, {"lc", {RegClass::LC, 0}},
        {"lr", {RegClass::LR, 0}}, {"crrnd", {RegClass::CR, 0}}, {"crsat", {RegClass::CR, 1}}};
    const auto it = singles.find(prefix);
    if (it == singles.end()) return false;
    cls = it->second.first;
    num = it->second.second;
    return true;
  }
  if (digits.size() > 3 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) return false;
  const int n = std::stoi(digits);
  static const std::map<std::string, std::pair<RegClass, int>> prefixes = {
      // name -> class, view mapping: 0 plain, 1 low half (2n), 2 high half (2n+1), 3..6 quarters
      {"r", {RegClass::R, 0}},   {"p", {RegClass::P, 0}},   {"m", {RegClass::M, 0}},   {"dn", {RegClass::DN, 0}},
      {"dj", {RegClass::DJ, 0}}, {"dc", {RegClass::DC, 0}}, {"s", {RegClass::S, 0}},   {"w", {RegClass::W, 0}},
      {"wl", {RegClass::W, 1}},  {"wh", {RegClass::W, 2}},  {"x", {RegClass::X, 0}},   {"y", {RegClass::Y, 0}},
      {"am", {RegClass::AM, 0}}, {"amll", {RegClass::AM, 3}}, {"amlh", {RegClass::AM, 4}}, {"amhl", {RegClass::AM, 5}},
      {"amhh", {RegClass::AM, 6}}, {"bm", {RegClass::BM, 0}}, {"bml", {RegClass::BM, 1}}, {"bmh", {RegClass::BM, 2}},
      {"cm", {RegClass::CM, 0}}};
  const auto it = prefixes.find(prefix);
  if (it == prefixes.end()) return false;
  cls = it->second.first;
  switch (it->second.second) {
    case 0: num = n; break;
    case 1: num = 2 * n; break;
    case 2: num = 2 * n + 1; break;
    default: num = 4 * n + (it->second.second - 3); break;
  }
  // Out-of-range numbers still parse (the caller reports them with the valid range); the
  // real-name views are range-checked on their own numbering.
  if (it->second.second != 0 && n >= reg_class_count(cls) / (it->second.second <= 2 ? 2 : 4)) num = 1 << 20;
  return true;
}

std::string class_description(RegClass c) {
  const std::string range = std::string(reg_class_prefix(c)) + "0-" + reg_class_prefix(c) + std::to_string(reg_class_count(c) - 1);
  switch (c) {
    case RegClass::R: return "a scalar register (" + range + ")";
    case RegClass::P: return "a pointer register (" + range + ")";
    case RegClass::M: return "a modifier register (" + range + ")";
    case RegClass::DN: return "a dimension-size register (" + range + ")";
    case RegClass::DJ: return "a dimension-stride register (" + range + ")";
    case RegClass::DC: return "a dimension-count register (" + range + ")";
    case RegClass::S: return "a shift-control register (" + range + ")";
    case RegClass::W: return "a 256-bit vector register (w0-w23 or wl0-wl11/wh0-wh11)";
    case RegClass::X: return "a 512-bit vector register (" + range + ")";
    case RegClass::Y: return "a 1024-bit vector register (" + range + ")";
    case RegClass::AM: return "a 256-bit accumulator (am0-am35)";
    case RegClass::BM: return "a 512-bit accumulator (bm0-bm17 or bml0-bml8/bmh0-bmh8)";
    case RegClass::CM: return "a 1024-bit accumulator (" + range + ")";
    case RegClass::LS: return "the loop-start register ls";
    case RegClass::LE: return "the loop-end register le";
    case RegClass::LC: return "the loop-count register lc";
    case RegClass::LR: return "the link register lr";
    case RegClass::CR: return "a control register (crrnd, crsat)";
    case RegClass::None: break;
  }
  return "a register";
}

}  // namespace

bool shape_accepts_class(const std::string& shape, RegClass c) {
  if (shape == "sdst" || shape == "ssrc")
    return c == RegClass::R || c == RegClass::P || c == RegClass::M || c == RegClass::DN || c == RegClass::DJ ||
           c == RegClass::DC || c == RegClass::S || c == RegClass::LS || c == RegClass::LE || c == RegClass::LC ||
           c == RegClass::LR || c == RegClass::CR;
  if (shape == "vany")
    return c == RegClass::W || c == RegClass::X || c == RegClass::Y || c == RegClass::AM || c == RegClass::BM || c == RegClass::CM;
  return shape == reg_class_prefix(c) && c != RegClass::CR;
}

namespace {

std::string shape_description(const std::string& shape, const AieIsaDetails& d) {
  if (shape == "sdst" || shape == "ssrc") return "a scalar-side register (r, p, m, dn, dj, dc, s, ls, le, lc, lr, crrnd, crsat)";
  if (shape == "vany") return "a vector or accumulator register (w, x, y, am, bm, cm)";
  if (shape == "label") return "a label";
  if (shape == "mem") return "a memory operand ([pN], [pN, #imm], [pN, mK], [pN], #imm | mK | dK | dK, dL)";
  if (shape == "ptrmod") return "a pointer update ([pN], #imm | mK | dK | dK, dL)";
  if (const ImmKind* k = d.imm(shape))
    return "an immediate " + std::to_string(k->min) + ".." + std::to_string(k->max) +
           (k->align > 1 ? " (multiple of " + std::to_string(k->align) + ")" : "");
  static const std::map<std::string, RegClass> by_prefix = {
      {"r", RegClass::R}, {"p", RegClass::P},   {"m", RegClass::M},   {"dn", RegClass::DN}, {"dj", RegClass::DJ},
      {"dc", RegClass::DC}, {"s", RegClass::S}, {"w", RegClass::W},   {"x", RegClass::X},   {"y", RegClass::Y},
      {"am", RegClass::AM}, {"bm", RegClass::BM}, {"cm", RegClass::CM}, {"ls", RegClass::LS}, {"le", RegClass::LE},
      {"lc", RegClass::LC}, {"lr", RegClass::LR}};
  const auto it = by_prefix.find(shape);
  return it == by_prefix.end() ? shape : class_description(it->second);
}

std::string alternatives_description(const std::vector<std::string>& alts, const AieIsaDetails& d) {
  std::string s;
  for (size_t i = 0; i < alts.size(); ++i) s += (i ? " or " : "") + shape_description(alts[i], d);
  return s;
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

struct LabelFixup {
  size_t bundle, op;
  int operand;
  std::string name;
  uint32_t line, col;
};

class CoreAssembler {
 public:
  CoreAssembler(const AieIsaDetails& d, const std::string& file, uint32_t first_line, std::vector<Diagnostic>& diags)
      : d_(d), file_(file), first_line_(first_line), diags_(diags) {}

  AieProgram run(const std::string& text) {
    std::istringstream in(text);
    std::string raw;
    for (uint32_t n = 0; std::getline(in, raw); ++n) line(raw, first_line_ + n);
    resolve_labels();
    if (errors_ > 0) return AieProgram{};
    for (const auto& b : prog_.bundles)
      for (const auto& op : b.ops) {
        if (Code(op.code) == Code::NOP) continue;
        ++prog_.total_ops;
        ++prog_.ops_by_slot[size_t(op.slot)];
        ++prog_.ops_by_mnemonic[d_.isa.ops[op.op].mnemonic];
      }
    return std::move(prog_);
  }

 private:
  void error(uint32_t line, uint32_t col, const std::string& token, const std::string& msg, const std::string& hint = "") {
    Diagnostic g;
    g.severity = Severity::Error;
    g.file = file_;
    g.line = line;
    g.col = col;
    g.token = token;
    g.message = msg;
    g.hint = hint;
    diags_.push_back(g);
    ++errors_;
  }

  static std::string strip_comment(const std::string& s) {
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == ';') {
        if (i + 1 < s.size() && s[i + 1] == ';') {
          ++i;
          continue;
        }
        return s.substr(0, i);
      }
      if (s[i] == '#') {
        const char n = i + 1 < s.size() ? s[i + 1] : '\0';
        if (!(std::isdigit(static_cast<unsigned char>(n)) || n == '-' || n == '+')) return s.substr(0, i);
      }
    }
    return s;
  }

  void line(const std::string& raw, uint32_t ln) {
    Tok t = trim(strip_comment(raw), 1);
    if (t.text.empty()) return;
    // Label(s) at the start of the line.
    for (;;) {
      size_t i = 0;
      if (!is_ident_start(t.text[0])) break;
      while (i < t.text.size() && is_ident_char(t.text[i])) ++i;
      if (i >= t.text.size() || t.text[i] != ':') break;
      const std::string name = t.text.substr(0, i);
      if (prog_.labels.count(name))
        error(ln, t.col, name, "label '" + name + "' is defined twice", "the first definition is bundle " + std::to_string(prog_.labels[name]));
      else
        prog_.labels[name] = uint32_t(prog_.bundles.size());
      t = trim(t.text.substr(i + 1), t.col + uint32_t(i + 1));
      if (t.text.empty()) return;
    }
    if (t.text[0] == '.') {
      error(ln, t.col, t.text.substr(0, t.text.find_first_of(" \t")), "directive not allowed inside a core program",
            ".tile and .movement lines are split off by the platform before the core program is assembled");
      return;
    }
    if (t.text.front() == '{') {
      if (t.text.back() != '}') {
        error(ln, t.col, "{", "unterminated bundle: expected '}' at the end of the line", "a bundle is written on one line: { op ;; op }");
        return;
      }
      t = trim(t.text.substr(1, t.text.size() - 2), t.col + 1);
    } else if (t.text.back() == '}') {
      error(ln, t.col + uint32_t(t.text.size()) - 1, "}", "'}' without a matching '{'");
      return;
    }
    Bundle b;
    b.line = ln;
    std::vector<Tok> parts = t.text.empty() ? std::vector<Tok>{} : split_top(t, ";;");
    bool ok = true;
    for (const Tok& part : parts) {
      if (part.text.empty()) {
        error(ln, part.col, ";;", "empty slot operation between ';;' separators", "remove the extra ';;' or write NOP");
        ok = false;
        continue;
      }
      SlotOp op;
      pending_ops_ = b.ops.size();
      if (!parse_op(part, ln, op)) {
        ok = false;
        continue;
      }
      b.ops.push_back(std::move(op));
    }
    if (ok) ok = place_in_slots(b, ln);
    if (!ok) return;
    // Fix-ups recorded during parse_op refer to the op's position before sorting.
    std::vector<size_t> order(b.ops.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t c) { return b.ops[a].slot < b.ops[c].slot; });
    std::vector<SlotOp> sorted;
    for (size_t i : order) sorted.push_back(b.ops[i]);
    for (auto& f : fixups_)
      if (f.bundle == prog_.bundles.size())
        f.op = size_t(std::find(order.begin(), order.end(), f.op) - order.begin());
    b.ops = std::move(sorted);
    prog_.bundles.push_back(std::move(b));
  }

  // Gives each op of a bundle its slot: ops with one slot first, then ops with
  // alternatives take the first free slot whose operand form (alt_operands) they fit,
  // so `MOV p3, p2 ;; MOVX r0, #28` puts MOVX in the scalar slot whatever the order.
  bool place_in_slots(Bundle& b, uint32_t ln) {
    std::array<int, kSlotCount> used{};
    used.fill(-1);
    bool ok = true;
    for (int pass = 0; pass < 2; ++pass)
      for (size_t i = 0; i < b.ops.size(); ++i) {
        SlotOp& op = b.ops[i];
        const OpSpec& spec = d_.isa.ops[op.op];
        if (spec.alt_slots.empty() != (pass == 0)) continue;
        std::vector<Slot> candidates{spec.slot};
        candidates.insert(candidates.end(), spec.alt_slots.begin(), spec.alt_slots.end());
        const Slot* free = nullptr;
        std::string narrower;  // why a free alternative slot did not take the op
        for (const Slot& s : candidates) {
          if (used[size_t(s)] >= 0) continue;
          const std::string why = alt_form_mismatch(op, spec, s);
          if (why.empty()) {
            free = &s;
            break;
          }
          if (narrower.empty()) narrower = why;
        }
        if (free) {
          op.slot = *free;
          used[size_t(*free)] = int(i);
          continue;
        }
        ok = false;
        if (!narrower.empty()) {
          error(ln, op.col, spec.mnemonic, narrower,
                "the hardware has this form only in its own slot; put the op in another bundle");
          continue;
        }
        const SlotOp& other = b.ops[size_t(used[size_t(spec.slot)])];
        error(ln, op.col, spec.mnemonic,
              "slot conflict: '" + spec.mnemonic + "' needs the " + slot_name(spec.slot) + " slot, already taken by '" +
                  d_.isa.ops[other.op].mnemonic + "' (column " + std::to_string(other.col) + ")",
              "a bundle holds at most one op per slot: two loads (lda, ldb), one store (st), one scalar (alu), one "
              "vector (vec), one move (mv); put this op in the next bundle");
      }
    return ok;
  }

  // Empty when the op's operands fit its form in slot s; otherwise the reason.
  std::string alt_form_mismatch(const SlotOp& op, const OpSpec& spec, Slot s) const {
    const auto form = spec.alt_operands.find(s);
    if (form == spec.alt_operands.end()) return "";
    for (size_t k = 0; k < form->second.size() && k < op.n_operands; ++k) {
      const Operand& o = op.operands[k];
      std::vector<std::string> alts;
      std::stringstream ss(form->second[k]);
      for (std::string a; std::getline(ss, a, '|');) alts.push_back(a);
      const bool fits = std::any_of(alts.begin(), alts.end(), [&](const std::string& a) {
        if (o.kind == Operand::Kind::Reg) return is_register_shape(a) && shape_accepts_class(a, o.cls);
        const ImmKind* kind = d_.imm(a);
        return o.kind == Operand::Kind::Imm && kind && o.imm >= kind->min && o.imm <= kind->max;
      });
      if (!fits) {
        std::string shapes;
        for (const auto& f : form->second) shapes += (shapes.empty() ? "" : ", ") + f;
        return "'" + spec.mnemonic + "' in the " + slot_name(s) + " slot takes only " + shapes + " (operand " +
               std::to_string(k + 1) + " does not fit), and its " + slot_name(spec.slot) + " slot is taken";
      }
    }
    return "";
  }

  bool parse_op(const Tok& part, uint32_t ln, SlotOp& op) {
    size_t sp = part.text.find_first_of(" \t");
    const std::string mn = part.text.substr(0, sp);
    const OpSpec* spec = d_.isa.find(mn);
    if (!spec) {
      std::vector<std::pair<size_t, std::string>> near;
      for (const auto& o : d_.isa.ops) near.push_back({edit_distance(upper(mn), o.mnemonic), o.mnemonic});
      std::sort(near.begin(), near.end());
      std::string hint = "did you mean ";
      for (size_t i = 0; i < 3 && i < near.size(); ++i) hint += (i ? ", " : "") + near[i].second;
      error(ln, part.col, mn, "unknown operation '" + mn + "'", hint + "? (docs/isa/aie-ml.md lists every op)");
      return false;
    }
    op.op = uint16_t(spec - d_.isa.ops.data());
    op.code = spec->code;
    op.slot = spec->slot;
    op.col = part.col;
    const OpExtra& ex = d_.extra[op.op];
    const Tok rest = sp == std::string::npos ? Tok{"", part.col + uint32_t(part.text.size())}
                                             : trim(part.text.substr(sp), part.col + uint32_t(sp));
    std::vector<Tok> toks = rest.text.empty() ? std::vector<Tok>{} : split_top(rest, ",");
    const std::string syntax = spec->mnemonic + (spec->operands.empty() ? "" : " ") + join(spec->operands);
    // A memory operand absorbs the post-modify tokens after its bracket: the count is what
    // is left over once every other shape has one token.
    const size_t shapes = spec->operands.size();
    if (std::any_of(toks.begin(), toks.end(), [](const Tok& t) { return t.text.empty(); })) {
      error(ln, rest.col, rest.text, "empty operand", "syntax: " + syntax);
      return false;
    }
    const bool has_mem = std::any_of(spec->operands.begin(), spec->operands.end(),
                                     [](const std::string& s) { return s == "mem" || s == "ptrmod"; });
    const size_t extra_tokens = toks.size() > shapes ? toks.size() - shapes : 0;
    if ((!has_mem && toks.size() != shapes) || toks.size() < shapes || extra_tokens > 2) {
      error(ln, part.col, mn,
            "'" + spec->mnemonic + "' takes " + std::to_string(shapes) + " operand" + (shapes == 1 ? "" : "s") + ", got " +
                std::to_string(toks.size()),
            "syntax: " + syntax);
      return false;
    }
    size_t ti = 0;
    bool ok = true;
    for (size_t si = 0; si < shapes; ++si) {
      const std::string& shape = spec->operands[si];
      Operand& o = op.operands[si];
      if (shape == "mem" || shape == "ptrmod") {
        // The post-modify tokens after the bracket (the step of a pointer update included).
        const size_t post = extra_tokens;
        if ((shape == "ptrmod" && post < 1) || ti + 1 + post > toks.size()) {
          error(ln, toks[ti].col, toks[ti].text, "a pointer update needs a step after the pointer", "syntax: " + syntax);
          return false;
        }
        std::vector<Tok> post_toks(toks.begin() + long(ti) + 1, toks.begin() + long(ti + 1 + post));
        ok = parse_mem(toks[ti], post_toks, shape == "ptrmod", ex, *spec, ln, o) && ok;
        ti += 1 + post;
        continue;
      }
      ok = parse_plain(toks[ti], shape, *spec, ln, op, int(si)) && ok;
      ++ti;
    }
    op.n_operands = uint8_t(shapes);
    if (ok) fill_accesses(op, ex);
    return ok;
  }

  static std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
  }

  bool parse_number(const std::string& text, int64_t& v) {
    std::string t = text;
    if (!t.empty() && t[0] == '#') t = t.substr(1);
    return !t.empty() && parse_integer(t, v);
  }

  bool check_imm(const Tok& tok, int64_t v, const ImmKind& k, uint32_t ln, const std::string& what) {
    if (v < k.min || v > k.max) {
      error(ln, tok.col, tok.text, what + " " + std::to_string(v) + " is out of range " + std::to_string(k.min) + ".." + std::to_string(k.max),
            k.doc);
      return false;
    }
    if (k.align > 1 && v % k.align != 0) {
      error(ln, tok.col, tok.text, "misaligned immediate: " + what + " " + std::to_string(v) + " is not a multiple of " + std::to_string(k.align),
            k.align == 32 ? "vector loads and stores move 256 bits and must stay 32-byte aligned" : k.doc);
      return false;
    }
    return true;
  }

  bool parse_plain(const Tok& tok, const std::string& shape, const OpSpec& spec, uint32_t ln, SlotOp& op, int index) {
    Operand& o = op.operands[size_t(index)];
    o.col = tok.col;
    std::vector<std::string> alts;
    {
      std::stringstream ss(shape);
      for (std::string a; std::getline(ss, a, '|');) alts.push_back(a);
    }
    const std::string expected = alternatives_description(alts, d_);
    RegClass cls;
    int num;
    if (parse_register(tok.text, cls, num)) {
      for (const auto& a : alts)
        if (is_register_shape(a) && shape_accepts_class(a, cls)) {
          if (num >= reg_class_count(cls)) {
            error(ln, tok.col, tok.text, "no register '" + tok.text + "'", "valid: " + class_description(cls));
            return false;
          }
          o.kind = Operand::Kind::Reg;
          o.cls = cls;
          o.num = uint8_t(num);
          return true;
        }
      error(ln, tok.col, tok.text,
            "wrong register class for operand " + std::to_string(index + 1) + " of " + spec.mnemonic + ": expected " + expected +
                ", got '" + tok.text + "' (" + class_description(cls) + ")",
            "syntax: " + spec.mnemonic + " " + join(spec.operands));
      return false;
    }
    int64_t v;
    if (parse_number(tok.text, v)) {
      for (const auto& a : alts)
        if (const ImmKind* k = d_.imm(a)) {
          if (!check_imm(tok, v, *k, ln, "immediate")) return false;
          o.kind = Operand::Kind::Imm;
          o.imm = v;
          return true;
        }
      error(ln, tok.col, tok.text, "operand " + std::to_string(index + 1) + " of " + spec.mnemonic + ": expected " + expected +
                                       ", got the immediate '" + tok.text + "'",
            "syntax: " + spec.mnemonic + " " + join(spec.operands));
      return false;
    }
    if (std::find(alts.begin(), alts.end(), "label") != alts.end() && is_ident_start(tok.text[0]) &&
        std::all_of(tok.text.begin(), tok.text.end(), is_ident_char)) {
      o.kind = Operand::Kind::Label;
      fixups_.push_back({prog_.bundles.size(), current_op_index(), index, tok.text, ln, tok.col});
      return true;
    }
    error(ln, tok.col, tok.text, "operand " + std::to_string(index + 1) + " of " + spec.mnemonic + ": expected " + expected + ", got '" + tok.text + "'",
          "syntax: " + spec.mnemonic + " " + join(spec.operands));
    return false;
  }

  // Index the op being parsed will have in its bundle (ops are appended in order).
  size_t current_op_index() const { return pending_ops_; }

  bool parse_mem(const Tok& br, const std::vector<Tok>& post, bool ptr_update, const OpExtra& ex, const OpSpec& spec,
                 uint32_t ln, Operand& o) {
    o.kind = Operand::Kind::Mem;
    o.col = br.col;
    const std::string form = ptr_update ? "[pN], #imm | mK | dK | dK, dL" : "[pN], [pN, #imm], [pN, mK], [pN], #imm | mK | dK | dK, dL";
    if (br.text.size() < 3 || br.text.front() != '[' || br.text.back() != ']') {
      error(ln, br.col, br.text, spec.mnemonic + ": expected a memory operand in brackets", "forms: " + form);
      return false;
    }
    const std::vector<Tok> inner = split_top(trim(br.text.substr(1, br.text.size() - 2), br.col + 1), ",");
    RegClass cls;
    int num;
    if (!parse_register(inner[0].text, cls, num) || cls != RegClass::P || num >= kPointerRegs) {
      error(ln, inner[0].col, inner[0].text, "expected a pointer register p0-p7 as the address base", "forms: " + form);
      return false;
    }
    MemOperand& m = o.mem;
    m.pointer = uint8_t(num);
    const ImmKind* ofs = d_.imm(ex.offset_kind.empty() ? "pofs" : ex.offset_kind);
    if (inner.size() > 2 || (inner.size() == 2 && ptr_update)) {
      error(ln, br.col, br.text, "unexpected offset in this memory operand", "forms: " + form);
      return false;
    }
    if (inner.size() == 2) {
      if (!post.empty()) {
        error(ln, post[0].col, post[0].text, "a memory operand has either an offset or a post-modify, not both", "forms: " + form);
        return false;
      }
      int64_t v;
      if (parse_number(inner[1].text, v)) {
        if (!check_imm(inner[1], v, *ofs, ln, "offset")) return false;
        m.mode = MemOperand::Mode::OffsetImm;
        m.imm = int32_t(v);
        return true;
      }
      if (parse_register(inner[1].text, cls, num) && cls == RegClass::M && num < kModifierRegs) {
        m.mode = MemOperand::Mode::OffsetMod;
        m.reg = uint8_t(num);
        return true;
      }
      error(ln, inner[1].col, inner[1].text, "expected an immediate offset or a modifier register m0-m7", "forms: " + form);
      return false;
    }
    if (post.empty()) return true;  // Plain
    int64_t v;
    if (post.size() == 1 && parse_number(post[0].text, v)) {
      if (!check_imm(post[0], v, *ofs, ln, "post-increment")) return false;
      m.mode = MemOperand::Mode::PostImm;
      m.imm = int32_t(v);
      return true;
    }
    if (post.size() == 1 && parse_register(post[0].text, cls, num) && cls == RegClass::M && num < kModifierRegs) {
      m.mode = MemOperand::Mode::PostMod;
      m.reg = uint8_t(num);
      return true;
    }
    auto dim = [&](const Tok& t, uint8_t& out) {
      const std::string l = lower(t.text);
      if (l.size() == 2 && l[0] == 'd' && l[1] >= '0' && l[1] <= '7') return out = uint8_t(l[1] - '0'), true;
      error(ln, t.col, t.text, "expected a post-modify: an immediate, a modifier m0-m7 or a dimension d0-d7", "forms: " + form);
      return false;
    };
    if (!dim(post[0], m.reg)) return false;
    m.mode = MemOperand::Mode::Post2D;
    if (post.size() == 2) {
      if (!dim(post[1], m.reg2)) return false;
      if (m.reg2 == m.reg) {
        error(ln, post[1].col, post[1].text, "3-D addressing needs two different dimensions", "e.g. [p0], d0, d1");
        return false;
      }
      m.mode = MemOperand::Mode::Post3D;
    }
    return true;
  }

  static void add(std::vector<uint16_t>& v, RegClass c, int n) {
    for (uint16_t u : storage_units(c, n))
      if (std::find(v.begin(), v.end(), u) == v.end()) v.push_back(u);
  }

  void fill_accesses(SlotOp& op, const OpExtra& ex) {
    for (int i = 0; i < op.n_operands; ++i) {
      const Operand& o = op.operands[size_t(i)];
      if (o.kind == Operand::Kind::Reg) {
        const bool w = i < ex.dst;
        const bool r = !w || std::find(ex.rw.begin(), ex.rw.end(), i) != ex.rw.end();
        if (w) add(op.writes, o.cls, o.num);
        if (r) add(op.reads, o.cls, o.num);
      } else if (o.kind == Operand::Kind::Mem) {
        const MemOperand& m = o.mem;
        add(op.reads, RegClass::P, m.pointer);
        const bool post = m.mode == MemOperand::Mode::PostImm || m.mode == MemOperand::Mode::PostMod ||
                          m.mode == MemOperand::Mode::Post2D || m.mode == MemOperand::Mode::Post3D;
        if (post) add(op.writes, RegClass::P, m.pointer);
        if (m.mode == MemOperand::Mode::OffsetMod || m.mode == MemOperand::Mode::PostMod ||
            m.mode == MemOperand::Mode::Post2D || m.mode == MemOperand::Mode::Post3D)
          add(op.reads, RegClass::M, m.reg);
        if (m.mode == MemOperand::Mode::Post2D || m.mode == MemOperand::Mode::Post3D) {
          for (uint8_t dn : {m.reg, m.reg2}) {
            add(op.reads, RegClass::DN, dn);
            add(op.reads, RegClass::DJ, dn);
            add(op.reads, RegClass::DC, dn);
            add(op.writes, RegClass::DC, dn);
            if (m.mode == MemOperand::Mode::Post2D) break;
          }
        }
      }
    }
    switch (Code(op.code)) {
      case Code::VSRS_S8_S32: case Code::VSRS_S16_S32: case Code::VSRS_S16_S64: case Code::VSRS_S32_S64:
      case Code::VSRS_U8_S32: case Code::VST_SRS_S8_S32: case Code::VST_SRS_S16_S32:
        add(op.reads, RegClass::CR, 0);
        add(op.reads, RegClass::CR, 1);
        break;
      case Code::VLT_S8: add(op.writes, RegClass::R, (op.operands[0].num + 1) % kScalarRegs); break;
      case Code::VSEL_8: add(op.reads, RegClass::R, (op.operands[3].num + 1) % kScalarRegs); break;
      case Code::JL: add(op.writes, RegClass::LR, 0); break;
      case Code::Extension: {
        const OpSpec& spec = d_.isa.ops[op.op];
        for (uint16_t u : d_.isa.extensions[size_t(spec.extension)]->implicit_reads)
          if (std::find(op.reads.begin(), op.reads.end(), u) == op.reads.end()) op.reads.push_back(u);
        break;
      }
      default: break;
    }
  }

  void resolve_labels() {
    for (const auto& f : fixups_) {
      const auto it = prog_.labels.find(f.name);
      if (it == prog_.labels.end()) {
        std::vector<std::pair<size_t, std::string>> near;
        for (const auto& [name, idx] : prog_.labels) near.push_back({edit_distance(f.name, name), name});
        std::sort(near.begin(), near.end());
        error(f.line, f.col, f.name, "undefined label '" + f.name + "'",
              near.empty() ? "define it on its own line as '" + f.name + ":'" : "did you mean " + near[0].second + "?");
        continue;
      }
      if (f.bundle < prog_.bundles.size() && f.op < prog_.bundles[f.bundle].ops.size())
        prog_.bundles[f.bundle].ops[f.op].operands[size_t(f.operand)].imm = it->second;
    }
  }

  const AieIsaDetails& d_;
  std::string file_;
  uint32_t first_line_;
  std::vector<Diagnostic>& diags_;
  AieProgram prog_;
  std::vector<LabelFixup> fixups_;
  size_t errors_ = 0;
  size_t pending_ops_ = 0;
};

}  // namespace

AieProgram assemble_core(const std::string& text, const std::string& file, uint32_t first_line, std::vector<Diagnostic>& diags) {
  return assemble_core_with(aie_isa_details(), text, file, first_line, diags);
}

AieProgram assemble_core_with(const AieIsaDetails& d, const std::string& text, const std::string& file, uint32_t first_line,
                              std::vector<Diagnostic>& diags) {
  try {
    CoreAssembler a(d, file, first_line == 0 ? 1 : first_line, diags);
    return a.run(text);
  } catch (const std::exception& e) {
    Diagnostic g;
    g.file = file;
    g.message = std::string("cannot assemble: ") + e.what();
    diags.push_back(g);
    return AieProgram{};
  }
}

}  // namespace tlmcraft::isa::aie_ml
