// AIE-ML's adapter for the co-design tools (agent/codesign/kernel_dataflow.h,
// docs/codesign.md "AIE-ML"): kernel files as dataflow with exact execution counts, which
// ops an added op may hold, a candidate's cycles and area, its overlay, and the rewrite
// of kernels through the shared matcher.
//
// Executions: each tile's core program of each phase runs on the functional core model
// with every data-memory byte 0x00 and every lock granted, counting each bundle's issues;
// it runs again with every byte 0x5A, and a tile whose counts differ (control flow that
// depends on data) is an error naming it. The suite's baselines count loops from
// registers only, so these are the counts of a run on the platform.
//
// Cycles (the estimate `mine` ranks by; `explore` measures): a result is readable
// `latency` cycles after its op issued, and an operand is read in its stage (the
// accumulator input of a multiply-accumulate compute.acc_read_cycles after issue;
// docs/platforms/aie-ml.md, "Cores"). A chain of dependent steps therefore costs, from its
// inputs to its output, the longest path of its steps issued back to back (`step_cycles`);
// the added op costs the chain in one pass of the datapath (`fused_cycles`,
// isa/aie_ml/fused_latency.h: each step's stages from its operand read to its result
// write, less the register-file write and read between steps; written in every overlay's
// doc). Fusing also frees the slot for n - 1 issues; that pays only where the slot is the
// bottleneck (a compacted loop whose vector slot is full), not in the latency-bound
// baselines, and is left to `explore`'s measurement.
//
// Limits: the register-file ports of `added_op_ports:` in isa/aie_ml/aie_ml.yaml, the
// smallest over the slots a fusable op issues in (vec, alu); up to 5 ops per candidate.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "agent/codesign/kernel_dataflow.h"

namespace tlmcraft::agent::search::aie {

// Throws std::invalid_argument naming `file` when the kernel does not assemble or a
// tile's execution counts cannot be found.
codesign::KernelDataflow aie_kernel_dataflow(const std::string& kernel, const std::string& file,
                                             const nlohmann::json& hardware);
// Vector, accumulator and scalar arithmetic of the vec and alu slots and vector register
// moves; no memory, lock, control or loop-register op, none that reads a value written
// through another register view, no register-pair op (VLT.S8, VSEL.8).
bool aie_fusable(const isa::dataflow::Op& op);
codesign::CandidateCost aie_candidate_cost(const isa::dataflow::Pattern& p, const nlohmann::json& hardware);
nlohmann::json aie_overlay(const isa::dataflow::Pattern& p, const std::string& mnemonic,
                           const codesign::CandidateCost& cost, int ordinal);
codesign::KernelRewrite aie_use_overlay(const std::string& kernel, const nlohmann::json& overlay,
                                        const nlohmann::json& hardware);
// The search agent's transformations (aie_candidates.h: compaction, unrolling, register
// reallocation, offset addressing, using the added ops) applied to the kernel under the
// ISA with `overlay` (none when it has no `ops`): each round the candidate of the lowest
// static estimate (isa/aie_ml/bundle_schedule.h), while it is below the kernel's own, for
// at most 8 rounds. A file those transformations cannot parse is returned as it is (as
// the search agent keeps its baseline). No simulation: the same kernel always gives the same result.
// The uses are the overlay's ops in the result (static count, executions of their bundles).
codesign::KernelRewrite aie_search_kernel(const std::string& kernel, const nlohmann::json& overlay,
                                          const nlohmann::json& hardware);
// The area of every op of an overlay (composed or `semantics:`), mm2.
double aie_overlay_area(const nlohmann::json& overlay, const nlohmann::json& hardware);
codesign::DataflowAdapter aie_dataflow_adapter();

}  // namespace tlmcraft::agent::search::aie
