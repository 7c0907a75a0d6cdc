// Loop-end fusion on PLENA (docs/codesign.md, "Loop-end fusion"): `CDn rd, rs1` is
// `C_LOOP_END rd` that also runs one register update (`S_ADDI_INT rs1, rs1, 64`) as it
// executes; the loop's control flow stays C_LOOP_END's. It writes two gp registers (the
// counter and rs1), so it needs the second gp write port (isa/compose.cpp checks the
// overlay's `register_ports:`). The kernel tree and PLENA's dataflow cannot hold such an
// instruction (their loops end in C_LOOP_END), so it is placed last, on the text.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent/codesign/kernel_dataflow.h"
#include "isa/dataflow/pattern_match.h"

namespace tlmcraft::agent::search::plena {

struct LoopEndDefinition {
  std::string mnemonic;
  std::string counter;  // the counter operand's name (loop_counter)
  std::string update;   // the other gp operand's name
  std::string step;     // "S_ADDI_INT rs1, rs1, 64"
};

// The overlay's loop ends with composed steps (`loop: end` and `compose:`).
std::vector<LoopEndDefinition> loop_end_definitions(const nlohmann::json& overlay);

// True for the dataflow op of a built-in loop end (C_LOOP_END).
bool plena_loop_end(const isa::dataflow::Op& op);
// True when the pattern is a loop-end fusion (its last step a loop end).
bool is_loop_end_pattern(const isa::dataflow::Pattern& p);

// The overlay adding a mined loop-end fusion (isa::dataflow::loop_end_pattern) as `mnemonic`
// at `opcode`, its latency class `cycles` long.
nlohmann::json plena_loop_end_overlay(const isa::dataflow::Pattern& p, const std::string& mnemonic, int64_t opcode,
                                      int64_t cycles);

// Each loop end of `kernel` whose body has a definition's update with nothing after it
// (up to the loop end) naming the register becomes that instruction (the first
// definition that fits), the update's line deleted. Returns the uses: loop ends replaced
// and the times they run.
std::map<std::string, codesign::KernelRewrite::Use> place_loop_ends(std::string& kernel,
                                                                    const std::vector<LoopEndDefinition>& defs);

}  // namespace tlmcraft::agent::search::plena
