// Arithmetic timing helpers for cores that compute instruction timing without wait():
// pipelined functional units with an initiation interval, and a scoreboard of register
// and memory-range hazards. Formulas: docs/models.md.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/stats.h"

namespace tlmcraft::models {

struct IssueSlot {
  uint64_t start = 0;  // cycle the operation enters the unit
  uint64_t done = 0;   // cycle its result is available (start + latency)
};

// A pipelined unit: a new operation may enter every `ii` cycles; each takes `latency`.
class PipelinedUnit {
 public:
  PipelinedUnit(std::string name, uint64_t latency, uint64_t ii);

  // start = max(earliest, previous start + previous II); done = start + latency.
  IssueSlot issue(uint64_t earliest) { return issue(earliest, latency_, ii_); }
  // Same with per-operation latency and II (units running operations of several kinds).
  IssueSlot issue(uint64_t earliest, uint64_t latency, uint64_t ii);

  const std::string& name() const { return name_; }
  uint64_t latency() const { return latency_; }
  uint64_t ii() const { return ii_; }
  uint64_t next_free() const { return next_issue_; }  // earliest start of the next operation
  uint64_t last_done() const { return last_done_; }

  uint64_t operations() const { return ops_; }
  uint64_t issue_busy_cycles() const { return issue_busy_; }   // sum of II: cycles the entry stage was taken
  uint64_t active_cycles() const { return active_; }           // cycles with >= 1 operation in flight
  uint64_t stall_cycles() const { return stalls_; }            // sum of (start - earliest)
  // Idle cycles within [0, end): end - active cycles (end defaults to last_done()).
  uint64_t idle_cycles(uint64_t end) const { return end > active_ ? end - active_ : 0; }
  nlohmann::json stats(uint64_t end_cycle) const;
  void reset();

 private:
  std::string name_;
  uint64_t latency_, ii_;
  uint64_t next_issue_ = 0, last_done_ = 0, covered_until_ = 0;
  uint64_t ops_ = 0, issue_busy_ = 0, active_ = 0, stalls_ = 0;
};

// Ready cycles of named resources (registers, flags, units) and hazards on memory ranges.
class Scoreboard {
 public:
  using Id = uint32_t;

  // Interns a name (fast integer handle for hot paths).
  Id id(const std::string& name);
  uint64_t ready(Id r) const { return r < ready_.size() ? ready_[r] : 0; }
  void set_ready(Id r, uint64_t cycle);
  uint64_t ready(const std::string& name) const;
  void set_ready(const std::string& name, uint64_t cycle) { set_ready(id(name), cycle); }

  // Memory-range hazards on memory `mem`, range [lo, hi).
  // A write whose data is visible from `ready_cycle` on.
  void record_write(uint32_t mem, uint64_t lo, uint64_t hi, uint64_t ready_cycle);
  // A read that has consumed the range by `done_cycle`.
  void record_read(uint32_t mem, uint64_t lo, uint64_t hi, uint64_t done_cycle);
  // Both at once (a record of the brief's form: write-ready and last-read-done cycles).
  void record(uint32_t mem, uint64_t lo, uint64_t hi, uint64_t write_ready, uint64_t read_done);
  // Earliest cycle >= not_before at which a new read may happen (RAW: after overlapping writes are ready).
  uint64_t earliest_read(uint32_t mem, uint64_t lo, uint64_t hi, uint64_t not_before = 0) const;
  // Earliest cycle >= not_before for a new write (WAW: after overlapping writes; WAR: after overlapping reads).
  uint64_t earliest_write(uint32_t mem, uint64_t lo, uint64_t hi, uint64_t not_before = 0) const;
  // Drops range records whose cycles are all <= horizon (they no longer constrain
  // queries with not_before >= horizon).
  void prune(uint64_t horizon);
  size_t range_records() const;
  void clear();

 private:
  struct Range {
    uint64_t hi;
    uint64_t write_ready;
    uint64_t read_done;
  };
  using RangeMap = std::map<uint64_t, Range>;  // disjoint ranges keyed by lo
  void split_at(RangeMap& m, uint64_t at);
  template <class F>
  void for_overlaps(uint32_t mem, uint64_t lo, uint64_t hi, F f) const;

  std::unordered_map<std::string, Id> names_;
  std::vector<uint64_t> ready_;
  std::unordered_map<uint32_t, RangeMap> ranges_;
};

}  // namespace tlmcraft::models
