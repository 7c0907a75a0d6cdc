#include "timing.h"

#include <algorithm>

#include "platforms/platform.h"

namespace simd_accel {

TimingModel::TimingModel(const tlmcraft::isa::IsaSpec& spec, const SimdConfig& config) : spec_(spec) {
  for (const auto& ins : spec.instructions()) {
    const auto it = config.latency.find(ins.latency_class);
    const int64_t cycles = it != config.latency.end() ? int64_t(it->second) : spec.default_cycles(ins.latency_class);
    if (cycles <= 0)
      throw tlmcraft::InputError("simd_accel: latency class '" + ins.latency_class + "' of " + ins.mnemonic +
                                 " has no cycles: set latency." + ins.latency_class + " in the config or cycles: in " +
                                 spec.file());
    latency_.push_back(uint64_t(cycles));
  }
}

uint64_t TimingModel::latency(const tlmcraft::isa::InstructionSpec& ins) const { return latency_.at(ins.id); }

uint64_t TimingModel::registers_ready(const tlmcraft::isa::Accesses& a, uint64_t slot, uint64_t latency) const {
  uint64_t t = slot;
  for (const auto& r : a.reads) t = std::max(t, ready_[r.reg_class][r.number]);
  for (const auto& r : a.writes) {
    const uint64_t older = ready_[r.reg_class][r.number];
    if (older >= latency) t = std::max(t, older - latency + 1);
  }
  return t;
}

void TimingModel::write_back(const tlmcraft::isa::Accesses& a, uint64_t issue, uint64_t latency) {
  for (const auto& r : a.writes) ready_[r.reg_class][r.number] = issue + latency;
}

uint64_t TimingModel::spad_ready(const Effect& e, uint64_t slot) const {
  using K = Effect::Kind;
  uint64_t t = slot;
  // A DMA_ST reads the scratchpad: every earlier vector store must have landed.
  if (e.kind == K::DmaStore) t = std::max(t, vstore_done_);
  if (e.kind != K::SpadRead && e.kind != K::SpadWrite) return t;
  const uint64_t begin = e.spad_addr, end = e.spad_addr + e.bytes;
  for (const Transfer& x : transfers_) {
    if (x.end <= begin || end <= x.begin) continue;
    // Reads wait for transfers into the scratchpad; writes wait for every overlapping transfer.
    if (x.to_spad || e.kind == K::SpadWrite) t = std::max(t, x.done);
  }
  return t;
}

void TimingModel::dma_started(const Effect& e, uint64_t issue, uint64_t done) {
  // Issue cycles only grow: a transfer complete by this one's issue can delay nothing later.
  transfers_.erase(std::remove_if(transfers_.begin(), transfers_.end(), [&](const Transfer& x) { return x.done <= issue; }),
                   transfers_.end());
  transfers_.push_back({e.kind == Effect::Kind::DmaLoad, e.spad_addr, e.spad_addr + e.bytes, done});
  dma_done_ = std::max(dma_done_, done);
}

uint64_t TimingModel::drained() const {
  uint64_t t = std::max(vstore_done_, dma_done_);
  for (const auto& cls : ready_)
    for (uint64_t r : cls) t = std::max(t, r);
  return t;
}

}  // namespace simd_accel
