// On-chip SRAM scratchpad: a TLM-2.0 target with word-interleaved banks and a bank/port
// reservation model usable both through b_transport and directly by an owner that times
// accesses arithmetically (e.g. a compute unit reading operands at a given cycle).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <yaml-cpp/yaml.h>

#include "models/sim_context.h"

namespace tlmcraft::models {

struct ScratchpadConfig {
  std::string name = "scratchpad";
  uint64_t size_bytes = 0;
  uint64_t word_bytes = 4;       // bank interleave unit: word w lives in bank w % banks
  uint32_t banks = 1;
  uint32_t ports_per_bank = 1;   // words a bank serves per cycle
  uint64_t read_latency = 1;     // cycles from a word's port slot to its data
  uint64_t write_latency = 1;
  sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);

  void validate() const;  // throws ConfigError
  // Keys: name, size_bytes, word_bytes, banks, ports_per_bank, read_latency,
  // write_latency, clock_period_ps | clock_period_ns. Unknown keys are errors.
  static ScratchpadConfig from_yaml(const YAML::Node& node, const std::string& where);
  nlohmann::json to_json() const;
};

// Result of booking an access: the cycle its first port slot is granted, the cycles its
// busiest bank is occupied, and the cycle the access completes (data usable/written).
struct BankReservation {
  uint64_t start = 0;
  uint64_t occupancy = 0;
  uint64_t done = 0;
};

class Scratchpad : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Scratchpad> socket;

  Scratchpad(sc_core::sc_module_name name, const ScratchpadConfig& config);

  const ScratchpadConfig& config() const { return cfg_; }
  const Clock& clock() const { return clock_; }
  uint8_t* data() { return mem_.data(); }
  const uint8_t* data() const { return mem_.data(); }
  uint64_t size() const { return cfg_.size_bytes; }
  uint32_t bank_of(uint64_t addr) const { return static_cast<uint32_t>((addr / cfg_.word_bytes) % cfg_.banks); }

  // Books the ports of the banks touched by [addr, addr+bytes) at the earliest cycle
  // >= `cycle` where all of them are free, and returns that cycle. Bookings may be made
  // in any time order. Throws std::out_of_range for addresses outside the array.
  uint64_t reserve(uint64_t addr, uint64_t bytes, uint64_t cycle, bool write);
  // Same booking, with occupancy and completion (start + occupancy - 1 + latency).
  BankReservation book(uint64_t addr, uint64_t bytes, uint64_t cycle, bool write);
  // Forgets bookings of cycles < horizon. Later bookings must not ask for such cycles.
  void prune(uint64_t horizon);

  // Bounds-checked functional access for owners (no timing); throw std::out_of_range.
  void read(uint64_t addr, void* dst, uint64_t bytes) const;
  void write(uint64_t addr, const void* src, uint64_t bytes);

  nlohmann::json stats() const;
  void reset_stats();

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void check_range(uint64_t addr, uint64_t bytes, const char* what) const;

  ScratchpadConfig cfg_;
  Clock clock_;
  std::vector<uint8_t> mem_;
  // Per bank: cycle -> ports already booked in that cycle (absent = 0).
  std::vector<std::map<uint64_t, uint32_t>> booked_;

  struct Stats {
    uint64_t reads = 0, writes = 0, bytes_read = 0, bytes_written = 0;
    uint64_t conflicts = 0, conflict_stall_cycles = 0;
  } stats_;
};

}  // namespace tlmcraft::models
