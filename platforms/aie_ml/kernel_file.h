// Splits an AIE-ML kernel file into its core programs (one per `.tile C R` section) and its
// data-movement section (`.movement` to the end of the file), keeping whole-file line numbers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/program.h"

namespace tlmcraft::aie_ml {

struct TileSection {
  uint32_t column = 0, row = 0;  // compute-tile coordinates (row 0 = lowest compute row)
  uint32_t directive_line = 0;   // line of the `.tile` directive (0 when implicit)
  uint32_t first_line = 1;       // file line of text's first line
  std::string text;              // the core program lines
};

struct KernelParts {
  std::vector<TileSection> tiles;  // in file order
  bool has_movement = false;
  uint32_t movement_line = 0;      // line of the `.movement` directive
  uint32_t movement_first_line = 0;
  std::string movement;            // YAML text after `.movement`
};

// The file's lines (a trailing '\r' dropped), line N at index N - 1.
std::vector<std::string> kernel_lines(const std::string& source);

// Phases per kernel file (each costs a reconfiguration and a report entry).
constexpr size_t kMaxPhases = 256;

// One phase of a kernel file (`.phase [name]` lines start phases; code before the first
// `.phase` is a phase of its own). `source` holds only the phase's own lines, the first of
// them file line `first_line`, so the phases together cost one pass over the file (a copy
// of the whole file per phase made 256 phases of a 4 MB file cost a gigabyte and minutes).
struct PhaseText {
  std::string name;         // the `.phase` operand, or "phase<N>" (1-based)
  uint32_t line = 0;        // line of the `.phase` directive (0 for the implicit first phase)
  uint32_t first_line = 1;  // file line of source's first line
  std::string source;
};

// The file's phases in order (one phase, the whole file, when it has no `.phase` line).
// Returns false and appends diagnostics on a malformed `.phase` line or a duplicate name.
bool split_phases(const std::string& source, const std::string& file, std::vector<PhaseText>& out,
                  std::vector<isa::Diagnostic>& diags);

// Returns false and appends diagnostics on a malformed directive (bad coordinates, a tile
// outside the grid, a tile given twice, text before the first `.tile`). `source`'s first
// line is file line `first_line` (a phase's text starts inside the file).
bool split_kernel(const std::string& source, const std::string& file, uint32_t columns, uint32_t rows,
                  KernelParts& out, std::vector<isa::Diagnostic>& diags, uint32_t first_line = 1);

}  // namespace tlmcraft::aie_ml
