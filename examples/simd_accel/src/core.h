// The simd core: the scalar control unit (fetch, hardware loops, scalar registers) and the
// vector unit, run by one SC_THREAD that times every instruction arithmetically with the
// TimingModel and synchronises with SystemC only at the end of the program. DMA transfers
// go to the DMA engine, which moves the data at once and returns their exact cycles. With a
// trace recorder, each instruction is a slice on its unit's track and each transfer one on
// the DMA track.
#pragma once
#include <optional>
#include <string>

#include <systemc>

#include "models/dma_engine.h"
#include "models/dram.h"
#include "models/scratchpad.h"
#include "platforms/platform.h"
#include "platforms/run_control.h"
#include "traces/trace_recorder.h"
#include "program_info.h"
#include "semantics.h"
#include "simd_config.h"

namespace simd_accel {

// What an instruction's steps did: the effect the control unit acts on (a DMA, a loop, a
// fault), whether any step wrote the scratchpad, and the earliest issue its interlocks allow.
struct StepsOutcome {
  Effect effect;
  bool spad_write = false;
  uint64_t interlock = 0;
};

class Core : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Core);
  Core(sc_core::sc_module_name name, const SimdConfig& cfg, tlmcraft::models::DmaEngine& dma,
       tlmcraft::models::Scratchpad& spad, tlmcraft::models::Dram& dram);

  // The program, limits and trace recorder (may be null) of the next sc_start(); the
  // result is read after it.
  void prepare(const LoadedProgram* program, const tlmcraft::RunLimits& limits, tlmcraft::traces::TraceRecorder* recorder);
  const tlmcraft::RunResult& result() const { return result_; }

 private:
  void thread();
  void execute();
  // Runs an instruction's steps (one, or a fused instruction's expansion) at issue >= slot.
  StepsOutcome run_steps(const InstructionInfo& info, State& state, const TimingModel& timing, uint64_t slot);
  uint64_t start_dma(const Effect& e, uint64_t issue, TimingModel& timing, std::string& fault);
  void trace_instruction(const InstructionInfo& info, uint32_t pc, uint64_t issue);
  void stop(tlmcraft::StopReason why, const std::string& message);
  void stop_at_limit(tlmcraft::StopReason why, const std::string& where);
  std::string where(uint32_t pc) const;  // "PC 3 (line 4: V_LD v1, s2)"

  const SimdConfig& cfg_;
  tlmcraft::models::DmaEngine& dma_;
  tlmcraft::models::Scratchpad& spad_;
  tlmcraft::models::Dram& dram_;
  const LoadedProgram* program_ = nullptr;
  std::optional<tlmcraft::RunLimiter> limiter_;  // started by thread()
  tlmcraft::RunLimits limits_;
  tlmcraft::traces::TraceRecorder* recorder_ = nullptr;
  std::vector<int> unit_tracks_;  // per IsaSpec unit
  int dma_track_ = -1;
  tlmcraft::RunResult result_;
  bool stopped_ = false;
  uint64_t dma_busy_ = 0;
};

}  // namespace simd_accel
