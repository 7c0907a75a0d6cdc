#include "models/timing.h"

#include <algorithm>
#include <stdexcept>

namespace tlmcraft::models {

PipelinedUnit::PipelinedUnit(std::string name, uint64_t latency, uint64_t ii)
    : name_(std::move(name)), latency_(latency), ii_(ii) {}

IssueSlot PipelinedUnit::issue(uint64_t earliest, uint64_t latency, uint64_t ii) {
  IssueSlot s;
  s.start = std::max(earliest, next_issue_);
  s.done = s.start + latency;
  stalls_ += s.start - earliest;
  next_issue_ = s.start + ii;
  last_done_ = std::max(last_done_, s.done);
  ++ops_;
  issue_busy_ += ii;
  // Starts never decrease, so the union of [start, max(done, start + ii)) grows at the end only.
  const uint64_t occupied_end = std::max(s.done, s.start + ii);
  const uint64_t from = std::max(s.start, covered_until_);
  if (occupied_end > from) active_ += occupied_end - from;
  covered_until_ = std::max(covered_until_, occupied_end);
  return s;
}

nlohmann::json PipelinedUnit::stats(uint64_t end_cycle) const {
  return {{"name", name_},
          {"operations", ops_},
          {"issue_busy_cycles", issue_busy_},
          {"active_cycles", active_},
          {"idle_cycles", idle_cycles(end_cycle)},
          {"stall_cycles", stalls_},
          {"utilisation", utilisation(active_, end_cycle)}};
}

void PipelinedUnit::reset() {
  next_issue_ = last_done_ = covered_until_ = 0;
  ops_ = issue_busy_ = active_ = stalls_ = 0;
}

Scoreboard::Id Scoreboard::id(const std::string& name) {
  auto it = names_.find(name);
  if (it != names_.end()) return it->second;
  const Id n = static_cast<Id>(ready_.size());
  names_.emplace(name, n);
  ready_.push_back(0);
  return n;
}

void Scoreboard::set_ready(Id r, uint64_t cycle) {
  if (r >= ready_.size()) throw std::out_of_range("scoreboard: unknown resource id " + std::to_string(r));
  ready_[r] = cycle;
}

uint64_t Scoreboard::ready(const std::string& name) const {
  auto it = names_.find(name);
  return it == names_.end() ? 0 : ready_[it->second];
}

void Scoreboard::split_at(RangeMap& m, uint64_t at) {
  auto it = m.upper_bound(at);
  if (it == m.begin()) return;
  --it;
  if (it->first < at && it->second.hi > at) {
    m.emplace(at, Range{it->second.hi, it->second.write_ready, it->second.read_done});
    it->second.hi = at;
  }
}

void Scoreboard::record(uint32_t mem, uint64_t lo, uint64_t hi, uint64_t write_ready, uint64_t read_done) {
  if (lo >= hi) return;
  RangeMap& m = ranges_[mem];
  split_at(m, lo);
  split_at(m, hi);
  uint64_t cur = lo;
  auto it = m.lower_bound(lo);
  while (cur < hi) {
    if (it != m.end() && it->first == cur) {
      it->second.write_ready = std::max(it->second.write_ready, write_ready);
      it->second.read_done = std::max(it->second.read_done, read_done);
      cur = it->second.hi;
      ++it;
    } else {
      const uint64_t next = (it != m.end() && it->first < hi) ? it->first : hi;
      it = std::next(m.emplace(cur, Range{next, write_ready, read_done}).first);
      cur = next;
    }
  }
}

void Scoreboard::record_write(uint32_t mem, uint64_t lo, uint64_t hi, uint64_t ready_cycle) {
  record(mem, lo, hi, ready_cycle, 0);
}

void Scoreboard::record_read(uint32_t mem, uint64_t lo, uint64_t hi, uint64_t done_cycle) {
  record(mem, lo, hi, 0, done_cycle);
}

template <class F>
void Scoreboard::for_overlaps(uint32_t mem, uint64_t lo, uint64_t hi, F f) const {
  if (lo >= hi) return;
  auto mit = ranges_.find(mem);
  if (mit == ranges_.end()) return;
  const RangeMap& m = mit->second;
  auto it = m.upper_bound(lo);
  if (it != m.begin() && std::prev(it)->second.hi > lo) --it;
  for (; it != m.end() && it->first < hi; ++it) f(it->second);
}

uint64_t Scoreboard::earliest_read(uint32_t mem, uint64_t lo, uint64_t hi, uint64_t not_before) const {
  uint64_t t = not_before;
  for_overlaps(mem, lo, hi, [&](const Range& r) { t = std::max(t, r.write_ready); });
  return t;
}

uint64_t Scoreboard::earliest_write(uint32_t mem, uint64_t lo, uint64_t hi, uint64_t not_before) const {
  uint64_t t = not_before;
  for_overlaps(mem, lo, hi, [&](const Range& r) { t = std::max({t, r.write_ready, r.read_done}); });
  return t;
}

void Scoreboard::prune(uint64_t horizon) {
  for (auto& [mem, m] : ranges_)
    for (auto it = m.begin(); it != m.end();)
      it = (it->second.write_ready <= horizon && it->second.read_done <= horizon) ? m.erase(it) : std::next(it);
}

size_t Scoreboard::range_records() const {
  size_t n = 0;
  for (const auto& kv : ranges_) n += kv.second.size();
  return n;
}

void Scoreboard::clear() {
  names_.clear();
  ready_.clear();
  ranges_.clear();
}

}  // namespace tlmcraft::models
