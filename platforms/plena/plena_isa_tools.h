// PLENA's entry in the ISA tool registry (isa/isa_tools.h): the generic table-driven
// tools over isa/plena/plena.yaml, the default config's cycles for `isa doc --latencies`,
// and a check that the YAML agrees with the tables compiled into the semantics.
#pragma once
#include <string>
#include <vector>

#include "isa/isa_spec.h"
#include "isa/isa_tools.h"

namespace tlmcraft::plena {

isa::IsaTools plena_isa_tools();

// Disagreements between a PLENA ISA description and the semantics' compiled tables
// (isa/plena/opcodes.h, the register files of isa/plena/state.h), both directions:
// every opcode the semantics implement is in the YAML under the same mnemonic, and every
// ordinary (not fused) YAML instruction is one the semantics know. Empty when they agree.
std::vector<std::string> compiled_table_mismatches(const isa::IsaSpec& spec);

}  // namespace tlmcraft::plena
