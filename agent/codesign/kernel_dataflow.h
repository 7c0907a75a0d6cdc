// How a platform shows its kernels to the co-design tools (docs/codesign.md):
// the dataflow ops of a kernel (isa/dataflow/dataflow.h) with the number of
// times each runs, its straight-line regions, the limits of an added
// instruction (register-file ports, ops per instruction) and how a candidate
// becomes an ISA overlay entry. Each platform pack registers its adapter
// (platforms/<p>/pack/agent/); nothing here names a platform.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "isa/dataflow/dataflow.h"
#include "isa/dataflow/pattern_match.h"
#include "isa/dataflow/subgraphs.h"

namespace tlmcraft::agent::codesign {

struct KernelDataflow {
  std::vector<isa::dataflow::Op> ops;
  std::vector<uint64_t> executions;                // per op: times it runs in one kernel run
  std::vector<double> cycles;                      // per op: cycles one execution costs
  std::vector<std::pair<size_t, size_t>> regions;  // straight-line [begin, end), no barrier inside
};

// What a platform knows about a candidate instruction besides its steps.
struct CandidateCost {
  double step_cycles = 0;   // the steps' cycles, summed, per execution
  double fused_cycles = 0;  // the platform's estimate for one instruction doing them
  double area_mm2 = 0;      // the datapath it adds
};

// A kernel rewritten to use an overlay's composed instructions.
struct KernelRewrite {
  std::string kernel;
  struct Use {
    int static_count = 0;     // instructions placed in the text
    uint64_t executions = 0;  // times they run
  };
  std::map<std::string, Use> uses;  // by mnemonic; empty when nothing matched
};

// A hardware change a candidate instruction may need beyond its own datapath (a register
// file's second write port): the overlay section declaring it, the area it adds (once per
// variant, however many instructions use it) and the limits it lifts for the miner.
struct HardwareChange {
  std::string name;  // how candidates name it in `needs:`
  std::string doc;
  nlohmann::json overlay;  // {isa, ...}: merged into every candidate that needs it
  double area_mm2 = 0;
  int max_updates = 0;            // registers one instruction may update in place with it
  bool loop_end_updates = false;  // an in-place update may be fused into a loop end
};

struct DataflowAdapter {
  // The kernel's dataflow; `hardware` is the platform's effective
  // configuration. Throws std::invalid_argument naming the kernel when it does
  // not parse.
  std::function<KernelDataflow(const std::string& kernel, const std::string& file, const nlohmann::json& hardware)>
      parse;
  // Ops a new instruction may contain (arithmetic on registers or scratchpad
  // rows, not control flow, DMA or memory-mapped state).
  std::function<bool(const isa::dataflow::Op&)> fusable;
  isa::dataflow::SubgraphLimits limits;
  std::function<CandidateCost(const isa::dataflow::Pattern&, const nlohmann::json& hardware)> cost;
  // The overlay (docs/isa-extensions.md) adding a candidate named `mnemonic`,
  // as a JSON document {isa, instructions: [...], latency_classes: [...]};
  // `ordinal` (0, 1, ...) numbers the candidates of one overlay so each gets
  // its own encoding.
  std::function<nlohmann::json(const isa::dataflow::Pattern&, const std::string& mnemonic, const CandidateCost&,
                               int ordinal)>
      overlay_entry;
  // The kernel rewritten to use the composed instructions of `overlay` (matched
  // on dataflow); the kernel unchanged when none applies.
  std::function<KernelRewrite(const std::string& kernel, const nlohmann::json& overlay, const nlohmann::json& hardware)>
      use_overlay;
  // Optional: the platform's search transformations applied to a kernel under the ISA
  // with `overlay` (an empty overlay: the shipped ISA), chosen without simulation, and
  // the overlay's instructions in the result (`explore --kernel-generation search`: the
  // same procedure for the base and every variant).
  std::function<KernelRewrite(const std::string& kernel, const nlohmann::json& overlay, const nlohmann::json& hardware)>
      search_kernel;
  // Optional, with search_kernel: the part of `overlay` a search of `kernel` can place
  // (instructions that can never match there left out; an empty object when none can), so
  // the search under it gives what the search under the whole overlay gives. explore
  // searches under it and memoises by it. Absent: the instructions the rewrite placed.
  std::function<nlohmann::json(const std::string& kernel, const nlohmann::json& overlay, const nlohmann::json& hardware)>
      search_overlay;
  // Optional, with search_kernel: where search_kernel keeps a memo of its own on disk (the
  // parts of kernels it searches); explore passes DIR/search_cache/regions/ before searching.
  std::function<void(const std::string& dir)> search_memo_dir;
  // The area an overlay's composed instructions add (the cost model's area of each);
  // std::invalid_argument for an instruction it cannot price (no `compose:`).
  std::function<double(const nlohmann::json& overlay, const nlohmann::json& hardware)> overlay_area;
  std::string isa;  // the ISA an overlay names (`isa:`)
  // Hardware changes `codesign mine --hardware` may assume (none: the shipped hardware only).
  std::vector<HardwareChange> hardware_changes;
  // Optional: true for an op ending a loop (a barrier) that can absorb an in-place update
  // when a hardware change allows it (loop-end fusion, isa/dataflow/loop_end.h).
  std::function<bool(const isa::dataflow::Op&)> loop_end;
  // use_overlay leaves the text unchanged (the platform's toolchain places the
  // instructions when it builds the variant): explore then counts the uses after the
  // suite has run, reusing its builds.
  bool rewrites_at_build = false;
};

// Throws std::invalid_argument for a second adapter of one platform or a
// missing function.
void register_dataflow_adapter(const std::string& platform, DataflowAdapter adapter);
// nullptr when the platform registered none.
const DataflowAdapter* find_dataflow_adapter(const std::string& platform);

}  // namespace tlmcraft::agent::codesign
