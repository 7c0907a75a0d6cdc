// Explicit waits for the AIE-ML exposed pipeline: the real core has no register interlocks,
// so a kernel that relies on them (it reads a register before its producer's result lands,
// or writes a register while an earlier, slower result for it is still in flight) computes
// differently on the hardware. insert_waits() puts NOP bundles where the interlocked model
// would stall, so the kernel computes the same in program order (compute.pipeline
// interlocked) and on the exposed pipeline (exposed), in the same cycles where a stall's
// length does not depend on the path taken.
//
// Reads are timed by the stages the platform's configuration gives (read_stages.h): a
// multiply-accumulate may issue up to acc_read_cycles before its accumulator input lands,
// and a later write to that accumulator must land after the late read.
//
// A forward dataflow over each tile's bundles (fall-through, branch targets, the
// zero-overhead loop's back edge) gives, per storage unit (x / bm registers whole, as the
// interlock tracks them), the most cycles any path leaves before its pending result lands,
// separately for the path falling through from the bundle above and for the paths that
// jump to the bundle's labels. A bundle needs as many NOPs as the longest of: a read of a
// pending unit, and a write that would land no later than a pending one (results landing
// out of order). The jump paths' wait goes after the labels a branch or `ls` names (every
// path runs it); what the path from above needs beyond that goes before those labels, so
// a loop whose entry waits for a result from before the loop does not pay that wait on
// every iteration. Where jump paths disagree the longest wait is taken (a loop's back edge
// wait is paid on entry too). Waits of a zero-overhead loop's last bundle go before its
// end label (which keeps naming the loop's last bundle).
#pragma once
#include <string>

#include "isa/aie_ml/program_text.h"
#include "isa/aie_ml/read_stages.h"

namespace tlmcraft::isa::aie_ml {

struct WaitStats {
  int nops_added = 0;
};

// Inserts the waits into every tile. Throws std::invalid_argument naming the tile and the
// cause for programs it cannot analyse (calls, ls/le not set from labels, indirect jumps,
// a branch-target label and a loop-end label on one bundle in the wrong order).
void insert_waits(AieKernel& kernel, const ReadStages& stages, WaitStats* stats = nullptr);

// The inverse for program-order rewrites (the search agent's): drops every bundle of NOPs
// alone except one a zero-overhead loop's end label names, so a kernel whose waits only
// delay (insert_waits adds nothing to it) computes the same with interlocks. Returns the
// bundles dropped.
int remove_waits(AieKernel& kernel);

// The same on kernel-file text with `.phase` sections (each phase analysed on its own).
std::string insert_waits(const std::string& kernel_text, const ReadStages& stages, WaitStats* stats = nullptr);

}  // namespace tlmcraft::isa::aie_ml
