// The check that a kernel changed no memory outside its outputs (docs/tasks.md, "What the
// checker defends against"): before a run, guard bytes around every output are poisoned
// and every byte of every memory that is neither an output nor the layout's scratch
// (tasks::ScratchRegion) is copied; after the run each such byte must be unchanged.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platforms/platform.h"
#include "tasks/layout.h"

namespace tlmcraft {

// Bytes poisoned on each side of an output (where no tensor or scratch lies), so that a
// write just past an output is caught even when it writes the zero that was there.
constexpr uint64_t kGuardBytes = 64;
constexpr uint8_t kGuardByte = 0xA5;

// The changes found in one memory: the byte range from the first to the last changed
// byte, how many bytes changed, what the first changed byte belongs to, and the 16
// bytes from the 4-byte word holding the first change, before and after the run.
struct OutsideWrite {
  std::string memory;
  uint64_t unit = 1;                // bytes per address step of the memory
  uint64_t first = 0, last = 0;     // byte offsets, inclusive
  uint64_t changed_bytes = 0;
  std::string where;                // "input 'x'", "guard after output 'y'", "unused memory"
  uint64_t words_at = 0;            // byte offset of `before` / `after`
  std::vector<uint8_t> before, after;

  nlohmann::json to_json() const;
  // "hbm: 1 byte changed outside the outputs in [0x4000, 0x4000] (guard after output 'y');
  //  first words at 0x4000: a5a5a5a5 -> a5a5a500 ..."
  std::string describe() const;
};

class MemoryGuard {
 public:
  // Call after the inputs and the output poison are written: writes the guard bytes and
  // copies every protected byte. Throws std::runtime_error if a tensor lies outside its
  // memory (a layout bug).
  MemoryGuard(Platform& platform, const tasks::PlatformLayout& layout);
  // The memories changed outside the outputs and scratch since construction (empty: none).
  std::vector<OutsideWrite> changes(const Platform& platform) const;

 private:
  struct Interval {
    uint64_t begin, end;  // byte offsets [begin, end)
    std::string what;
  };
  struct Snapshot {
    std::string memory;
    uint64_t unit = 1, bytes = 0;
    std::vector<Interval> protected_ranges;  // sorted, disjoint: neither output nor scratch
    std::vector<Interval> labels;            // tensors and guards, to name a changed byte
    // Copies of the protected chunks that held a non-zero byte, by byte offset; every
    // byte in none was zero.
    std::map<uint64_t, std::vector<uint8_t>> extents;
  };
  // Memory is copied and compared in chunks aligned to this size: small enough to reuse
  // heap blocks (no fresh pages per trial), and all-zero chunks need no copy.
  static constexpr uint64_t kChunkBytes = 64 * 1024;
  static bool touches_protected(const Snapshot& s, uint64_t begin, uint64_t end);
  static void for_each_chunk(uint64_t begin, uint64_t end, const std::function<void(uint64_t, uint64_t)>& f);
  void compare_chunk(const Snapshot& s, uint64_t begin, uint64_t end, const std::vector<uint8_t>& after,
                     OutsideWrite& w) const;
  std::string label(const Snapshot& s, uint64_t offset) const;
  std::vector<Snapshot> snapshots_;
};

}  // namespace tlmcraft
