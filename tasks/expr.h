// Shape expressions of task specs: integers, parameter names, + - * / and parentheses,
// e.g. "n / 64", "h / heads * kv_heads", "(k * k) * c_in". Evaluated over int64 with
// exact division only (a shape that does not divide evenly is a spec error, not a
// silently truncated tensor).
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tlmcraft::tasks {

using Params = std::map<std::string, int64_t>;

struct ExprError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Evaluates `text` with the values in `params`. Throws ExprError naming the expression,
// the column and the cause (unknown name, division by zero or with a remainder, syntax).
int64_t eval_expr(const std::string& text, const Params& params);

// The parameter names an expression mentions (for validation against a spec's params).
// Throws ExprError on a syntax error.
std::vector<std::string> expr_names(const std::string& text);

}  // namespace tlmcraft::tasks
