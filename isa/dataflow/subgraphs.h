// Candidate instructions from a kernel's dataflow (the co-design miner's core,
// issue 21): the convex, connected subgraphs of a straight-line region's
// dependence graph that fit the platform's register-file ports, each turned
// into a canonical Pattern so that isomorphic subgraphs of different kernels
// (other registers, other order of independent ops) get the same signature.
// After Atasu, Pozzi and Ienne's formulation: a subgraph is convex when no path
// leaves it and comes back, so one instruction can replace it; its inputs
// (values produced outside) and outputs (values used outside) are bounded by
// the read and write ports.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "isa/dataflow/dataflow.h"
#include "isa/dataflow/pattern_match.h"

namespace tlmcraft::isa::dataflow {

struct SubgraphLimits {
  int read_ports = 2;   // distinct input values (storages) at most
  int write_ports = 1;  // distinct output values at most
  int max_ops = 4;      // ops in one subgraph (at least 2)
  // Registers one instruction may update in place when a step uses them as an
  // address (post-increment addressing, `r = r + 64` after an op on the row at
  // r): the register file's write ports left for it. 0: none (no update joins).
  int max_updates = 0;
  // Whether an op with a read-write operand (an accumulator: vmacc's vd) may join, its
  // operand counted as a read and a write (below). Off: such ops are left out (an
  // adapter whose overlay cannot express an accumulator keeps it off).
  bool accumulators = false;
  // Memory operations (the ISA's ports for an added instruction): `memory` names the storage
  // that stands for data memory in the adapter's view ("" when it has none). An op reading it
  // is a load: at most `max_memory_reads` of them join one subgraph, and none when an op
  // outside it that writes memory lies between the load and the subgraph's last op (the
  // instruction issues there, so the load would see that write). An op writing memory never
  // joins (no store port).
  std::string memory;
  int max_memory_reads = 0;
  size_t max_subgraphs = 20000;  // per region; enumeration stops there (bounded work)
  // Optional: the adapter's last word on a subgraph within the limits (its ops, increasing).
  // For rules this view cannot state, such as a step that switches a mode the others run
  // in (the ISA's vector configuration) and must leave it as the subgraph found it.
  std::function<bool(const std::vector<Op>& ops, const std::vector<size_t>& subgraph)> admissible;
};

// One subgraph of a region: its ops (indices into the kernel's ops,
// increasing).
struct Subgraph {
  std::vector<size_t> ops;
  int inputs = 0, outputs = 0;
  int updates = 0;  // registers updated in place (also in inputs or outputs: see convex_subgraphs)
};

// The register an op updates from itself and literals alone (r = r + 64), or "".
std::string in_place_register(const Op& op);

// The convex connected subgraphs of ops [begin, end) (a region without barriers
// inside) with 2..max_ops ops, all accepted by `fusable`, within the port
// limits, with at least one output. Dependences are true (read-after-write)
// dependences on storage names, and, when limits.max_updates > 0, address
// updates: an op that only updates a register from itself and literals joins a
// subgraph in which an earlier op reaches memory through that register (its
// Operand::address), when no op outside the subgraph reads or writes the
// register between them (write-after-read order) and no op of the subgraph uses
// it after the update. Such a register needs no port of its own: the memory
// operands it addresses are not inputs, and it is counted as an input only when
// it addresses no output. With limits.accumulators, an op with a read-write operand (an
// accumulator, vmacc's vd) joins: reading a value from outside, the operand is an input
// and an output (written back, used later or not); reading a value the subgraph
// computed, it continues that value under one name (an output only if its last value
// is used later). A subgraph where an op outside reads a value that an accumulation
// inside then overwrites is left out (one name cannot carry both values out).
std::vector<Subgraph> convex_subgraphs(const std::vector<Op>& ops, size_t begin, size_t end,
                                       const std::function<bool(const Op&)>& fusable, const SubgraphLimits& limits);

// The subgraph as a pattern with canonical names (inputs in0.., outputs out0..,
// temporaries t0.., registers updated in place io0.., both an input and an
// output, in the order they appear; an accumulator keeps its input name in0..,
// which is an output too), the smallest signature over the
// topological orders of its ops and both orders of each commutative operand pair
// (Op::commutes_a/b). `signature` is one line per step ("V_EXP_V t0, in0, 1").
Pattern canonical_pattern(const std::vector<Op>& ops, size_t region_end, const Subgraph& g, std::string& signature);

}  // namespace tlmcraft::isa::dataflow
