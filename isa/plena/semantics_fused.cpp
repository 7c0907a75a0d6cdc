// A fused instruction (isa/fused.h) runs its steps with the ordinary semantics, in order,
// and reports itself as one instruction: the on-chip ranges it reads from outside (a
// range an earlier step wrote is internal) and every range it writes, merged.
// A fused sequence moves no HBM data and cannot stop the program: a step that would is
// a fault. A fault in step k restores the registers but not the rows (or accumulators)
// that steps 1..k-1 wrote: the run stops at the fault anyway (documented in docs/platforms/plena.md).
#include <string>

#include "isa/plena/semantics.h"

namespace tlmcraft::isa::plena {
namespace {

bool same(const MemRange& a, const MemRange& b) {
  return a.mem == b.mem && a.first == b.first && a.count == b.count && a.rows == b.rows && a.stride == b.stride;
}

template <size_t N>
bool contains(const std::array<MemRange, N>& list, uint8_t n, const MemRange& r) {
  for (uint8_t i = 0; i < n; ++i)
    if (same(list[i], r)) return true;
  return false;
}

// The registers a fault must leave unchanged (the accumulators and memories are not
// copied: that would cost a copy of every accumulator per fused instruction).
struct Registers {
  std::array<uint32_t, 16> gp;
  std::array<uint16_t, 8> fp;
  std::array<uint64_t, 8> a;
  uint32_t scale, stride, v_mask, pc;
  bool halted;
  explicit Registers(const PlenaState& s)
      : gp(s.gp), fp(s.fp), a(s.a), scale(s.scale), stride(s.stride), v_mask(s.v_mask), pc(s.pc), halted(s.halted) {}
  void restore(PlenaState& s) const {
    s.gp = gp, s.fp = fp, s.a = a, s.scale = scale, s.stride = stride, s.v_mask = v_mask, s.pc = pc;
    s.halted = halted;
  }
};

void fail(StepResult& out, const char* mnemonic, size_t step, const std::string& why) {
  out = StepResult{};
  out.fault = std::string(mnemonic) + " (fused) step " + std::to_string(step + 1) + ": " + why;
}

}  // namespace

void execute_fused(const std::vector<isa::Instruction>& steps, const char* mnemonic, PlenaState& state,
                   StepResult& out) {
  const uint32_t pc = state.pc;
  const Registers before(state);
  StepResult merged, step;
  for (size_t k = 0; k < steps.size(); ++k) {
    execute(steps[k], state, step);
    std::string why = step.fault;
    if (why.empty() && step.has_transfer) why = "moves HBM data, which a fused instruction cannot";
    if (why.empty() && (step.halt || step.next_pc != pc + 1)) why = "changes control flow, which a fused instruction cannot";
    if (!why.empty()) {
      before.restore(state);
      fail(out, mnemonic, k, why);
      out.next_pc = pc;
      return;
    }
    state.pc = pc;
    for (uint8_t i = 0; i < step.n_reads; ++i) {
      const MemRange& r = step.reads[i];
      if (contains(merged.writes, merged.n_writes, r) || contains(merged.reads, merged.n_reads, r)) continue;
      if (merged.n_reads == kMaxReadRanges) {
        before.restore(state);
        fail(out, mnemonic, k, "reads more than " + std::to_string(kMaxReadRanges) + " distinct ranges");
        out.next_pc = pc;
        return;
      }
      merged.reads[merged.n_reads++] = r;
    }
    for (uint8_t i = 0; i < step.n_writes; ++i) {
      const MemRange& r = step.writes[i];
      if (contains(merged.writes, merged.n_writes, r)) continue;
      if (merged.n_writes == kMaxWriteRanges) {
        before.restore(state);
        fail(out, mnemonic, k, "writes more than " + std::to_string(kMaxWriteRanges) + " distinct ranges");
        out.next_pc = pc;
        return;
      }
      merged.writes[merged.n_writes++] = r;
    }
  }
  merged.next_pc = pc + 1;
  state.pc = merged.next_pc;
  out = merged;
}

}  // namespace tlmcraft::isa::plena
