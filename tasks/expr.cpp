#include "tasks/expr.h"

#include <cctype>
#include <limits>

namespace tlmcraft::tasks {
namespace {

// Recursive descent: expr := term (('+'|'-') term)*; term := unary (('*'|'/') unary)*;
// unary := '-' unary | primary; primary := integer | name | '(' expr ')'.
class Parser {
 public:
  Parser(const std::string& text, const Params* params) : s_(text), params_(params) {}

  int64_t parse_all() {
    const int64_t v = expr();
    skip_space();
    if (pos_ != s_.size()) fail(std::string("unexpected '") + s_[pos_] + "'");
    return v;
  }
  std::vector<std::string> names;

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw ExprError("expression \"" + s_ + "\" column " + std::to_string(pos_ + 1) + ": " + why);
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  static int64_t checked(__int128 v, const Parser& p) {
    if (v > std::numeric_limits<int64_t>::max() || v < std::numeric_limits<int64_t>::min())
      p.fail("value overflows 64 bits");
    return int64_t(v);
  }
  int64_t expr() {
    int64_t v = term();
    for (;;) {
      if (eat('+')) v = checked(__int128(v) + term(), *this);
      else if (eat('-')) v = checked(__int128(v) - term(), *this);
      else return v;
    }
  }
  int64_t term() {
    int64_t v = unary();
    for (;;) {
      if (eat('*')) {
        v = checked(__int128(v) * unary(), *this);
      } else if (eat('/')) {
        skip_space();
        const size_t at = pos_;  // errors point at the divisor
        const int64_t d = unary();
        if (params_) {
          if (d == 0) { pos_ = at; fail("division by zero"); }
          if (v % d != 0) {
            pos_ = at;
            fail(std::to_string(v) + " is not divisible by " + std::to_string(d));
          }
          v /= d;
        }
      } else {
        return v;
      }
    }
  }
  int64_t unary() {
    if (eat('-')) return checked(-__int128(unary()), *this);
    return primary();
  }
  int64_t primary() {
    skip_space();
    if (pos_ >= s_.size()) fail("expected a number, a name or '('");
    const char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      const int64_t v = expr();
      if (!eat(')')) fail("expected ')'");
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      __int128 v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        v = v * 10 + (s_[pos_++] - '0');
        checked(v, *this);
      }
      return int64_t(v);
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t start = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      const std::string name = s_.substr(start, pos_ - start);
      names.push_back(name);
      if (!params_) return 1;
      const auto it = params_->find(name);
      if (it == params_->end()) {
        pos_ = start;
        fail("unknown parameter '" + name + "'");
      }
      return it->second;
    }
    fail(std::string("unexpected '") + c + "'");
  }

  const std::string& s_;
  const Params* params_;
  size_t pos_ = 0;
};

}  // namespace

int64_t eval_expr(const std::string& text, const Params& params) {
  Parser p(text, &params);
  return p.parse_all();
}

std::vector<std::string> expr_names(const std::string& text) {
  Parser p(text, nullptr);
  p.parse_all();
  return p.names;
}

}  // namespace tlmcraft::tasks
