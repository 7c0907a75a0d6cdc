// Positions in the YAML file: where a scalar's text starts and how a position inside
// the text maps back to the file.
#include "isa/extension/syntax.h"

namespace tlmcraft::isa::extension {

namespace {
// The 0-based line `line` of `text` (without its newline); empty past the end.
std::string_view line_of(std::string_view text, int line) {
  size_t start = 0;
  for (int i = 0; i < line; ++i) {
    const size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  const size_t end = text.find('\n', start);
  return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }
}  // namespace

SourceLocation locate_yaml_scalar(std::string_view yaml_text, int mark_line, int mark_column, std::string file) {
  SourceLocation loc;
  loc.file = std::move(file);
  loc.line = mark_line + 1;
  loc.column = mark_column + 1;
  const std::string_view line = line_of(yaml_text, mark_line);
  const char at = mark_column >= 0 && size_t(mark_column) < line.size() ? line[size_t(mark_column)] : '\0';
  if (at == '"' || at == '\'') {
    loc.column += 1;
  } else if (at == '|') {
    // Text line 0 is the next file line; the block's indentation is that of its first
    // non-blank line (blank leading lines are part of the text as empty lines).
    loc.literal_block = true;
    loc.line = mark_line + 2;
    loc.column = 1;
    for (int l = mark_line + 1;; ++l) {
      const std::string_view content = line_of(yaml_text, l);
      if (content.data() == nullptr) break;  // past the end of the file
      if (!blank(content)) {
        loc.column = int(content.find_first_not_of(' ')) + 1;
        break;
      }
    }
  }
  return loc;
}

namespace detail {

int TextMapper::file_line(int text_line) const { return where_.line + text_line; }

void TextMapper::fail(TextPos at, const std::string& message) const {
  int column = at.column + 1;
  if (where_.literal_block || at.line == 0) column = where_.column + at.column;
  throw ExtensionError(where_.file, file_line(at.line), column, message);
}

}  // namespace detail
}  // namespace tlmcraft::isa::extension
