#include "platforms/coral/coral_trace.h"

#include <algorithm>
#include <string>

namespace tlmcraft::coral {

CoralTrace::CoralTrace(traces::TraceRecorder& rec, uint32_t dispatch_width) : rec_(rec), load_flows_(rec) {
  for (uint32_t k = 0; k < std::max<uint32_t>(dispatch_width, 1); ++k)
    issue_.push_back(rec_.track("coral", "issue" + std::to_string(k)));
  pc_ = rec_.track("coral", "pc");
  for (int u = 0; u < kNumUnits; ++u) {
    units_[u] = rec_.track("coral", unit_name(Unit(u)));
    stalls_[u] = rec_.track("coral", std::string("stall.") + unit_name(Unit(u)));
  }
  dispatch_stall_ = rec_.track("coral", "stall.dispatch");
  axi_in_flight_ = rec_.track("coral", "axi.in_flight");
  for (int q = 0; q < kNumQueues; ++q) queue_tracks_[q] = rec_.track("coral", queue_name(Queue(q)));
}

void CoralTrace::instruction(uint64_t t, uint32_t slot, traces::TraceName name, uint32_t pc, uint32_t line,
                             const rv::StepInfo& step, const TimingEvents& events) {
  const int issue_track = issue_[std::min<size_t>(slot, issue_.size() - 1)];
  rec_.slice(issue_track, t, t + 1, name, {{"pc", pc}, {"line", line}});
  rec_.counter(pc_, t, pc);
  if (any_ && t > last_dispatch_ + 1) rec_.slice(dispatch_stall_, last_dispatch_ + 1, t, "no dispatch", {{"pc", pc}});
  if (!any_ || t > last_dispatch_) last_dispatch_ = t;
  any_ = true;
  for (const TimedEvent& e : events.units) {
    rec_.slice(units_[e.unit], e.begin, e.end, unit_name(e.unit), {{"pc", pc}});
    if (e.stall && e.stall <= e.begin) rec_.slice(stalls_[e.unit], e.begin - e.stall, e.begin, "wait", {{"pc", pc}});
    if (e.unit == kAxi) axi_.add(e.begin, e.end);
  }
  for (const QueueEntry& q : events.entries) queues_[q.queue].add(q.begin, q.end);
  // Dispatch is in order and every later entry begins at or after its dispatch: the
  // counts before t are final.
  for (int q = 0; q < kNumQueues; ++q) queues_[q].advance(rec_, queue_tracks_[q], t);
  if (!axi_.empty()) axi_.advance(rec_, axi_in_flight_, t);
  load_flows_.instruction(step, events, issue_track, t, units_);
}

void CoralTrace::finish(uint64_t cycles) {
  if (!axi_.empty()) axi_.flush(rec_, axi_in_flight_);
  for (int q = 0; q < kNumQueues; ++q) queues_[q].flush(rec_, queue_tracks_[q]);
  rec_.extend_to(cycles);
}

}  // namespace tlmcraft::coral
