// DRAM/HBM: a TLM-2.0 target with channels, banks, open-row policy and per-channel data
// buses, timed arithmetically per access granule; backed by a sparse byte store so a
// multi-GiB address space costs memory only where written. Timing formulas: docs/models.md.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <yaml-cpp/yaml.h>

#include "models/sim_context.h"

namespace tlmcraft::models {

struct DramConfig {
  std::string name = "dram";
  uint64_t capacity_bytes = 1ull << 32;  // address space [0, capacity)
  uint32_t channels = 8;
  uint32_t banks_per_channel = 16;
  uint64_t row_bytes = 2048;             // row (page) size per bank
  uint64_t granule_bytes = 64;           // access granule: one burst moves one granule
  uint64_t interleave_bytes = 64;        // consecutive chunks of this size go to consecutive channels
  uint64_t tRCD = 14;                    // ACT -> column command
  uint64_t tCL = 14;                     // column command -> first data (reads and writes)
  uint64_t tRP = 14;                     // PRE -> ACT
  uint64_t tRAS = 0;                     // ACT -> PRE minimum; 0 = not modelled
  uint64_t burst_cycles = 2;             // data-bus cycles per granule on one channel
  uint32_t queue_depth = 32;             // per-channel request queue; 0 = unbounded
  uint64_t page_bytes = 4096;            // allocation unit of the sparse backing store
  sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);

  void validate() const;  // throws ConfigError
  // Keys are the field names above, plus clock_period_ps | clock_period_ns; sizes accept
  // KiB/MiB/GiB suffixes. Unknown keys are errors.
  static DramConfig from_yaml(const YAML::Node& node, const std::string& where);
  static DramConfig from_yaml_file(const std::string& path);
  nlohmann::json to_json() const;
};

struct DramLocation {
  uint32_t channel = 0;
  uint32_t bank = 0;
  uint64_t row = 0;
  uint64_t column = 0;  // byte offset within the row
};

enum class RowOutcome { Hit, Miss, Conflict };  // open row / closed bank / other row open
const char* to_string(RowOutcome);

struct DramAccessTiming {
  DramLocation where;
  RowOutcome outcome = RowOutcome::Miss;
  uint64_t arrival = 0;   // cycle the request reached the controller
  uint64_t admitted = 0;  // cycle it entered the channel queue (later if the queue was full)
  uint64_t data = 0;      // first data-bus cycle of its burst
  uint64_t done = 0;      // cycle after its last burst cycle (= data + burst_cycles)
};

class Dram : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Dram> socket;

  Dram(sc_core::sc_module_name name, const DramConfig& config);

  const DramConfig& config() const { return cfg_; }
  const Clock& clock() const { return clock_; }
  DramLocation decode(uint64_t addr) const;

  // Times one granule access (the granule containing addr) arriving at `cycle`, in the
  // order of calls (FCFS per channel), updating bank, bus and queue state.
  DramAccessTiming access(uint64_t addr, uint64_t cycle, bool write);
  // Times every granule of [addr, addr+bytes) arriving at `cycle` (in address order) and
  // returns the cycle the last one completes. Counts bytes in the statistics.
  uint64_t transfer(uint64_t addr, uint64_t bytes, uint64_t cycle, bool write);

  // Functional access to the sparse store, no timing; throw std::out_of_range.
  void read_bytes(uint64_t addr, void* dst, uint64_t bytes) const;
  void write_bytes(uint64_t addr, const void* src, uint64_t bytes);
  uint64_t allocated_bytes() const { return pages_.size() * cfg_.page_bytes; }
  // Byte offsets of the allocated pages (each page_bytes long), ascending; every byte
  // outside them reads as zero.
  std::vector<uint64_t> allocated_page_offsets() const;

  nlohmann::json stats() const;
  void reset_stats();

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void check_range(uint64_t addr, uint64_t bytes, const char* what) const;
  uint8_t* page_for_write(uint64_t page);
  void store(uint64_t addr, const uint8_t* src, uint64_t bytes, const unsigned char* be, unsigned be_len);
  void load(uint64_t addr, uint8_t* dst, uint64_t bytes, const unsigned char* be, unsigned be_len) const;

  struct Bank {
    bool open = false;
    uint64_t row = 0;
    uint64_t act = 0;        // cycle of the last ACT
    uint64_t col_ready = 0;  // earliest column command to the open row (act + tRCD)
    uint64_t pre_ready = 0;  // earliest PRE (after the last column command, and act + tRAS)
  };
  struct Channel {
    std::vector<Bank> banks;
    uint64_t bus_free = 0;          // first cycle the data bus is free
    std::deque<uint64_t> in_queue;  // completion cycles of queued requests, oldest first
    uint64_t busy_cycles = 0, accesses = 0;
  };

  DramConfig cfg_;
  Clock clock_;
  std::vector<Channel> channels_;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;

  struct Stats {
    uint64_t transactions = 0, reads = 0, writes = 0, bytes_read = 0, bytes_written = 0;
    uint64_t accesses = 0, row_hits = 0, row_misses = 0, row_conflicts = 0;
    uint64_t queue_full_waits = 0, queue_stall_cycles = 0;
    uint64_t first_arrival = UINT64_MAX, last_done = 0;
  } stats_;
};

}  // namespace tlmcraft::models
