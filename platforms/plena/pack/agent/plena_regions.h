// A PLENA kernel split into its top-level regions for the search (plena_search.h): each
// top-level loop nest with the straight code before it (where hoisting puts the nest's
// set-up and where the scheduler reorders, up to the previous nest's end), and the straight
// code after the last nest. A region's end is a loop's end, a barrier the transformations
// move no code across while the loop stands, so a region can be searched on its own, under
// what the code around it fixes (Surroundings), and its result memoised by its text.
#pragma once
#include <string>
#include <vector>

#include "platforms/plena/pack/agent/plena_analysis.h"
#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {

struct Region {
  Block code;
  Surroundings around;  // a kernel of one region: the kernel's own (nothing around it)
};

// The regions of `kernel`, in order; their code concatenated is the kernel's code.
std::vector<Region> split_regions(const Kernel& kernel, const Arch& arch);

// The canonical text of a region's search: its code as print_kernel writes it and its
// surroundings, so two regions with one text are searched alike.
std::string region_text(const Region& region);
std::string surroundings_text(const Surroundings& around);

}  // namespace tlmcraft::agent::search::plena
