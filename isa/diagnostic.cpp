// Text form of an assembler diagnostic, the one line agents and users read.
#include <cctype>
#include <string>

#include "isa/program.h"

namespace tlmcraft::isa {

namespace {
const char* severity_text(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// True if `token` occurs in `text` as a whole word (not inside a longer name or number).
bool mentions(const std::string& text, const std::string& token) {
  for (size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + 1)) {
    const bool left = at == 0 || !ident_char(text[at - 1]) || !ident_char(token.front());
    const size_t end = at + token.size();
    const bool right = end == text.size() || !ident_char(text[end]) || !ident_char(token.back());
    if (left && right) return true;
  }
  return false;
}

}  // namespace

// "kernel.asm:3:12: error: expected a gp register (gp0-gp15), got 'f2' (hint: ...)".
// Messages normally name their token already; a token they do not mention is appended
// so the offending text always appears in the line.
std::string Diagnostic::format() const {
  std::string s = file.empty() ? std::string("<input>") : file;
  if (line > 0) {
    s += ":" + std::to_string(line);
    if (col > 0) s += ":" + std::to_string(col);
  }
  s += ": ";
  s += severity_text(severity);
  s += ": ";
  s += message;
  if (!token.empty() && !mentions(message, token)) s += " '" + token + "'";
  if (!hint.empty()) s += " (hint: " + hint + ")";
  return s;
}

}  // namespace tlmcraft::isa
