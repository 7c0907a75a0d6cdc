// Command-level DRAM timing engine: per-channel controllers (models/dram_channel.h) over
// bank/bus timing rules (models/dram_bank_timing.h), an address mapping
// (models/dram_address_map.h) and a front end that offers a batch of requests at a
// cycle. Stepped one DRAM cycle at a time, only while a batch is in flight. Timing
// only: data lives elsewhere (models::Dram). Behaviour and keys: docs/models.md.
#pragma once
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/dram_channel.h"
#include "models/dram_observer.h"

namespace tlmcraft::models {

class DramCommandEngine {
 public:
  explicit DramCommandEngine(const DramCommandConfig& cfg);

  const DramCommandConfig& config() const { return cfg_; }
  // The request-aligned byte addresses of every request covering [addr, addr + bytes).
  std::vector<uint64_t> requests_for(uint64_t addr, uint64_t bytes) const;

  // Offers every request (byte addresses, in order) at cycle `start` (or at the engine's
  // next cycle if it is later); a refused request is offered again every cycle and holds
  // back the ones after it. read() returns the cycle the last read's data returns,
  // write() the cycle the last write is accepted (writes complete on acceptance).
  uint64_t read(const std::vector<uint64_t>& requests, uint64_t start);
  uint64_t write(const std::vector<uint64_t>& requests, uint64_t start);

  uint64_t next_cycle() const { return time_; }  // cycle of the engine's next step
  // Reports batches, commands and returns to `observer` (null = none), for traces.
  void set_observer(DramObserver* observer);
  // Steps until every buffered write has issued (at most `max_cycles` steps), so an
  // observer sees where writes still buffered at the end of a run go. Changes stats():
  // read them first. Returns false if the buffers did not empty in time.
  bool drain(uint64_t max_cycles);
  bool busy() const;  // a channel holds a request, a command in flight or a return
  uint64_t write_data_end() const;  // cycle the last write's data burst ends, over every channel
  nlohmann::json stats() const;

 private:
  // Offers what it can at the current cycle (in order, stopping at the first refusal).
  void offer(const std::vector<uint64_t>& requests, bool write, size_t& offered, uint64_t first_id);
  void step(uint64_t first_id);  // one DRAM cycle of every channel
  void catch_up(uint64_t cycle);

  DramCommandConfig cfg_;
  DramAddressMap map_;
  std::vector<DramChannel> channels_;
  uint64_t time_ = 0;     // cycle of the next step (= steps done)
  uint64_t next_id_ = 0;  // request ids
  uint64_t batch_done_ = 0, batch_last_ = 0;  // reads of the current batch returned, and when
  uint64_t batches_ = 0, busy_cycles_ = 0;
  DramObserver* observer_ = nullptr;
};

}  // namespace tlmcraft::models
