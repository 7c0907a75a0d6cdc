// The statement language's syntax tree and parser (internal to isa/extension).
// Positions are 0-based within the text; TextMapper turns them into file positions.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "isa/extension/expression.h"

namespace tlmcraft::isa::extension::detail {

struct TextPos {
  int line = 0;    // 0-based line of the text
  int column = 0;  // 0-based column of the text
};

// Maps positions in the text to "file:line:col" and builds errors there.
class TextMapper {
 public:
  explicit TextMapper(SourceLocation where) : where_(std::move(where)) {}
  [[noreturn]] void fail(TextPos at, const std::string& message) const;
  int file_line(int text_line) const;
  const SourceLocation& where() const { return where_; }

 private:
  SourceLocation where_;
};

enum class AstKind : uint8_t { IntLiteral, FloatLiteral, BoolLiteral, Name, Unary, Binary, Call };

// One node of an expression; children are indices into Ast::nodes (an arena, so deep
// trees are freed without recursion).
struct AstNode {
  AstKind kind = AstKind::IntLiteral;
  TextPos pos;
  std::string text;            // Name / Call: the identifier; Unary / Binary: the operator
  std::vector<uint32_t> args;  // Unary: 1, Binary: 2, Call: its arguments
  uint64_t magnitude = 0;      // IntLiteral: |value|
  bool negative = false;       // IntLiteral: written with a leading '-'
  double float_value = 0;      // FloatLiteral (sign included)
  bool bool_value = false;     // BoolLiteral
  size_t height = 1;           // 1 + the largest child height
};

struct Statement {
  std::string target;
  TextPos target_pos;
  uint32_t value = 0;  // root node
};

struct Ast {
  std::vector<AstNode> nodes;
  std::vector<Statement> statements;
};

// Parses the whole text (one statement per line, '#' comments). Throws ExtensionError.
Ast parse_statements(std::string_view text, const TextMapper& map, const ExprLimits& limits);

// Names the language reserves (functions, formats, true/false).
bool is_function_name(std::string_view name);
bool is_reserved_name(std::string_view name);

}  // namespace tlmcraft::isa::extension::detail
