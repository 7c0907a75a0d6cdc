#include "platforms/plena/plena_trace.h"

namespace tlmcraft::plena {

namespace {
constexpr size_t kMaxPending = 256;  // prefetched ranges awaiting their first reader
}

PlenaTrace::PlenaTrace(traces::TraceRecorder& rec) : rec_(rec) {
  for (int u = 0; u < kNumUnits; ++u) {
    units_[u] = rec_.track("plena", unit_name(Unit(u)));
    stalls_[u] = rec_.track("plena", std::string("stall.") + unit_name(Unit(u)));
  }
  pc_ = rec_.track("plena", "pc");
  queue_stall_ = rec_.track("plena", "stall.hbm_queue");
  prefetch_queue_ = rec_.track("plena", "hbm.prefetch_queue");
  store_queue_ = rec_.track("plena", "hbm.store_queue");
}

void PlenaTrace::watch(HbmTimer& timer) {
  hbm_ = std::make_unique<PlenaHbmTrace>(rec_, timer.engine_config().org.channels);
  if (hbm_->any_track_enabled()) {
    timer.set_observer(hbm_.get());
    timer_ = &timer;
  } else {
    hbm_.reset();
  }
}

void PlenaTrace::instruction(const Issued& in, const std::vector<Range>& ranges) {
  rec_.slice(units_[in.unit], in.issue, in.done, *in.mnemonic, {{"pc", in.pc}, {"line", in.line}});
  rec_.counter(pc_, in.issue, in.pc);
  if (in.stall) rec_.slice(stalls_[in.unit], in.issue - in.stall, in.issue, "wait", {{"pc", in.pc}});
  if (in.transfer) {
    if (in.issue > in.ready) rec_.slice(queue_stall_, in.ready, in.issue, "queue full", {{"pc", in.pc}});
    (in.unit == kStore ? store_occupancy_ : prefetch_occupancy_).add(in.issue, in.done);
    if (hbm_) hbm_->transfer(rec_.intern(*in.mnemonic), in.pc);
  }
  link_first_use(in, ranges);
  if (in.transfer && in.unit == kPrefetch && in.done > in.issue)
    for (const Range& r : ranges)
      if (r.write && r.mem != kHbm) {
        if (pending_.size() == kMaxPending) pending_.erase(pending_.begin());
        pending_.push_back({r.mem, r.lo, r.hi, in.done - 1});
      }
}

void PlenaTrace::link_first_use(const Issued& in, const std::vector<Range>& ranges) {
  if (in.transfer || pending_.empty()) return;
  for (const Range& r : ranges) {
    if (r.write) continue;
    for (size_t i = 0; i < pending_.size();) {
      const Pending& p = pending_[i];
      if (p.mem == r.mem && p.lo < r.hi && r.lo < p.hi) {
        rec_.flow(units_[kPrefetch], p.last_cycle, units_[in.unit], in.issue, "prefetch -> first use");
        pending_.erase(pending_.begin() + static_cast<long>(i));
      } else {
        ++i;
      }
    }
  }
}

void PlenaTrace::finish(uint64_t cycles) {
  if (!prefetch_occupancy_.empty()) prefetch_occupancy_.flush(rec_, prefetch_queue_);
  if (!store_occupancy_.empty()) store_occupancy_.flush(rec_, store_queue_);
  if (hbm_) {
    timer_->drain_writes();
    hbm_->finish();
    timer_->set_observer(nullptr);
  }
  rec_.extend_to(cycles);
}

}  // namespace tlmcraft::plena
