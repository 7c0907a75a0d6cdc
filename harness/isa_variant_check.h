// Checks an ISA variant (--isa-dir, --isa-ext; isa/isa_variant.h) against the platform it
// is run on, before anything runs: every overlay extends one of the platform's ISAs, and
// each ISA merged with its overlays validates. Entry points call it so bad input is an
// InputError (exit 2) naming file:line:col, never a failure in the middle of a run.
#pragma once
#include <string>

#include "isa/isa_variant.h"

namespace tlmcraft::harness {

// Throws InputError listing every problem, one per line ("file:line:col: reason").
void check_isa_variant(const std::string& platform, const isa::IsaVariant& variant);

}  // namespace tlmcraft::harness
