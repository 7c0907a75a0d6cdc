// Integer formulations: a platform whose references are exact integer computations
// (int8 with requantisation shifts and lookup tables, say) registers them here under a
// name, and its numerics policy (tasks/numerics.h) selects that name. A formulation
// gives, per task, the reference function and the task configuration's named integer
// constants, plus the lookup tables task specs fill inputs from (`init: {dist: table}`).
// Shared code looks formulations up by name and names none.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tasks/reference/context.h"

namespace tlmcraft::tasks {

// A named constant of one task configuration (a requantisation shift, say), which the
// task text shows to kernel writers.
struct IntegerConstant {
  std::string name;
  int64_t value;
  std::string meaning;
};

struct IntegerFormulation {
  // The exact outputs of each task the formulation covers (integers held in doubles).
  std::map<std::string, std::function<TensorSet(const ref::Ctx&)>> references;
  // The named constants of a task configuration; empty for a task without any. Optional.
  std::function<std::vector<IntegerConstant>(const std::string& task, const Params&)> constants;
  // Lookup tables by the name task specs give them; each returns the table's entries.
  std::map<std::string, std::function<std::vector<int64_t>()>> tables;
};

// Throws std::invalid_argument if `name` is empty or already registered, or if one of
// its tables has a name another formulation registered (specs name tables globally).
void register_integer_formulation(const std::string& name, IntegerFormulation formulation);
// nullptr if no formulation has that name.
const IntegerFormulation* find_integer_formulation(const std::string& name);
// The formulation platform p's numerics policy selects; nullptr for float references.
// Throws std::invalid_argument if the policy names a formulation nobody registered.
const IntegerFormulation* platform_integer_formulation(const PlatformId& p);

// The named constants of a task configuration on platform p (empty for float references).
std::vector<IntegerConstant> integer_constants(const PlatformId& p, const std::string& task, const Params& params);

// The entries of a registered lookup table. Throws std::invalid_argument naming the
// table and listing the registered ones if no formulation has it.
std::vector<int64_t> lookup_table(const std::string& name);
// The registered tables' names, sorted.
std::vector<std::string> lookup_table_names();

}  // namespace tlmcraft::tasks
