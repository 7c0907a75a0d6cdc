#include "platforms/coral/pack/agent/coral_source.h"

#include <cctype>
#include <regex>

namespace tlmcraft::agent::search::coral {

namespace {

// Per character: true if it is code (not inside a comment or a literal).
std::vector<bool> code_mask(const std::string& s) {
  std::vector<bool> code(s.size(), true);
  size_t i = 0;
  while (i < s.size()) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') code[i++] = false;
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t e = s.find("*/", i + 2);
      const size_t stop = e == std::string::npos ? s.size() : e + 2;
      while (i < stop) code[i++] = false;
    } else if (s[i] == '"' || s[i] == '\'') {
      const char q = s[i];
      code[i++] = false;
      while (i < s.size() && s[i] != q && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < s.size()) code[i++] = false;
        code[i++] = false;
      }
      if (i < s.size()) code[i++] = false;
    } else {
      ++i;
    }
  }
  return code;
}

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

size_t skip_space(const std::string& s, size_t i, const std::vector<bool>& code) {
  while (i < s.size() && (std::isspace(static_cast<unsigned char>(s[i])) || !code[i])) ++i;
  return i;
}

size_t match_with_mask(const std::string& s, size_t open, const std::vector<bool>& code) {
  if (open >= s.size()) return std::string::npos;
  const char o = s[open];
  const char c = o == '(' ? ')' : o == '[' ? ']' : o == '{' ? '}' : 0;
  if (!c) return std::string::npos;
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (!code[i]) continue;
    if (s[i] == o) ++depth;
    else if (s[i] == c && --depth == 0) return i;
  }
  return std::string::npos;
}

// One past the end of the statement starting at `i` (braced block, nested `for`, or a
// simple statement up to its ';').
size_t statement_end(const std::string& s, size_t i, const std::vector<bool>& code) {
  i = skip_space(s, i, code);
  if (i >= s.size()) return s.size();
  if (s[i] == '{') {
    const size_t e = match_with_mask(s, i, code);
    return e == std::string::npos ? s.size() : e + 1;
  }
  if (s.compare(i, 3, "for") == 0 && (i + 3 >= s.size() || !is_ident(s[i + 3]))) {
    const size_t open = s.find('(', i);
    const size_t close = open == std::string::npos ? open : match_with_mask(s, open, code);
    if (close == std::string::npos) return s.size();
    return statement_end(s, close + 1, code);
  }
  int depth = 0;
  for (; i < s.size(); ++i) {
    if (!code[i]) continue;
    if (s[i] == '(' || s[i] == '[' || s[i] == '{') ++depth;
    else if (s[i] == ')' || s[i] == ']' || s[i] == '}') --depth;
    else if (s[i] == ';' && depth == 0) return i + 1;
  }
  return s.size();
}

// Splits the header "a; b; c" at its top-level semicolons.
std::vector<std::string> split_header(const std::string& h) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char ch : h) {
    if (ch == '(' || ch == '[') ++depth;
    if (ch == ')' || ch == ']') --depth;
    if (ch == ';' && depth == 0) {
      parts.emplace_back();
      continue;
    }
    parts.back() += ch;
  }
  for (auto& p : parts) p = trim(p);
  return parts;
}

}  // namespace

bool in_comment_or_literal(const std::string& src, size_t pos) {
  if (pos >= src.size()) return false;
  return !code_mask(src)[pos];
}

size_t match_bracket(const std::string& src, size_t open) { return match_with_mask(src, open, code_mask(src)); }

std::vector<size_t> find_word(const std::string& src, const std::string& word, size_t from, size_t to) {
  std::vector<size_t> out;
  if (word.empty()) return out;
  const std::vector<bool> code = code_mask(src);
  to = std::min(to, src.size());
  for (size_t p = src.find(word, from); p != std::string::npos && p + word.size() <= to; p = src.find(word, p + 1)) {
    if (!code[p]) continue;
    if (p > 0 && is_ident(src[p - 1])) continue;
    if (p + word.size() < src.size() && is_ident(src[p + word.size()])) continue;
    out.push_back(p);
  }
  return out;
}

std::vector<CLoop> find_loops(const std::string& src) {
  const std::vector<bool> code = code_mask(src);
  std::vector<CLoop> loops;
  for (size_t p : find_word(src, "for")) {
    CLoop l;
    l.for_pos = p;
    const size_t open = skip_space(src, p + 3, code);
    if (open >= src.size() || src[open] != '(') continue;
    const size_t close = match_with_mask(src, open, code);
    if (close == std::string::npos) continue;
    l.header_open = open;
    l.header_close = close;
    l.body_begin = skip_space(src, close + 1, code);
    l.end = statement_end(src, close + 1, code);
    const auto parts = split_header(src.substr(open + 1, close - open - 1));
    if (parts.size() != 3) continue;
    l.init = parts[0];
    l.cond = parts[1];
    l.step = parts[2];
    l.line_start = src.rfind('\n', p == 0 ? 0 : p - 1);
    l.line_start = l.line_start == std::string::npos ? 0 : l.line_start + 1;
    const std::string before = src.substr(l.line_start, p - l.line_start);
    l.starts_line = trim(before).empty();
    l.indent = l.starts_line ? before : "";
    if (l.line_start > 0) {
      const size_t prev_end = l.line_start - 1;
      size_t prev_start = src.rfind('\n', prev_end == 0 ? 0 : prev_end - 1);
      prev_start = prev_start == std::string::npos || prev_end == 0 ? 0 : prev_start + 1;
      const std::string prev = trim(src.substr(prev_start, prev_end - prev_start));
      l.has_pragma = prev.rfind("#pragma clang loop", 0) == 0;
      if (l.has_pragma) l.pragma = prev;
    }
    loops.push_back(l);
  }
  for (auto& l : loops)
    for (const auto& o : loops)
      if (o.for_pos < l.for_pos && l.for_pos < o.end) ++l.depth;
  return loops;
}

std::vector<CFunction> find_functions(const std::string& src) {
  const std::vector<bool> code = code_mask(src);
  std::vector<CFunction> out;
  int depth = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    if (!code[i]) continue;
    if (src[i] == '}') --depth;
    if (src[i] != '{') continue;
    if (depth++ != 0) continue;
    // A file-scope '{' preceded by ')' opens a function body: name( ... ) {
    size_t j = i;
    while (j > 0 && (std::isspace(static_cast<unsigned char>(src[j - 1])) || !code[j - 1])) --j;
    if (j == 0 || src[j - 1] != ')') continue;
    int d = 0;
    size_t k = j - 1;
    for (;; --k) {
      if (code[k] && src[k] == ')') ++d;
      if (code[k] && src[k] == '(' && --d == 0) break;
      if (k == 0) break;
    }
    if (d != 0) continue;
    size_t ne = k;
    while (ne > 0 && std::isspace(static_cast<unsigned char>(src[ne - 1]))) --ne;
    size_t nb = ne;
    while (nb > 0 && is_ident(src[nb - 1])) --nb;
    if (nb == ne) continue;
    CFunction f;
    f.name = src.substr(nb, ne - nb);
    size_t ls = src.rfind('\n', nb == 0 ? 0 : nb - 1);
    f.begin = ls == std::string::npos || nb == 0 ? 0 : ls + 1;
    f.open = i;
    const size_t e = match_with_mask(src, i, code);
    f.end = e == std::string::npos ? src.size() : e + 1;
    out.push_back(f);
  }
  return out;
}

const CFunction* enclosing_function(const std::vector<CFunction>& functions, size_t pos) {
  for (const auto& f : functions)
    if (f.open < pos && pos < f.end) return &f;
  return nullptr;
}

std::map<std::string, int64_t> integer_defines(const std::string& src) {
  static const std::regex def(R"(^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(0[xX][0-9a-fA-F]+|\d+)[uU]?[ \t]*(?:/\*.*|//.*)?$)",
                              std::regex::multiline);
  std::map<std::string, int64_t> out;
  for (auto it = std::sregex_iterator(src.begin(), src.end(), def); it != std::sregex_iterator(); ++it)
    out[(*it)[1].str()] = static_cast<int64_t>(std::stoull((*it)[2].str(), nullptr, 0));
  return out;
}

namespace {

struct ExprParser {
  const std::string& s;
  const std::map<std::string, int64_t>& defs;
  size_t i = 0;
  bool ok = true;

  void space() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  int64_t primary() {
    space();
    if (i >= s.size()) return ok = false, 0;
    if (s[i] == '(') {
      ++i;
      const int64_t v = sum();
      space();
      if (i >= s.size() || s[i] != ')') return ok = false, 0;
      ++i;
      return v;
    }
    if (s[i] == '-') return ++i, -primary();
    if (std::isdigit(static_cast<unsigned char>(s[i]))) {
      size_t used = 0;
      const int64_t v = static_cast<int64_t>(std::stoull(s.substr(i), &used, 0));
      i += used;
      while (i < s.size() && (s[i] == 'u' || s[i] == 'U')) ++i;
      return v;
    }
    if (is_ident(s[i])) {
      size_t b = i;
      while (i < s.size() && is_ident(s[i])) ++i;
      const auto it = defs.find(s.substr(b, i - b));
      if (it == defs.end()) return ok = false, 0;
      return it->second;
    }
    return ok = false, 0;
  }
  int64_t product() {
    int64_t v = primary();
    for (;;) {
      space();
      if (i >= s.size() || (s[i] != '*' && s[i] != '/' && s[i] != '%')) return v;
      const char op = s[i++];
      const int64_t r = primary();
      if (op == '*') v *= r;
      else if (r == 0) return ok = false, 0;
      else v = op == '/' ? v / r : v % r;
    }
  }
  int64_t sum() {
    int64_t v = product();
    for (;;) {
      space();
      if (i >= s.size() || (s[i] != '+' && s[i] != '-')) return v;
      const char op = s[i++];
      const int64_t r = product();
      v = op == '+' ? v + r : v - r;
    }
  }
};

}  // namespace

std::optional<int64_t> evaluate(const std::string& expr, const std::map<std::string, int64_t>& defines) {
  ExprParser p{expr, defines};
  const int64_t v = p.sum();
  p.space();
  if (!p.ok || p.i != expr.size()) return std::nullopt;
  return v;
}

std::vector<CTensor> layout_tensors(const std::string& src) {
  static const std::regex addr(
      R"(^[ \t]*#[ \t]*define[ \t]+(\w+)_ADDR[ \t]+0[xX][0-9a-fA-F]+[uU]?[ \t]*/\*[ \t]*(\w+)[ \t]*\[[^\]]*\][ \t]*(\w+))",
      std::regex::multiline);
  const auto defs = integer_defines(src);
  std::vector<CTensor> out;
  for (auto it = std::sregex_iterator(src.begin(), src.end(), addr); it != std::sregex_iterator(); ++it) {
    CTensor t;
    t.macro = (*it)[1].str();
    t.format = (*it)[2].str();
    t.role = (*it)[3].str();
    const auto e = defs.find(t.macro + "_ELEMS");
    if (e == defs.end()) continue;
    t.elements = e->second;
    const int64_t size = t.format == "int8" || t.format == "uint8" ? 1 : t.format == "int16" ? 2 : 4;
    t.bytes = t.elements * size;
    out.push_back(t);
  }
  return out;
}

std::optional<int64_t> static_array_bytes(const std::string& src) {
  static const std::regex arr(R"(^[ \t]*static[ \t]+(?:const[ \t]+)?(u?int(8|16|32|64)_t|char|float)[ \t]+\w+[ \t]*\[([^\]]+)\])",
                              std::regex::multiline);
  const auto defs = integer_defines(src);
  int64_t total = 0;
  for (auto it = std::sregex_iterator(src.begin(), src.end(), arr); it != std::sregex_iterator(); ++it) {
    const std::string type = (*it)[1].str();
    const std::string bits = (*it)[2].str();
    const int64_t elem = type == "char" ? 1 : type == "float" ? 4 : std::stoll(bits) / 8;
    const auto n = evaluate((*it)[3].str(), defs);
    if (!n) return std::nullopt;
    total += *n * elem;
  }
  return total;
}

}  // namespace tlmcraft::agent::search::coral
