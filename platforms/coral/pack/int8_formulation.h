// Coral's integer formulation (int8 with requantisation shifts and lookup tables, exact),
// which register_coral_pack() registers as "coral_int8" and selects in its numerics policy:
// the references of the tasks Coral supports, their constants and their tables.
#pragma once

#include "tasks/integer_formulation.h"

namespace tlmcraft::tasks::coral {

IntegerFormulation int8_formulation();

}  // namespace tlmcraft::tasks::coral
