// libFuzzer harness: C kernel text through the Coral sandbox's text check
// (platforms/coral/kernel_sandbox.h: c_logical_lines, check_c_source) and the scrubbing of
// host paths from tool output (scrub_host_paths).
//
// Checked besides crashes, leaks and UB: every diagnostic names a line of the input; a
// refused `#` directive stays refused, at the same line, when its '#' is spelled as the
// digraph `%:`, the trigraph `??=`, followed by a comment or by a line splice (issue 22:
// those spellings got past the check); scrubbed text holds no absolute path of two or
// more components.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "platforms/coral/kernel_sandbox.h"

using namespace tlmcraft;

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "fuzz_c_sandbox: property violated: %s\n%s\n", what, detail.c_str());
  std::abort();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out(1);
  for (char c : text) {
    if (c == '\n') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (size_t i = 0; i < lines.size(); ++i) s += (i ? "\n" : "") + lines[i];
  return s;
}

bool refused_at(const std::vector<std::string>& lines, uint32_t line) {
  for (const auto& d : coral::check_c_source(lines, "k.c"))
    if (d.line == line) return true;
  return false;
}

void check_spellings(const std::vector<std::string>& lines, const std::vector<isa::Diagnostic>& diags) {
  for (const auto& d : diags) {
    if (d.token == "__has_include" || d.line == 0 || d.line > lines.size()) continue;
    const std::string& text = lines[d.line - 1];
    const size_t hash = text.find_first_not_of(" \t");
    if (hash == std::string::npos || text[hash] != '#') continue;
    // A splice before this line would change what the line is: only plain lines.
    if (d.line > 1 && !lines[d.line - 2].empty() && lines[d.line - 2].back() == '\\') continue;
    for (const char* spelling : {"%:", "?\?=", "#/*c*/", "#\\\n"}) {
      std::string variant = text.substr(0, hash) + spelling + text.substr(hash + 1);
      std::vector<std::string> changed(lines.begin(), lines.begin() + (d.line - 1));
      for (const auto& l : lines_of(variant)) changed.push_back(l);
      changed.insert(changed.end(), lines.begin() + d.line, lines.end());
      if (!refused_at(changed, d.line)) fail("a refused directive passes when '#' is spelled differently", spelling + std::string("\n") + joined(changed));
    }
  }
}

void check_scrub(const std::string& text) {
  const std::string out = coral::scrub_host_paths(text, "kernel.c", "k.c");
  for (size_t i = 0; i + 2 < out.size(); ++i) {
    if (out[i] != '/') continue;
    // The scrubber replaces every path that starts with '/' after a non-path character.
    const bool after_path_char = i > 0 && (std::isalnum(static_cast<unsigned char>(out[i - 1])) || out[i - 1] == '.' ||
                                           out[i - 1] == '_' || out[i - 1] == '-' || out[i - 1] == '+' || out[i - 1] == '/');
    if (after_path_char) continue;
    size_t end = i + 1;
    while (end < out.size() && (std::isalnum(static_cast<unsigned char>(out[end])) || out[end] == '.' || out[end] == '_' ||
                                out[end] == '-' || out[end] == '+'))
      ++end;
    if (end > i + 1 && end < out.size() && out[end] == '/') fail("an absolute path survives scrubbing", out);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16384) return 0;  // kernels are bounded; long inputs only slow the search down
  const std::string text = fuzz::as_text(data, size);
  const std::vector<std::string> lines = lines_of(text);
  if (coral::c_logical_lines(lines).size() != lines.size()) fail("c_logical_lines changed the number of lines");
  const auto diags = coral::check_c_source(lines, "k.c");
  for (const auto& d : diags)
    if (d.line == 0 || d.line > lines.size()) fail("a diagnostic names a line outside the input", d.format());
  check_spellings(lines, diags);
  check_scrub(text);
  return 0;
}
