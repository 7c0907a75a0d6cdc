// One DRAM channel's controller: read, write and activating request buffers, an FR-FCFS
// scheduler (among the requests whose next command can issue now, the oldest; else the
// oldest), open-row policy, one command per cycle, a read-return queue served one
// request per cycle, write-mode switching by buffer watermarks, and read forwarding from
// buffered writes. The bank and bus rules come from DramBankTiming.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "models/dram_bank_timing.h"

namespace tlmcraft::models {

class DramObserver;
enum class DramRowOutcome : uint8_t;

struct DramRequest {
  uint64_t id = 0;
  uint64_t addr = 0;  // byte address of the request (request-aligned)
  DramCoord at;
  bool write = false;
  uint64_t arrive = 0;
  DramCmd next = DramCmd::Rd;  // command it needs now (recomputed by the scheduler)
  bool counted = false;        // row outcome already counted
};

struct DramChannelStats {
  uint64_t reads = 0, writes = 0, forwarded = 0, refused = 0;
  uint64_t row_hits = 0, row_misses = 0, row_conflicts = 0;
  uint64_t acts = 0, pres = 0;
};

class DramChannel {
 public:
  explicit DramChannel(const DramCommandConfig& cfg);

  // Offers a request at controller cycle `clk`; false when its buffer is full.
  bool accept(DramRequest r, uint64_t clk);
  // One controller cycle: returns at most one finished read (its id) through `done`.
  bool tick(uint64_t clk, uint64_t& done);
  bool busy() const { return !reads_.empty() || !writes_.empty() || !active_.empty() || !returns_.empty(); }
  const DramChannelStats& stats() const { return stats_; }
  // Engine cycle the last write's data burst ends (nCWL + nBL after its command; 0 = none).
  uint64_t write_data_end() const { return write_data_end_; }
  // Reports this channel's commands (as channel `index`) to `observer` (null = none).
  void set_observer(DramObserver* observer, uint32_t index) {
    observer_ = observer;
    index_ = index;
  }

 private:
  struct Return {
    uint64_t at, id;
  };
  using Buffer = std::vector<DramRequest>;
  // Index of the FR-FCFS choice in `b` (ready first, then oldest), or -1 when empty.
  // `arrival_ordered`: b is in arrival order (reads, writes), so the scan can stop early.
  int pick(Buffer& b, uint64_t clk, bool arrival_ordered);
  bool schedule(uint64_t clk, Buffer*& from, int& index);
  bool bank_has_activating(const DramCoord& at) const;
  void update_write_mode();
  DramRowOutcome count_outcome(const DramRequest& r);
  void report(const DramRequest& r, DramRowOutcome outcome, uint64_t clk) const;
  uint64_t data_end(DramCmd cmd, uint64_t cycle) const;  // the command's data on the bus until then

  const DramCommandConfig& cfg_;
  DramBankTiming banks_;
  Buffer reads_, writes_, active_;
  std::deque<Return> returns_;
  bool write_mode_ = false;
  DramChannelStats stats_;
  DramObserver* observer_ = nullptr;
  uint32_t index_ = 0;
  uint64_t write_data_end_ = 0;
};

}  // namespace tlmcraft::models
