#include "platforms/plena/timing_model.h"

#include <algorithm>

namespace tlmcraft::plena {

const char* unit_name(Unit u) {
  static const char* names[] = {"scalar_int", "scalar_fp", "vector", "matrix", "control", "dma.prefetch", "dma.store"};
  return u < kNumUnits ? names[u] : "?";
}

TimingModel::TimingModel(const PlenaConfig& cfg) : cfg_(cfg) {
  for (int u = 0; u < kNumUnits; ++u) units_.emplace_back(unit_name(Unit(u)), 1, 1);
  for (int r = 0; r < kNumResources; ++r) board_.id("r" + std::to_string(r));  // ids 0..35 = Resource
}

uint64_t TimingModel::earliest_issue(const StaticInfo& si, const std::vector<Range>& ranges) const {
  if (serial()) return next_slot_;
  uint64_t t = std::max(next_slot_, units_[si.unit].next_free());
  for (uint8_t i = 0; i < si.nreads; ++i) t = std::max(t, board_.ready(si.reads[i]));    // RAW
  for (uint8_t i = 0; i < si.nwrites; ++i) t = std::max(t, board_.ready(si.writes[i]));  // WAW
  if (si.acc == AccUse::Accumulate) t = std::max(t, acc_cleared_);
  if (si.acc == AccUse::Drain) t = std::max(t, acc_ready_);
  for (const Range& r : ranges)
    t = r.write ? board_.earliest_write(r.mem, r.lo, r.hi, t) : board_.earliest_read(r.mem, r.lo, r.hi, t);
  return t;
}

uint64_t TimingModel::commit(const StaticInfo& si, const std::vector<Range>& ranges, uint64_t issue, uint64_t done) {
  const uint64_t stall = issue - std::min(issue, next_slot_);
  stalls_[si.unit] += stall;
  units_[si.unit].issue(issue, done - issue, serial() ? done - issue : si.ii);
  frontier_ = std::max(frontier_, done);
  if (serial()) {
    next_slot_ = done;
    return stall;
  }
  next_slot_ = issue + 1;
  for (uint8_t i = 0; i < si.nwrites; ++i) board_.set_ready(si.writes[i], done);
  if (si.acc == AccUse::Accumulate) acc_ready_ = std::max(acc_ready_, done);
  if (si.acc == AccUse::Drain) acc_ready_ = acc_cleared_ = done;
  for (const Range& r : ranges) {
    if (r.write) board_.record_write(r.mem, r.lo, r.hi, done);
    else board_.record_read(r.mem, r.lo, r.hi, done);
  }
  // Records that expired before the in-order slot can never delay a later instruction.
  if (++committed_ % 4096 == 0) board_.prune(next_slot_);
  return stall;
}

}  // namespace tlmcraft::plena
