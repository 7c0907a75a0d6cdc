// The generic assembler: turns kernel text into a Program for any ISA described by an
// IsaSpec. Syntax: one instruction per line, `MNEMONIC op, op, ...`, comments from the
// ISA's comment markers (PLENA: ';', '#', '//'), blank lines and any whitespace allowed,
// immediates in decimal or 0x hex.
//
// Every error of the file is reported (not just the first), each with file:line:col,
// the offending token, what was expected and a hint. Static checks that need no
// execution (hardware-loop nesting, writes to hardwired-zero registers) run as well.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "isa/isa_spec.h"
#include "isa/program.h"

namespace tlmcraft::isa {

struct AssembleOptions {
  // Accept instructions marked `implemented: false` (for encoder/decoder tests and
  // for ISA exploration); the default rejects them.
  bool allow_unimplemented = false;
};

// Returns true when there are no errors (warnings and notes may still be in diags).
// On success `out` holds the program (isa, source_name, source_lines, code); on failure
// out.code is empty. diags is appended to, in source order.
bool assemble(const IsaSpec& spec, const std::string& source, const std::string& file_name, Program& out,
              std::vector<Diagnostic>& diags);
bool assemble(const IsaSpec& spec, const std::string& source, const std::string& file_name, Program& out,
              std::vector<Diagnostic>& diags, const AssembleOptions& options);

// Static instruction counts (what check_syntax / get_instruction_size report).
struct InstructionCounts {
  size_t total = 0;
  std::map<std::string, size_t> by_class;     // class letter ("M", "V", ...)
  std::map<std::string, size_t> by_unit;      // unit name from the YAML
  std::map<std::string, size_t> by_mnemonic;
};
InstructionCounts count_instructions(const IsaSpec& spec, const Program& program);

// Up to `max` mnemonics closest to `word` (case-insensitive edit distance), best first.
std::vector<std::string> nearest_mnemonics(const IsaSpec& spec, const std::string& word, size_t max = 3);

// Counts of a diagnostic list.
size_t error_count(const std::vector<Diagnostic>& diags);

}  // namespace tlmcraft::isa
