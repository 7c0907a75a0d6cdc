// Per-tile storage of the AIE-ML array: banked data memory (with the cycles DMA channels
// occupy each bank, so core accesses can stall on them) and the semaphore lock module.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace tlmcraft::aie_ml {

// AIE-ML locks hold 0..63 (AM020 "Lock" in the tile and memory-tile chapters).
constexpr int32_t kLockMax = 63;

class LockBank {
 public:
  explicit LockBank(uint32_t count = 0) : value_(count, 0), waiters_(count) {}
  uint32_t size() const { return static_cast<uint32_t>(value_.size()); }
  int32_t value(uint32_t id) const { return value_[id]; }
  void set(uint32_t id, int32_t v) { value_[id] = v; }
  // Acquire-greater-equal: granted when value >= v, then value -= v. Acquire-equal:
  // granted when value == v, value unchanged. Refusal changes nothing.
  bool try_acquire(uint32_t id, int32_t v, bool equal) {
    if (equal) return value_[id] == v;
    if (value_[id] < v) return false;
    value_[id] -= v;
    return true;
  }
  // Release-add; false when the result leaves 0..63 (the lock is then unchanged).
  bool release(uint32_t id, int32_t v) {
    const int32_t nv = value_[id] + v;
    if (nv < 0 || nv > kLockMax) return false;
    value_[id] = nv;
    return true;
  }
  // Actors (cores / DMA channels) blocked on a lock, woken in arrival order on a release.
  std::vector<int>& waiters(uint32_t id) { return waiters_[id]; }

 private:
  std::vector<int32_t> value_;
  std::vector<std::vector<int>> waiters_;
};

class TileMemory {
 public:
  TileMemory() = default;
  TileMemory(uint32_t bytes, uint32_t banks) : data_(bytes, 0), bank_bytes_(banks ? bytes / banks : bytes), banks_(banks) {}
  uint8_t* data() { return data_.data(); }
  const uint8_t* data() const { return data_.data(); }
  uint32_t size() const { return static_cast<uint32_t>(data_.size()); }
  uint32_t banks() const { return banks_; }
  // Banks are contiguous address ranges (assumption, docs/platforms/aie-ml.md).
  uint32_t bank_of(uint32_t addr) const { return addr / bank_bytes_; }

  // DMA bank use: the cycles a DMA channel reads or writes a bank (one 128-bit word each).
  void reserve_dma(uint64_t cycle, uint32_t bank) { dma_use_.insert(cycle * 64 + bank); }
  bool dma_uses(uint64_t cycle, uint32_t bank) const { return !dma_use_.empty() && dma_use_.count(cycle * 64 + bank); }
  size_t dma_bookings() const { return dma_use_.size(); }
  // Forgets bookings before `cycle` (the core never looks back).
  void prune_before(uint64_t cycle) {
    if (dma_use_.size() < 4096) return;
    for (auto it = dma_use_.begin(); it != dma_use_.end();) it = (*it / 64 < cycle) ? dma_use_.erase(it) : std::next(it);
  }

 private:
  std::vector<uint8_t> data_;
  uint32_t bank_bytes_ = 1;
  uint32_t banks_ = 1;
  std::unordered_set<uint64_t> dma_use_;
};

}  // namespace tlmcraft::aie_ml
