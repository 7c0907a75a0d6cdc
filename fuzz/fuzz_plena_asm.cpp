// libFuzzer harness: the PLENA assembler (isa/assembler.cpp driven by isa/plena/plena.yaml),
// then what a successful program goes through before it runs: binary encoding, decoding
// back and the platform's static preparation (prepare_program).
//
// Checked besides crashes, leaks and UB: a failed assembly has at least one error
// diagnostic; every diagnostic names a line of the input; encode(decode(encode(x)))
// gives the same words as encode(x).
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/fuzz_input.h"
#include "isa/assembler.h"
#include "isa/encoding.h"
#include "isa/isa_spec.h"
#include "platforms/platform.h"
#include "platforms/plena/plena_platform.h"

using namespace tlmcraft;

namespace {

const isa::IsaSpec& plena_spec() {
  static const isa::IsaSpec spec = isa::IsaSpec::load(isa::isa_yaml_path("plena"));
  return spec;
}

const plena::PlenaConfig& plena_config() {
  static const plena::PlenaConfig cfg = plena::load_plena_config("default");
  return cfg;
}

[[noreturn]] void fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "fuzz_plena_asm: property violated: %s\n%s\n", what, detail.c_str());
  std::abort();
}

size_t line_count(const std::string& text) {
  size_t n = 1;
  for (char c : text) n += c == '\n';
  return n;
}

void check_diagnostics(bool ok, const std::vector<isa::Diagnostic>& diags, const std::string& text) {
  if (!ok && isa::error_count(diags) == 0) fail("assembly failed without an error diagnostic");
  const size_t lines = line_count(text);
  for (const auto& d : diags) {
    // The cap's closing note ("... and more diagnostics") is about the file, not a line.
    const bool cap_note = d.severity == isa::Severity::Note && d.line == 0;
    if (!cap_note && (d.line == 0 || d.line > lines)) fail("a diagnostic names a line outside the input", d.format());
    (void)d.format();
  }
}

void check_encoding_round_trip(const isa::Program& program) {
  const isa::IsaSpec& spec = plena_spec();
  const std::vector<uint32_t> words = isa::encode_program(spec, program);
  isa::Program decoded;
  std::string error;
  if (!isa::decode_program(spec, words, decoded, &error)) fail("an assembled program does not decode");
  if (isa::encode_program(spec, decoded) != words) fail("decoding then encoding changes the words");
  (void)isa::disassemble_program(spec, decoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = fuzz::as_text(data, size);
  isa::Program program;
  std::vector<isa::Diagnostic> diags;
  const bool ok = isa::assemble(plena_spec(), text, "fuzz.asm", program, diags);
  check_diagnostics(ok, diags, text);
  if (!ok) return 0;
  (void)isa::count_instructions(plena_spec(), program);
  check_encoding_round_trip(program);
  try {
    (void)plena::prepare_program(plena_spec(), program, plena_config());
  } catch (const InputError&) {
    // A clear refusal of a program the platform cannot run is the expected outcome.
  }
  return 0;
}
