#include "isa/aie_ml/program_text.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace tlmcraft::isa::aie_ml {

namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// Where the comment starts (the assembler's rule: a single ';', or '#' not followed by a
// digit or sign), npos if none.
size_t comment_start(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ';') {
      if (i + 1 < s.size() && s[i + 1] == ';') {
        ++i;
        continue;
      }
      return i;
    }
    if (s[i] == '#') {
      const char n = i + 1 < s.size() ? s[i + 1] : '\0';
      if (!(std::isdigit(static_cast<unsigned char>(n)) || n == '-' || n == '+')) return i;
    }
  }
  return std::string::npos;
}

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// The directive of a line (".tile", ".movement") or "".
std::string directive_of(const std::string& line) {
  const size_t c = comment_start(line);
  const std::string code = trim(line.substr(0, c));
  if (code.empty() || code[0] != '.') return "";
  const size_t e = code.find_first_of(" \t");
  return code.substr(0, e);
}

struct Part {
  std::string text;
  size_t begin = 0, end = 0;  // 0-based columns in the line
};

// Splits the code part of a bundle line (after labels and braces) at top-level ";;".
std::vector<Part> split_ops(const std::string& line, size_t begin, size_t end) {
  std::vector<Part> parts;
  size_t start = begin;
  for (size_t i = begin; i <= end; ++i) {
    if (i == end || (line[i] == ';' && i + 1 < end && line[i + 1] == ';')) {
      Part p;
      p.begin = start;
      p.end = i;
      p.text = trim(line.substr(start, i - start));
      parts.push_back(p);
      start = i + 2;
      ++i;
    }
  }
  return parts;
}

bool parse_tile_lines(const std::vector<std::string>& lines, uint32_t first_line, AieTile& tile, std::string& error) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  std::vector<isa::Diagnostic> diags;
  const AieProgram prog = assemble_core(text, "kernel", first_line, diags);
  for (const auto& d : diags)
    if (d.severity == isa::Severity::Error) {
      error = "line " + std::to_string(d.line) + ": " + d.message;
      return false;
    }
  size_t next_bundle = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& raw = lines[i];
    const uint32_t ln = first_line + static_cast<uint32_t>(i);
    const size_t cs = comment_start(raw);
    const size_t code_end = cs == std::string::npos ? raw.size() : cs;
    size_t pos = 0;
    while (pos < code_end && std::isspace(static_cast<unsigned char>(raw[pos]))) ++pos;
    // Labels at the start of the line.
    bool had_label = false;
    for (;;) {
      size_t j = pos;
      if (j >= code_end || !is_ident_start(raw[j])) break;
      while (j < code_end && is_ident_char(raw[j])) ++j;
      if (j >= code_end || raw[j] != ':') break;
      AieLine l;
      l.kind = AieLine::Kind::Label;
      l.label = raw.substr(pos, j - pos);
      l.source_line = ln;
      tile.lines.push_back(l);
      had_label = true;
      pos = j + 1;
      while (pos < code_end && std::isspace(static_cast<unsigned char>(raw[pos]))) ++pos;
    }
    size_t end = code_end;
    while (end > pos && std::isspace(static_cast<unsigned char>(raw[end - 1]))) --end;
    if (pos >= end) {
      // Nothing but labels, comments or blanks.
      if (!had_label) {
        AieLine l;
        l.kind = AieLine::Kind::Other;
        l.raw = raw;
        l.source_line = ln;
        tile.lines.push_back(l);
      }
      continue;
    }
    if (raw[pos] == '{') ++pos;
    if (end > pos && raw[end - 1] == '}') --end;
    if (next_bundle >= prog.bundles.size() || prog.bundles[next_bundle].line != ln) {
      error = "line " + std::to_string(ln) + ": the assembler's bundles do not match the lines";
      return false;
    }
    const Bundle& b = prog.bundles[next_bundle++];
    AieLine l;
    l.kind = AieLine::Kind::Bundle;
    l.source_line = ln;
    if (cs != std::string::npos) l.comment = trim(raw.substr(cs + 1));
    const std::vector<Part> parts = split_ops(raw, pos, end);
    if (parts.size() != b.ops.size()) {
      error = "line " + std::to_string(ln) + ": cannot match the operations of the bundle";
      return false;
    }
    for (const SlotOp& op : b.ops) {
      const auto it = std::find_if(parts.begin(), parts.end(), [&](const Part& p) {
        return op.col >= p.begin + 1 && op.col <= p.end;  // col is 1-based
      });
      if (it == parts.end()) {
        error = "line " + std::to_string(ln) + ": cannot locate an operation's text";
        return false;
      }
      AieOp o;
      o.text = it->text;
      o.op = op;
      l.ops.push_back(o);
    }
    tile.lines.push_back(l);
  }
  if (next_bundle != prog.bundles.size()) {
    error = "the assembler found bundles the line reader did not";
    return false;
  }
  return true;
}

}  // namespace

std::string AieOp::mnemonic() const {
  const auto& isa = AieIsa::get();
  return op.op < isa.ops.size() ? isa.ops[op.op].mnemonic : "";
}

bool parse_aie_kernel(const std::string& text, AieKernel& out, std::string& error) {
  out = AieKernel{};
  std::vector<std::string> lines;
  {
    std::stringstream ss(text);
    for (std::string l; std::getline(ss, l);) {
      if (!l.empty() && l.back() == '\r') l.pop_back();
      lines.push_back(l);
    }
  }
  size_t movement = lines.size();
  for (size_t i = 0; i < lines.size(); ++i)
    if (directive_of(lines[i]) == ".movement") {
      movement = i;
      break;
    }
  if (movement < lines.size()) {
    out.has_movement = true;
    out.movement.assign(lines.begin() + static_cast<long>(movement), lines.end());
  }
  std::vector<size_t> tile_starts;
  for (size_t i = 0; i < movement; ++i)
    if (directive_of(lines[i]) == ".tile") tile_starts.push_back(i);
  try {
    if (tile_starts.empty()) {
      AieTile t;
      std::vector<std::string> body(lines.begin(), lines.begin() + static_cast<long>(movement));
      if (!parse_tile_lines(body, 1, t, error)) return false;
      out.tiles.push_back(std::move(t));
      return true;
    }
    out.preamble.assign(lines.begin(), lines.begin() + static_cast<long>(tile_starts[0]));
    for (size_t k = 0; k < tile_starts.size(); ++k) {
      const size_t b = tile_starts[k] + 1, e = k + 1 < tile_starts.size() ? tile_starts[k + 1] : movement;
      AieTile t;
      t.header = lines[tile_starts[k]];
      std::vector<std::string> body(lines.begin() + static_cast<long>(b), lines.begin() + static_cast<long>(e));
      if (!parse_tile_lines(body, static_cast<uint32_t>(b + 1), t, error)) return false;
      out.tiles.push_back(std::move(t));
    }
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  return true;
}

std::string print_bundle(const AieLine& l) {
  std::vector<const AieOp*> ops;
  for (const auto& o : l.ops) ops.push_back(&o);
  std::stable_sort(ops.begin(), ops.end(), [](const AieOp* a, const AieOp* b) { return a->op.slot < b->op.slot; });
  std::string s;
  for (const AieOp* o : ops) s += (s.empty() ? "" : " ;; ") + o->text;
  if (s.empty()) s = "NOP";
  if (!l.comment.empty()) s += "    ; " + l.comment;
  return s;
}

std::string print_aie_kernel(const AieKernel& k) {
  std::string out;
  for (const auto& l : k.preamble) out += l + "\n";
  for (const auto& t : k.tiles) {
    if (!t.header.empty()) out += t.header + "\n";
    for (const auto& l : t.lines) {
      switch (l.kind) {
        case AieLine::Kind::Other: out += l.raw + "\n"; break;
        case AieLine::Kind::Label: out += l.label + ":\n"; break;
        case AieLine::Kind::Bundle: out += "  " + print_bundle(l) + "\n"; break;
      }
    }
  }
  for (const auto& l : k.movement) out += l + "\n";
  return out;
}

namespace {

// Definitions ("name:" lines) of the labels `text` names but does not define.
std::string outside_label_lines(const std::string& text) {
  std::vector<isa::Diagnostic> diags;
  try {
    assemble_core(text, "fragment", 1, diags);
  } catch (const std::exception&) {
    return "";  // the real parse reports it
  }
  std::string lines;
  for (const auto& d : diags)
    if (d.severity == isa::Severity::Error && d.message.rfind("undefined label", 0) == 0 &&
        lines.find("\n" + d.token + ":\n") == std::string::npos)
      lines += "\n" + d.token + ":\n";
  return lines;
}

}  // namespace

bool parse_core_fragment(const std::string& text, AieTile& out, std::string& error) {
  out = AieTile{};
  std::vector<std::string> lines;
  {
    std::stringstream ss(text);
    for (std::string l; std::getline(ss, l);) lines.push_back(l);
  }
  for (size_t i = 0; i < lines.size(); ++i)
    if (!directive_of(lines[i]).empty()) {
      error = "line " + std::to_string(i + 1) + ": '" + directive_of(lines[i]) + "' is a directive, not code";
      return false;
    }
  std::string body = text;
  if (!body.empty() && body.back() != '\n') body += "\n";
  AieKernel kernel;
  if (!parse_aie_kernel(body + outside_label_lines(body), kernel, error)) return false;
  for (AieLine& l : kernel.tiles.front().lines)
    if (l.source_line <= lines.size()) out.lines.push_back(std::move(l));
  return true;
}

bool assemble_op(const std::string& text, AieOp& out) {
  AieTile tile;
  std::string error;
  if (text.find('\n') != std::string::npos || !parse_core_fragment(text, tile, error)) return false;
  const AieLine* bundle = nullptr;
  for (const AieLine& l : tile.lines)
    if (l.kind == AieLine::Kind::Bundle) {
      if (bundle) return false;
      bundle = &l;
    }
  if (!bundle || bundle->ops.size() != 1) return false;
  out = bundle->ops[0];
  return true;
}

}  // namespace tlmcraft::isa::aie_ml
