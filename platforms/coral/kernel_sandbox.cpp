#include "platforms/coral/kernel_sandbox.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

namespace tlmcraft::coral {

const char* const kFileRefusal =
    "the kernel reads a file outside its sandbox: a kernel may include only the compiler's own headers (e.g. "
    "<riscv_vector.h>, <stdint.h>) and read no other file";

namespace {

namespace fs = std::filesystem;

const char* kSelfContained = "a kernel is one self-contained file: put the data in the kernel (e.g. .word/.byte) instead";

isa::Diagnostic refusal(const std::string& file, uint32_t line, const std::string& token, const std::string& message,
                        const std::string& hint) {
  isa::Diagnostic d;
  d.severity = isa::Severity::Error;
  d.file = file;
  d.line = line;
  d.token = token;
  d.message = message;
  d.hint = hint;
  return d;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// The statements of one assembly line: split at ';' outside strings, '#' comments dropped.
std::vector<std::string> statements(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool in_string = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      cur += c;
      if (c == '\\' && i + 1 < line.size()) cur += line[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '#') break;
    if (c == ';') {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    if (c == '"') in_string = true;
    cur += c;
  }
  out.push_back(cur);
  return out;
}

// (No std::regex on kernel text here: its recursive matcher overflows the stack on long lines.)

bool outside_path(const std::string& p) {
  return !p.empty() && (p[0] == '/' || p[0] == '~' || p.find("..") != std::string::npos);
}

// A quoted operand naming a path outside the kernel's directory.
bool names_outside_path(const std::string& statement) {
  for (size_t open = statement.find('"'); open != std::string::npos;) {
    const size_t close = statement.find('"', open + 1);
    if (outside_path(statement.substr(open + 1, close == std::string::npos ? std::string::npos : close - open - 1)))
      return true;
    open = close == std::string::npos ? close : statement.find('"', close + 1);
  }
  return false;
}

// True if `text` holds one of `words` as a whole C identifier.
bool has_identifier(const std::string& text, std::initializer_list<const char*> words) {
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (!(std::isalpha(c) || c == '_')) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    const std::string word = text.substr(i, end - i);
    for (const char* w : words)
      if (word == w) return true;
    i = end;
  }
  return false;
}

struct Refusal {
  std::string token, message, hint;
};

// The operation (directive or mnemonic) of a statement, after any labels.
std::string operation_of(const std::string& statement) {
  size_t at = 0;
  for (;;) {
    at = statement.find_first_not_of(" \t", at);
    if (at == std::string::npos) return "";
    size_t end = at;
    while (end < statement.size() && !std::isspace(static_cast<unsigned char>(statement[end])) && statement[end] != ':')
      ++end;
    if (end < statement.size() && statement[end] == ':') {  // a label: the operation follows
      at = end + 1;
      continue;
    }
    return statement.substr(at, end - at);
  }
}

// Why one assembly statement is refused (nothing if it is allowed). `inline_asm`: C's
// inline asm, where macros are refused too (they can assemble directive names).
std::optional<Refusal> refuse_statement(const std::string& statement, bool inline_asm) {
  const std::string op = operation_of(statement);
  if (op.empty()) return std::nullopt;
  const std::string d = lower(op);
  if (d.find('\\') != std::string::npos)
    return Refusal{op, "a directive or instruction name built from macro arguments ('" + op + "') is not allowed",
                   "write the directive or instruction name out in full"};
  if (d == ".incbin" || d == ".include")
    return Refusal{op, op + " reads a file: kernels may not read files", kSelfContained};
  if (d == ".nolist" || d == ".altmacro")
    return Refusal{op, op + " is not allowed in kernels (it hides statements from the sandbox check)", "remove it"};
  if (inline_asm && (d == ".macro" || d == ".irp" || d == ".irpc"))
    return Refusal{op, op + " is not allowed in inline asm (macros can build directives that read files)",
                   "write the instructions out, or use C macros around the asm statement"};
  if ((d == ".file" || d == ".loc") && names_outside_path(statement))
    return Refusal{op, op + " names an absolute or parent ('..') path, which is not allowed", "name the kernel file itself, or drop the directive"};
  return std::nullopt;
}

void check_text_line(const std::string& text, uint32_t line, bool inline_asm, const std::string& user_file,
                     std::vector<isa::Diagnostic>& out) {
  for (const auto& s : statements(text))
    if (const auto r = refuse_statement(s, inline_asm)) out.push_back(refusal(user_file, line, r->token, r->message, r->hint));
}

// Files the preprocessor names in a line marker: `# 12 "name" flags`.
bool parse_marker(const std::string& line, uint32_t& number, std::string& name) {
  if (line.size() < 4 || line[0] != '#' || line[1] != ' ') return false;
  size_t at = line.find_first_not_of(' ', 1);
  if (at == std::string::npos || !std::isdigit(static_cast<unsigned char>(line[at]))) return false;
  number = static_cast<uint32_t>(std::strtoul(line.c_str() + at, nullptr, 10));
  at = line.find('"', at);
  if (at == std::string::npos) return false;
  name.clear();
  for (size_t i = at + 1; i < line.size() && line[i] != '"'; ++i) {
    if (line[i] == '\\' && i + 1 < line.size()) ++i;  // \\ and \" in file names
    name += line[i];
  }
  return true;
}

bool under(const fs::path& file, const std::string& dir) {
  std::error_code ec;
  const fs::path f = fs::weakly_canonical(file, ec);
  if (ec) return false;
  const fs::path d = fs::weakly_canonical(dir, ec);
  if (ec) return false;
  const auto mismatch = std::mismatch(d.begin(), d.end(), f.begin(), f.end());
  return mismatch.first == d.end();
}

// LLVM IR string text: \\ and \XX escapes.
std::string unescape_ir(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\\') {
      out += '\\';
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

std::vector<isa::Diagnostic> check_assembly_source(const std::vector<std::string>& lines, const std::string& user_file) {
  std::vector<isa::Diagnostic> out;
  for (size_t i = 0; i < lines.size(); ++i) check_text_line(lines[i], static_cast<uint32_t>(i + 1), false, user_file, out);
  return out;
}

std::vector<isa::Diagnostic> check_assembly_listing(const std::string& listing, const std::string& user_file) {
  // "  12 0006 13000000 \t> nop": line number, address and bytes, a tab, then the
  // statement ("> " marks a line produced by a macro, .rept or .irp expansion).
  std::vector<isa::Diagnostic> out;
  size_t pos = 0;
  while (pos < listing.size()) {
    size_t nl = listing.find('\n', pos);
    if (nl == std::string::npos) nl = listing.size();
    const std::string row = listing.substr(pos, nl - pos);
    pos = nl + 1;
    const size_t tab = row.find('\t');
    if (tab == std::string::npos) continue;
    const size_t digits = row.find_first_not_of(' ');
    if (digits == std::string::npos || !std::isdigit(static_cast<unsigned char>(row[digits]))) continue;
    const uint32_t line = static_cast<uint32_t>(std::strtoul(row.c_str() + digits, nullptr, 10));
    std::string text = row.substr(tab + 1);
    text.erase(0, text.find_first_not_of("> "));
    check_text_line(text, line, false, user_file, out);
  }
  return out;
}

std::vector<std::string> c_logical_lines(const std::vector<std::string>& lines) {
  std::vector<std::string> out(lines.size());
  enum class State { Code, BlockComment, String, Char } state = State::Code;
  size_t logical = 0;  // the physical line (index) the current logical line started on
  for (size_t li = 0; li < lines.size(); ++li) {
    // Phase 1: trigraphs (C17 reads them; clang does under -std=c*) and digraph `%:`.
    std::string text;
    const std::string& raw = lines[li];
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '?' && i + 2 < raw.size() && raw[i + 1] == '?' && (raw[i + 2] == '=' || raw[i + 2] == '/')) {
        text += raw[i + 2] == '=' ? '#' : '\\';
        i += 2;
      } else {
        text += raw[i];
      }
    }
    // Phase 2: a backslash at the end splices the next line onto this one.
    const bool spliced = !text.empty() && text.back() == '\\';
    if (spliced) text.pop_back();
    std::string& dst = out[logical];
    for (size_t i = 0; i < text.size(); ++i) {
      const char c = text[i], n = i + 1 < text.size() ? text[i + 1] : '\0';
      switch (state) {
        case State::BlockComment:
          if (c == '*' && n == '/') state = State::Code, ++i;
          continue;
        case State::String:
        case State::Char:
          dst += c;
          if (c == '\\' && i + 1 < text.size()) dst += text[++i];
          else if (c == (state == State::String ? '"' : '\'')) state = State::Code;
          continue;
        case State::Code:
          break;
      }
      if (c == '/' && n == '*') {
        dst += ' ';
        state = State::BlockComment;
        ++i;
      } else if (c == '/' && n == '/') {
        dst += ' ';
        break;  // to the end of the (spliced) line; a splice continues the comment
      } else if (c == '%' && n == ':') {
        dst += '#';
        ++i;
      } else {
        if (c == '"') state = State::String;
        if (c == '\'') state = State::Char;
        dst += c;
      }
    }
    // A comment across lines is one space, so the logical line goes on after it too.
    if (!spliced && state != State::BlockComment) {
      logical = li + 1;
      if (state == State::String || state == State::Char) state = State::Code;  // unterminated: clang errs
    }
  }
  return out;
}

std::vector<isa::Diagnostic> check_c_source(const std::vector<std::string>& physical, const std::string& user_file) {
  std::vector<isa::Diagnostic> out;
  const std::vector<std::string> lines = c_logical_lines(physical);
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto line = static_cast<uint32_t>(i + 1);
    const std::string& text = lines[i];
    if (text.find("__has_include") != std::string::npos) {
      out.push_back(refusal(user_file, line, "__has_include",
                            "__has_include is not allowed: kernels may not probe the host's files", "remove it"));
      continue;
    }
    // "#  include_next ...": the directive word and the rest.
    size_t at = text.find_first_not_of(" \t");
    if (at == std::string::npos || text[at] != '#') continue;
    at = text.find_first_not_of(" \t", at + 1);
    if (at == std::string::npos) continue;
    size_t end = at;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    const std::string what = text.substr(at, end - at), rest = text.substr(end);
    if (what != "include" && what != "include_next" && what != "import" && what != "line") continue;
    if (what == "include_next") {
      out.push_back(refusal(user_file, line, "#include_next", "#include_next is not allowed in kernels", "use #include <header.h>"));
      continue;
    }
    const size_t open = rest.find_first_of("\"<");
    if (open == std::string::npos) continue;  // a macro: checked after preprocessing
    const size_t close = rest.find(rest[open] == '"' ? '"' : '>', open + 1);
    const std::string path = rest.substr(open + 1, close == std::string::npos ? std::string::npos : close - open - 1);
    if (outside_path(path))
      out.push_back(refusal(user_file, line, path,
                            "#" + what + " names an absolute or parent ('..') path ('" + path +
                                "'): kernels may only include the compiler's own headers (e.g. <riscv_vector.h>, <stdint.h>)",
                            kSelfContained));
  }
  return out;
}

std::vector<isa::Diagnostic> check_preprocessed_c(const std::string& text, const std::string& tool_file,
                                                  const std::vector<std::string>& allowed_dirs,
                                                  const std::string& user_file) {
  std::vector<isa::Diagnostic> out;
  uint32_t kernel_line = 0;  // the kernel line the next text line came from
  bool in_kernel = true;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string row = text.substr(pos, nl - pos);
    pos = nl + 1;
    uint32_t number = 0;
    std::string name;
    if (!parse_marker(row, number, name)) {
      if (in_kernel) ++kernel_line;
      continue;
    }
    in_kernel = name == tool_file;
    if (in_kernel) {
      kernel_line = number;
      continue;
    }
    if (!name.empty() && name[0] == '<') continue;  // <built-in>, <command line>, <scratch space>
    const bool allowed = name.find("..") == std::string::npos && fs::path(name).is_absolute() &&
                         std::any_of(allowed_dirs.begin(), allowed_dirs.end(), [&](const std::string& d) { return under(name, d); });
    if (allowed) continue;
    // The same refusal as for a file the sandbox kept closed or a missing one (no path,
    // no column): whether a host file exists must not show.
    out.push_back(refusal(user_file, kernel_line, "", kFileRefusal, kSelfContained));
    return out;  // one is enough: everything after it comes from that file
  }
  return out;
}

bool may_contain_inline_asm(const std::string& preprocessed) {
  return has_identifier(preprocessed, {"asm", "__asm", "__asm__"});
}

std::vector<isa::Diagnostic> check_inline_asm_ir(const std::string& ir, const std::vector<std::string>& source_lines,
                                                 const std::string& user_file) {
  std::vector<isa::Diagnostic> out;
  // The kernel line to blame: the first one that writes an asm statement.
  uint32_t asm_line = 0;
  for (size_t i = 0; i < source_lines.size() && asm_line == 0; ++i)
    if (has_identifier(source_lines[i], {"asm", "__asm", "__asm__"})) asm_line = static_cast<uint32_t>(i + 1);
  // IR lines with `asm "text"` (module asm) or `asm sideeffect "text", "constraints"`.
  size_t line_start = 0;
  while (line_start < ir.size()) {
    size_t nl = ir.find('\n', line_start);
    if (nl == std::string::npos) nl = ir.size();
    const std::string row = ir.substr(line_start, nl - line_start);
    line_start = nl + 1;
    size_t at = row.find("asm ");
    if (at == std::string::npos || (at > 0 && (std::isalnum(static_cast<unsigned char>(row[at - 1])) || row[at - 1] == '_')))
      continue;
    const size_t open = row.find('"', at);
    if (open == std::string::npos) continue;
    const size_t close = row.find('"', open + 1);  // IR escapes quotes as \22
    const std::string body = unescape_ir(row.substr(open + 1, close == std::string::npos ? std::string::npos : close - open - 1));
    size_t pos = 0;
    while (pos <= body.size()) {
      size_t nl = body.find('\n', pos);
      if (nl == std::string::npos) nl = body.size();
      check_text_line(body.substr(pos, nl - pos), asm_line, true, user_file, out);
      pos = nl + 1;
    }
  }
  return out;
}

std::string scrub_host_paths(const std::string& text, const std::string& tool_file, const std::string& user_file) {
  const auto path_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' || c == '_' || c == '-' || c == '+';
  };
  std::string out;
  for (size_t i = 0; i < text.size();) {
    // Web addresses (clang's "submit a bug report to https://...") are not host paths: a
    // scheme, a host name, then path characters only (anything else ends it and is scrubbed
    // as usual, so "http:///etc/x", "http://\xa9/etc/x" or "http://h%:/etc/x" keeps no
    // host path).
    for (const char* scheme : {"https://", "http://"}) {
      const size_t n = std::char_traits<char>::length(scheme);
      if (text.compare(i, n, scheme) != 0 || i + n >= text.size() ||
          !std::isalnum(static_cast<unsigned char>(text[i + n])))
        continue;
      size_t end = i + n;
      while (end < text.size() && path_char(text[end])) ++end;
      out.append(text, i, end - i);
      i = end;
      break;
    }
    if (i >= text.size()) break;
    const bool starts = text[i] == '/' && (i == 0 || !path_char(text[i - 1])) && i + 1 < text.size() && path_char(text[i + 1]);
    if (!starts) {
      out += text[i++];
      continue;
    }
    size_t end = i;
    while (end < text.size() && path_char(text[end])) ++end;
    const std::string path = text.substr(i, end - i);
    std::string last = path.substr(path.find_last_of('/', path.size() - (path.back() == '/' ? 2 : 1)) + 1);
    if (!tool_file.empty() && last == tool_file) last = user_file;
    out += last;
    i = end;
  }
  return out;
}

std::vector<isa::Diagnostic> explain_sandbox_denials(std::vector<isa::Diagnostic> diags, const std::string& tool_file,
                                                     const std::string& user_file) {
  std::vector<isa::Diagnostic> out;
  bool refused = false;
  for (auto& d : diags) {
    const std::string& m = d.message;
    // clang: "'/x' file not found", "cannot open file '/x': Permission denied"; GNU as:
    // "can't open /x for reading: No such file or directory" (or Permission denied).
    const bool file_access = m.find("Permission denied") != std::string::npos ||
                             m.find("No such file or directory") != std::string::npos ||
                             m.find("file not found") != std::string::npos || m.find("cannot open file") != std::string::npos ||
                             m.find("could not open") != std::string::npos;
    if (file_access) {
      if (refused) continue;  // one refusal, at the first attempt: the rest would differ by host
      refused = true;
      d.severity = isa::Severity::Error;
      d.token.clear();
      d.col = 0;  // clang gives one, the preprocessed-text check cannot: neither may differ
      d.message = kFileRefusal;
      d.hint = kSelfContained;
    } else {
      d.message = scrub_host_paths(d.message, tool_file, user_file);
      d.token = scrub_host_paths(d.token, tool_file, user_file);
      d.hint = scrub_host_paths(d.hint, tool_file, user_file);
    }
    // The kernel's own name is the user's (an absolute path when they gave one): kept.
    if (!d.file.empty() && d.file[0] == '/' && d.file != user_file) d.file = scrub_host_paths(d.file, tool_file, user_file);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace tlmcraft::coral
