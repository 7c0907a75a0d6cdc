#include "platforms/plena/hbm_timing.h"

#include <algorithm>
#include <filesystem>

#include "common/data_dir.h"
#include "models/yaml_config.h"
#include "platforms/platform.h"

namespace tlmcraft::plena {
namespace sem = tlmcraft::isa::plena;

namespace {
constexpr uint64_t kBlock = 64;  // bytes per HBM block (one 64-byte memory access)
}

models::DramCommandConfig hbm_timing_config(const PlenaConfig& c) {
  const std::string path = data::data_path("models/presets/" + c.hbm_timing_preset + ".yaml");
  if (!std::filesystem::exists(path))
    throw InputError("memory.hbm.timing_preset '" + c.hbm_timing_preset + "': no such preset (" + path + ")");
  try {
    return models::DramCommandConfig::from_yaml_file(path);
  } catch (const std::exception& e) {
    throw InputError(std::string("HBM timing configuration: ") + e.what());
  }
}

HbmTimer::HbmTimer(const PlenaConfig& cfg, const models::DramCommandConfig& engine) : cfg_(cfg), engine_(engine) {}

std::vector<HbmTimer::RowBlocks> HbmTimer::blocks(const sem::HbmTransfer& t) const {
  const bool mx = cfg_.hbm_formats[t.precision] == HbmFormat::MXFP8;
  const uint32_t eb = mx ? 1 : 2;
  std::vector<RowBlocks> rows(t.rows);
  for (uint32_t r = 0; r < t.rows; ++r) {
    const uint64_t first = t.byte_address(r, 0, eb), end = first + uint64_t(t.row_elements) * eb;
    for (uint64_t b = first / kBlock * kBlock; b < end; b += kBlock) rows[r].data.push_back(b);
    if (mx) {
      rows[r].has_scale = true;
      rows[r].scale = t.mx_scale_address(t.element_offset(r)) / kBlock * kBlock;
    }
  }
  return rows;
}

uint64_t HbmTimer::read_blocks(const std::vector<uint64_t>& blocks, uint64_t start) {
  std::vector<uint64_t> req;
  for (uint64_t b : blocks)
    for (uint64_t a : engine_.requests_for(b, kBlock)) req.push_back(a);
  return engine_.read(req, start);
}

uint64_t HbmTimer::write_blocks(const std::vector<uint64_t>& blocks, uint64_t start) {
  std::vector<uint64_t> req;
  for (uint64_t b : blocks)
    for (uint64_t a : engine_.requests_for(b, kBlock)) req.push_back(a);
  return engine_.write(req, start);
}

uint64_t HbmTimer::prefetch(const sem::HbmTransfer& t, uint64_t start) {
  std::vector<uint64_t> all;
  for (const RowBlocks& r : blocks(t)) {
    all.insert(all.end(), r.data.begin(), r.data.end());
    if (r.has_scale) all.push_back(r.scale);
  }
  return read_blocks(all, start);
}

uint64_t HbmTimer::store(const sem::HbmTransfer& t, uint64_t start) {
  uint64_t now = start;
  for (const RowBlocks& r : blocks(t)) {
    for (uint64_t b : r.data) now = write_blocks({b}, now);
    if (r.has_scale) now = write_blocks({r.scale}, read_blocks({r.scale}, now));
  }
  return now;
}

uint64_t HbmTimer::sram_cycles(const sem::HbmTransfer& t, uint32_t bytes_per_cycle) const {
  const uint64_t bytes = t.total_elements() * 2;  // bf16 on chip
  return bytes_per_cycle ? (bytes + bytes_per_cycle - 1) / bytes_per_cycle : 0;
}

HbmTiming HbmTimer::transfer(const sem::HbmTransfer& t, uint64_t issue) {
  const bool to_sram = t.direction == sem::HbmTransfer::Direction::HbmToSram;
  HbmTiming r;
  if (cfg_.mode == TimingMode::Serial) {
    r.accept = issue;
    r.done = to_sram ? prefetch(t, issue) : store(t, issue);
    last_done_ = std::max(last_done_, r.done);
  transferred_ = true;
    return r;
  }
  const DmaConfig& dma = to_sram ? cfg_.prefetch : cfg_.store;
  Queue& q = to_sram ? prefetch_q_ : store_q_;
  r.accept = issue;
  while (!q.done.empty() && q.done.front() <= issue) q.done.pop_front();
  if (q.done.size() >= dma.queue_depth) {
    r.accept = std::max(issue, q.done.front());
    q.done.pop_front();
  }
  const uint64_t start = std::max(r.accept, q.free);
  // The SRAM side streams alongside the HBM side (rows are written as they arrive, read
  // as they are sent) at bytes_per_cycle: a transfer takes at least the SRAM's time.
  const uint64_t sram = sram_cycles(t, dma.bytes_per_cycle);
  r.done = std::max(to_sram ? prefetch(t, start) : store(t, start), start + sram);
  q.free = r.done;
  q.done.push_back(r.done);
  last_done_ = std::max(last_done_, r.done);
  transferred_ = true;
  return r;
}

std::optional<uint64_t> HbmTimer::last_transfer_cycle() {
  if (!transferred_) return std::nullopt;
  // Writes complete on acceptance for the core; in HBM when their data bursts end. Those
  // still buffered issue after the core's last instruction.
  engine_.drain(kDrainLimit);
  return std::max(last_done_, engine_.write_data_end());
}

}  // namespace tlmcraft::plena
