// Lexer and recursive-descent parser of the statement language. Operator precedence is
// C's (low to high): | ^ & (== !=) (< <= > >=) (<< >>) (+ -) (* / %) unary (- ~).
// Nesting is counted and bounded (ExprLimits::max_depth) before each descent, so deep
// input is an error, never a stack overflow.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <set>

#include "isa/extension/syntax.h"

namespace tlmcraft::isa::extension::detail {
namespace {

enum class Tok : uint8_t { Ident, Int, Float, Punct, Newline, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;
  TextPos pos;
};

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool ident_char(char c) { return ident_start(c) || digit(c); }

class Lexer {
 public:
  Lexer(std::string_view text, const TextMapper& map) : text_(text), map_(map) {}

  Token next() {
    skip_blanks_and_comments();
    Token t;
    t.pos = {line_, int(at_ - line_start_)};
    if (at_ >= text_.size()) return t;
    const char c = text_[at_];
    if (c == '\n') {
      t.kind = Tok::Newline;
      ++at_;
      ++line_;
      line_start_ = at_;
      return t;
    }
    if (ident_start(c)) return take(t, Tok::Ident, span_while(ident_char));
    if (digit(c) || (c == '.' && at_ + 1 < text_.size() && digit(text_[at_ + 1]))) return number(t);
    static const char* const two[] = {"<<", ">>", "==", "!=", "<=", ">="};
    for (const char* op : two)
      if (text_.substr(at_, 2) == op) return take(t, Tok::Punct, 2);
    if (std::string_view("+-*/%&|^~<>(),=").find(c) != std::string_view::npos) return take(t, Tok::Punct, 1);
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F)
      map_.fail(t.pos, "unexpected character (byte 0x" + hex(static_cast<unsigned char>(c)) + ")");
    map_.fail(t.pos, std::string("unexpected character '") + c + "'");
  }

 private:
  static std::string hex(unsigned v) {
    const char* digits = "0123456789ABCDEF";
    return std::string{digits[v >> 4], digits[v & 15]};
  }
  void skip_blanks_and_comments() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++at_;
      } else if (c == '#') {
        while (at_ < text_.size() && text_[at_] != '\n') ++at_;
      } else {
        break;
      }
    }
  }
  template <class Pred>
  size_t span_while(Pred pred) const {
    size_t n = 0;
    while (at_ + n < text_.size() && pred(text_[at_ + n])) ++n;
    return n;
  }
  Token take(Token& t, Tok kind, size_t n) {
    t.kind = kind;
    t.text = std::string(text_.substr(at_, n));
    at_ += n;
    return t;
  }
  // 123, 0x7F, 1.5, .5, 2e-3, 1.0e+4. A letter or '.' right after a number is an error.
  Token number(Token& t) {
    if (text_.substr(at_, 2) == "0x" || text_.substr(at_, 2) == "0X") {
      size_t n = 2;
      while (at_ + n < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[at_ + n]))) ++n;
      if (n == 2) map_.fail(t.pos, "hexadecimal literal without digits");
      return finish_number(t, Tok::Int, n);
    }
    size_t n = span_while(digit);
    bool is_float = false;
    if (at_ + n < text_.size() && text_[at_ + n] == '.') {
      is_float = true;
      ++n;
      while (at_ + n < text_.size() && digit(text_[at_ + n])) ++n;
    }
    if (at_ + n < text_.size() && (text_[at_ + n] == 'e' || text_[at_ + n] == 'E')) {
      size_t m = n + 1;
      if (at_ + m < text_.size() && (text_[at_ + m] == '+' || text_[at_ + m] == '-')) ++m;
      if (at_ + m < text_.size() && digit(text_[at_ + m])) {
        is_float = true;
        n = m;
        while (at_ + n < text_.size() && digit(text_[at_ + n])) ++n;
      }
    }
    return finish_number(t, is_float ? Tok::Float : Tok::Int, n);
  }
  Token finish_number(Token& t, Tok kind, size_t n) {
    if (at_ + n < text_.size() && (ident_char(text_[at_ + n]) || text_[at_ + n] == '.'))
      map_.fail(t.pos, "malformed number '" + std::string(text_.substr(at_, n + 1)) + "'");
    return take(t, kind, n);
  }

  std::string_view text_;
  const TextMapper& map_;
  size_t at_ = 0;
  size_t line_start_ = 0;
  int line_ = 0;
};

const std::set<std::string, std::less<>>& function_names() {
  static const std::set<std::string, std::less<>> names = {
      "exp", "log", "sqrt", "rsqrt", "recip", "tanh", "sigmoid", "silu", "gelu", "relu", "abs",
      "min", "max", "fma", "select", "sat", "srs", "rne", "sum"};
  return names;
}

// Binary operators by precedence level (0 lowest).
int precedence(const std::string& op) {
  static const char* const levels[][4] = {{"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="},
                                          {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
  for (int level = 0; level < 8; ++level)
    for (const char* o : levels[level])
      if (o && op == o) return level;
  return -1;
}

class Parser {
 public:
  Parser(std::string_view text, const TextMapper& map, const ExprLimits& limits)
      : lex_(text, map), map_(map), limits_(limits) {
    advance();
  }

  Ast parse() {
    while (cur_.kind != Tok::End) {
      if (cur_.kind == Tok::Newline) {
        advance();
        continue;
      }
      statement();
    }
    return std::move(ast_);
  }

 private:
  void advance() { cur_ = lex_.next(); }
  bool is_punct(const char* p) const { return cur_.kind == Tok::Punct && cur_.text == p; }
  std::string describe(const Token& t) const {
    switch (t.kind) {
      case Tok::Newline: return "end of line";
      case Tok::End: return "end of text";
      default: return "'" + t.text + "'";
    }
  }
  void expect(const char* p, const std::string& what) {
    if (!is_punct(p)) map_.fail(cur_.pos, "expected " + what + ", got " + describe(cur_));
    advance();
  }

  void statement() {
    if (ast_.statements.size() >= limits_.max_statements)
      map_.fail(cur_.pos, "too many statements (at most " + std::to_string(limits_.max_statements) + ")");
    if (cur_.kind != Tok::Ident)
      map_.fail(cur_.pos, "expected a statement 'name = expression', got " + describe(cur_));
    Statement s;
    s.target = cur_.text;
    s.target_pos = cur_.pos;
    advance();
    expect("=", "'=' after '" + s.target + "'");
    depth_ = 0;
    s.value = expression();
    if (cur_.kind != Tok::Newline && cur_.kind != Tok::End)
      map_.fail(cur_.pos, "unexpected " + describe(cur_) + " after the expression (one statement per line)");
    ast_.statements.push_back(s);
  }

  // Each descent into a nested expression (parentheses, unary operator, call argument,
  // right operand) counts one level.
  void enter(TextPos at) {
    if (++depth_ > limits_.max_depth)
      map_.fail(at, "expression nested too deeply (more than " + std::to_string(limits_.max_depth) + " levels)");
  }

  // A node's height bounds the checker's recursion: `a + b + c ...` nests without
  // parentheses, so the height is checked here as well as the parser's own depth.
  uint32_t add(AstNode n) {
    for (uint32_t arg : n.args) n.height = std::max(n.height, ast_.nodes[arg].height + 1);
    if (n.height > limits_.max_depth)
      map_.fail(n.pos, "expression nested too deeply (more than " + std::to_string(limits_.max_depth) + " levels)");
    ast_.nodes.push_back(std::move(n));
    return uint32_t(ast_.nodes.size() - 1);
  }

  uint32_t expression() { return binary(0); }

  uint32_t binary(int min_level) {
    uint32_t lhs = unary();
    while (cur_.kind == Tok::Punct && precedence(cur_.text) >= min_level) {
      AstNode n;
      n.kind = AstKind::Binary;
      n.text = cur_.text;
      n.pos = cur_.pos;
      const int level = precedence(cur_.text);
      advance();
      enter(n.pos);
      const uint32_t rhs = binary(level + 1);
      --depth_;
      n.args = {lhs, rhs};
      lhs = add(std::move(n));
    }
    return lhs;
  }

  uint32_t unary() {
    if (is_punct("-") || is_punct("~")) {
      AstNode n;
      n.kind = AstKind::Unary;
      n.text = cur_.text;
      n.pos = cur_.pos;
      advance();
      enter(n.pos);
      // '-' straight before a number is part of the literal, so -128 fits i8.
      if (n.text == "-" && (cur_.kind == Tok::Int || cur_.kind == Tok::Float)) {
        const uint32_t lit = literal();
        ast_.nodes[lit].pos = n.pos;
        ast_.nodes[lit].negative = true;
        ast_.nodes[lit].float_value = -ast_.nodes[lit].float_value;
        --depth_;
        return lit;
      }
      n.args = {unary()};
      --depth_;
      return add(std::move(n));
    }
    return primary();
  }

  uint32_t literal() {
    AstNode n;
    n.pos = cur_.pos;
    errno = 0;
    if (cur_.kind == Tok::Int) {
      n.kind = AstKind::IntLiteral;
      char* end = nullptr;
      n.magnitude = std::strtoull(cur_.text.c_str(), &end, 0);
      if (errno == ERANGE) map_.fail(cur_.pos, "integer literal " + cur_.text + " is larger than 64 bits");
      n.float_value = double(n.magnitude);
    } else {
      n.kind = AstKind::FloatLiteral;
      n.float_value = std::strtod(cur_.text.c_str(), nullptr);
      if (errno == ERANGE && n.float_value != 0) map_.fail(cur_.pos, "float literal " + cur_.text + " is out of range");
    }
    n.text = cur_.text;
    advance();
    return add(std::move(n));
  }

  uint32_t primary() {
    if (cur_.kind == Tok::Int || cur_.kind == Tok::Float) return literal();
    if (is_punct("(")) {
      const TextPos open = cur_.pos;
      advance();
      enter(open);
      const uint32_t inner = expression();
      --depth_;
      expect(")", "')' to close the '(' at column " + std::to_string(map_.where().column + open.column));
      return inner;
    }
    if (cur_.kind != Tok::Ident) map_.fail(cur_.pos, "expected an expression, got " + describe(cur_));
    AstNode n;
    n.pos = cur_.pos;
    n.text = cur_.text;
    advance();
    if (n.text == "true" || n.text == "false") {
      n.kind = AstKind::BoolLiteral;
      n.bool_value = n.text == "true";
      return add(std::move(n));
    }
    if (!is_punct("(")) {
      n.kind = AstKind::Name;
      return add(std::move(n));
    }
    n.kind = AstKind::Call;
    advance();
    enter(n.pos);
    if (!is_punct(")")) {
      for (;;) {
        n.args.push_back(expression());
        if (!is_punct(",")) break;
        advance();
      }
    }
    --depth_;
    expect(")", "',' or ')' in the call of '" + n.text + "'");
    return add(std::move(n));
  }

  Lexer lex_;
  const TextMapper& map_;
  const ExprLimits& limits_;
  Token cur_;
  Ast ast_;
  size_t depth_ = 0;
};

}  // namespace

bool is_function_name(std::string_view name) { return function_names().count(name) > 0; }

bool is_reserved_name(std::string_view name) {
  ElemFormat f;
  return is_function_name(name) || parse_format(name, f) || name == "true" || name == "false";
}

Ast parse_statements(std::string_view text, const TextMapper& map, const ExprLimits& limits) {
  if (text.size() > limits.max_text_bytes)
    map.fail({0, 0}, "semantics text is " + std::to_string(text.size()) + " bytes (at most " +
                         std::to_string(limits.max_text_bytes) + ")");
  return Parser(text, map, limits).parse();
}

}  // namespace tlmcraft::isa::extension::detail
