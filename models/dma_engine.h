// DMA engine: moves data between targets through a TLM-2.0 initiator socket. A controller
// thread calls submit() with an absolute issue cycle; the data moves immediately (program
// order) and the exact start/completion cycles come back, derived from the engine queue,
// an injection bandwidth limit, an outstanding-access limit and the per-access timing the
// targets annotate. Formulas: docs/models.md.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <yaml-cpp/yaml.h>

#include "models/sim_context.h"

namespace tlmcraft::models {

// A 1-D (rows = 1) or 2-D strided block: `rows` rows of `row_bytes` bytes, row i at
// addr + i * row_stride.
struct DmaSegment {
  uint64_t addr = 0;
  uint64_t row_bytes = 0;
  uint64_t rows = 1;
  uint64_t row_stride = 0;

  static DmaSegment linear(uint64_t addr, uint64_t bytes) { return {addr, bytes, 1, bytes}; }
  static DmaSegment strided(uint64_t addr, uint64_t row_bytes, uint64_t rows, uint64_t row_stride) {
    return {addr, row_bytes, rows, row_stride};
  }
  uint64_t bytes() const { return row_bytes * rows; }
};

// Applied between the read and the write phase (e.g. MX fp8 -> bf16); `out` must end up
// exactly as long as the destination segments.
using DmaTransform = std::function<void(const std::vector<uint8_t>& in, std::vector<uint8_t>& out)>;

struct DmaDescriptor {
  std::vector<DmaSegment> src;  // read in order, concatenated
  std::vector<DmaSegment> dst;  // written in order from the (transformed) data
  DmaTransform transform;       // empty = copy (source and destination sizes must match)
  std::string label;            // free text for errors and traces
};

struct DmaCompletion {
  uint64_t id = 0;              // 0-based submission number
  bool ok = true;
  std::string error;            // set when !ok: names the engine, phase, address, cause
  uint64_t issue_cycle = 0;     // as requested by the caller
  uint64_t accept_cycle = 0;    // entered the queue (later than issue if the queue was full)
  uint64_t start_cycle = 0;     // engine began the read phase
  uint64_t read_done_cycle = 0; // last read returned; the write phase starts here
  uint64_t done_cycle = 0;      // last write returned
  uint64_t bytes_read = 0, bytes_written = 0;
  uint64_t read_accesses = 0, write_accesses = 0;
};

struct DmaConfig {
  std::string name = "dma";
  uint32_t queue_depth = 4;       // descriptors accepted and not yet complete (incl. the active one); >= 1
  uint64_t bytes_per_cycle = 0;   // injection bandwidth limit; 0 = unlimited
  uint32_t max_outstanding = 0;   // accesses in flight per phase; 0 = all at once
  uint64_t granule_bytes = 64;    // accesses never cross a granule boundary
  sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);

  void validate() const;  // throws ConfigError
  // Keys: name, queue_depth, bytes_per_cycle, max_outstanding, granule_bytes,
  // clock_period_ps | clock_period_ns.
  static DmaConfig from_yaml(const YAML::Node& node, const std::string& where);
  nlohmann::json to_json() const;
};

class DmaEngine : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DmaEngine> socket;

  using Completion = DmaCompletion;
  SC_HAS_PROCESS(DmaEngine);
  DmaEngine(sc_core::sc_module_name name, const DmaConfig& config);

  const DmaConfig& config() const { return cfg_; }
  const Clock& clock() const { return clock_; }

  // Performs the transfer now and returns its exact timing. Never throws for bad
  // addresses: errors come back in the completion.
  DmaCompletion submit(const DmaDescriptor& d, uint64_t issue_cycle);

  // Notified at every completion time (one notification per descriptor).
  const sc_core::sc_event& completion_event() const { return events_.default_event(); }
  // Owners that compute transfer timing themselves and never wait for completions (the
  // PLENA and Coral cores) turn notifications off: then no bookkeeping outlives submit().
  void set_completion_notifications(bool on) { notify_ = on; }
  // Notifications scheduled and not yet delivered; submit() fails a descriptor beyond
  // kMaxPendingNotifications.
  size_t pending_notifications() const { return notifications_pending_; }
  static constexpr size_t kMaxPendingNotifications = 1u << 16;
  // Transfers not complete at a submit's issue cycle; submit() fails a descriptor beyond this.
  static constexpr size_t kMaxPendingTransfers = 16384;
  size_t pending_transfers() const { return pending_done_.size(); }
  // Called from an SC_METHOD at each descriptor's completion time (needs a running simulation).
  void set_completion_callback(std::function<void(const DmaCompletion&)> cb) { callback_ = std::move(cb); }
  // Cycle at which the engine finishes everything submitted so far.
  uint64_t free_cycle() const { return engine_free_; }

  nlohmann::json stats() const;
  void reset_stats();

 private:
  struct Access {
    uint64_t addr;
    uint64_t bytes;
    uint64_t offset;  // into the phase buffer
  };
  // Times and performs one phase; returns false and fills `error` on a failed access.
  bool run_phase(bool write, const std::vector<Access>& accesses, std::vector<uint8_t>& buffer,
                 uint64_t start, uint64_t& done, std::string& error);
  std::vector<Access> split(const std::vector<DmaSegment>& segs) const;
  void dispatch();
  void finish(const DmaCompletion& c);

  DmaConfig cfg_;
  Clock clock_;
  sc_core::sc_event_queue events_;
  std::function<void(const DmaCompletion&)> callback_;
  std::multimap<uint64_t, DmaCompletion> pending_callbacks_;
  std::deque<uint64_t> queued_done_;  // completion cycles of accepted descriptors, oldest first
  std::deque<uint64_t> pending_done_;  // completion cycles of transfers not known complete, in order
  bool notify_ = true;
  size_t notifications_pending_ = 0;
  uint64_t engine_free_ = 0;
  uint64_t next_id_ = 0;
  tlm::tlm_generic_payload trans_;

  struct Stats {
    uint64_t descriptors = 0, errors = 0, bytes_in = 0, bytes_out = 0;
    uint64_t read_accesses = 0, write_accesses = 0, busy_cycles = 0;
    uint64_t queue_full_stalls = 0, queue_full_stall_cycles = 0;
  } stats_;
};

}  // namespace tlmcraft::models
