// An AIE-ML kernel file as the program analysis (def_use.h, control_flow.h, bundle
// scheduling) and the search agent's transformations edit it: the `.tile` core programs as lines
// (bundles of slot operations, labels, comment lines), each operation assembled by the
// real core assembler (isa/aie_ml) so its operands and slot are known, and the
// `.movement` section kept verbatim. Printing gives a file the platform accepts: one
// bundle per line, operations in slot order separated by ` ;; `, labels on their own line.
#pragma once
#include <string>
#include <vector>

#include "isa/aie_ml/aie_core.h"

namespace tlmcraft::isa::aie_ml {

struct AieOp {
  std::string text;              // the operation as written, trimmed ("VLDA w0, [p0], #32")
  SlotOp op;        // assembled (slot, operands, storage units)
  std::string mnemonic() const;  // upper-case YAML mnemonic
};

struct AieLine {
  enum class Kind { Other, Label, Bundle };
  Kind kind = Kind::Other;
  std::string raw;               // Other: the line verbatim (comments, blank lines)
  std::string label;             // Label: its name
  std::vector<AieOp> ops;        // Bundle: one per slot, in slot order (NOPs included)
  std::string comment;           // Bundle: trailing comment text after ';' (may be empty)
  uint32_t source_line = 0;      // whole-file line it came from (0: made by a transformation)
};

struct AieTile {
  std::string header;            // the `.tile C R` line verbatim; empty when implicit
  std::vector<AieLine> lines;
};

struct AieKernel {
  std::vector<std::string> preamble;  // lines before the first `.tile` (when there is one)
  std::vector<AieTile> tiles;
  bool has_movement = false;
  std::vector<std::string> movement;  // the `.movement` line and everything after it
};

// Parses the file; every core program must assemble (error names file line and cause).
bool parse_aie_kernel(const std::string& text, AieKernel& out, std::string& error);
std::string print_aie_kernel(const AieKernel& kernel);
std::string print_bundle(const AieLine& bundle);  // the text of one bundle line (no indent)

// Parses a fragment of a core program (straight-line code, a loop body: no directives)
// that may name labels it does not define (a branch out of it): those resolve past its
// end and do not appear in `out`. Errors name the fragment's line and cause.
bool parse_core_fragment(const std::string& text, AieTile& out, std::string& error);

// Re-assembles one operation text (used after renaming registers or swapping a load to
// the other load unit); a label it names need not be defined. False when it does not
// assemble.
bool assemble_op(const std::string& text, AieOp& out);

}  // namespace tlmcraft::isa::aie_ml
