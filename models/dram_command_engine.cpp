#include "models/dram_command_engine.h"

#include <algorithm>

namespace tlmcraft::models {

DramCommandEngine::DramCommandEngine(const DramCommandConfig& cfg) : cfg_(cfg), map_(cfg_.org) {
  cfg_.validate();
  for (uint32_t c = 0; c < cfg_.org.channels; ++c) channels_.emplace_back(cfg_);
}

void DramCommandEngine::set_observer(DramObserver* observer) {
  observer_ = observer;
  for (uint32_t c = 0; c < channels_.size(); ++c) channels_[c].set_observer(observer, c);
}

std::vector<uint64_t> DramCommandEngine::requests_for(uint64_t addr, uint64_t bytes) const {
  const uint64_t g = cfg_.org.request_bytes();
  std::vector<uint64_t> out;
  for (uint64_t a = addr / g * g; a < addr + bytes; a += g) out.push_back(a);
  return out;
}

void DramCommandEngine::offer(const std::vector<uint64_t>& requests, bool write, size_t& offered, uint64_t first_id) {
  while (offered < requests.size()) {
    DramRequest r;
    r.id = first_id + offered;
    r.addr = requests[offered];
    r.at = map_.decode(r.addr);
    r.write = write;
    if (!channels_[r.at.channel].accept(r, time_)) break;
    ++offered;
  }
}

void DramCommandEngine::step(uint64_t first_id) {
  // The controllers' clock during the step at cycle t is t + 1.
  for (uint32_t c = 0; c < channels_.size(); ++c) {
    uint64_t id = 0;
    if (!channels_[c].tick(time_ + 1, id)) continue;
    if (observer_) observer_->returned(c, id, time_);
    if (id >= first_id) {
      ++batch_done_;
      batch_last_ = time_;
    }
  }
  ++time_;
  ++busy_cycles_;
}

void DramCommandEngine::catch_up(uint64_t cycle) {
  // Idle steps only matter for buffered writes; with none left the clock just jumps.
  while (time_ < cycle) {
    bool busy = false;
    for (const DramChannel& ch : channels_) busy = busy || ch.busy();
    if (!busy) {
      time_ = cycle;
      break;
    }
    step(next_id_);
  }
}

bool DramCommandEngine::busy() const {
  for (const DramChannel& ch : channels_)
    if (ch.busy()) return true;
  return false;
}

uint64_t DramCommandEngine::write_data_end() const {
  uint64_t end = 0;
  for (const DramChannel& ch : channels_) end = std::max(end, ch.write_data_end());
  return end;
}

bool DramCommandEngine::drain(uint64_t max_cycles) {
  for (uint64_t n = 0; n < max_cycles; ++n) {
    if (!busy()) return true;
    step(next_id_);
  }
  return false;
}

uint64_t DramCommandEngine::read(const std::vector<uint64_t>& requests, uint64_t start) {
  catch_up(start);
  ++batches_;
  const uint64_t first = next_id_;
  next_id_ += requests.size();
  if (observer_) observer_->batch(first, requests.size(), false, time_);
  batch_done_ = 0;
  batch_last_ = start;
  size_t offered = 0;
  while (batch_done_ < requests.size()) {
    offer(requests, false, offered, first);
    step(first);
  }
  return std::max(start, batch_last_);
}

uint64_t DramCommandEngine::write(const std::vector<uint64_t>& requests, uint64_t start) {
  catch_up(start);
  ++batches_;
  const uint64_t first = next_id_;
  next_id_ += requests.size();
  if (observer_) observer_->batch(first, requests.size(), true, time_);
  size_t offered = 0;
  offer(requests, true, offered, first);
  uint64_t accepted = start;  // all accepted at once: no cycle passes
  while (offered < requests.size()) {
    step(first);
    accepted = time_;  // offered again before the step at this cycle
    offer(requests, true, offered, first);
  }
  return std::max(start, accepted);
}

nlohmann::json DramCommandEngine::stats() const {
  DramChannelStats s;
  nlohmann::json per = nlohmann::json::array();
  for (const DramChannel& ch : channels_) {
    const auto& c = ch.stats();
    s.reads += c.reads, s.writes += c.writes, s.forwarded += c.forwarded, s.refused += c.refused;
    s.row_hits += c.row_hits, s.row_misses += c.row_misses, s.row_conflicts += c.row_conflicts;
    s.acts += c.acts, s.pres += c.pres;
    per.push_back(c.reads + c.writes);
  }
  return {{"name", cfg_.name},        {"batches", batches_},         {"stepped_cycles", busy_cycles_},
          {"reads", s.reads},         {"writes", s.writes},          {"forwarded_reads", s.forwarded},
          {"refusals", s.refused},    {"row_hits", s.row_hits},      {"row_misses", s.row_misses},
          {"row_conflicts", s.row_conflicts}, {"activates", s.acts}, {"precharges", s.pres},
          {"requests_per_channel", per}};
}

}  // namespace tlmcraft::models
