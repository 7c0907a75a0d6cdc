// PLENA timing: the serial (reference simulator) and pipelined (architect's) models of
// docs/platforms/plena.md, computed arithmetically per instruction on top of the generic
// models::PipelinedUnit and models::Scoreboard. The controller asks for the earliest
// issue cycle, adds what only it knows (bank ports, DMA completion), then commits.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "models/timing.h"
#include "platforms/plena/plena_config.h"

namespace tlmcraft::plena {

// Scoreboard resources: registers and implicit state.
enum Resource : uint8_t {
  kGp0 = 0, kFp0 = 16, kA0 = 24, kScale = 32, kStride = 33, kVMask = 34, kAcc = 35, kNumResources = 36
};

enum Unit : uint8_t { kScalarInt, kScalarFp, kVector, kMatrix, kControl, kPrefetch, kStore, kNumUnits };
const char* unit_name(Unit u);

// How an instruction uses the systolic accumulator: accumulations pipeline behind each
// other (no RAW/WAW among them); a write-out waits for the last accumulation and the
// next accumulation waits for the write-out.
enum class AccUse : uint8_t { None, Accumulate, Drain };

// What the timing model needs to know about one static instruction (precomputed at load).
struct StaticInfo {
  Unit unit = kControl;
  AccUse acc = AccUse::None;
  uint32_t latency = 1;
  uint32_t ii = 1;
  uint8_t nreads = 0, nwrites = 0;
  std::array<uint8_t, 8> reads{}, writes{};
};

// A memory range touched by an instruction: on-chip in elements, HBM in bytes.
enum MemId : uint8_t { kMsram, kVram, kIntMem, kFpMem, kHbm };
struct Range {
  MemId mem;
  uint64_t lo, hi;  // [lo, hi)
  bool write;
};

class TimingModel {
 public:
  explicit TimingModel(const PlenaConfig& cfg);

  bool serial() const { return cfg_.mode == TimingMode::Serial; }

  // Earliest cycle an instruction may issue: in-order slot, register and memory hazards,
  // and a free unit (pipelined); the end of the previous instruction (serial).
  uint64_t earliest_issue(const StaticInfo& si, const std::vector<Range>& ranges) const;
  // Records an instruction issued at `issue` and complete at `done` (for H_* the DMA
  // completion; a store's source range counts as read until then). Returns the stall:
  // cycles between the in-order slot and the issue.
  uint64_t commit(const StaticInfo& si, const std::vector<Range>& ranges, uint64_t issue, uint64_t done);

  uint64_t frontier() const { return frontier_; }  // max completion so far = total cycles
  const models::PipelinedUnit& unit(Unit u) const { return units_[u]; }
  uint64_t stall_cycles(Unit u) const { return stalls_[u]; }

 private:
  const PlenaConfig& cfg_;
  uint64_t next_slot_ = 0;  // pipelined: in-order issue slot; serial: end of the previous instruction
  uint64_t frontier_ = 0;
  uint64_t committed_ = 0;
  uint64_t acc_ready_ = 0, acc_cleared_ = 0;
  models::Scoreboard board_;
  std::vector<models::PipelinedUnit> units_;
  std::array<uint64_t, kNumUnits> stalls_{};
};

}  // namespace tlmcraft::plena
