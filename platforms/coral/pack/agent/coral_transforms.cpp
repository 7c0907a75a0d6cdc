#include "platforms/coral/pack/agent/coral_transforms.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <vector>

#include "platforms/coral/pack/agent/coral_source.h"

namespace tlmcraft::agent::search::coral {

namespace {

const std::regex& vector_type_re() {
  static const std::regex r(R"(\bv(u?int|float)(8|16|32|64)m(f?)(\d)_t\b)");
  return r;
}

bool mentions_vector_type(const std::string& text) { return std::regex_search(text, vector_type_re()); }

// Scales one LMUL digit; false (with why) if the result is not m1..m8.
bool scale_digit(const std::string& digit, bool fractional, int factor, std::string& out, std::string& why,
                 const std::string& token) {
  if (fractional) {
    why = "fractional LMUL in '" + token + "' is not scaled";
    return false;
  }
  const int l = std::stoi(digit) * factor;
  if (l > 8) {
    why = "'" + token + "' would need LMUL " + std::to_string(l) + " (at most m8)";
    return false;
  }
  out = std::to_string(l);
  return true;
}

// Scales the LMUL of every vector type and intrinsic in `text`.
bool scale_text(const std::string& text, int factor, std::string& out, std::string& why) {
  static const std::regex token(R"(\b(v(?:u?int|float)(?:8|16|32|64)m(f?)(\d)_t|vbool(\d+)_t|__riscv_\w+)\b)");
  static const std::regex part(R"(^([eiuf])(8|16|32|64)m(f?)(\d)$)");
  static const std::regex mask_part(R"(^b(\d+)$)");
  out.clear();
  size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), token); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    const std::string tok = m[1].str();
    std::string repl;
    if (tok.rfind("__riscv_", 0) == 0) {
      for (const char* banned : {"lmul_ext", "lmul_trunc", "_vget_", "_vset_", "vundefined", "vcreate"})
        if (tok.find(banned) != std::string::npos) {
          why = "'" + tok + "' changes or splits register groups";
          return false;
        }
      std::vector<std::string> parts;
      size_t b = 0;
      for (size_t e; (e = tok.find('_', b)) != std::string::npos; b = e + 1) parts.push_back(tok.substr(b, e - b));
      parts.push_back(tok.substr(b));
      // A reduction's last type is its m1 result (element 0 of a single register).
      int keep = -1;
      if (tok.find("red") != std::string::npos)
        for (int i = static_cast<int>(parts.size()) - 1; i >= 0; --i)
          if (std::regex_match(parts[i], part)) {
            keep = i;
            break;
          }
      for (size_t i = 0; i < parts.size(); ++i) {
        std::smatch pm;
        if (static_cast<int>(i) != keep && std::regex_match(parts[i], pm, part)) {
          std::string d;
          if (!scale_digit(pm[4].str(), !pm[3].str().empty(), factor, d, why, tok)) return false;
          parts[i] = pm[1].str() + pm[2].str() + "m" + d;
        } else if (std::regex_match(parts[i], pm, mask_part) && i > 0) {
          const int n = std::stoi(pm[1].str());
          if (n % factor != 0) {
            why = "mask type in '" + tok + "' cannot follow LMUL x" + std::to_string(factor);
            return false;
          }
          parts[i] = "b" + std::to_string(n / factor);
        }
      }
      for (size_t i = 0; i < parts.size(); ++i) repl += (i ? "_" : "") + parts[i];
    } else if (m[4].matched) {
      const int n = std::stoi(m[4].str());
      if (n % factor != 0) {
        why = "mask type '" + tok + "' cannot follow LMUL x" + std::to_string(factor);
        return false;
      }
      repl = "vbool" + std::to_string(n / factor) + "_t";
    } else {
      std::string d;
      if (!scale_digit(m[3].str(), !m[2].str().empty(), factor, d, why, tok)) return false;
      const size_t mpos = tok.rfind('m');
      repl = tok.substr(0, mpos + 1) + d + "_t";
    }
    out += text.substr(last, static_cast<size_t>(m.position(1)) - last) + repl;
    last = static_cast<size_t>(m.position(1) + m.length(1));
  }
  out += text.substr(last);
  return true;
}

// The name of a helper scaled by `factor`: f -> f_lmul2, f_lmul2 -> f_lmul4.
std::string scaled_name(const std::string& name, int factor) {
  static const std::regex suffix(R"(^(.*)_lmul(\d+)$)");
  std::smatch m;
  if (std::regex_match(name, m, suffix)) return m[1].str() + "_lmul" + std::to_string(std::stoi(m[2].str()) * factor);
  return name + "_lmul" + std::to_string(factor);
}

// Helpers (file-scope functions mentioning vector types) called in `text`.
std::vector<const CFunction*> vector_helpers_called(const std::string& src, const std::string& text,
                                                    const std::vector<CFunction>& functions,
                                                    const std::string& self) {
  std::vector<const CFunction*> out;
  for (const auto& f : functions) {
    if (f.name == "main" || f.name == self) continue;
    bool called = false;
    for (size_t p : find_word(text, f.name)) {
      size_t q = p + f.name.size();
      while (q < text.size() && std::isspace(static_cast<unsigned char>(text[q]))) ++q;
      if (q < text.size() && text[q] == '(') called = true;
    }
    if (called && mentions_vector_type(src.substr(f.begin, f.end - f.begin))) out.push_back(&f);
  }
  return out;
}

// Renames calls of `from` to `to` in `text`.
std::string rename_calls(const std::string& text, const std::string& from, const std::string& to) {
  std::string out = text;
  const auto hits = find_word(text, from);
  for (auto it = hits.rbegin(); it != hits.rend(); ++it) out.replace(*it, from.size(), to);
  return out;
}

struct Clone {
  size_t after;        // insert after this offset (the original's end)
  std::string text;
};

// Scales `text` and every vector helper it calls (recursively), renaming the calls;
// clones to insert are collected in `clones` (by name).
bool scale_with_helpers(const std::string& src, const std::vector<CFunction>& functions, const std::string& text,
                        int factor, std::string& out, std::map<std::string, Clone>& clones, std::string& why,
                        const std::string& self = "", int depth = 0) {
  if (depth > 4) {
    why = "helper calls nest too deeply";
    return false;
  }
  if (!scale_text(text, factor, out, why)) return false;
  for (const CFunction* f : vector_helpers_called(src, text, functions, self)) {
    const std::string name = scaled_name(f->name, factor);
    out = rename_calls(out, f->name, name);
    if (clones.count(name) || !find_word(src, name).empty()) continue;  // already made / present
    const std::string original = src.substr(f->begin, f->end - f->begin);
    std::string scaled;
    if (!scale_with_helpers(src, functions, original, factor, scaled, clones, why, f->name, depth + 1)) {
      why = "helper " + f->name + ": " + why;
      return false;
    }
    clones[name] = {f->end, "\n" + rename_calls(scaled, f->name, name)};
  }
  return true;
}

// Vector variables declared in [from, to) of `src`: name -> type.
std::map<std::string, std::string> vector_declarations(const std::string& src, size_t from, size_t to) {
  static const std::regex decl(R"(\b(v(?:u?int|float)(?:8|16|32|64)m(?:f?)\d_t)\s+(\w+))");
  std::map<std::string, std::string> out;
  const std::string text = src.substr(from, to - from);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), decl); it != std::sregex_iterator(); ++it)
    out[(*it)[2].str()] = (*it)[1].str();
  return out;
}

std::string trimmed(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The trip count of `v = 0; v < EXPR; ++v` with a constant EXPR (nullopt otherwise), or
// why not.
std::optional<int64_t> constant_trip(const CLoop& l, const std::map<std::string, int64_t>& defines, std::string& why) {
  static const std::regex init(R"(^(?:int|size_t|unsigned|int32_t|uint32_t)?\s*(\w+)\s*=\s*0$)");
  std::smatch m;
  if (!std::regex_match(l.init, m, init)) {
    why = "the loop does not start at 0";
    return std::nullopt;
  }
  const std::string v = m[1].str();
  const std::regex cond("^" + v + R"(\s*<\s*(.+)$)");
  std::smatch c;
  if (!std::regex_match(l.cond, c, cond) ||
      (l.step != "++" + v && l.step != v + "++" && trimmed(l.step) != v + " += 1")) {
    why = "the loop is not `" + v + " < N; ++" + v + "`";
    return std::nullopt;
  }
  const auto trip = evaluate(c[1].str(), defines);
  if (!trip) why = "the trip count '" + c[1].str() + "' is not a constant";
  return trip;
}

// The code-size multiplier of a loop's unroll pragma (1 without one; a full unroll of
// an unknown trip counts as 16).
int64_t unroll_factor(const CLoop& l, const std::map<std::string, int64_t>& defines) {
  if (!l.has_pragma) return 1;
  static const std::regex count(R"(unroll_count\((\d+)\))");
  std::smatch m;
  if (std::regex_search(l.pragma, m, count)) return std::stoll(m[1].str());
  if (l.pragma.find("unroll(full)") != std::string::npos) {
    std::string why;
    const auto trip = constant_trip(l, defines, why);
    return trip ? std::max<int64_t>(1, *trip) : 16;
  }
  return 1;
}

}  // namespace

bool is_strip_mined(const std::string& src, size_t loop) {
  const auto loops = find_loops(src);
  if (loop >= loops.size()) return false;
  const CLoop& l = loops[loop];
  const std::string text = src.substr(l.for_pos, l.end - l.for_pos);
  static const std::regex setvl(R"(\b(\w+)\s*=\s*__riscv_vsetvl_e\d+m\d\s*\()");
  std::smatch m;
  size_t setvls = 0;
  for (size_t p = text.find("__riscv_vsetvl"); p != std::string::npos; p = text.find("__riscv_vsetvl", p + 1)) ++setvls;
  if (setvls != 1) return false;
  int count = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), setvl); it != std::sregex_iterator(); ++it) {
    ++count;
    m = *it;
  }
  if (count != 1) return false;
  // The vsetvl must belong to this loop, not to a loop nested in it.
  const size_t at = l.for_pos + static_cast<size_t>(m.position(0));
  for (const auto& o : loops)
    if (o.for_pos > l.for_pos && o.for_pos < l.end && o.for_pos < at && at < o.end) return false;
  const std::string vl = m[1].str();
  const std::regex advance("\\+=\\s*(\\(\\s*\\w+\\s*\\)\\s*)?" + vl + "\\b");
  return std::regex_search(text, advance);
}

bool scale_lmul(std::string& src, size_t loop, int factor, std::string& why) {
  if (factor != 2 && factor != 4 && factor != 8) {
    why = "LMUL factor must be 2, 4 or 8";
    return false;
  }
  const auto loops = find_loops(src);
  if (loop >= loops.size()) {
    why = "no loop " + std::to_string(loop);
    return false;
  }
  if (!is_strip_mined(src, loop)) {
    why = "loop " + std::to_string(loop) + " is not strip-mined by one vsetvl";
    return false;
  }
  const CLoop& l = loops[loop];
  const std::string region = src.substr(l.for_pos, l.end - l.for_pos);
  const auto functions = find_functions(src);
  const CFunction* fn = enclosing_function(functions, l.for_pos);
  // Vector variables declared before the loop (parameters included) must not be used in
  // it: their types would no longer match, except m1 reduction accumulators.
  if (fn) {
    const bool reduces = region.find("red") != std::string::npos;
    for (const auto& [name, type] : vector_declarations(src, fn->begin, l.for_pos)) {
      if (find_word(region, name).empty()) continue;
      const bool m1 = type.size() > 4 && type.compare(type.size() - 4, 4, "m1_t") == 0;
      if (m1 && reduces) continue;
      why = "the loop uses the vector variable '" + name + "' (" + type + ") declared outside it";
      return false;
    }
  }
  std::string scaled;
  std::map<std::string, Clone> clones;
  if (!scale_with_helpers(src, functions, region, factor, scaled, clones, why)) return false;
  std::string out = src;
  out.replace(l.for_pos, region.size(), scaled);
  std::vector<Clone> ordered;
  for (auto& [name, c] : clones) ordered.push_back(c);
  std::stable_sort(ordered.begin(), ordered.end(), [](const Clone& a, const Clone& b) { return a.after > b.after; });
  for (const Clone& c : ordered) {
    if (c.after > l.for_pos) {
      why = "a helper is defined after the loop that calls it";
      return false;
    }
    out.insert(c.after, c.text);
  }
  src = std::move(out);
  return true;
}

bool add_unroll_pragma(std::string& src, size_t loop, int count, std::string& why, int64_t max_full_trip,
                       int64_t max_nest_factor) {
  const auto loops = find_loops(src);
  if (loop >= loops.size()) {
    why = "no loop " + std::to_string(loop);
    return false;
  }
  const CLoop& l = loops[loop];
  if (!l.starts_line) {
    why = "the loop does not start its line";
    return false;
  }
  if (l.has_pragma) {
    why = "the loop already has a loop pragma";
    return false;
  }
  const auto defines = integer_defines(src);
  std::string pragma;
  int64_t factor = count;
  if (count == 0) {
    const auto trip = constant_trip(l, defines, why);
    if (!trip) return false;
    if (*trip > max_full_trip) {
      why = "the trip count " + std::to_string(*trip) + " exceeds " + std::to_string(max_full_trip);
      return false;
    }
    factor = *trip;
    pragma = "#pragma clang loop unroll(full)";
  } else if (count >= 2) {
    pragma = "#pragma clang loop unroll_count(" + std::to_string(count) + ")";
  } else {
    why = "unroll count must be at least 2";
    return false;
  }
  // Unroll factors multiply along a loop nest; the ITCM holds 8 KB of code.
  int64_t nest = factor;
  for (const auto& o : loops) {
    const bool related = (o.for_pos < l.for_pos && l.for_pos < o.end) || (l.for_pos < o.for_pos && o.for_pos < l.end);
    if (related) nest *= unroll_factor(o, defines);
  }
  if (nest > max_nest_factor) {
    why = "unrolling would replicate the loop nest " + std::to_string(nest) + " times (at most " +
          std::to_string(max_nest_factor) + ")";
    return false;
  }
  src.insert(l.line_start, l.indent + pragma + "\n");
  return true;
}

bool stage_in_dtcm(std::string& src, const std::string& macro, std::string& why, int64_t dtcm_bytes,
                   int64_t reserve_bytes) {
  const auto tensors = layout_tensors(src);
  const auto t = std::find_if(tensors.begin(), tensors.end(), [&](const CTensor& x) { return x.macro == macro; });
  if (t == tensors.end()) {
    why = "no tensor " + macro + " in the layout";
    return false;
  }
  const bool output = t->role == "output";
  if (!output && t->role != "input" && t->role != "weight") {
    why = macro + " is a " + t->role + " tensor (only inputs, weights and outputs are staged)";
    return false;
  }
  std::string buffer = "stage_" + macro;
  std::transform(buffer.begin(), buffer.end(), buffer.begin(), [](unsigned char c) { return std::tolower(c); });
  if (!find_word(src, buffer).empty()) {
    why = macro + " is already staged";
    return false;
  }
  const auto used = static_array_bytes(src);
  if (!used) {
    why = "the size of a static array is not a constant";
    return false;
  }
  if (*used + t->bytes + reserve_bytes > dtcm_bytes) {
    why = macro + " (" + std::to_string(t->bytes) + " bytes) does not fit in DTCM next to " + std::to_string(*used) +
          " bytes of arrays and " + std::to_string(reserve_bytes) + " reserved";
    return false;
  }
  const std::string addr = macro + "_ADDR";
  // Uses outside #define lines.
  std::vector<size_t> uses;
  for (size_t p : find_word(src, addr)) {
    const size_t ls = src.rfind('\n', p == 0 ? 0 : p - 1);
    const std::string line_head = trimmed(src.substr(ls == std::string::npos ? 0 : ls + 1, 8));
    if (line_head.rfind("#", 0) != 0) uses.push_back(p);
  }
  if (uses.empty()) {
    why = macro + " is never used";
    return false;
  }
  const auto functions = find_functions(src);
  const auto main_it = std::find_if(functions.begin(), functions.end(), [](const CFunction& f) { return f.name == "main"; });
  if (main_it == functions.end() || functions.empty()) {
    why = "no main function";
    return false;
  }
  const size_t decl_at = functions.front().begin;
  for (size_t p : uses)
    if (p < decl_at) {
      why = macro + " is used before the first function";
      return false;
    }
  const std::string type = t->format == "int8" ? "int8_t" : t->format == "int16" ? "int16_t" : "int32_t";
  const std::string bytes = std::to_string(t->bytes);
  // e8m8 groups: 128 bytes per vector instruction, whatever the element type.
  auto copy = [&](const std::string& to, const std::string& from, const std::string& what) {
    return "  /* search agent: " + macro + " " + what + " */\n"
           "  for (size_t stage_i = 0; stage_i < " + bytes + ";) {\n"
           "    size_t stage_vl = __riscv_vsetvl_e8m8(" + bytes + " - stage_i);\n"
           "    __riscv_vse8_v_i8m8((int8_t*)" + to + " + stage_i, __riscv_vle8_v_i8m8((const int8_t*)" + from +
           " + stage_i, stage_vl), stage_vl);\n"
           "    stage_i += stage_vl;\n"
           "  }";
  };
  std::string out = src;
  // Back to front so earlier offsets stay valid.
  for (auto it = uses.rbegin(); it != uses.rend(); ++it) out.replace(*it, addr.size(), "((uintptr_t)" + buffer + ")");
  // main's position after the replacements before it.
  const auto fs = find_functions(out);
  const auto m2 = std::find_if(fs.begin(), fs.end(), [](const CFunction& f) { return f.name == "main"; });
  if (output) {
    // The copy-out runs once, after everything main computed: before its only `return`,
    // which must be its last statement.
    const auto returns = find_word(out, "return", m2->open, m2->end);
    if (returns.size() != 1) {
      why = "main has " + std::to_string(returns.size()) + " return statements (the copy-out needs exactly one, last)";
      return false;
    }
    const size_t semi = out.find(';', returns[0]);
    if (semi == std::string::npos || semi > m2->end || !trimmed(out.substr(semi + 1, m2->end - 1 - (semi + 1))).empty()) {
      why = "main's return is not its last statement";
      return false;
    }
    size_t at = out.rfind('\n', returns[0]);
    at = at == std::string::npos ? returns[0] : at + 1;
    out.insert(at, copy(addr, buffer, "computed in DTCM, written to external memory once") + "\n");
  } else {
    out.insert(m2->open + 1, "\n" + copy(buffer, addr, "staged in DTCM (read from external memory once)"));
  }
  std::string decl = "static " + type + " " + buffer + "[" + std::to_string(t->elements) +
                     "] __attribute__((aligned(16)));  /* DTCM copy of " + macro + " (search agent) */\n";
  // The copy loops are RVV intrinsics; a scalar program (the CPU programs) lacks their header.
  if (out.find("#include <riscv_vector.h>") == std::string::npos) decl = "#include <riscv_vector.h>\n" + decl;
  out.insert(decl_at, decl);
  src = std::move(out);
  return true;
}

}  // namespace tlmcraft::agent::search::coral
