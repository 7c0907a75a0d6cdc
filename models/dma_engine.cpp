#include "models/dma_engine.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <sstream>

#include "models/timing_extension.h"
#include "models/yaml_config.h"

namespace tlmcraft::models {

namespace {
std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

const char* response_text(tlm::tlm_response_status s) {
  switch (s) {
    case tlm::TLM_ADDRESS_ERROR_RESPONSE: return "address error (TLM_ADDRESS_ERROR_RESPONSE: no memory at this address)";
    case tlm::TLM_COMMAND_ERROR_RESPONSE: return "command error (TLM_COMMAND_ERROR_RESPONSE)";
    case tlm::TLM_BURST_ERROR_RESPONSE: return "burst error (TLM_BURST_ERROR_RESPONSE)";
    case tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE: return "byte-enable error (TLM_BYTE_ENABLE_ERROR_RESPONSE)";
    case tlm::TLM_GENERIC_ERROR_RESPONSE: return "generic error (TLM_GENERIC_ERROR_RESPONSE)";
    case tlm::TLM_INCOMPLETE_RESPONSE: return "target did not respond (TLM_INCOMPLETE_RESPONSE)";
    default: return "ok";
  }
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
}  // namespace

void DmaConfig::validate() const {
  const std::string p = "dma '" + name + "': ";
  if (queue_depth == 0) throw ConfigError(p + "queue_depth must be at least 1");
  if (granule_bytes == 0 || granule_bytes > (1u << 30))
    throw ConfigError(p + "granule_bytes must be between 1 and 2^30");
  if (clock_period == sc_core::SC_ZERO_TIME) throw ConfigError(p + "clock period must be greater than zero");
}

DmaConfig DmaConfig::from_yaml(const YAML::Node& node, const std::string& where) {
  YamlMap m(node, where);
  DmaConfig c;
  c.name = m.str("name", c.name);
  c.queue_depth = m.u32("queue_depth", c.queue_depth);
  c.bytes_per_cycle = m.u64("bytes_per_cycle", c.bytes_per_cycle);
  c.max_outstanding = m.u32("max_outstanding", c.max_outstanding);
  c.granule_bytes = m.u64("granule_bytes", c.granule_bytes);
  c.clock_period = m.clock_period(c.clock_period);
  return finish_config(m, c, where);
}

nlohmann::json DmaConfig::to_json() const {
  return {{"name", name},
          {"queue_depth", queue_depth},
          {"bytes_per_cycle", bytes_per_cycle},
          {"max_outstanding", max_outstanding},
          {"granule_bytes", granule_bytes},
          {"clock_period_ps", picoseconds(clock_period)}};
}

DmaEngine::DmaEngine(sc_core::sc_module_name name, const DmaConfig& config)
    : sc_core::sc_module(name), socket("socket"), cfg_(config), clock_(config.clock_period), events_("completions") {
  cfg_.validate();
  SC_METHOD(dispatch);
  sensitive << events_.default_event();
  dont_initialize();
}

std::vector<DmaEngine::Access> DmaEngine::split(const std::vector<DmaSegment>& segs) const {
  std::vector<Access> out;
  uint64_t offset = 0;
  const uint64_t g = cfg_.granule_bytes;
  for (const DmaSegment& s : segs) {
    for (uint64_t r = 0; r < s.rows; ++r) {
      const uint64_t row = s.addr + r * s.row_stride;
      uint64_t done = 0;
      while (done < s.row_bytes) {
        const uint64_t a = row + done;
        const uint64_t n = std::min(s.row_bytes - done, g - a % g);  // stop at the granule boundary
        out.push_back({a, n, offset});
        offset += n;
        done += n;
      }
    }
  }
  return out;
}

bool DmaEngine::run_phase(bool write, const std::vector<Access>& accesses, std::vector<uint8_t>& buffer,
                          uint64_t start, uint64_t& done, std::string& error) {
  const uint64_t B = cfg_.bytes_per_cycle;
  const uint32_t M = cfg_.max_outstanding;
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> in_flight;  // return cycles
  uint64_t sent_bytes = 0, prev_issue = start;
  done = start;

  TimingExtension ext;
  trans_.set_extension(&ext);
  bool ok = true;
  for (const Access& a : accesses) {
    // Injection limit: access k leaves no earlier than start + floor(bytes before k / B).
    uint64_t t = std::max(prev_issue, B ? start + sent_bytes / B : start);
    // At most M accesses in flight: wait for the earliest of them to return.
    if (M && in_flight.size() >= M) {
      t = std::max(t, in_flight.top());
      in_flight.pop();
    }
    prev_issue = t;

    trans_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans_.set_address(a.addr);
    trans_.set_data_ptr(buffer.data() + a.offset);
    trans_.set_data_length(static_cast<unsigned int>(a.bytes));
    trans_.set_streaming_width(static_cast<unsigned int>(a.bytes));
    trans_.set_byte_enable_ptr(nullptr);
    trans_.set_byte_enable_length(0);
    trans_.set_dmi_allowed(false);
    trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    ext.issue = clock_.to_time(t);
    ext.done_set = false;
    sc_core::sc_time delay = clock_.delay_until(t);
    socket->b_transport(trans_, delay);

    // Targets that know the extension report an absolute completion; others annotate.
    const uint64_t ret = ext.done_set ? clock_.to_cycles_ceil(ext.done)
                                      : std::max(t, clock_.to_cycles_ceil(sc_core::sc_time_stamp() + delay));
    done = std::max(done, ret);
    if (trans_.is_response_error()) {
      error = std::string(write ? "write" : "read") + " of " + std::to_string(a.bytes) +
              " bytes at " + hex(a.addr) + " failed: " + response_text(trans_.get_response_status());
      ok = false;
      break;
    }
    in_flight.push(ret);
    sent_bytes += a.bytes;
  }
  trans_.clear_extension(&ext);  // stack object: must not be freed by the payload
  if (ok && B) done = std::max(done, start + ceil_div(sent_bytes, B));
  return ok;
}

DmaCompletion DmaEngine::submit(const DmaDescriptor& d, uint64_t issue_cycle) {
  DmaCompletion c;
  c.id = next_id_++;
  c.issue_cycle = issue_cycle;
  const std::string who = "dma '" + cfg_.name + "': descriptor #" + std::to_string(c.id) +
                          (d.label.empty() ? "" : " (" + d.label + ")");

  // Queue admission: with queue_depth descriptors pending, wait until the oldest completes.
  c.accept_cycle = issue_cycle;
  if (queued_done_.size() >= cfg_.queue_depth) {
    const uint64_t oldest = queued_done_.front();
    queued_done_.pop_front();
    if (oldest > issue_cycle) {
      c.accept_cycle = oldest;
      ++stats_.queue_full_stalls;
      stats_.queue_full_stall_cycles += oldest - issue_cycle;
    }
  }
  c.start_cycle = std::max(c.accept_cycle, engine_free_);
  c.read_done_cycle = c.done_cycle = c.start_cycle;

  auto fail = [&](const std::string& msg) {
    c.ok = false;
    c.error = msg;
    finish(c);
    return c;
  };

  // Transfers still running at this issue cycle (completions are in order). An owner that
  // does not stall on accept_cycle can run ahead of the engine; what each pending transfer
  // booked in the memories stays until the owner catches up, so their number is bounded.
  while (!pending_done_.empty() && pending_done_.front() <= issue_cycle) pending_done_.pop_front();
  if (pending_done_.size() >= kMaxPendingTransfers)
    return fail(who + ": more than " + std::to_string(kMaxPendingTransfers) +
                " transfers are pending (the kernel issues transfers faster than the engine completes them; wait for "
                "earlier transfers, e.g. by using their data, before issuing more)");
  // Completion notifications wait in the event queue until simulated time reaches them:
  // a kernel issuing transfers faster than they complete must not grow it without bound.
  if (notify_ && notifications_pending_ >= kMaxPendingNotifications)
    return fail(who + ": more than " + std::to_string(kMaxPendingNotifications) +
                " transfers are pending completion (the kernel issues transfers faster than the engine completes them)");

  // Reject malformed segments before touching any memory.
  uint64_t src_bytes = 0, dst_bytes = 0;
  for (int side = 0; side < 2; ++side) {
    const auto& segs = side == 0 ? d.src : d.dst;
    uint64_t& total = side == 0 ? src_bytes : dst_bytes;
    for (size_t i = 0; i < segs.size(); ++i) {
      const DmaSegment& s = segs[i];
      // One past the last byte, computed wide so that huge segments cannot wrap.
      const unsigned __int128 end =
          s.rows == 0 ? s.addr
                      : (unsigned __int128)s.addr + (unsigned __int128)(s.rows - 1) * s.row_stride + s.row_bytes;
      const unsigned __int128 size = (unsigned __int128)s.rows * s.row_bytes;
      if (end > (unsigned __int128)std::numeric_limits<uint64_t>::max() ||
          size > (unsigned __int128)std::numeric_limits<uint64_t>::max() - total)
        return fail(who + ": " + (side == 0 ? "source" : "destination") + " segment " + std::to_string(i) +
                    " at " + hex(s.addr) + " is too large or wraps the address space");
      total += s.bytes();
    }
  }
  // Guards the staging buffers against absurd descriptors (a bad kernel must not exhaust memory).
  constexpr uint64_t kMaxDescriptorBytes = 1ull << 32;
  if (src_bytes > kMaxDescriptorBytes || dst_bytes > kMaxDescriptorBytes)
    return fail(who + ": moves " + std::to_string(std::max(src_bytes, dst_bytes)) +
                " bytes, more than the 4 GiB per-descriptor limit");
  if (!d.transform && src_bytes != dst_bytes)
    return fail(who + ": source has " + std::to_string(src_bytes) + " bytes but destination has " +
                std::to_string(dst_bytes) + " (sizes must match without a transform)");

  std::string err;
  std::vector<uint8_t> in(src_bytes);
  const std::vector<Access> reads = split(d.src);
  const bool read_ok = run_phase(false, reads, in, c.start_cycle, c.read_done_cycle, err);
  c.done_cycle = c.read_done_cycle;
  if (!read_ok) return fail(who + ": " + err);
  c.read_accesses = reads.size();
  c.bytes_read = src_bytes;

  std::vector<uint8_t> out;
  if (d.transform) {
    try {
      d.transform(in, out);
    } catch (const std::exception& e) {
      return fail(who + ": transform failed: " + e.what());
    }
    if (out.size() != dst_bytes)
      return fail(who + ": transform produced " + std::to_string(out.size()) + " bytes but the destination has " +
                  std::to_string(dst_bytes));
  } else {
    out.swap(in);
  }

  const std::vector<Access> writes = split(d.dst);
  const bool write_ok = run_phase(true, writes, out, c.read_done_cycle, c.done_cycle, err);
  if (!write_ok) return fail(who + ": " + err);
  c.write_accesses = writes.size();
  c.bytes_written = dst_bytes;
  finish(c);
  return c;
}

void DmaEngine::finish(const DmaCompletion& c) {
  engine_free_ = std::max(engine_free_, c.done_cycle);
  queued_done_.push_back(c.done_cycle);
  if (c.ok && pending_done_.size() < kMaxPendingTransfers) pending_done_.push_back(c.done_cycle);
  ++stats_.descriptors;
  if (!c.ok) ++stats_.errors;
  stats_.bytes_in += c.bytes_read;
  stats_.bytes_out += c.bytes_written;
  stats_.read_accesses += c.read_accesses;
  stats_.write_accesses += c.write_accesses;
  stats_.busy_cycles += c.done_cycle - c.start_cycle;

  // Events can only be scheduled while the kernel can still run; nothing is kept for
  // owners that time transfers themselves (notifications off).
  if (!notify_ || notifications_pending_ >= kMaxPendingNotifications) return;
  const sc_core::sc_status st = sc_core::sc_get_status();
  if (st == sc_core::SC_STOPPED || st == sc_core::SC_END_OF_SIMULATION) return;
  events_.notify(clock_.delay_until(c.done_cycle));
  ++notifications_pending_;
  if (callback_) pending_callbacks_.emplace(c.done_cycle, c);
}

void DmaEngine::dispatch() {
  if (notifications_pending_ > 0) --notifications_pending_;  // one trigger per notification
  const uint64_t now = clock_.to_cycles_floor(sc_core::sc_time_stamp());
  while (!pending_callbacks_.empty() && pending_callbacks_.begin()->first <= now) {
    const DmaCompletion c = pending_callbacks_.begin()->second;
    pending_callbacks_.erase(pending_callbacks_.begin());
    if (callback_) callback_(c);
  }
}

nlohmann::json DmaEngine::stats() const {
  return {{"name", cfg_.name},
          {"descriptors", stats_.descriptors},
          {"errors", stats_.errors},
          {"bytes_in", stats_.bytes_in},
          {"bytes_out", stats_.bytes_out},
          {"read_accesses", stats_.read_accesses},
          {"write_accesses", stats_.write_accesses},
          {"busy_cycles", stats_.busy_cycles},
          {"queue_full_stalls", stats_.queue_full_stalls},
          {"queue_full_stall_cycles", stats_.queue_full_stall_cycles}};
}

void DmaEngine::reset_stats() { stats_ = Stats{}; }

}  // namespace tlmcraft::models
