// A composed instruction (isa/fused.h) runs its steps with the ordinary semantics, in
// order, and reports itself as one instruction: the architectural on-chip ranges it reads
// from outside (a range an earlier step wrote is internal) and every range it writes,
// merged. Temporaries live in registers borrowed for the instruction and restored after
// it; a gp temporary addresses a hidden VRAM row past the architectural VRAM (the view is
// widened for the steps only). The loader made the steps alias-safe (isa/compose.h).
// A composed instruction moves no HBM data and cannot stop the program: a step that would
// is a fault. A loop end with composed steps (loop-end fusion) runs its steps, then the
// built-in loop end on its counter, whose next pc is the instruction's. A fault in step k
// restores the registers but not the rows (or accumulators) that steps 1..k-1 wrote: the run stops at the fault anyway (docs/platforms/plena.md).
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
// copied: that would cost a copy of every accumulator per composed instruction).
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

// Widens the VRAM view over the hidden rows and presets the gp temporaries; narrows it
// and puts the borrowed registers back when it goes out of scope.
class HiddenScope {
 public:
  HiddenScope(const ComposedInstruction& c, PlenaState& s, const Registers& before)
      : c_(c), s_(s), before_(before), arch_(s.vram.size) {
    for (size_t i = 0; i < c.gp_temps.size(); ++i) s.gp[c.gp_temps[i]] = arch_ + uint32_t(i) * s.params.vlen;
    s.vram.size = arch_ + s.hidden_vram;
  }
  ~HiddenScope() {
    s_.vram.size = arch_;
    for (uint8_t r : c_.gp_temps) s_.gp[r] = before_.gp[r];
    for (uint8_t r : c_.fp_temps) s_.fp[r] = before_.fp[r];
  }
  uint32_t arch() const { return arch_; }

 private:
  const ComposedInstruction& c_;
  PlenaState& s_;
  const Registers& before_;
  const uint32_t arch_;
};

bool hidden(const MemRange& r, uint32_t arch) { return r.mem == Memory::VRAM && r.end() > arch; }

// A step touched the hidden rows through an architectural register: the architecture
// would have faulted (the address is past the VRAM).
std::string reaches_hidden(const StepResult& step, const PlenaState& s, uint16_t gp_reads, uint32_t arch) {
  bool touched = false;
  for (uint8_t i = 0; i < step.n_reads; ++i) touched = touched || hidden(step.reads[i], arch);
  for (uint8_t i = 0; i < step.n_writes; ++i) touched = touched || hidden(step.writes[i], arch);
  if (!touched) return "";
  for (uint32_t r = 0; r < 16; ++r)
    if ((gp_reads >> r) & 1u && s.gp[r] >= arch && s.gp[r] < arch + s.hidden_vram)
      return "VRAM address gp" + std::to_string(r) + " = " + std::to_string(s.gp[r]) + " is past the VRAM (" +
             std::to_string(arch) + " elements)";
  return "";
}

std::string merge(const StepResult& step, uint32_t arch, StepResult& merged) {
  for (uint8_t i = 0; i < step.n_reads; ++i) {
    const MemRange& r = step.reads[i];
    if (hidden(r, arch) || contains(merged.writes, merged.n_writes, r) || contains(merged.reads, merged.n_reads, r))
      continue;
    if (merged.n_reads == kMaxReadRanges) return "reads more than " + std::to_string(kMaxReadRanges) + " distinct ranges";
    merged.reads[merged.n_reads++] = r;
  }
  for (uint8_t i = 0; i < step.n_writes; ++i) {
    const MemRange& r = step.writes[i];
    if (hidden(r, arch) || contains(merged.writes, merged.n_writes, r)) continue;
    if (merged.n_writes == kMaxWriteRanges)
      return "writes more than " + std::to_string(kMaxWriteRanges) + " distinct ranges";
    merged.writes[merged.n_writes++] = r;
  }
  return "";
}

}  // namespace

void execute_composed(const ComposedInstruction& c, const char* mnemonic, PlenaState& state, StepResult& out) {
  const uint32_t pc = state.pc;
  const Registers before(state);
  StepResult merged, step;
  std::string why;
  size_t k = 0;
  if (uint64_t(c.gp_temps.size()) * state.params.vlen > state.hidden_vram) {
    why = "needs " + std::to_string(c.gp_temps.size()) + " hidden VRAM rows, the platform reserves " +
          std::to_string(state.hidden_vram / state.params.vlen);
  } else {
    HiddenScope scope(c, state, before);
    for (; k < c.steps.size() && why.empty(); ++k) {
      execute(c.steps[k], state, step);
      why = step.fault;
      if (why.empty()) why = reaches_hidden(step, state, c.step_gp_reads[k], scope.arch());
      if (why.empty() && step.has_transfer) why = "moves HBM data, which a composed instruction cannot";
      if (why.empty() && (step.halt || step.next_pc != pc + 1))
        why = "changes control flow, which a composed instruction cannot";
      if (why.empty()) why = merge(step, scope.arch(), merged);
      state.pc = pc;
    }
    if (why.empty() && c.has_loop_end) {
      execute(c.loop_end, state, step);
      why = step.fault;
      if (why.empty()) merged.next_pc = step.next_pc;
      state.pc = pc;
    }
  }
  if (!why.empty()) {
    before.restore(state);
    out = StepResult{};
    out.fault = std::string(mnemonic) + " (composed) " + (k ? "step " + std::to_string(k) + ": " : "") + why;
    out.next_pc = pc;
    return;
  }
  if (!c.has_loop_end) merged.next_pc = pc + 1;
  state.pc = merged.next_pc;
  out = merged;
}

}  // namespace tlmcraft::isa::plena
