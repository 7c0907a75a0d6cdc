// A light structural view of a Coral C kernel (C with RVV intrinsics) for source-level
// transformations: `for` loops with their header and body extents, function
// definitions, integer #define values and the tensors the layout declares. It does not
// parse C in general: it skips comments, string and character literals and matches
// brackets, which is enough for the kernels the baselines and their transformations are.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tlmcraft::agent::search::coral {

// One `for` statement. Offsets index the source text.
struct CLoop {
  size_t for_pos = 0;       // the 'f' of `for`
  size_t line_start = 0;    // start of the line holding `for`
  std::string indent;       // that line's leading whitespace
  bool starts_line = false; // only whitespace precedes `for` on its line
  size_t header_open = 0;   // '('
  size_t header_close = 0;  // ')'
  size_t body_begin = 0;    // first character of the body statement ('{' if braced)
  size_t end = 0;           // one past the body statement
  std::string init, cond, step;  // the header's three clauses, trimmed
  int depth = 0;            // number of enclosing `for` loops
  bool has_pragma = false;  // a `#pragma clang loop` line directly precedes it
  std::string pragma;       // that line, trimmed ("" if none)
};

// Every `for` loop in text order (outer loops before the loops they contain).
std::vector<CLoop> find_loops(const std::string& src);

// One function definition `... name(params) { body }` at file scope.
struct CFunction {
  std::string name;
  size_t begin = 0;   // start of the line holding the return type
  size_t open = 0;    // the body's '{'
  size_t end = 0;     // one past the body's '}'
};
std::vector<CFunction> find_functions(const std::string& src);
// The function whose body contains `pos`, nullptr if none.
const CFunction* enclosing_function(const std::vector<CFunction>& functions, size_t pos);

// Position of the bracket matching the one at `open` ('(', '[' or '{'), skipping
// comments and literals; std::string::npos if unbalanced.
size_t match_bracket(const std::string& src, size_t open);

// True if `pos` lies in a comment or a string/character literal.
bool in_comment_or_literal(const std::string& src, size_t pos);

// `#define NAME <integer>` lines (decimal or hex, optional u suffix, trailing comment).
std::map<std::string, int64_t> integer_defines(const std::string& src);

// Evaluates an integer expression of literals, defined names, + - * / % and
// parentheses (e.g. "DIM_N * DIM_H_I"); nullopt if anything else appears.
std::optional<int64_t> evaluate(const std::string& expr, const std::map<std::string, int64_t>& defines);

// A tensor the layout declares: `#define X_ADDR 0x...u  /* int8 [32, 32] input */` and
// `#define X_ELEMS 1024`.
struct CTensor {
  std::string macro;        // "B" (the prefix of B_ADDR)
  std::string format;       // "int8", "int32"
  std::string role;         // "input", "output", ...
  int64_t elements = 0;
  int64_t bytes = 0;
};
std::vector<CTensor> layout_tensors(const std::string& src);

// Bytes of DTCM taken by file-scope `static T name[expr];` arrays whose size evaluates
// (element size from the type name); unknown sizes count as nullopt.
std::optional<int64_t> static_array_bytes(const std::string& src);

// Positions of whole-word occurrences of `word` outside comments and literals.
std::vector<size_t> find_word(const std::string& src, const std::string& word, size_t from = 0,
                              size_t to = std::string::npos);

}  // namespace tlmcraft::agent::search::coral
