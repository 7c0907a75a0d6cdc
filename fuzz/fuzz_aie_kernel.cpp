// libFuzzer harness: an AIE-ML kernel file through everything that reads it before a run:
// `.phase` splitting, `.tile` sections, the VLIW bundle assembler of each core program,
// the `.movement` (data-movement YAML) parser (platforms/aie_ml assemble_kernel), and the
// program-text layer the search agent edits kernels with (isa/aie_ml/program_text).
//
// Checked besides crashes, leaks and UB: a refused file has an error diagnostic, every
// diagnostic names a line of the input, and a file the program-text layer parses prints
// back to text that parses again.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/fuzz_input.h"
#include "isa/aie_ml/program_text.h"
#include "isa/assembler.h"
#include "platforms/aie_ml/aie_config.h"
#include "platforms/aie_ml/aie_platform.h"

using namespace tlmcraft;

namespace {

const aie_ml::AieConfig& aie_config() {
  static const aie_ml::AieConfig cfg = aie_ml::load_aie_config("default");
  return cfg;
}

[[noreturn]] void fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "fuzz_aie_kernel: property violated: %s\n%s\n", what, detail.c_str());
  std::abort();
}

size_t line_count(const std::string& text) {
  size_t n = 1;
  for (char c : text) n += c == '\n';
  return n;
}

void check_kernel_file(const std::string& text) {
  aie_ml::AieKernel kernel;
  std::vector<isa::Diagnostic> diags;
  const bool ok = aie_ml::assemble_kernel(aie_config(), text, "fuzz.aie", "", kernel, diags);
  if (!ok && isa::error_count(diags) == 0) fail("a refused kernel file has no error diagnostic");
  const size_t lines = line_count(text);
  for (const auto& d : diags) {
    // The cap's closing note ("... and more diagnostics") is about the file, not a line.
    const bool cap_note = d.severity == isa::Severity::Note && d.line == 0;
    if (d.file == "fuzz.aie" && !cap_note && (d.line == 0 || d.line > lines)) fail("a diagnostic names a line outside the input", d.format());
    (void)d.format();
  }
}

void check_program_text(const std::string& text) {
  isa::aie_ml::AieKernel parsed;
  std::string error;
  if (!isa::aie_ml::parse_aie_kernel(text, parsed, error)) {
    if (error.empty()) fail("parse_aie_kernel failed without a message");
    return;
  }
  const std::string printed = isa::aie_ml::print_aie_kernel(parsed);
  isa::aie_ml::AieKernel again;
  if (!isa::aie_ml::parse_aie_kernel(printed, again, error)) fail("a printed kernel does not parse again");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = fuzz::as_text(data, size);
  check_kernel_file(text);
  check_program_text(text);
  return 0;
}
