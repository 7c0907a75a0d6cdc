// `tlmcraft codesign mine` (docs/codesign.md): candidate instructions from a
// suite's kernels. Every straight-line region of every kernel is searched for
// convex subgraphs within the platform's port limits
// (isa/dataflow/subgraphs.h); isomorphic subgraphs of all kernels merge under
// one canonical signature; each candidate is scored by the cycles it would save
// across the suite (dynamic instances x (its steps' cycles - the platform's
// estimate for the fused instruction)) and the area it would add.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent/codesign/kernel_dataflow.h"

namespace tlmcraft::agent::codesign {

struct MinedKernel {
  std::string name;  // "silu/C1"
  std::string file;  // for messages
  std::string text;
  nlohmann::json hardware;  // {"platform": ..., "config": the platform's effective config}
};

struct MinedCandidate {
  std::string signature;  // canonical steps, one per line
  isa::dataflow::Pattern pattern;
  CandidateCost cost;
  uint64_t dynamic_instances = 0;           // over the whole suite, one run per kernel
  double cycles_saved = 0;                  // dynamic_instances x (step - fused cycles)
  std::map<std::string, uint64_t> kernels;  // kernel name -> its dynamic instances
  // The explorer's objective, estimated: the geometric mean over the mined kernels of
  // kernel cycles / (kernel cycles - this candidate's saving in it); 1 where unused.
  double geomean_speedup = 1;
  int updates = 0;                 // registers it updates in place
  bool loop_end = false;           // an update fused into a loop end
  std::vector<std::string> needs;  // hardware changes it needs (DataflowAdapter::hardware_changes)
};

struct MineOptions {
  size_t top = 10;
  int max_ops = 0;  // ops in one candidate at most; 0: the platform's limit
  // Hardware changes assumed available (names of the adapter's hardware_changes): their
  // candidates are proposed too, each naming what it needs.
  std::vector<std::string> hardware = {};
  // "geomean": by geomean_speedup (what explore optimises: 5% of a small kernel counts
  // more than 0.5% of a large one); "cycles": by cycles saved over the suite.
  std::string rank = "geomean";
};

// Candidates with a positive estimated saving, best first by options.rank (ties by the
// other figure, then signature). Throws std::invalid_argument naming a kernel that does
// not parse, an unknown hardware change or ranking.
std::vector<MinedCandidate> mine(const DataflowAdapter& adapter, const std::vector<MinedKernel>& kernels,
                                 const MineOptions& options);

// The candidates file `codesign explore` reads: {"platform", "isa",
// "candidates": [{name, overlay, estimate: {cycles_saved, step_cycles,
// fused_cycles, area_mm2, dynamic_instances, geomean_speedup}, provenance: {kernel:
// instances}, needs: [change]}], "hardware": [{name, doc, area_mm2, overlay}]}; a
// candidate's overlay includes the overlays of the changes it needs. Names are CD0, CD1,
// ... prefixed with `prefix`.
nlohmann::json candidates_document(const DataflowAdapter& adapter, const std::string& platform,
                                   const std::vector<MinedCandidate>& candidates, const std::string& prefix);

// The adapter's hardware change of that name; std::invalid_argument naming the known ones.
const HardwareChange& hardware_change(const DataflowAdapter& adapter, const std::string& name);

}  // namespace tlmcraft::agent::codesign
