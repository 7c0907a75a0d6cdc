// Shared helpers for the ISA tests: the PLENA spec loaded once, and assembling a
// snippet into formatted diagnostics.
#pragma once
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/isa_spec.h"

namespace tlmcraft::isa::test {

const IsaSpec& plena();

// The text of isa/plena/plena.yaml, for tests that append entries to it.
std::string plena_yaml();

// Number of newlines in s (the line a appended entry starts on).
int line_count(const std::string& s);

struct Assembled {
  bool ok = false;
  Program program;
  std::vector<Diagnostic> diags;
  std::vector<std::string> lines;  // diags formatted, in order
};

Assembled assemble_text(const std::string& source, const AssembleOptions& opt = {});

}  // namespace tlmcraft::isa::test
