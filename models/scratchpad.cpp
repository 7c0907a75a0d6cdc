#include "models/scratchpad.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "models/payload_copy.h"
#include "models/timing_extension.h"
#include "models/yaml_config.h"

namespace tlmcraft::models {

namespace {
std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}
}  // namespace

void ScratchpadConfig::validate() const {
  const std::string p = "scratchpad '" + name + "': ";
  if (size_bytes == 0) throw ConfigError(p + "size_bytes must be greater than zero");
  if (word_bytes == 0) throw ConfigError(p + "word_bytes must be greater than zero");
  if (banks == 0) throw ConfigError(p + "banks must be at least 1");
  if (ports_per_bank == 0) throw ConfigError(p + "ports_per_bank must be at least 1");
  if (clock_period == sc_core::SC_ZERO_TIME) throw ConfigError(p + "clock period must be greater than zero");
}

ScratchpadConfig ScratchpadConfig::from_yaml(const YAML::Node& node, const std::string& where) {
  YamlMap m(node, where);
  ScratchpadConfig c;
  c.name = m.str("name", c.name);
  c.size_bytes = m.u64("size_bytes");
  c.word_bytes = m.u64("word_bytes", c.word_bytes);
  const uint64_t banks = m.u64("banks", c.banks), ports = m.u64("ports_per_bank", c.ports_per_bank);
  if (banks > UINT32_MAX) throw ConfigError(m.at("banks") + ": too large");
  if (ports > UINT32_MAX) throw ConfigError(m.at("ports_per_bank") + ": too large");
  c.banks = static_cast<uint32_t>(banks);
  c.ports_per_bank = static_cast<uint32_t>(ports);
  c.read_latency = m.u64("read_latency", c.read_latency);
  c.write_latency = m.u64("write_latency", c.write_latency);
  c.clock_period = m.clock_period(c.clock_period);
  return finish_config(m, c, where);
}

nlohmann::json ScratchpadConfig::to_json() const {
  return {{"name", name},
          {"size_bytes", size_bytes},
          {"word_bytes", word_bytes},
          {"banks", banks},
          {"ports_per_bank", ports_per_bank},
          {"read_latency", read_latency},
          {"write_latency", write_latency},
          {"clock_period_ps", picoseconds(clock_period)}};
}

Scratchpad::Scratchpad(sc_core::sc_module_name name, const ScratchpadConfig& config)
    : sc_core::sc_module(name), socket("socket"), cfg_(config), clock_(config.clock_period) {
  cfg_.validate();
  mem_.assign(cfg_.size_bytes, 0);
  booked_.resize(cfg_.banks);
  socket.register_b_transport(this, &Scratchpad::b_transport);
  socket.register_transport_dbg(this, &Scratchpad::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &Scratchpad::get_direct_mem_ptr);
}

void Scratchpad::check_range(uint64_t addr, uint64_t bytes, const char* what) const {
  if (addr > cfg_.size_bytes || bytes > cfg_.size_bytes - addr)
    throw std::out_of_range("scratchpad '" + cfg_.name + "': " + what + " of " + std::to_string(bytes) +
                            " bytes at " + hex(addr) + " is outside [0, " + hex(cfg_.size_bytes) + ")");
}

uint64_t Scratchpad::reserve(uint64_t addr, uint64_t bytes, uint64_t cycle, bool write) {
  return book(addr, bytes, cycle, write).start;
}

BankReservation Scratchpad::book(uint64_t addr, uint64_t bytes, uint64_t cycle, bool write) {
  check_range(addr, bytes, write ? "write" : "read");
  const uint64_t latency = write ? cfg_.write_latency : cfg_.read_latency;
  if (bytes == 0) return {cycle, 0, cycle};

  // Words of the access per bank: word w is in bank w % banks.
  const uint64_t first_word = addr / cfg_.word_bytes;
  const uint64_t words = (addr + bytes - 1) / cfg_.word_bytes - first_word + 1;
  const uint64_t B = cfg_.banks, P = cfg_.ports_per_bank;
  struct Need { uint32_t bank; uint64_t words; };
  std::vector<Need> needs;
  const uint64_t touched = std::min<uint64_t>(words, B);
  needs.reserve(touched);
  for (uint64_t k = 0; k < touched; ++k) {
    // The k-th bank after the first word's bank gets every B-th word from offset k.
    const uint64_t bank = (first_word + k) % B;
    needs.push_back({static_cast<uint32_t>(bank), words / B + (k < words % B ? 1 : 0)});
  }
  // A bank with n words occupies ceil(n / P) consecutive cycles, using min(P, rest) ports each.
  auto fits = [&](uint64_t c) {
    for (const Need& n : needs) {
      const auto& used = booked_[n.bank];
      uint64_t left = n.words;
      for (uint64_t i = 0; left > 0; ++i) {
        const uint64_t take = std::min(P, left);
        const auto it = used.find(c + i);
        if (it != used.end() && it->second + take > P) return false;
        left -= take;
      }
    }
    return true;
  };
  uint64_t start = cycle;
  while (!fits(start)) ++start;  // terminates: only finitely many cycles are booked

  uint64_t occupancy = 0;
  for (const Need& n : needs) {
    auto& used = booked_[n.bank];
    uint64_t left = n.words, i = 0;
    for (; left > 0; ++i) {
      const uint64_t take = std::min(P, left);
      used[start + i] += static_cast<uint32_t>(take);
      left -= take;
    }
    occupancy = std::max(occupancy, i);
  }

  if (write) {
    ++stats_.writes;
    stats_.bytes_written += bytes;
  } else {
    ++stats_.reads;
    stats_.bytes_read += bytes;
  }
  if (start > cycle) {
    ++stats_.conflicts;
    stats_.conflict_stall_cycles += start - cycle;
  }
  return {start, occupancy, start + occupancy - 1 + latency};
}

void Scratchpad::prune(uint64_t horizon) {
  for (auto& used : booked_) used.erase(used.begin(), used.lower_bound(horizon));
}

void Scratchpad::read(uint64_t addr, void* dst, uint64_t bytes) const {
  check_range(addr, bytes, "read");
  std::memcpy(dst, mem_.data() + addr, bytes);
}

void Scratchpad::write(uint64_t addr, const void* src, uint64_t bytes) {
  check_range(addr, bytes, "write");
  std::memcpy(mem_.data() + addr, src, bytes);
}

void Scratchpad::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t addr = trans.get_address();
  const uint64_t len = trans.get_data_length();
  if (addr > cfg_.size_bytes || len > cfg_.size_bytes - addr) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const tlm::tlm_response_status shape = check_payload_shape(trans);
  if (shape != tlm::TLM_OK_RESPONSE) {
    trans.set_response_status(shape);
    return;
  }
  const bool is_write = trans.is_write();
  if (trans.get_command() == tlm::TLM_IGNORE_COMMAND) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const uint64_t arrival = clock_.to_cycles_ceil(arrival_time(trans, delay));
  const BankReservation r = book(addr, len, arrival, is_write);
  if (is_write)
    copy_enabled(mem_.data() + addr, trans.get_data_ptr(), len, trans.get_byte_enable_ptr(),
                 trans.get_byte_enable_length(), 0);
  else
    copy_enabled(trans.get_data_ptr(), mem_.data() + addr, len, trans.get_byte_enable_ptr(),
                 trans.get_byte_enable_length(), 0);
  annotate_completion(trans, delay, clock_.to_time(r.done));
  trans.set_dmi_allowed(true);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int Scratchpad::transport_dbg(tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  if (addr >= cfg_.size_bytes) return 0;
  const uint64_t n = std::min<uint64_t>(trans.get_data_length(), cfg_.size_bytes - addr);
  if (trans.is_write())
    std::memcpy(mem_.data() + addr, trans.get_data_ptr(), n);
  else if (trans.is_read())
    std::memcpy(trans.get_data_ptr(), mem_.data() + addr, n);
  else
    return 0;
  return static_cast<unsigned int>(n);
}

bool Scratchpad::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  dmi.set_start_address(0);
  dmi.set_end_address(cfg_.size_bytes - 1);
  if (trans.get_address() >= cfg_.size_bytes) {
    dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
    return false;
  }
  dmi.set_dmi_ptr(mem_.data());
  dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
  dmi.set_read_latency(clock_.to_time(cfg_.read_latency));
  dmi.set_write_latency(clock_.to_time(cfg_.write_latency));
  return true;
}

nlohmann::json Scratchpad::stats() const {
  return {{"name", cfg_.name},
          {"accesses", stats_.reads + stats_.writes},
          {"reads", stats_.reads},
          {"writes", stats_.writes},
          {"bytes_read", stats_.bytes_read},
          {"bytes_written", stats_.bytes_written},
          {"conflicts", stats_.conflicts},
          {"conflict_stall_cycles", stats_.conflict_stall_cycles}};
}

void Scratchpad::reset_stats() { stats_ = Stats{}; }

}  // namespace tlmcraft::models
