// libFuzzer harness: the ISA YAML readers. The first byte picks the reader: even, the
// generic IsaSpec loader (isa/isa_spec.cpp, PLENA's format, docs/isa/README.md), whose
// accepted descriptions are then used to assemble, encode and decode a small kernel and
// render the ISA reference; odd, the AIE-ML table loader (isa/aie_ml/isa_table.cpp). Bad
// descriptions must end in the loader's error naming the file; crashes, leaks, UB and
// other exceptions are findings.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_input.h"
#include "isa/aie_ml/isa_tables.h"
#include "isa/assembler.h"
#include "isa/encoding.h"
#include "isa/isa_doc.h"
#include "isa/isa_spec.h"

using namespace tlmcraft;

namespace {

constexpr const char* kFile = "fuzz.yaml";

// Kernels in PLENA syntax and in the toy ISA of the seed corpus (fuzz/corpus/fuzz_isa_yaml/
// toy16.yaml): with a mutated description some assemble, some do not.
constexpr const char* kKernels[] = {
    "S_ADDI_INT gp1, gp0, 256\n"
    "C_LOOP_START gp6, 4\n"
    "  V_ADD_VF gp5, gp5, f1, 0\n"
    "C_LOOP_END gp6\n"
    "H_STORE_V gp5, gp0, a1, 0, 2\n",
    "ADD r1, r2\nADDI r3, 7\nADD r0, r3\n",
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_isa_yaml: %s\n", what.c_str());
  std::abort();
}

void use_spec(const isa::IsaSpec& spec) {
  for (const char* kernel : kKernels) {
    isa::Program program;
    std::vector<isa::Diagnostic> diags;
    if (!isa::assemble(spec, kernel, "kernel.asm", program, diags)) continue;
    const auto words = isa::encode_program(spec, program);
    isa::Program decoded;
    (void)isa::decode_program(spec, words, decoded);
    (void)isa::disassemble_program(spec, program);
  }
  (void)isa::render_isa_markdown(spec);
}

void generic_reader(const std::string& text) {
  try {
    use_spec(isa::IsaSpec::parse(text, kFile));
  } catch (const isa::IsaSpecError& e) {
    if (std::string(e.what()).find(kFile) == std::string::npos) fail(std::string("error does not name the file: ") + e.what());
  }
}

void aie_reader(const std::string& text) {
  try {
    const auto details = isa::aie_ml::parse_aie_isa(text, kFile);
    (void)isa::aie_ml::reference_markdown(details);
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).find(kFile) == std::string::npos) fail(std::string("error does not name the file: ") + e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string text = fuzz::as_text(data + 1, size - 1);
  if (data[0] % 2 == 0)
    generic_reader(text);
  else
    aie_reader(text);
  return 0;
}
