// The PLENA virtual platform as SystemC modules: controller, scratchpads, HBM, router and
// the two DMA engines, wired with TLM-2.0 sockets (docs/platforms/plena.md).
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "isa/plena/semantics.h"
#include "isa/program.h"
#include "models/dma_engine.h"
#include "models/dram.h"
#include "models/router.h"
#include "models/scratchpad.h"
#include "platforms/platform.h"
#include "models/dram_command_config.h"
#include "platforms/plena/plena_actions.h"
#include "platforms/plena/plena_config.h"
#include "platforms/plena/timing_model.h"
#include "traces/trace_recorder.h"

namespace tlmcraft::plena {

// Everything the controller needs about the loaded program.
struct LoadedProgram {
  isa::Program program;
  std::vector<StaticInfo> info;         // per PC
  std::vector<std::string> mnemonic;    // per PC
  std::vector<char> cls;                // per PC: M, V, S, H, C
  std::vector<uint8_t> loop;            // per PC: isa::LoopRole (none, start, end)
  std::vector<isa::plena::ComposedInstruction> fused;  // per PC: a composed instruction, else empty
  std::vector<isa::plena::ExpressionInstruction> expression;  // per PC: a `semantics:` instruction, else empty
  std::vector<std::string> added;       // the ISA's instructions added by data (composed or `semantics:`)
  PlenaActions actions;                 // energy actions: the catalog and each PC's static list
};

class PlenaTop : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(PlenaTop);
  PlenaTop(sc_core::sc_module_name name, const PlenaConfig& cfg);

  models::Scratchpad msram, vram, int_mem, fp_mem;
  models::Dram hbm;
  models::Router router;
  models::DmaEngine prefetch_dma, store_dma;

  // Runs `prog` to completion inside sc_start(); the platform wrapper calls this.
  RunResult run(const LoadedProgram& prog, const RunLimits& limits, traces::TraceRecorder* recorder);

  isa::plena::PlenaState& state() { return state_; }

 private:
  void controller_thread();
  void execute_program();
  std::string where(uint32_t pc) const;  // "PC 12 (line 14: V_ADD_VV gp1, gp2, gp3, 0)"
  void book_vram_banks(uint64_t& issue, uint64_t& done, uint64_t base);

  bool loop_limit_exceeded(uint64_t executed, const std::vector<uint64_t>& iteration_start);

  const PlenaConfig& cfg_;
  models::DramCommandConfig hbm_timing_;
  isa::plena::PlenaState state_;
  sc_core::sc_event start_;
  // Per-run inputs and outputs of the controller thread.
  const LoadedProgram* prog_ = nullptr;
  RunLimits limits_;
  traces::TraceRecorder* rec_ = nullptr;
  RunResult result_;
  isa::plena::StepResult step_;
  isa::ActionCounter actions_;  // energy actions of the run (docs/energy-area.md)
};

}  // namespace tlmcraft::plena
