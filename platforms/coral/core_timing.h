// The Coral NPU timing model: computes, for each instruction the functional hart has
// executed, the cycle at which it dispatches and when its results and units are ready,
// arithmetically (no per-cycle simulation). The structure follows the RTL and every number
// was measured on it: docs/platforms/coral.md ("Timing model"), docs/FIDELITY.md.
//
// Scalar core: a fetch unit delivering 16-byte lines along the predicted path (one per 2
// cycles, into a two-line instruction buffer), up to `dispatch_width` in-order dispatches per cycle, a
// register scoreboard, an 8-entry retirement buffer that instructions leave in order at
// write-back, a pipelined multiplier and an FPU fed through small operand-wait queues, a
// blocking early-terminating divider, CSR accesses that wait for all older work. One LSU
// slot serves scalar and vector memory operations in program order (TCM block requests
// pipelined, external memory one AXI transaction at a time). Vector backend: commands are
// split into one micro-op per register of a group, issue in order to 2 ALUs, 2
// multipliers, a permute/reduction unit and a divider, retire in order through an 8-entry
// reorder buffer and are written back to the scalar core's retirement buffer.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "isa/riscv/hart.h"
#include "platforms/coral/coral_config.h"
#include "platforms/coral/vector_divider.h"

namespace tlmcraft::coral {

namespace rv = tlmcraft::isa::riscv;

enum Unit : uint8_t {
  kScalarAlu, kMul, kDiv, kLsu, kFpu, kVecAlu0, kVecAlu1, kVecMul0, kVecMul1, kVecPermute, kVecDiv, kVecLsu,
  kAxi,  // the external-memory port: transactions, the cycles they hold it (trace: one slice each)
  kNumUnits
};
const char* unit_name(Unit u);

struct UnitCounters {
  uint64_t instructions = 0;  // instructions (scalar units) or micro-ops (vector units)
  uint64_t busy = 0;          // cycles occupied
  uint64_t stall = 0;         // cycles waited for operands or the unit before issuing
};

// Where an access went, for LSU timing.
enum class MemKind : uint8_t { Tcm, Axi };

// One timed event, for traces (filled only when a sink is attached).
struct TimedEvent {
  Unit unit;
  uint64_t begin, end;
  uint64_t stall = 0;  // cycles it waited before `begin` for operands or the unit
};

// The buffers and queues whose occupancy traces show.
enum Queue : uint8_t {
  kRetirementBuffer,  // scalar: an instruction from dispatch until it leaves, in order
  kCommandQueue,      // vector: a command from dispatch until it is decoded
  kUopQueue,          // vector: a micro-op from decode until it issues
  kReorderBuffer,     // vector: a micro-op from issue until it retires, in order
  kNumQueues
};
const char* queue_name(Queue q);

// An entry held in a queue over [begin, end): the cycles it counts against the capacity.
struct QueueEntry {
  Queue queue;
  uint64_t begin, end;
};

// What one instruction did, for traces.
struct TimingEvents {
  std::vector<TimedEvent> units;
  std::vector<QueueEntry> entries;
  void clear() {
    units.clear();
    entries.clear();
  }
};

class CoreTiming {
 public:
  explicit CoreTiming(const CoralConfig& cfg);

  // The fetch unit delivers the instruction at `pc` (called before it executes): its
  // 16-byte line is requested fetch.interval cycles after the previous line along the
  // predicted path once the instruction buffer has room for it, or restarts after a
  // mispredicted branch or jalr; dispatch waits for it.
  void fetch(uint32_t pc);

  // The dispatch cycle of a CSR instruction about to execute now (the mcycle value it
  // reads): CSR accesses wait for all older instructions and dispatch alone.
  uint64_t csr_dispatch_cycle() const;

  // Accounts the instruction the hart just executed (hart.info) and returns its
  // dispatch cycle. `next_pc` is the hart's pc after the step; `rs1_value`/`rs2_value`
  // the source values before the step (the divider's latency depends on them);
  // `earliest` a lower bound on dispatch from outside the core (a DMA status read
  // waiting for completion).
  uint64_t account(const rv::StepInfo& s, uint32_t next_pc, uint32_t rs1_value, uint32_t rs2_value,
                   uint64_t earliest = 0);

  // The cycle at which everything dispatched so far has completed (scalar and vector).
  uint64_t completion() const { return complete_; }
  // The cycle the last instruction dispatched in, and its dispatch slot in that cycle.
  uint64_t last_dispatch() const { return cycle_; }
  uint32_t last_slot() const { return last_slot_; }
  const std::array<UnitCounters, kNumUnits>& units() const { return units_; }
  // Vector multiply(-accumulate) elements by element width (index 0: 8-bit, 1: 16-bit,
  // 2: 32-bit): one MAC per active element of a vmul/vmacc/vwmacc-class instruction.
  const std::array<uint64_t, 3>& vector_macs_by_width() const { return vector_macs_; }

  // Optional event sink for traces (vector micro-ops, multi-cycle scalar units, queue entries).
  void set_event_sink(TimingEvents* sink) { events_ = sink; }

  // Quotient bits Coral's divider iterates for this dividend (1 bit per cycle, early
  // termination on the dividend's leading zeros; divide-by-zero takes the full 32).
  static uint32_t divider_iterations(uint32_t dividend, uint32_t divisor, bool is_signed);

 private:
  struct Slot {           // the dispatch slot chosen for an instruction
    uint64_t t;
    uint64_t unconstrained;  // before operand/unit waits (for stall accounting)
  };
  uint64_t slot_floor() const;
  uint64_t serialising_floor(uint64_t complete) const;
  void take_slot(uint64_t t, const rv::DecodedInsn& d);
  static bool writes_rd_field(const rv::DecodedInsn& d);
  uint64_t lane_floor(const rv::DecodedInsn& d, uint64_t t) const;
  // The retirement buffer: an instruction leaves it, in order, once its result is written.
  void retire(uint64_t written);
  // The LSU slot: the dispatch floor from its queue, and one operation's start and done.
  uint64_t lsu_queue_floor() const;
  struct LsuOp {
    uint64_t start, done;
  };
  LsuOp lsu_operation(uint64_t earliest, bool store, bool axi, uint32_t blocks, uint32_t registers, bool vector,
                      uint32_t extra_cycles = 0);
  uint64_t lsu_cycles(bool store, bool axi, uint32_t blocks, uint32_t registers, bool vector,
                      uint32_t extra_cycles) const;
  uint64_t store_data_floor(const rv::StepInfo& s, uint64_t cycles, uint32_t uops) const;
  MemKind kind_of(uint32_t addr) const {
    return addr - cfg_.ext_base < cfg_.ext_bytes ? MemKind::Axi : MemKind::Tcm;
  }
  // Latest ready cycle of the sources (kNoReg reads the always-zero entry 255).
  uint64_t src_ready(const rv::DecodedInsn& d) const {
    return std::max(std::max(ready_[d.src[0]], ready_[d.src[1]]), std::max(ready_[d.src[2]], ready_[d.src[3]]));
  }
  uint64_t scalar_src_ready(const rv::DecodedInsn& d) const;  // x and f sources only
  void set_ready(uint8_t reg, uint64_t t) {
    if (reg != rv::kNoReg && reg != 0 && ready_[reg] < t) ready_[reg] = t;
  }
  void complete_at(uint64_t t) {
    if (t > complete_) complete_ = t;
    if (t > csr_complete_) csr_complete_ = t;
  }
  // A vector store's registers after its first: only fences and mpause wait for them.
  void store_tail_at(uint64_t t) {
    if (t > complete_) complete_ = t;
  }
  void busy(Unit u, uint64_t begin, uint64_t cycles, uint64_t stall);
  void axi_access(uint64_t begin, uint64_t transactions, uint64_t done);
  // One per instruction class: the dispatch cycle, and the unit, register and
  // retirement-buffer bookkeeping of that class.
  uint64_t dispatch_alu(const rv::StepInfo& s, uint64_t earliest);
  uint64_t dispatch_branch(const rv::StepInfo& s, uint32_t next_pc, uint64_t earliest);
  uint64_t dispatch_mul(const rv::StepInfo& s, uint64_t earliest);
  uint64_t dispatch_div(const rv::StepInfo& s, uint32_t rs1_value, uint32_t rs2_value, uint64_t earliest);
  uint64_t dispatch_memory(const rv::StepInfo& s, uint64_t earliest);
  uint64_t dispatch_fpu(const rv::StepInfo& s, uint64_t earliest);
  uint64_t dispatch_custom_load(const rv::StepInfo& s, uint64_t earliest);
  uint64_t vector_load_step(const rv::StepInfo& s, uint64_t t, uint64_t decoded);
  uint64_t dispatch_serialising(const rv::StepInfo& s, uint64_t earliest);
  uint64_t dispatch_vector(const rv::StepInfo& s, uint64_t earliest);
  uint64_t entry_completed_by_pc(uint32_t pc, uint64_t dispatched, uint64_t written);
  uint64_t dispatch_vector_config(const rv::StepInfo& s, uint64_t earliest);
  static bool needs_config_state(const rv::DecodedInsn& d);
  uint64_t config_state_floor(uint64_t t) const;
  void note_frontend_dispatch(uint64_t t, bool vset);
  uint64_t vector_command(const rv::StepInfo& s, uint64_t t);
  void divide_timing(const rv::StepInfo& s, uint32_t uop, uint32_t& lat, uint32_t& occ);
  uint64_t decode_command(uint64_t t, uint32_t uops);
  void count_vector_macs(const rv::StepInfo& s);
  static uint32_t micro_ops(const rv::StepInfo& s);
  struct UnitPool {
    std::array<uint64_t, 8>* free;
    uint32_t units;
    Unit first, last;
  };
  UnitPool unit_pool(rv::OpClass cls);
  uint64_t vector_sources_ready(const rv::StepInfo& s) const;
  uint64_t dispatch_slot(uint64_t ready);
  uint64_t retire_entry(uint64_t done);
  uint64_t vector_memory(const rv::StepInfo& s, uint64_t t, uint64_t decoded);
  // Tracing only: kept out of line so the hot paths stay as small as without it.
  void hold(Queue q, uint64_t begin, uint64_t end) {
    if (__builtin_expect(events_ != nullptr, 0)) record_entry(q, begin, end);
  }
  [[gnu::cold, gnu::noinline]] void record_entry(Queue q, uint64_t begin, uint64_t end);

  const CoralConfig& cfg_;
  const ScalarTiming& st_;
  const VectorTiming& vt_;

  // Scalar dispatch state.
  uint64_t cycle_ = 0;          // cycle of the last dispatch
  uint32_t slots_ = 0;          // instructions dispatched in cycle_
  uint32_t last_slot_ = 0;
  bool after_branch_ = false;   // a not-taken branch dispatched in cycle_: nothing may follow in it
  uint32_t lane_fields_ = 0;    // bits 11:7 fields the instructions dispatched in cycle_ write (lane_floor)
  uint64_t next_min_ = 0;       // earliest next dispatch (redirects, CSR)
  // Fetch: the line being dispatched from, when it arrived, the first dispatch from it,
  // and where a taken branch sends the fetch unit (its target line's arrival).
  uint32_t line_ = ~0u;
  uint64_t line_arrival_ = 0, line_request_ = 0;
  bool redirected_ = false, followed_taken_ = false, loop_back_ = false;
  uint64_t redirect_arrival_ = 0;
  // Dispatch cycles of the latest instructions (the fetch buffer's room, fetch).
  std::array<uint64_t, 16> dispatch_cycles_{};
  uint64_t dispatched_ = 0;
  uint64_t complete_ = 0;       // latest completion of everything dispatched
  uint64_t csr_complete_ = 0;   // ... of everything a CSR access waits for (csr_dispatch_cycle)
  std::array<uint64_t, 256> ready_{};  // per register id: usable by dependents (x0 and 255 stay 0)

  std::vector<uint64_t> rb_leave_;  // ring: cycle each instruction left the retirement buffer
  uint64_t insns_ = 0, last_leave_ = 0;
  uint64_t lsu_free_ = 0;           // the LSU slot finishes its current operation
  std::vector<uint64_t> lsu_starts_;  // ring (lsu_queue): start cycles of memory operations
  uint64_t lsu_ops_ = 0;
  uint64_t last_vector_memory_ = 0;   // dispatch of the latest vector memory instruction
  bool any_vector_memory_ = false;
  uint64_t dvu_free_ = 0;
  uint64_t first_register_done_ = 0;
  uint32_t loaded_registers_ = 0;  // vector registers (bit r) a vector load wrote last  // the latest vector memory operation's first register is done
  // The latest vector write-backs to the retirement buffer (pc, cycle), in program order:
  // the buffer matches them to its entries by pc (entry_completed_by_pc).
  std::array<std::pair<uint32_t, uint64_t>, 32> vector_writebacks_{};
  uint64_t n_vector_writebacks_ = 0;
  // The vector frontend's configuration state (config_state_floor): the last two cycles
  // vector instructions (vset* included) were dispatched in, and the last cycle of a vset*.
  uint64_t frontend_cycle_ = ~0ull, frontend_cycle_before_ = ~0ull, vset_cycle_ = ~0ull;
  uint64_t mul_next_ = 0, fpu_next_ = 0, fpu_div_free_ = 0;  // unit issue slots
  std::vector<uint64_t> mul_starts_, fpu_starts_;  // rings: start cycles of queued ops
  uint64_t mul_count_ = 0, fpu_count_ = 0, last_mul_dispatch_ = 0, last_fpu_dispatch_ = 0;

  // Vector backend state.
  std::vector<uint64_t> cq_leave_;    // ring: cycle each command left the command queue
  uint64_t commands_ = 0;
  uint64_t last_decode_ = 0;
  uint32_t decodes_in_cycle_ = 0;
  std::vector<uint64_t> uop_issue_;   // ring (uop_queue): cycle each micro-op left the queue
  std::vector<uint64_t> rob_retire_;  // ring (rob): retire cycle of each reorder-buffer entry
  uint64_t uops_ = 0, rob_entries_ = 0;
  uint64_t last_dispatch_ = 0, last_retire_ = 0;  // the latest micro-op out of the queue; retired
  uint32_t dispatched_in_cycle_ = 0;              // micro-ops dispatched in last_dispatch_
  uint32_t retired_in_cycle_ = 0;                 // micro-ops retired in last_retire_
  std::array<uint64_t, 8> valu_free_{}, vmul_free_{}, vperm_free_{}, vdiv_free_{};
  VectorDivider divider_;  // the divider's lanes and the operands they remember

  std::array<UnitCounters, kNumUnits> units_{};
  std::array<uint64_t, 3> vector_macs_{};
  TimingEvents* events_ = nullptr;
};

}  // namespace tlmcraft::coral
