// The Coral NPU virtual platform as SystemC modules: ITCM, DTCM, external memory behind
// the AXI port, the CSR block, an optional DMA engine, a router, and the core thread that
// runs the RISC-V hart with the arithmetic timing model (docs/platforms/coral.md).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "isa/program.h"
#include "isa/riscv/hart.h"
#include "models/dma_engine.h"
#include "models/router.h"
#include "models/scratchpad.h"
#include "platforms/coral/coral_actions.h"
#include "platforms/coral/coral_config.h"
#include "platforms/coral/core_timing.h"
#include "platforms/platform.h"
#include "traces/trace_recorder.h"

namespace tlmcraft::coral {

// The CSR block at 0x30000: RESET_CONTROL (+0), PC_START (+4), STATUS (+8). Read-only
// values here (the host has already released the core when a kernel runs).
class CsrBlock : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<CsrBlock> socket;
  explicit CsrBlock(sc_core::sc_module_name name);
  uint8_t* data() { return regs_.data(); }
  void set_pc_start(uint32_t pc);

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  std::array<uint8_t, kCsrBytes> regs_{};
};

// DMA register block (when dma.enabled), at dma.base; word offsets.
enum DmaRegister : uint32_t { kDmaSrc = 0x00, kDmaDst = 0x04, kDmaLen = 0x08, kDmaCtrl = 0x0C, kDmaStatus = 0x10, kDmaError = 0x14 };
constexpr uint32_t kDmaRegBytes = 32;

class CoralTop : public sc_core::sc_module, public isa::riscv::HartHooks {
 public:
  SC_HAS_PROCESS(CoralTop);
  CoralTop(sc_core::sc_module_name name, const CoralConfig& cfg);

  // The core's bus port: it asks the router for DMI pointers and then reads and
  // writes memory directly (the hart's MemoryRegions).
  tlm_utils::simple_initiator_socket<CoralTop> core_socket;
  models::Scratchpad itcm, dtcm, ext;
  CsrBlock csr;
  models::Router router;
  std::unique_ptr<models::DmaEngine> dma;  // null unless dma.enabled

  // Runs the loaded program to completion inside sc_start().
  RunResult run(const isa::Program& program, const RunLimits& limits, traces::TraceRecorder* recorder);

  uint64_t read_mcycle() override;

  // Per-PC execution counts of the next runs (index: (pc - ITCM base) / 4), for the
  // co-design adapter; off by default, so a run pays nothing for it.
  void record_executions(bool on) { record_executions_ = on; }
  const std::vector<uint64_t>& executions_by_word() const { return executions_; }

 private:
  void core_thread();
  void execute();
  std::string where(uint32_t pc) const;  // "PC 0x0000004c (line 12: sw a0, 0(a1))"
  uint32_t line_of(uint32_t pc) const;
  void dma_store(uint32_t offset, uint64_t cycle);
  uint8_t* dmi_pointer(uint32_t addr, uint32_t size, bool write);

  const CoralConfig& cfg_;
  sc_core::sc_event start_;
  const isa::Program* prog_ = nullptr;
  RunLimits limits_;
  traces::TraceRecorder* rec_ = nullptr;
  RunResult result_;
  CoreTiming* timing_ = nullptr;  // the running program's timing model
  const CoralActions actions_;    // energy actions by instruction class (docs/energy-area.md)
  std::array<uint8_t, kDmaRegBytes> dma_regs_{};
  uint64_t dma_done_ = 0;       // completion cycle of the latest DMA transfer
  uint32_t dma_submitted_ = 0;
  bool record_executions_ = false;
  std::vector<uint64_t> executions_;
};

}  // namespace tlmcraft::coral
