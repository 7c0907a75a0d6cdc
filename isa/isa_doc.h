// The ISA reference in Markdown, generated from the ISA description. It is what an LLM
// agent is given as its instruction manual and what docs/isa/<isa>.md holds.
#pragma once
#include <map>
#include <string>

#include "isa/isa_spec.h"

namespace tlmcraft::isa {

// latency_notes: latency class name -> cycles text from a platform configuration (for
// example {"matrix_mm", "64 cycles"}); classes without a note show the ISA's own
// description only. The output is deterministic for a given spec and notes.
std::string render_isa_markdown(const IsaSpec& spec, const std::map<std::string, std::string>& latency_notes = {});

}  // namespace tlmcraft::isa
