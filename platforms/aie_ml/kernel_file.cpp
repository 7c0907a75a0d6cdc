#include "platforms/aie_ml/kernel_file.h"

#include <sstream>

#include "isa/input_limits.h"

namespace tlmcraft::aie_ml {
namespace {

// The line without its comment (';' or '#' to the end), trimmed.
std::string code_of(const std::string& line) {
  size_t end = line.size();
  for (size_t i = 0; i < line.size(); ++i)
    if (line[i] == ';' || line[i] == '#') {
      // ";;" separates slot operations; only a single ';' starts a comment.
      if (line[i] == ';' && i + 1 < line.size() && line[i + 1] == ';') { ++i; continue; }
      end = i;
      break;
    }
  size_t b = 0;
  while (b < end && isspace(static_cast<unsigned char>(line[b]))) ++b;
  while (end > b && isspace(static_cast<unsigned char>(line[end - 1]))) --end;
  return line.substr(b, end - b);
}

isa::Diagnostic diag(const std::string& file, uint32_t line, uint32_t col, const std::string& token,
                     const std::string& msg, const std::string& hint) {
  isa::Diagnostic d;
  d.file = file;
  d.line = line;
  d.col = col;
  d.token = token;
  d.message = msg;
  d.hint = hint;
  return d;
}

bool is_directive(const std::string& code, const std::string& name) {
  return code.rfind(name, 0) == 0 && (code.size() == name.size() || isspace(static_cast<unsigned char>(code[name.size()])));
}

}  // namespace

std::vector<std::string> kernel_lines(const std::string& source) {
  std::vector<std::string> lines;
  std::stringstream ss(source);
  for (std::string l; std::getline(ss, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
  }
  return lines;
}

bool split_phases(const std::string& source, const std::string& file, std::vector<PhaseText>& out,
                  std::vector<isa::Diagnostic>& diags) {
  out.clear();
  const std::vector<std::string> lines = kernel_lines(source);
  // [first, last) line indices of each phase; a phase starts at its `.phase` line.
  struct Range {
    std::string name;
    uint32_t line;
    size_t first, last;
  };
  std::vector<Range> ranges;
  bool ok = true, code_before = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string code = code_of(lines[i]);
    if (!is_directive(code, ".phase")) {
      if (ranges.empty() && !code.empty()) code_before = true;
      continue;
    }
    // The `.movement` YAML of a phase runs to the next `.phase`; YAML has no line that
    // starts with ".phase", so the directive is unambiguous there too.
    const uint32_t ln = static_cast<uint32_t>(i + 1), col = static_cast<uint32_t>(lines[i].find_first_not_of(" \t") + 1);
    std::istringstream is(code.substr(6));
    std::string name, extra;
    is >> name >> extra;
    if (!extra.empty()) {
      diags.push_back(diag(file, ln, col, code, "'.phase' takes at most one operand, a name", "e.g. '.phase attention'"));
      ok = false;
    }
    if (name.empty()) name = "phase" + std::to_string(ranges.size() + (code_before ? 2 : 1));
    for (const auto& r : ranges)
      if (r.name == name) {
        diags.push_back(diag(file, ln, col, code, "phase '" + name + "' is defined twice",
                             "its first '.phase' is on line " + std::to_string(r.line)));
        ok = false;
        break;
      }
    if (ranges.size() >= kMaxPhases) {
      diags.push_back(diag(file, ln, col, code, "more than " + std::to_string(kMaxPhases) + " phases",
                           "a kernel has at most " + std::to_string(kMaxPhases) + " phases; merge phases"));
      return false;
    }
    if (isa::diagnostics_full(diags)) return false;
    if (!ranges.empty()) ranges.back().last = i;
    ranges.push_back({name, ln, i + 1, lines.size()});
  }
  if (ranges.empty() || code_before) {
    // Code before the first `.phase` (or a file without phases) is the first phase.
    const size_t end = ranges.empty() ? lines.size() : ranges.front().first - 1;
    ranges.insert(ranges.begin(), {ranges.empty() ? std::string("main") : std::string("phase1"), 0, 0, end});
  }
  for (const auto& r : ranges) {
    PhaseText p;
    p.name = r.name;
    p.line = r.line;
    p.first_line = static_cast<uint32_t>(r.first + 1);
    for (size_t i = r.first; i < r.last; ++i) p.source += lines[i] + "\n";
    out.push_back(std::move(p));
  }
  return ok;
}

bool split_kernel(const std::string& source, const std::string& file, uint32_t columns, uint32_t rows,
                  KernelParts& out, std::vector<isa::Diagnostic>& diags, uint32_t first_line) {
  out = KernelParts{};
  const size_t errors_before = diags.size();
  const std::vector<std::string> lines = kernel_lines(source);
  TileSection* current = nullptr;
  bool saw_tile = false;
  TileSection implicit;  // lines before any `.tile`: the program of tile (0, 0) if no `.tile` follows
  implicit.first_line = first_line;
  bool implicit_has_code = false;
  uint32_t implicit_code_line = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const uint32_t ln = static_cast<uint32_t>(first_line + i);
    const std::string code = code_of(lines[i]);
    const size_t col = lines[i].find_first_not_of(" \t") + 1;
    if (code.rfind(".movement", 0) == 0 && (code.size() == 9 || isspace(static_cast<unsigned char>(code[9])))) {
      if (code.size() > 9)
        diags.push_back(diag(file, ln, static_cast<uint32_t>(col), code, "'.movement' takes no operands",
                             "put the data-movement YAML on the following lines"));
      out.has_movement = true;
      out.movement_line = ln;
      out.movement_first_line = ln + 1;
      for (size_t j = i + 1; j < lines.size(); ++j) out.movement += lines[j] + "\n";
      break;
    }
    if (code.rfind(".tile", 0) == 0 && (code.size() == 5 || isspace(static_cast<unsigned char>(code[5])))) {
      std::istringstream is(code.substr(5));
      long long c = -1, r = -1;
      std::string extra;
      if (!(is >> c >> r) || (is >> extra)) {
        diags.push_back(diag(file, ln, static_cast<uint32_t>(col), code, "expected '.tile <column> <row>'",
                             "e.g. '.tile 0 0' for the compute tile in column 0, row 0"));
        current = nullptr;
        continue;
      }
      if (c < 0 || r < 0 || c >= columns || r >= rows) {
        diags.push_back(diag(file, ln, static_cast<uint32_t>(col), code,
                             "tile (" + std::to_string(c) + ", " + std::to_string(r) + ") is outside the " +
                                 std::to_string(columns) + " x " + std::to_string(rows) + " compute grid",
                             "columns 0.." + std::to_string(columns - 1) + ", rows 0.." + std::to_string(rows - 1)));
        current = nullptr;
        continue;
      }
      for (const auto& t : out.tiles)
        if (t.column == c && t.row == r) {  // one message per duplicate, naming the first
          diags.push_back(diag(file, ln, static_cast<uint32_t>(col), code,
                               "tile (" + std::to_string(c) + ", " + std::to_string(r) + ") already has a program",
                               "its first '.tile' is on line " + std::to_string(t.directive_line)));
          break;
        }
      if (isa::diagnostics_full(diags)) return false;
      saw_tile = true;
      TileSection t;
      t.column = static_cast<uint32_t>(c);
      t.row = static_cast<uint32_t>(r);
      t.directive_line = ln;
      t.first_line = ln + 1;
      out.tiles.push_back(t);
      current = &out.tiles.back();
      continue;
    }
    if (!saw_tile) {
      implicit.text += lines[i] + "\n";
      if (!code.empty() && !implicit_has_code) {
        implicit_has_code = true;
        implicit_code_line = ln;
      }
    } else if (current) {
      current->text += lines[i] + "\n";
    } else {
      // Lines after a malformed `.tile`: keep line numbers but drop the text (already an error).
    }
    // Keep every later section's line mapping exact: a section's text grows line by line.
  }
  if (!saw_tile) {
    implicit.column = 0;
    implicit.row = 0;
    out.tiles.insert(out.tiles.begin(), implicit);
  } else if (implicit_has_code) {
    diags.push_back(diag(file, implicit_code_line, 1, code_of(lines[implicit_code_line - first_line]),
                         "code before the first '.tile' directive",
                         "a file with '.tile' sections must start each program with '.tile <column> <row>'"));
  }
  return diags.size() == errors_before;
}

}  // namespace tlmcraft::aie_ml
