// A PLENA kernel as a tree the search agent can transform safely: instructions with
// their operands decoded by the ISA YAML (isa::IsaSpec), and hardware loops
// (C_LOOP_START .. C_LOOP_END) as nodes holding their bodies. Parsing goes through the
// real assembler, so only kernels the platform accepts become trees; printing gives
// assembly text that assembles back to the same instructions.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "isa/isa_spec.h"

namespace tlmcraft::agent::search::plena {

// The PLENA ISA description, loaded once (isa/plena/plena.yaml via isa_yaml_path).
const isa::IsaSpec& plena_spec();

// One instruction: its ISA entry and one value per operand of the entry (register
// numbers for register operands, literal values otherwise; placeholders hold 0).
struct Op {
  const isa::InstructionSpec* spec = nullptr;
  std::vector<int64_t> operands;
  std::string comment;  // trailing comment text (without the marker), kept for readers

  const std::string& mnemonic() const { return spec->mnemonic; }
  // Operand index by name ("rd", "rs1", ...), -1 if the instruction has none.
  int operand_index(const std::string& name) const;
  // Value of the named operand; throws std::logic_error when absent.
  int64_t operand(const std::string& name) const;
  isa::Instruction to_instruction() const;  // for IsaSpec::accesses()
  bool operator==(const Op& o) const { return spec == o.spec && operands == o.operands; }
};

// A node of the kernel tree: an instruction, or a hardware loop with its body.
struct Node {
  bool is_loop = false;
  Op op;                   // instruction nodes
  int counter = 0;         // loops: counter register gpN
  int64_t count = 0;       // loops: iterations (>= 1)
  std::string comment;     // loops: the C_LOOP_START comment
  std::vector<Node> body;  // loops
};
using Block = std::vector<Node>;

// What the code around a region of a kernel fixes for the transformations of the region
// alone (plena_regions.h); a whole kernel has nothing around it. The region's entry values
// are unknown (Values' default), so only what comes after it and what it must not touch
// are recorded.
struct Surroundings {
  bool is_region = false;
  std::set<int> live_out;    // register/resource keys (plena_analysis.h) read after the region
  std::set<int> gp_outside;  // gp registers named outside the region: never free for renaming
  // MSRAM tiles (first element) used outside; unknown when an address there is not constant.
  bool msram_tiles_known = true;
  std::set<int64_t> msram_tiles_outside;
  bool accumulations_closed = true;  // the whole kernel's (plena_matrix_rows.h)
};

struct Kernel {
  std::string header;  // leading comment lines before the first instruction, as written
  Block code;
  Surroundings around;  // set by the caller; parse_kernel leaves it empty
};

// Parses kernel text with the PLENA assembler. On failure returns false and sets
// `error` to the assembler's first diagnostic ("file:line:col: error: ...").
bool parse_kernel(const std::string& text, Kernel& out, std::string& error);
// Assembly text: one instruction per line, loop bodies indented by two spaces per
// level, comments aligned; the header comment first.
std::string print_kernel(const Kernel& kernel);
std::string print_op(const Op& op);  // "V_ADD_VF gp4, gp4, f1, 0" (no comment)

// Builds an instruction from its mnemonic and operand values (for transformations that
// create set-up code). Throws std::logic_error for an unknown mnemonic or arity.
Op make_op(const std::string& mnemonic, std::vector<int64_t> operands, std::string comment = {});

// Static size: instructions in the text, and instructions executed (loops multiplied out).
size_t static_size(const Block& block);
uint64_t dynamic_size(const Block& block);

}  // namespace tlmcraft::agent::search::plena
