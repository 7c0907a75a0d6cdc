// Timing of PLENA's HBM transfers on the command-level DRAM engine
// (models/dram_command_engine.h), with the reference simulator's access pattern:
// a prefetch reads, for each row, the 64-byte blocks covering its data plus one block
// holding its MX scale bytes, every block as 16-byte requests all offered at the start,
// and ends when the last returns; a store, row by row, writes the row's data blocks
// (complete on acceptance), then reads and writes back the block holding its scales.
// Serial mode: a transfer starts at its issue cycle. Pipelined mode adds the DMA engine
// queue (queue_depth transfers per engine), one transfer at a time per engine, and the
// SRAM side (bytes_per_cycle), streaming alongside the HBM side: a transfer takes at
// least bytes / bytes_per_cycle.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/plena/semantics.h"
#include "models/dram_command_engine.h"
#include "platforms/plena/plena_config.h"

namespace tlmcraft::plena {

struct HbmTiming {
  uint64_t accept = 0;  // the engine took the transfer (later than issue when its queue is full)
  uint64_t done = 0;    // the transfer is complete
};

class HbmTimer {
 public:
  HbmTimer(const PlenaConfig& cfg, const models::DramCommandConfig& engine);

  HbmTiming transfer(const isa::plena::HbmTransfer& t, uint64_t issue);
  // The 64-byte blocks a transfer touches, in the reference's order: per row, its data
  // blocks then (MX formats) its scale block.
  struct RowBlocks {
    std::vector<uint64_t> data;
    uint64_t scale = 0;
    bool has_scale = false;
  };
  std::vector<RowBlocks> blocks(const isa::plena::HbmTransfer& t) const;
  nlohmann::json stats() const { return engine_.stats(); }
  const models::DramCommandConfig& engine_config() const { return engine_.config(); }
  // Reports the engine's batches, commands and returns to `observer` (traces; null = none).
  void set_observer(models::DramObserver* observer) { engine_.set_observer(observer); }
  // Issues the writes still buffered in the controllers (for the observer; the run's
  // cycles never wait for them). Changes stats(): read them first.
  void drain_writes() { engine_.drain(kDrainLimit); }
  // The cycle the last transfer completes in HBM: the latest transfer completion or the
  // end of the last write's data burst, whichever is later (drains the writes the
  // controllers still buffer: read stats() first).
  // None when the run made no transfer.
  std::optional<uint64_t> last_transfer_cycle();
  static constexpr uint64_t kDrainLimit = 1'000'000;  // cycles; buffers of 33 writes drain in far fewer

 private:
  struct Queue {
    std::deque<uint64_t> done;  // completion cycles of accepted transfers, oldest first
    uint64_t free = 0;          // the engine's previous transfer is complete
  };
  uint64_t read_blocks(const std::vector<uint64_t>& blocks, uint64_t start);
  uint64_t write_blocks(const std::vector<uint64_t>& blocks, uint64_t start);
  uint64_t prefetch(const isa::plena::HbmTransfer& t, uint64_t start);
  uint64_t store(const isa::plena::HbmTransfer& t, uint64_t start);
  uint64_t sram_cycles(const isa::plena::HbmTransfer& t, uint32_t bytes_per_cycle) const;

  const PlenaConfig& cfg_;
  models::DramCommandEngine engine_;
  Queue prefetch_q_, store_q_;
  uint64_t last_done_ = 0;  // latest completion transfer() returned
  bool transferred_ = false;
};

// The engine configuration named by memory.hbm.timing_preset (models/presets/<name>.yaml).
models::DramCommandConfig hbm_timing_config(const PlenaConfig& cfg);

}  // namespace tlmcraft::plena
