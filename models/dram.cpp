#include "models/dram.h"

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

const char* to_string(RowOutcome o) {
  switch (o) {
    case RowOutcome::Hit: return "hit";
    case RowOutcome::Miss: return "miss";
    case RowOutcome::Conflict: return "conflict";
  }
  return "?";
}

void DramConfig::validate() const {
  const std::string p = "dram '" + name + "': ";
  if (capacity_bytes == 0) throw ConfigError(p + "capacity_bytes must be greater than zero");
  if (channels == 0) throw ConfigError(p + "channels must be at least 1");
  if (banks_per_channel == 0) throw ConfigError(p + "banks_per_channel must be at least 1");
  if (granule_bytes == 0) throw ConfigError(p + "granule_bytes must be greater than zero");
  if (interleave_bytes == 0 || interleave_bytes % granule_bytes != 0)
    throw ConfigError(p + "interleave_bytes (" + std::to_string(interleave_bytes) +
                      ") must be a non-zero multiple of granule_bytes (" + std::to_string(granule_bytes) + ")");
  if (row_bytes == 0 || row_bytes % granule_bytes != 0)
    throw ConfigError(p + "row_bytes (" + std::to_string(row_bytes) + ") must be a non-zero multiple of granule_bytes (" +
                      std::to_string(granule_bytes) + ")");
  if (burst_cycles == 0) throw ConfigError(p + "burst_cycles must be at least 1");
  if (page_bytes == 0) throw ConfigError(p + "page_bytes must be greater than zero");
  if (clock_period == sc_core::SC_ZERO_TIME) throw ConfigError(p + "clock period must be greater than zero");
}

DramConfig DramConfig::from_yaml(const YAML::Node& node, const std::string& where) {
  YamlMap m(node, where);
  DramConfig c;
  c.name = m.str("name", c.name);
  c.capacity_bytes = m.u64("capacity_bytes", c.capacity_bytes);
  c.channels = m.u32("channels", c.channels);
  c.banks_per_channel = m.u32("banks_per_channel", c.banks_per_channel);
  c.row_bytes = m.u64("row_bytes", c.row_bytes);
  c.granule_bytes = m.u64("granule_bytes", c.granule_bytes);
  c.interleave_bytes = m.u64("interleave_bytes", c.granule_bytes);
  c.tRCD = m.u64("tRCD", c.tRCD);
  c.tCL = m.u64("tCL", c.tCL);
  c.tRP = m.u64("tRP", c.tRP);
  c.tRAS = m.u64("tRAS", c.tRAS);
  c.burst_cycles = m.u64("burst_cycles", c.burst_cycles);
  c.queue_depth = m.u32("queue_depth", c.queue_depth);
  c.page_bytes = m.u64("page_bytes", c.page_bytes);
  c.clock_period = m.clock_period(c.clock_period);
  return finish_config(m, c, where);
}

DramConfig DramConfig::from_yaml_file(const std::string& path) { return from_yaml(load_yaml_file(path), path); }

nlohmann::json DramConfig::to_json() const {
  return {{"name", name},
          {"capacity_bytes", capacity_bytes},
          {"channels", channels},
          {"banks_per_channel", banks_per_channel},
          {"row_bytes", row_bytes},
          {"granule_bytes", granule_bytes},
          {"interleave_bytes", interleave_bytes},
          {"tRCD", tRCD},
          {"tCL", tCL},
          {"tRP", tRP},
          {"tRAS", tRAS},
          {"burst_cycles", burst_cycles},
          {"queue_depth", queue_depth},
          {"page_bytes", page_bytes},
          {"clock_period_ps", picoseconds(clock_period)}};
}

Dram::Dram(sc_core::sc_module_name name, const DramConfig& config)
    : sc_core::sc_module(name), socket("socket"), cfg_(config), clock_(config.clock_period) {
  cfg_.validate();
  channels_.resize(cfg_.channels);
  for (auto& ch : channels_) ch.banks.resize(cfg_.banks_per_channel);
  socket.register_b_transport(this, &Dram::b_transport);
  socket.register_transport_dbg(this, &Dram::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &Dram::get_direct_mem_ptr);
}

DramLocation Dram::decode(uint64_t addr) const {
  // Channel interleave on `interleave_bytes` chunks; inside a channel, consecutive rows
  // of its local address space go to consecutive banks (row : bank : column : channel).
  const uint64_t chunk = addr / cfg_.interleave_bytes;
  const uint64_t local = (chunk / cfg_.channels) * cfg_.interleave_bytes + addr % cfg_.interleave_bytes;
  const uint64_t row_index = local / cfg_.row_bytes;
  DramLocation loc;
  loc.channel = static_cast<uint32_t>(chunk % cfg_.channels);
  loc.bank = static_cast<uint32_t>(row_index % cfg_.banks_per_channel);
  loc.row = row_index / cfg_.banks_per_channel;
  loc.column = local % cfg_.row_bytes;
  return loc;
}

DramAccessTiming Dram::access(uint64_t addr, uint64_t cycle, bool write) {
  check_range(addr, 1, write ? "write" : "read");
  DramAccessTiming t;
  t.where = decode(addr);
  t.arrival = cycle;
  Channel& ch = channels_[t.where.channel];
  Bank& bank = ch.banks[t.where.bank];

  // Queue admission: with the queue full, wait until its oldest request completes.
  t.admitted = cycle;
  if (cfg_.queue_depth != 0 && ch.in_queue.size() >= cfg_.queue_depth) {
    const uint64_t oldest_done = ch.in_queue.front();
    ch.in_queue.pop_front();
    if (oldest_done > cycle) {
      t.admitted = oldest_done;
      ++stats_.queue_full_waits;
      stats_.queue_stall_cycles += oldest_done - cycle;
    }
  }
  const uint64_t a = t.admitted;

  // Earliest column command by row-buffer state.
  uint64_t col_min = 0;
  if (bank.open && bank.row == t.where.row) {
    t.outcome = RowOutcome::Hit;
    col_min = std::max(a, bank.col_ready);
  } else {
    uint64_t act = 0;
    if (!bank.open) {
      t.outcome = RowOutcome::Miss;
      act = std::max(a, bank.pre_ready);
    } else {
      t.outcome = RowOutcome::Conflict;
      act = std::max(a, bank.pre_ready) + cfg_.tRP;
    }
    bank.open = true;
    bank.row = t.where.row;
    bank.act = act;
    bank.col_ready = act + cfg_.tRCD;
    col_min = bank.col_ready;
  }
  // Bursts serialise on the channel's data bus; the column command is issued tCL before
  // the bus slot it gets.
  t.data = std::max(col_min + cfg_.tCL, ch.bus_free);
  t.done = t.data + cfg_.burst_cycles;
  const uint64_t col = t.data - cfg_.tCL;
  bank.pre_ready = std::max(col + 1, cfg_.tRAS ? bank.act + cfg_.tRAS : 0);
  ch.bus_free = t.done;
  ch.busy_cycles += cfg_.burst_cycles;
  ++ch.accesses;
  if (cfg_.queue_depth != 0) ch.in_queue.push_back(t.done);

  ++stats_.accesses;
  switch (t.outcome) {
    case RowOutcome::Hit: ++stats_.row_hits; break;
    case RowOutcome::Miss: ++stats_.row_misses; break;
    case RowOutcome::Conflict: ++stats_.row_conflicts; break;
  }
  stats_.first_arrival = std::min(stats_.first_arrival, cycle);
  stats_.last_done = std::max(stats_.last_done, t.done);
  return t;
}

uint64_t Dram::transfer(uint64_t addr, uint64_t bytes, uint64_t cycle, bool write) {
  check_range(addr, bytes, write ? "write" : "read");
  uint64_t done = cycle;
  if (bytes > 0) {
    const uint64_t g = cfg_.granule_bytes;
    for (uint64_t a = addr / g * g; a < addr + bytes; a += g) done = std::max(done, access(a, cycle, write).done);
  }
  ++stats_.transactions;
  if (write) {
    ++stats_.writes;
    stats_.bytes_written += bytes;
  } else {
    ++stats_.reads;
    stats_.bytes_read += bytes;
  }
  return done;
}

void Dram::check_range(uint64_t addr, uint64_t bytes, const char* what) const {
  if (addr >= cfg_.capacity_bytes || bytes > cfg_.capacity_bytes - addr)
    throw std::out_of_range("dram '" + cfg_.name + "': " + what + " of " + std::to_string(bytes) + " bytes at " +
                            hex(addr) + " is outside [0, " + hex(cfg_.capacity_bytes) + ")");
}

uint8_t* Dram::page_for_write(uint64_t page) {
  auto& p = pages_[page];
  if (!p) p.reset(new uint8_t[cfg_.page_bytes]());  // zero-filled: unwritten memory reads as 0
  return p.get();
}

void Dram::store(uint64_t addr, const uint8_t* src, uint64_t bytes, const unsigned char* be, unsigned be_len) {
  uint64_t done = 0;
  while (done < bytes) {
    const uint64_t a = addr + done;
    const uint64_t off = a % cfg_.page_bytes;
    const uint64_t n = std::min(bytes - done, cfg_.page_bytes - off);
    copy_enabled(page_for_write(a / cfg_.page_bytes) + off, src + done, n, be, be_len, done);
    done += n;
  }
}

void Dram::load(uint64_t addr, uint8_t* dst, uint64_t bytes, const unsigned char* be, unsigned be_len) const {
  static const std::vector<uint8_t> zeros(1 << 16, 0);
  uint64_t done = 0;
  while (done < bytes) {
    const uint64_t a = addr + done;
    const uint64_t off = a % cfg_.page_bytes;
    uint64_t n = std::min(bytes - done, cfg_.page_bytes - off);
    const auto it = pages_.find(a / cfg_.page_bytes);
    if (it != pages_.end()) {
      copy_enabled(dst + done, it->second.get() + off, n, be, be_len, done);
    } else {
      n = std::min<uint64_t>(n, zeros.size());
      copy_enabled(dst + done, zeros.data(), n, be, be_len, done);
    }
    done += n;
  }
}

std::vector<uint64_t> Dram::allocated_page_offsets() const {
  std::vector<uint64_t> out;
  out.reserve(pages_.size());
  for (const auto& [page, bytes] : pages_) out.push_back(page * cfg_.page_bytes);
  std::sort(out.begin(), out.end());
  return out;
}

void Dram::read_bytes(uint64_t addr, void* dst, uint64_t bytes) const {
  check_range(addr, bytes, "read");
  load(addr, static_cast<uint8_t*>(dst), bytes, nullptr, 0);
}

void Dram::write_bytes(uint64_t addr, const void* src, uint64_t bytes) {
  check_range(addr, bytes, "write");
  store(addr, static_cast<const uint8_t*>(src), bytes, nullptr, 0);
}

void Dram::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t addr = trans.get_address();
  const uint64_t len = trans.get_data_length();
  if (addr >= cfg_.capacity_bytes || len > cfg_.capacity_bytes - addr) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const tlm::tlm_response_status shape = check_payload_shape(trans);
  if (shape != tlm::TLM_OK_RESPONSE) {
    trans.set_response_status(shape);
    return;
  }
  if (trans.get_command() == tlm::TLM_IGNORE_COMMAND) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const bool is_write = trans.is_write();
  const uint64_t arrival = clock_.to_cycles_ceil(arrival_time(trans, delay));
  const uint64_t done = transfer(addr, len, arrival, is_write);
  if (is_write)
    store(addr, trans.get_data_ptr(), len, trans.get_byte_enable_ptr(), trans.get_byte_enable_length());
  else
    load(addr, trans.get_data_ptr(), len, trans.get_byte_enable_ptr(), trans.get_byte_enable_length());
  annotate_completion(trans, delay, clock_.to_time(done));
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int Dram::transport_dbg(tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  if (addr >= cfg_.capacity_bytes) return 0;
  const uint64_t n = std::min<uint64_t>(trans.get_data_length(), cfg_.capacity_bytes - addr);
  if (trans.is_write())
    store(addr, trans.get_data_ptr(), n, nullptr, 0);
  else if (trans.is_read())
    load(addr, trans.get_data_ptr(), n, nullptr, 0);
  else
    return 0;
  return static_cast<unsigned int>(n);
}

bool Dram::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  // No DMI: every access must be timed by the bank/bus model.
  dmi.set_start_address(0);
  dmi.set_end_address(cfg_.capacity_bytes - 1);
  dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
  return false;
}

nlohmann::json Dram::stats() const {
  nlohmann::json j;
  j["name"] = cfg_.name;
  j["transactions"] = stats_.transactions;
  j["reads"] = stats_.reads;
  j["writes"] = stats_.writes;
  j["bytes_read"] = stats_.bytes_read;
  j["bytes_written"] = stats_.bytes_written;
  j["accesses"] = stats_.accesses;
  j["row_hits"] = stats_.row_hits;
  j["row_misses"] = stats_.row_misses;
  j["row_conflicts"] = stats_.row_conflicts;
  j["queue_full_waits"] = stats_.queue_full_waits;
  j["queue_stall_cycles"] = stats_.queue_stall_cycles;
  nlohmann::json busy = nlohmann::json::array();
  for (const auto& ch : channels_) busy.push_back(ch.busy_cycles);
  j["channel_busy_cycles"] = busy;
  const bool any = stats_.accesses > 0;
  const uint64_t first = any ? stats_.first_arrival : 0, last = any ? stats_.last_done : 0;
  j["active_window"] = {{"first_arrival_cycle", first}, {"last_done_cycle", last}};
  const uint64_t window = last - first;
  const double bpc = window ? double(stats_.bytes_read + stats_.bytes_written) / double(window) : 0.0;
  j["achieved_bytes_per_cycle"] = bpc;
  // bytes/cycle divided by the period in ns = bytes/ns = GB/s.
  j["achieved_gbps"] = bpc / (double(cfg_.clock_period.value()) / double(sc_core::sc_time(1, sc_core::SC_NS).value()));
  return j;
}

void Dram::reset_stats() {
  stats_ = Stats{};
  for (auto& ch : channels_) ch.busy_cycles = ch.accesses = 0;
}

}  // namespace tlmcraft::models
