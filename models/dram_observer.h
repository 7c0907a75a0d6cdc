// An optional observer of the command-level DRAM engine (models/dram_command_engine.h),
// for traces: the batches offered, every command a channel issues and every read's
// return. Cycles are the engine's (the cycles read() and write() take and return), and
// arrive in non-decreasing order. Nothing is reported when no observer is set.
#pragma once
#include <cstdint>

#include "models/dram_bank_timing.h"
#include "models/dram_channel.h"

namespace tlmcraft::models {

// What a request found in its bank when its first command issued.
enum class DramRowOutcome : uint8_t {
  None,      // not the request's first command
  Hit,       // its row was open
  Miss,      // the bank was closed (ACT)
  Conflict,  // another row was open (PRE, then ACT)
};

class DramObserver {
 public:
  virtual ~DramObserver() = default;
  // Requests with ids [first_id, first_id + count) offered from `cycle` on.
  virtual void batch(uint64_t first_id, uint64_t count, bool write, uint64_t cycle) = 0;
  // `channel` issued `cmd` for `request` at `cycle`; a read's or write's data burst on the
  // bus ends at `data_end` (cycle + 1 for ACT and PRE).
  virtual void command(uint32_t channel, const DramRequest& request, DramCmd cmd, DramRowOutcome outcome,
                       uint64_t cycle, uint64_t data_end) = 0;
  // Read `id`'s data returned at `cycle` (forwarded reads included).
  virtual void returned(uint32_t channel, uint64_t id, uint64_t cycle) = 0;
};

}  // namespace tlmcraft::models
