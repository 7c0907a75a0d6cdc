#include "platforms/coral/coral_load_flows.h"

#include <algorithm>

namespace tlmcraft::coral {

namespace {

// The vector registers [first, last) of an operand naming `reg` with a group of `group`.
struct RegisterSpan {
  int first = 0, last = 0;
};
RegisterSpan vector_span(uint8_t reg, uint32_t group) {
  if (reg == rv::kNoReg || reg < rv::kVecBase || reg >= rv::kVecBase + 32) return {};
  const int first = reg - rv::kVecBase;
  return {first, std::min(first + int(std::max<uint32_t>(group, 1)), 32)};
}

}  // namespace

LoadFlows::LoadFlows(traces::TraceRecorder& rec) : rec_(rec) {}

void LoadFlows::instruction(const rv::StepInfo& step, const TimingEvents& events, int issue_track, uint64_t dispatch,
                            const int (&unit_tracks)[kNumUnits]) {
  link_readers(step, events, issue_track, dispatch, unit_tracks);
  note_writes(step, events);
}

void LoadFlows::link_readers(const rv::StepInfo& step, const TimingEvents& events, int issue_track,
                             uint64_t dispatch, const int (&unit_tracks)[kNumUnits]) {
  // The arrow ends where the reader starts work: its first unit slice (not the AXI port).
  int to_track = issue_track;
  uint64_t to_cycle = dispatch;
  for (const TimedEvent& e : events.units)
    if (e.unit != kAxi) {
      to_track = unit_tracks[e.unit];
      to_cycle = e.begin;
      break;
    }
  const rv::DecodedInsn& d = *step.insn;
  for (uint8_t src : d.src) {
    const bool mask = src == rv::kVecBase && !((d.raw >> 25) & 1);  // v0 as a mask: one register
    const RegisterSpan span = vector_span(src, mask ? 1 : step.src_group);
    for (int r = span.first; r < span.last; ++r) {
      const Pending p = pending_[r];
      if (!p.load) continue;
      rec_.flow(unit_tracks[kVecLsu], p.last_cycle, to_track, to_cycle, "load -> first use");
      for (Pending& q : pending_)  // one arrow per load: its other registers are linked now
        if (q.load == p.load) q = {};
    }
  }
}

void LoadFlows::note_writes(const rv::StepInfo& step, const TimingEvents& events) {
  const RegisterSpan span = vector_span(step.insn->dst[0], step.dst_group * std::max<uint32_t>(step.fields, 1));
  if (span.first == span.last) return;
  const TimedEvent* lsu = nullptr;
  if (step.insn->cls == rv::OpClass::VecLoad)
    for (const TimedEvent& e : events.units)
      if (e.unit == kVecLsu && e.end > e.begin) lsu = &e;
  const uint64_t load = lsu ? ++loads_ : 0;
  for (int r = span.first; r < span.last; ++r) pending_[r] = {load, lsu ? lsu->end - 1 : 0};
}

}  // namespace tlmcraft::coral
