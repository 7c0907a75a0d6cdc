// The AIE-ML tile array as one SystemC module: compute tiles (core + banked data memory +
// locks + DMA), memory tiles, shim tiles with DDR (models/dram), circuit-switched stream
// routes. One SC_THREAD runs a deterministic event scheduler: each core issues one bundle
// per cycle in order and its stalls are computed arithmetically; DMA channels move data in
// segments when both stream ends are ready; locks block and wake actors. SystemC time is
// synchronised once per quantum, never per cycle. Timing model: docs/platforms/aie-ml.md.
#pragma once
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "isa/aie_ml/aie_core.h"
#include "isa/actions.h"
#include "isa/program.h"
#include "models/dram.h"
#include "platforms/aie_ml/aie_config.h"
#include "platforms/aie_ml/movement.h"
#include "platforms/aie_ml/tile_state.h"
#include "platforms/platform.h"
#include "platforms/run_control.h"
#include "traces/trace_recorder.h"

namespace tlmcraft::aie_ml {

// A loaded kernel: one or more phases run one after another (a kernel file's `.phase`
// sections, like successive dispatches: DDR and tile memories keep their contents, cores,
// DMA channels and locks start afresh). Each phase has the core program of each compute
// tile that runs one, and its data movement.
struct AieKernel : isa::ProgramExtension {
  struct Core {
    uint32_t column = 0, row = 0;
    isa::aie_ml::AieProgram program;
  };
  struct Phase {
    std::string name;
    uint32_t line = 0;  // its `.phase` line (0: implicit)
    std::vector<Core> cores;
    MovementSpec movement;
  };
  std::vector<Phase> phases;
  std::vector<std::string> source_lines;
  std::string source_name;  // the kernel file, for messages
};

class AieArray : public sc_core::sc_module {
 public:
  // The shim row's NoC port to DDR. Transfers are timed arithmetically through the DRAM
  // model's transfer(); the socket makes the structure explicit (debug access goes through it).
  tlm_utils::simple_initiator_socket<AieArray> noc;

  AieArray(sc_core::sc_module_name name, const AieConfig& cfg);
  ~AieArray() override;

  // Installs the kernel's first phase: programs, lock initial values. Memories keep their
  // contents.
  void load(const AieKernel& kernel);
  // Runs to completion (or a limit); call once per elaboration.
  RunResult run(const RunLimits& limits, traces::TraceRecorder* rec);

  TileMemory& compute_memory(uint32_t col, uint32_t row) { return compute_[col * cfg_.rows + row].mem; }
  TileMemory& mem_tile_memory(uint32_t col) { return mem_tiles_[col].mem; }
  models::Dram& ddr() { return *ddr_; }
  LockBank& locks(const TileRef& t);
  const AieConfig& config() const { return cfg_; }
  // Size of one window of the core address map (the data memory rounded up to a power of
  // two); the own tile's memory starts at 7 x window (0x70000 for 64 KB).
  uint32_t window_bytes() const {
    uint32_t w = 1;
    while (w < cfg_.compute.memory_bytes) w <<= 1;
    return w;
  }

 private:
  struct ComputeTile {
    TileMemory mem;
    LockBank locks;
    int core = -1;  // index into cores_, -1 when the tile runs no program
  };
  struct MemTile {
    TileMemory mem;
    LockBank locks;
  };
  struct CoreRun;
  struct Channel;
  struct Event {
    uint64_t time, seq;
    int actor;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  class CorePort;

  void thread();
  void schedule(int actor, uint64_t time);
  void step_core(int core, uint64_t t);
  uint32_t branch_delay(CoreRun& c, const isa::aie_ml::Bundle& b, uint64_t from);
  std::string pipeline_hazard(const CoreRun& c, const isa::aie_ml::Bundle& b, const std::string& hazard) const;
  bool interlock(CoreRun& c, const isa::aie_ml::Bundle& b, int core, uint64_t t);
  void step_channel(int ch, uint64_t t);
  void try_transfer(int ch, uint64_t t);
  void issue_ddr_reads(const BdSpec& bd, const BufferSpec& buf, const std::vector<int64_t>& offsets, uint64_t t,
                       std::deque<uint64_t>& arrival);
  uint64_t read_ahead_segment(Channel& src, const BdSpec& bd, const BufferSpec& buf, std::vector<uint32_t>& words,
                              uint64_t t);
  void complete_bd(int ch, uint64_t t);
  bool lock_free_cycle(int bd) const;
  std::string endless_transfer() const;
  void wake(LockBank& bank, uint32_t id, uint64_t t);
  void block_on(LockBank& bank, uint32_t id, int actor);
  void fault(const std::string& message);
  uint8_t* bd_memory(const Channel& c);
  std::string core_where(const CoreRun& c, const isa::aie_ml::Bundle* b) const;
  void record_lock(const TileRef& t, uint32_t id, uint64_t cycle);
  // Trace flows from a lock's release (track, cycle) to the acquire that consumes it.
  void note_release(const LockBank* bank, uint32_t id, int track, uint64_t cycle);
  void flow_from_release(const LockBank* bank, uint32_t id, int track, uint64_t cycle);
  void install_phase(size_t which);
  // Cycles between the end of one phase and the start of the next (docs: "Phases").
  uint64_t switch_cycles(const AieKernel::Phase& next) const;
  bool run_phase(uint64_t start, QuantumSync& sync);
  void stop(StopReason why, const std::string& message);  // the first stop wins
  // Adds the finished phase's statistics to result_.
  void collect_phase(uint64_t start, uint64_t end);
  const MovementSpec& movement() const { return kernel_->phases[phase_].movement; }

  AieConfig cfg_;
  std::unique_ptr<models::Dram> ddr_;
  std::vector<ComputeTile> compute_;
  std::vector<MemTile> mem_tiles_;
  std::vector<LockBank> shim_locks_;
  std::vector<std::unique_ptr<CoreRun>> cores_;
  std::vector<std::unique_ptr<Channel>> channels_;
  const AieKernel* kernel_ = nullptr;
  size_t phase_ = 0;

  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> queue_;
  uint64_t seq_ = 0;
  RunLimits limits_;
  const RunLimiter* limiter_ = nullptr;  // during a run
  LineProfile lines_;                     // all phases
  traces::TraceRecorder* rec_ = nullptr;
  std::map<std::pair<const LockBank*, uint32_t>, std::pair<int, uint64_t>> last_release_;  // (track, cycle)
  bool stop_ = false;
  StopReason stop_reason_ = StopReason::Halted;
  std::string stop_message_;
  uint64_t bundles_ = 0;
  uint64_t last_cycle_ = 0;
  bool ran_ = false;
  RunResult result_;
  // Energy actions (docs/energy-area.md): every action AIE-ML can perform, the run's counts.
  isa::ActionCatalog action_catalog_;
  isa::ActionCounter action_counts_;
  isa::ActionId dma_bytes_ = 0, ddr_read_ = 0, ddr_write_ = 0;
};

}  // namespace tlmcraft::aie_ml
