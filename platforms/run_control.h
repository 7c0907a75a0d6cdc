// What every platform's run loop shares: the limits (instructions, cycles, host time)
// turned into a StopReason and a message worded the same everywhere, the SystemC quantum
// synchronisation, and the per-source-line profile.
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <systemc>

#include "models/sim_context.h"
#include "platforms/platform.h"

namespace tlmcraft {

// "exceeded max instructions limit (N) at WHERE", "exceeded max cycles limit (N) at WHERE",
// "exceeded wall-clock limit (S s) at WHERE".
std::string limit_message(StopReason why, const RunLimits& limits, const std::string& where);

class RunLimiter {
 public:
  explicit RunLimiter(const RunLimits& limits);  // starts the host clock

  const RunLimits& limits() const { return limits_; }
  bool instructions_reached(uint64_t executed) const { return executed >= limits_.max_instructions; }
  bool cycles_exceeded(uint64_t cycle) const { return cycle > limits_.max_cycles; }
  // Reads the host clock on every 65,536th `count` only: cheap, and no count depends on it.
  bool wall_exceeded(uint64_t count) const {
    return (count & 0xFFFF) == 0 && limits_.wall_seconds > 0 && host_seconds() > limits_.wall_seconds;
  }
  double host_seconds() const;
  // Sets r.stop and r.message (limit_message).
  void stop(RunResult& r, StopReason why, const std::string& where) const;

 private:
  RunLimits limits_;
  std::chrono::steady_clock::time_point start_;
};

// Keeps SystemC time near the model's: waits once per `quantum` model cycles, never per
// cycle. Counts never depend on the quantum. Model cycle 0 is the SystemC time at
// construction (base()).
class QuantumSync {
 public:
  QuantumSync(double clock_ns, uint64_t quantum);
  uint64_t base() const { return base_; }
  void at(uint64_t cycle) {
    if (cycle - synced_ < quantum_) return;
    synced_ = cycle;
    sc_core::wait(clock_.delay_until(base_ + cycle));
  }
  // Lets SystemC time reach the end of the run.
  void finish(uint64_t cycle) { sc_core::wait(clock_.delay_until(base_ + cycle)); }
  const models::Clock& clock() const { return clock_; }

 private:
  models::Clock clock_;
  uint64_t base_, quantum_, synced_ = 0;
};

// Executions and cycles per source line, folded from whatever a platform counts per
// instruction address; sorted hottest first (ties by line) for RunResult::lines.
class LineProfile {
 public:
  void add(uint32_t line, uint64_t executions, uint64_t cycles) {
    LineStats& l = lines_[line];
    l.line = line;
    l.executions += executions;
    l.cycles += cycles;
  }
  std::vector<LineStats> sorted() const;

 private:
  std::map<uint32_t, LineStats> lines_;
};

// A kernel source line without its indentation or trailing blanks ("" outside the text).
std::string source_line_text(const std::vector<std::string>& lines, uint32_t line);

}  // namespace tlmcraft
