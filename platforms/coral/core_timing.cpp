#include "platforms/coral/core_timing.h"

#include "isa/riscv/custom_ext.h"

#include <algorithm>

namespace tlmcraft::coral {

using rv::OpClass;

const char* unit_name(Unit u) {
  switch (u) {
    case kScalarAlu: return "scalar_alu";
    case kMul: return "mul";
    case kDiv: return "div";
    case kLsu: return "lsu";
    case kFpu: return "fpu";
    case kVecAlu0: return "vector_alu0";
    case kVecAlu1: return "vector_alu1";
    case kVecMul0: return "vector_mul0";
    case kVecMul1: return "vector_mul1";
    case kVecPermute: return "vector_permute";
    case kVecDiv: return "vector_div";
    case kVecLsu: return "vector_lsu";
    case kAxi: return "axi";
    case kNumUnits: break;
  }
  return "unknown";
}

const char* queue_name(Queue q) {
  switch (q) {
    case kRetirementBuffer: return "retirement_buffer";
    case kCommandQueue: return "vector.command_queue";
    case kUopQueue: return "vector.uop_queue";
    case kReorderBuffer: return "vector.rob";
    case kNumQueues: break;
  }
  return "unknown";
}

CoreTiming::CoreTiming(const CoralConfig& cfg)
    : cfg_(cfg), st_(cfg.scalar), vt_(cfg.vector) {
  mul_starts_.assign(st_.mul_queue, 0);
  fpu_starts_.assign(st_.fpu_queue, 0);
  rb_leave_.assign(st_.retirement_buffer, 0);
  lsu_starts_.assign(st_.lsu_queue, 0);
  cq_leave_.assign(vt_.command_queue, 0);
  uop_issue_.assign(vt_.uop_queue, 0);
  rob_retire_.assign(vt_.rob, 0);
}

uint32_t CoreTiming::divider_iterations(uint32_t dividend, uint32_t divisor, bool is_signed) {
  // One bit per cycle from the dividend's top bit (one position early; the divisor does not
  // matter: 24182 / 8173822 takes as long as 24182 / 3 on the RTL); at most 32, and 32 for
  // division by zero.
  if (divisor == 0) return 32;
  uint32_t inp = dividend;
  if (is_signed && (inp >> 31)) inp = ~inp + 1u;
  if (inp >> 31) return 32;
  const uint32_t low = inp & 0x7fffffffu;
  const uint32_t lz31 = low == 0 ? 30 : static_cast<uint32_t>(__builtin_clz(low)) - 1;  // zeros in bits 30..0, capped at 30
  return 32 - lz31;
}

// The earliest cycle the next instruction may dispatch in, from slot occupancy alone.
uint64_t CoreTiming::slot_floor() const {
  uint64_t t = std::max({cycle_, next_min_, line_arrival_});
  // Nothing dispatches after a conditional branch in its cycle (Decode.scala: branchInterlock,
  // every lane after a branch; measured: bnez zero then addi, RTL 4 cycles).
  if (t == cycle_ && (slots_ >= st_.dispatch_width || after_branch_)) ++t;
  // A full retirement buffer: the entry `retirement_buffer` places back must have left
  // (the space shows the cycle after it leaves).
  if (insns_ >= st_.retirement_buffer) t = std::max(t, rb_leave_[insns_ % st_.retirement_buffer] + 1);
  return t;
}

void CoreTiming::fetch(uint32_t pc) {
  const uint32_t line = pc / st_.fetch_line_bytes;
  if (redirected_) {  // a mispredicted branch or a jalr: the fetch restarts at the target
    redirected_ = false;
    if (line != line_ || redirect_arrival_ > line_arrival_) {
      line_ = line;
      line_arrival_ = redirect_arrival_;
      line_request_ = redirect_arrival_ - std::min<uint64_t>(redirect_arrival_, st_.fetch_interval);
    }
    return;
  }
  if (loop_back_) {  // a predicted-taken branch into its own line finds it in the buffer
    loop_back_ = false;
    return;
  }
  if (line == line_ && !followed_taken_) return;
  followed_taken_ = false;
  // The next line along the predicted path (in sequence, or a predicted-taken branch's
  // target): one request per fetch interval, each once the instruction buffer will have
  // room for a whole line beside the instructions already fetched (UncachedFetch.scala:
  // bufferSpaces >= nValid + fetchInstrSlots), so up to two lines wait in it.
  const uint64_t keep = st_.fetch_buffer - st_.fetch_line_bytes / 4;  // fetched, not dispatched
  const uint64_t room =
      dispatched_ > keep ? dispatch_cycles_[(dispatched_ - keep - 1) % dispatch_cycles_.size()] + 1 : 0;
  const uint64_t next_request = line_ == ~0u ? 0 : line_request_ + st_.fetch_interval;  // the first at reset
  line_ = line;
  line_request_ = std::max(next_request, room);
  line_arrival_ = std::max(line_arrival_, line_request_ + st_.fetch_interval);
}

void CoreTiming::record_entry(Queue q, uint64_t begin, uint64_t end) { events_->entries.push_back({q, begin, end}); }

void CoreTiming::retire(uint64_t written) {
  last_leave_ = std::max(last_leave_, written);
  rb_leave_[insns_++ % st_.retirement_buffer] = last_leave_;
  // Held from dispatch (cycle_: every class takes its slot first) until the cycle after
  // it leaves, when the space shows (slot_floor).
  hold(kRetirementBuffer, cycle_, last_leave_ + 1);
}

uint64_t CoreTiming::lsu_queue_floor() const {
  return lsu_ops_ >= st_.lsu_queue ? lsu_starts_[lsu_ops_ % st_.lsu_queue] : 0;
}

// One operation in the LSU slot, register by register: each distinct 16-byte block of a
// register is one request (TCM: one per cycle; external memory: one transaction at a time,
// each waiting for its data or write response), then the register's tail. Vector
// operations add a cycle per instruction and, for stores, per register read from the
// vector register file.
uint64_t CoreTiming::lsu_cycles(bool store, bool axi, uint32_t blocks, uint32_t registers, bool vector,
                                uint32_t extra_cycles) const {
  uint64_t cycles =
      vector ? vt_.lsu_op_cycles + (store ? uint64_t(registers) * vt_.store_data_cycles : 0) + extra_cycles : 0;
  const uint64_t latency = axi ? (store ? cfg_.axi.write_latency : cfg_.axi.read_latency) : 0;
  const uint64_t tail = store ? st_.store_tail + (axi ? st_.axi_write_response : 0) : st_.load_tail;
  if (blocks) cycles += blocks * (1 + latency) + std::min<uint64_t>(registers, blocks) * tail;
  return cycles;
}

CoreTiming::LsuOp CoreTiming::lsu_operation(uint64_t earliest, bool store, bool axi, uint32_t blocks,
                                            uint32_t registers, bool vector, uint32_t extra_cycles) {
  const uint64_t cycles = lsu_cycles(store, axi, blocks, registers, vector, extra_cycles);
  const uint64_t start = std::max(earliest, lsu_free_);
  lsu_free_ = start + cycles;
  lsu_starts_[lsu_ops_++ % st_.lsu_queue] = start;
  if (axi) axi_access(start, blocks, start + cycles);
  return {start, start + cycles};
}

void CoreTiming::take_slot(uint64_t t, const rv::DecodedInsn& d) {
  dispatch_cycles_[dispatched_++ % dispatch_cycles_.size()] = t;
  if (t != cycle_) {
    cycle_ = t;
    slots_ = 0;
    after_branch_ = false;
    lane_fields_ = 0;
  }
  last_slot_ = slots_++;
  if (writes_rd_field(d)) lane_fields_ |= 1u << ((d.raw >> 7) & 31);
}

// Decode.scala's scoreboard scan over the dispatch lanes takes bits 11:7 of every
// instruction but stores and conditional branches as the x register it writes, vector
// instructions too (a vd, a reduction's vd): a later lane may not write or read that
// register in the same cycle (writeAfterWrite, readAfterWrite). Measured: 8 vsrl.vi
// into v8 dispatch one per cycle, into v8..v15 four; vsrl.vi v10 then addi a0 or
// addi a1, a0 not in one cycle (tests/platforms/coral_rtl_programs/vd_field_lanes.s).
bool CoreTiming::writes_rd_field(const rv::DecodedInsn& d) {
  switch (d.cls) {
    case OpClass::Store:
    case OpClass::FpStore:
    case OpClass::Branch: return false;
    default: return true;
  }
}

uint64_t CoreTiming::lane_floor(const rv::DecodedInsn& d, uint64_t t) const {
  if (t != cycle_ || lane_fields_ == 0) return t;
  uint32_t used = writes_rd_field(d) ? 1u << ((d.raw >> 7) & 31) : 0;
  for (uint8_t r : d.src)
    if (r < rv::kFpBase) used |= 1u << r;  // x registers read (x0 reads are not recorded)
  return (used & lane_fields_) ? t + 1 : t;
}

uint64_t CoreTiming::scalar_src_ready(const rv::DecodedInsn& d) const {
  uint64_t t = 0;
  for (uint8_t r : d.src)
    if (r < rv::kVecBase) t = std::max(t, ready_[r]);
  return t;
}

void CoreTiming::busy(Unit u, uint64_t begin, uint64_t cycles, uint64_t stall) {
  UnitCounters& c = units_[u];
  ++c.instructions;
  c.busy += cycles;
  c.stall += stall;
  if (events_) events_->units.push_back({u, begin, begin + cycles, stall});
}

void CoreTiming::axi_access(uint64_t begin, uint64_t transactions, uint64_t done) {
  UnitCounters& c = units_[kAxi];
  c.instructions += transactions;
  c.busy += done - begin;
  if (events_) events_->units.push_back({kAxi, begin, done, 0});
}

// A serialising instruction waits for the older work it depends on (`complete`) and for the
// retirement buffer to be empty (the space shows the cycle after the last entry leaves),
// and dispatches alone.
uint64_t CoreTiming::serialising_floor(uint64_t complete) const {
  uint64_t t = std::max({slot_floor(), complete, last_leave_ + 1});
  if (t == cycle_ && slots_ > 0) ++t;  // alone in its cycle
  return t;
}

uint64_t CoreTiming::csr_dispatch_cycle() const {
  // Not the registers a vector store writes after its first: the store's entry has left
  // the buffer then and the LSU goes on with it (measured: csrr after an m8 vse8.v to
  // external memory dispatches when its first register is done;
  // tests/platforms/coral_rtl_programs/csr_after_vse_ext.s). Reached by a fetch redirect
  // (a mispredicted branch, a jalr), it dispatches a cycle after the instructions there
  // could (measured: addi at t+4 after a loop exit or a jr, csrr at t+5;
  // tests/platforms/coral_rtl_programs/csr_after_loop_exit.s).
  return std::max(serialising_floor(csr_complete_), redirect_arrival_ + st_.csr_after_redirect);
}

uint64_t CoreTiming::dispatch_alu(const rv::StepInfo& s, uint64_t earliest) {
  const rv::DecodedInsn& d = *s.insn;
  const uint8_t dst = d.dst[0];
  const uint64_t floor = std::max(slot_floor(), earliest);
  const uint64_t t = lane_floor(d, std::max({floor, src_ready(d), ready_[dst]}));
  take_slot(t, d);
  const uint32_t lat = d.latency ? d.latency : st_.alu_latency;  // a custom instruction's own latency
  set_ready(dst, t + lat);
  complete_at(t + lat + 1);  // written back one cycle after forwarding
  retire(t + lat);
  busy(kScalarAlu, t, 1, t - floor);
  return t;
}

uint64_t CoreTiming::dispatch_branch(const rv::StepInfo& s, uint32_t next_pc, uint64_t earliest) {
  const rv::DecodedInsn& d = *s.insn;
  const OpClass cls = d.cls;
  const uint8_t dst = d.dst[0];
  const uint64_t floor = std::max(slot_floor(), earliest);
  const uint64_t t = lane_floor(d, std::max({floor, src_ready(d), ready_[dst]}));
  take_slot(t, d);
  set_ready(dst, t + st_.alu_latency);  // link register
  complete_at(t + 1);
  retire(t + 1);
  busy(kScalarAlu, t, 1, t - floor);
  const bool jalr = (s.insn->raw & 0x7f) == 0x67;
  const bool backward = s.insn->imm < 0;  // branch offset: static prediction backward-taken
  uint32_t redirect = 0;
  if (cls == OpClass::Jump) {
    redirect = jalr ? st_.mispredict_taken : 0;  // jal: predicted, costed as a taken branch below
  } else if (s.taken != backward) {
    // Static prediction: backward taken, forward not taken. A branch that turns out
    // taken redirects to its target; one that falls through recovers a cycle later.
    redirect = s.taken ? st_.mispredict_taken : st_.mispredict;
  }
  if (redirect) {  // resolved when the branch executes: the target line is fetched then
    next_min_ = std::max(next_min_, t + redirect);
    redirected_ = true;
    redirect_arrival_ = t + redirect;
  } else if (s.taken || cls == OpClass::Jump) {
    // Predicted taken: the fetch unit follows it when it predecodes the branch's line (the
    // target is its next line, fetch); a backward branch into its own line finds it still
    // in the fetch buffer. Nothing after it dispatches in its cycle.
    const uint32_t line = st_.fetch_line_bytes;
    const bool loop = next_pc / line == s.pc / line && next_pc < s.pc;
    next_min_ = std::max(next_min_, t + st_.taken_same_line);
    (loop ? loop_back_ : followed_taken_) = true;
  } else {
    after_branch_ = true;
  }
  return t;
}

uint64_t CoreTiming::dispatch_mul(const rv::StepInfo& s, uint64_t earliest) {
  const rv::DecodedInsn& d = *s.insn;
  const uint8_t dst = d.dst[0];
  // Dispatch waits only for a queue slot, one multiply per cycle (one multiplier
  // lane); the operands are awaited in the unit.
  const uint64_t floor = std::max(slot_floor(), earliest);
  const uint64_t queue = mul_count_ >= st_.mul_queue ? mul_starts_[mul_count_ % st_.mul_queue] : 0;
  const uint64_t lane = mul_count_ ? last_mul_dispatch_ + 1 : 0;
  const uint64_t t = lane_floor(d, std::max({floor, queue, lane}));
  last_mul_dispatch_ = t;
  take_slot(t, d);
  const uint64_t start = std::max({t, src_ready(d), mul_next_});
  mul_starts_[mul_count_++ % st_.mul_queue] = start;
  mul_next_ = start + (d.ii ? d.ii : 1);  // custom instructions: their initiation interval
  const uint32_t lat = d.latency ? d.latency : st_.mul_latency;
  set_ready(dst, start + lat);
  complete_at(start + lat);
  retire(start + lat);
  busy(kMul, start, 1, start - floor);
  return t;
}

uint64_t CoreTiming::dispatch_div(const rv::StepInfo& s, uint32_t rs1_value, uint32_t rs2_value, uint64_t earliest) {
  const rv::DecodedInsn& d = *s.insn;
  const uint8_t dst = d.dst[0];
  // Blocking: the divider takes a new operation once the previous one is done.
  const uint64_t floor = std::max(slot_floor(), earliest);
  const uint64_t t = lane_floor(d, std::max({floor, dvu_free_, src_ready(d), ready_[dst]}));
  take_slot(t, d);
  const uint32_t funct3 = (s.insn->raw >> 12) & 7;  // div=4 divu=5 rem=6 remu=7
  const uint64_t cycles = st_.div_base + divider_iterations(rs1_value, rs2_value, funct3 == 4 || funct3 == 6);
  const uint64_t done = t + cycles;
  dvu_free_ = done + 1;  // the divider takes its next operation the cycle after a result
  set_ready(dst, done);
  complete_at(done);
  retire(done);
  busy(kDiv, t, cycles, t - floor);
  return t;
}

uint64_t CoreTiming::dispatch_memory(const rv::StepInfo& s, uint64_t earliest) {
  const rv::DecodedInsn& d = *s.insn;
  const OpClass cls = d.cls;
  const uint8_t dst = d.dst[0];
  const bool store = cls == OpClass::Store || cls == OpClass::FpStore;
  const uint64_t floor = std::max({slot_floor(), earliest, lsu_queue_floor()});
  // The LSU reads its address (and a store its data) from the register file, which has no
  // write forwarding on that port: a producer's result is usable a cycle later there.
  const uint64_t operands = std::max(ready_[d.src[0]], store ? ready_[d.src[1]] : 0);
  uint64_t t = std::max(floor, operands + st_.lsu_operand_read);
  if (!store) t = std::max(t, ready_[dst]);
  t = lane_floor(d, t);
  take_slot(t, d);
  const LsuOp op = lsu_operation(t, store, kind_of(s.mem_addr) == MemKind::Axi, 1, 1, false);
  if (!store) set_ready(dst, op.done);
  complete_at(op.done);
  retire(store ? t + 1 : op.done);  // a store leaves the window once queued
  busy(kLsu, op.start, op.done - op.start, op.start - floor);
  return t;
}

// A scalar custom instruction with a load step (isa/riscv/load_step.h): the load first,
// charged as the plain load is (dispatch after the LSU queue's floor, its address register
// read without forwarding, the slot's TCM or AXI latency and load_tail), then the arithmetic
// on the instruction's unit once the loaded value and the other sources are there. So it is
// never earlier than the LSU allows; what it saves is the dependent instruction's issue.
uint64_t CoreTiming::dispatch_custom_load(const rv::StepInfo& s, uint64_t earliest) {
  const rv::DecodedInsn& d = *s.insn;
  const uint8_t dst = d.dst[0];
  const uint64_t floor = std::max({slot_floor(), earliest, lsu_queue_floor()});
  // d.src[0] is the load step's address register (custom_ext.cpp, decode_into).
  // The other sources and rd's pending write are awaited by the unit, as the loaded value.
  const uint64_t t = lane_floor(d, std::max(floor, ready_[d.src[0]] + st_.lsu_operand_read));
  take_slot(t, d);
  const LsuOp op = lsu_operation(t, false, kind_of(s.mem_addr) == MemKind::Axi, 1, 1, false);
  busy(kLsu, op.start, op.done - op.start, op.start - floor);
  uint64_t start = std::max({op.done, ready_[d.src[1]], ready_[d.src[2]], ready_[d.src[3]], ready_[dst]});
  const uint64_t ii = d.ii ? d.ii : 1;
  Unit unit = kScalarAlu;
  uint32_t lat = st_.alu_latency, written_after = 1;  // the ALU writes back a cycle after forwarding
  if (d.cls == OpClass::Mul) {
    start = std::max(start, mul_next_);
    mul_next_ = start + ii;
    mul_starts_[mul_count_++ % st_.mul_queue] = start;
    last_mul_dispatch_ = t;
    unit = kMul, lat = st_.mul_latency, written_after = 0;
  } else if (d.cls != OpClass::Alu) {  // the FPU
    start = std::max(start, fpu_next_);
    fpu_next_ = start + ii;
    fpu_starts_[fpu_count_++ % st_.fpu_queue] = start;
    last_fpu_dispatch_ = t;
    unit = kFpu, lat = st_.fp_add, written_after = 0;
  }
  if (d.latency) lat = d.latency;
  set_ready(dst, start + lat);
  complete_at(start + lat + written_after);
  retire(start + lat);
  busy(unit, start, 1, start - op.done);
  return t;
}

uint64_t CoreTiming::dispatch_fpu(const rv::StepInfo& s, uint64_t earliest) {
  const rv::DecodedInsn& d = *s.insn;
  const OpClass cls = d.cls;
  const uint8_t dst = d.dst[0];
  const uint64_t floor = std::max(slot_floor(), earliest);
  const uint64_t queue = fpu_count_ >= st_.fpu_queue ? fpu_starts_[fpu_count_ % st_.fpu_queue] : 0;
  // One FP instruction per fpu.dispatch_interval cycles, dependent or not (measured: 8
  // independent fadd.s, fmul.s or fsgnj.s dispatch 2 cycles apart,
  // tests/platforms/coral_rtl_programs/fadd_indep.s).
  const uint64_t interval = fpu_count_ ? last_fpu_dispatch_ + st_.fpu_dispatch_interval : 0;
  const uint64_t t = lane_floor(d, std::max({floor, queue, interval}));
  last_fpu_dispatch_ = t;
  take_slot(t, d);
  const bool iterative = cls == OpClass::FpDiv || cls == OpClass::FpSqrt;
  uint64_t start = std::max({t, src_ready(d), fpu_next_});
  if (iterative) start = std::max(start, fpu_div_free_);
  uint32_t lat = st_.fp_add;
  switch (cls) {
    case OpClass::FpMul: lat = st_.fp_mul; break;
    case OpClass::FpFma: lat = st_.fp_fma; break;
    case OpClass::FpCvt: lat = st_.fp_cvt; break;
    case OpClass::FpCmp:
    case OpClass::FpMove: lat = st_.fp_cmp; break;
    case OpClass::FpDiv: lat = st_.fp_div; break;
    case OpClass::FpSqrt: lat = st_.fp_sqrt; break;
    default: break;
  }
  if (d.latency) lat = d.latency;  // a custom instruction on the FPU
  fpu_starts_[fpu_count_++ % st_.fpu_queue] = start;
  fpu_next_ = start + (d.ii ? d.ii : 1);
  if (iterative) fpu_div_free_ = start + lat;
  set_ready(dst, start + lat);
  complete_at(start + lat);
  retire(start + lat);
  busy(kFpu, start, iterative ? lat : 1, start - floor);
  return t;
}

uint64_t CoreTiming::dispatch_serialising(const rv::StepInfo& s, uint64_t earliest) {
  const rv::DecodedInsn& d = *s.insn;
  const OpClass cls = d.cls;
  const uint8_t dst = d.dst[0];
  // Serialising: waits until all older instructions (scalar and vector) are complete,
  // fences and mpause also for the LSU to be idle (Decode.scala: lsuActive), and
  // dispatches alone.
  uint64_t t = std::max(cls == OpClass::Csr ? csr_dispatch_cycle() : serialising_floor(complete_), earliest);
  if (cls == OpClass::Csr) t = std::max(t, src_ready(d));
  take_slot(t, d);
  slots_ = st_.dispatch_width;
  next_min_ = std::max(next_min_, t + 1);
  set_ready(dst, t + st_.alu_latency);
  complete_at(t + (cls == OpClass::Csr ? st_.csr_latency : 1));
  retire(t + 1);
  busy(kScalarAlu, t, 1, 0);
  return t;
}

uint64_t CoreTiming::dispatch_vector(const rv::StepInfo& s, uint64_t earliest) {
  const rv::DecodedInsn& d = *s.insn;
  const OpClass cls = d.cls;
  const uint8_t dst = d.dst[0];
  // Vector instructions: the scalar core dispatches them into the command queue.
  const bool load_step = s.load_group > 0;  // a custom instruction's vector load step
  const bool memory = cls == OpClass::VecLoad || cls == OpClass::VecStore || load_step;
  uint64_t floor = std::max(slot_floor(), earliest);
  if (memory) {
    floor = std::max(floor, lsu_queue_floor());
    if (any_vector_memory_) floor = std::max(floor, last_vector_memory_ + vt_.memory_interval);
  }
  const uint64_t queue = commands_ >= vt_.command_queue ? cq_leave_[commands_ % vt_.command_queue] : 0;
  // The scalar scoreboard checks bits 11:7 of every vector instruction as an x register, a
  // vector destination or store source too: it waits for a pending write of the x register
  // with that number (measured: lb s0 then vadd.vv v8 waits for the load, vadd.vv v1 does
  // not; tests/platforms/coral_rtl_programs/vd_field_scalar_waw.s). vmv.x.s & co write it.
  const uint32_t rd_field = (d.raw >> 7) & 31;
  const uint64_t scalar_waw = rd_field ? ready_[rd_field] : 0;
  // A vector load's or store's base address (rs1) is read from the register file on the LSU's
  // port without write forwarding, as a scalar access's address; a stride (rs2) is forwarded
  // (measured: addi s0 then vle8.v (s0) dispatch 2 cycles apart, li a5 then vlse8.v (t3), a5
  // 1 apart: coral_rtl_programs/vle_address_after_alu.s, vlse_dtcm.s).
  // A load step's address register is the custom instruction's first source (decode_into).
  const uint8_t address = load_step ? d.src[0] : uint8_t((d.raw >> 15) & 31);
  const uint64_t base_address = memory ? ready_[address] + st_.lsu_operand_read : 0;
  uint64_t t = lane_floor(d, std::max({floor, queue, scalar_src_ready(d), base_address, scalar_waw}));
  if (needs_config_state(d) || load_step) t = config_state_floor(t);
  take_slot(t, d);
  note_frontend_dispatch(t, false);
  if (memory) {
    last_vector_memory_ = t;
    any_vector_memory_ = true;
  }
  const uint64_t written = vector_command(s, t);
  // Vector stores hold their entry too: the LSU reports each stored register to the vector
  // core, which writes it back like a result, and the buffer completes the entry on the
  // first one with its pc (as entry_completed_by_pc): measured, the 8th instruction after a
  // store dispatches as early after an m4 or m2 store as after an m1 store, to DTCM or
  // external memory (tests/platforms/coral_rtl_programs/vse_ext_m4_entry.s).
  const bool writes_vector = dst != rv::kNoReg && dst >= rv::kVecBase;
  if (cls == OpClass::VecStore)
    retire(first_register_done_);
  else
    retire(writes_vector ? entry_completed_by_pc(s.pc, t, written) : dst != rv::kNoReg ? written : t + 1);
  return t;
}

// vset{i}vl{i}: a scalar ALU operation that also enters the vector frontend.
uint64_t CoreTiming::dispatch_vector_config(const rv::StepInfo& s, uint64_t earliest) {
  const uint64_t t = dispatch_alu(s, earliest);
  note_frontend_dispatch(t, true);
  return t;
}

// Vector loads and stores, and the instructions that trap unless vstart is 0 (reductions,
// vcpop, vfirst, vmsbf/vmsif/vmsof, viota, vcompress), dispatch only while the vector
// frontend's configuration state is valid (Decode.scala: rvvConfigInterlock,
// rvvVstartInterlock; RvvDecode.scala: requireZeroVstart).
bool CoreTiming::needs_config_state(const rv::DecodedInsn& d) {
  if (d.cls == OpClass::VecLoad || d.cls == OpClass::VecStore) return true;
  if ((d.raw & 0x7f) != 0x57 || ((d.raw >> 12) & 7) != 2) return false;  // OP-V, OPMVV
  const uint32_t funct6 = d.raw >> 26, vs1 = (d.raw >> 15) & 31;
  if (funct6 <= 0x07 || funct6 == 0x17 || funct6 == 0x30 || funct6 == 0x31) return true;
  if (funct6 == 0x10) return vs1 == 0x10 || vs1 == 0x11;
  if (funct6 == 0x14) return (vs1 >= 1 && vs1 <= 3) || vs1 == 0x10;
  return false;
}

// The configuration state is invalid in the cycle after the frontend accepted any vector
// instruction (it holds it a cycle, RvvFrontEnd.sv: config_state_valid) and after a vset*
// in an earlier lane of the same cycle: the earliest cycle from `t` where it is valid.
uint64_t CoreTiming::config_state_floor(uint64_t t) const {
  for (;;) {
    const bool accepted_before = t == frontend_cycle_ + 1 || (t == frontend_cycle_ && t == frontend_cycle_before_ + 1);
    if (!accepted_before && t != vset_cycle_) return t;
    ++t;
  }
}

void CoreTiming::note_frontend_dispatch(uint64_t t, bool vset) {
  if (t != frontend_cycle_) {
    frontend_cycle_before_ = frontend_cycle_;
    frontend_cycle_ = t;
  }
  if (vset) vset_cycle_ = t;
}

// The retirement buffer completes the entry of an instruction that writes vector registers
// when the backend writes back a last micro-op whose pc is the entry's
// (RetirementBuffer.scala: uop_pc == entry address; stores complete another way), so
// every entry of that pc is completed by it, also a later loop iteration's instance of the
// instruction dispatched before an earlier one wrote back. Returns when the entry
// dispatched at `dispatched` completes: its own write-back or an older instance's, the
// first one after it entered the buffer.
uint64_t CoreTiming::entry_completed_by_pc(uint32_t pc, uint64_t dispatched, uint64_t written) {
  uint64_t completed = written;
  const uint64_t kept = std::min<uint64_t>(n_vector_writebacks_, vector_writebacks_.size());
  for (uint64_t k = 1; k <= kept; ++k) {  // newest first; the backend writes back in order
    const auto& [older_pc, cycle] = vector_writebacks_[(n_vector_writebacks_ - k) % vector_writebacks_.size()];
    if (cycle <= dispatched) break;
    if (older_pc == pc) completed = std::min(completed, cycle);
  }
  vector_writebacks_[n_vector_writebacks_++ % vector_writebacks_.size()] = {pc, written};
  return completed;
}

uint64_t CoreTiming::account(const rv::StepInfo& s, uint32_t next_pc, uint32_t rs1_value, uint32_t rs2_value,
                             uint64_t earliest) {
  const OpClass cls = s.insn->cls;
  // Only a custom instruction with a load step accesses memory in these classes.
  if (s.mem_bytes && (cls == OpClass::Alu || cls == OpClass::Mul || cls == OpClass::FpAdd) && rv::is_custom(*s.insn))
    return dispatch_custom_load(s, earliest);
  switch (cls) {
    case OpClass::Alu: return dispatch_alu(s, earliest);
    case OpClass::VecConfig: return dispatch_vector_config(s, earliest);
    case OpClass::Branch:
    case OpClass::Jump: return dispatch_branch(s, next_pc, earliest);
    case OpClass::Mul: return dispatch_mul(s, earliest);
    case OpClass::Div: return dispatch_div(s, rs1_value, rs2_value, earliest);
    case OpClass::Load:
    case OpClass::FpLoad:
    case OpClass::Store:
    case OpClass::FpStore: return dispatch_memory(s, earliest);
    case OpClass::FpAdd:
    case OpClass::FpMul:
    case OpClass::FpFma:
    case OpClass::FpCvt:
    case OpClass::FpCmp:
    case OpClass::FpMove:
    case OpClass::FpDiv:
    case OpClass::FpSqrt: return dispatch_fpu(s, earliest);
    case OpClass::Csr:
    case OpClass::Fence:
    case OpClass::System:
    case OpClass::Halt: return dispatch_serialising(s, earliest);
    default: return dispatch_vector(s, earliest);
  }
}

// Decodes one vector command: it leaves the command queue at most `commands_per_cycle`
// per cycle, once the micro-op queue has room for all its micro-ops.
uint64_t CoreTiming::decode_command(uint64_t t, uint32_t uops) {
  uint64_t td = std::max(t + 1, last_decode_);
  if (td == last_decode_ && decodes_in_cycle_ >= vt_.commands_per_cycle) ++td;
  const uint64_t need = uops_ + uops;  // micro-ops ever queued once this command is in
  if (need > vt_.uop_queue) td = std::max(td, uop_issue_[(need - 1 - vt_.uop_queue) % vt_.uop_queue] + 1);
  if (td != last_decode_) decodes_in_cycle_ = 0;
  last_decode_ = td;
  ++decodes_in_cycle_;
  cq_leave_[commands_++ % vt_.command_queue] = td;
  hold(kCommandQueue, t, td);
  return td;
}

// The cycle a micro-op ready at `ready` leaves the queue: in order, at most
// `dispatch_per_cycle` per cycle.
uint64_t CoreTiming::dispatch_slot(uint64_t ready) {
  ready = std::max(ready, last_dispatch_);
  if (ready == last_dispatch_ && dispatched_in_cycle_ >= vt_.dispatch_per_cycle) ++ready;
  if (ready != last_dispatch_) dispatched_in_cycle_ = 0;
  last_dispatch_ = ready;
  ++dispatched_in_cycle_;
  return ready;
}

// The reorder buffer retires micro-ops in order, at most `retire_per_cycle` a cycle
// (NUM_RT_UOP): the cycle the entry of a micro-op done at `done` retires.
uint64_t CoreTiming::retire_entry(uint64_t done) {
  uint64_t t = std::max(done, last_retire_);
  if (t == last_retire_ && retired_in_cycle_ >= vt_.retire_per_cycle) ++t;
  if (t != last_retire_) retired_in_cycle_ = 0;
  last_retire_ = t;
  ++retired_in_cycle_;
  return t;
}

// The latest ready cycle of every register of the command's vector source groups.
uint64_t CoreTiming::vector_sources_ready(const rv::StepInfo& s) const {
  uint64_t ready = 0;
  const uint32_t group = std::max<uint32_t>(s.src_group, 1);
  for (uint8_t r : s.insn->src)
    if (r != rv::kNoReg && r >= rv::kVecBase)
      for (uint32_t k = 0; k < group && r + k < rv::kVecBase + 32; ++k) ready = std::max(ready, ready_[r + k]);
  return ready;
}

// A unit-stride or strided store of registers a vector load wrote reads them one by one as
// the slot reaches them (the LSU takes and hands over a register at a time): loaded register
// k need only be ready when the slot starts on it, `cycles` * k / `uops` after the start.
// Registers an arithmetic op wrote, and the other vector sources (the mask), are needed at
// the start (measured: vadd.vx then vse8.v of its m4 result waits for all of it).
uint64_t CoreTiming::store_data_floor(const rv::StepInfo& s, uint64_t cycles, uint32_t uops) const {
  const uint8_t data = uint8_t(rv::kVecBase + ((s.insn->raw >> 7) & 31));
  const uint32_t group = std::max<uint32_t>(s.src_group, 1);
  uint64_t floor = 0;
  for (uint8_t r : s.insn->src) {
    if (r == rv::kNoReg || r < rv::kVecBase) continue;
    if (r != data) {
      floor = std::max(floor, ready_[r]);
      continue;
    }
    for (uint32_t k = 0; k < group && r + k < rv::kVecBase + 32; ++k) {
      const bool loaded = (loaded_registers_ >> (r + k - rv::kVecBase)) & 1;
      const uint64_t reached = !loaded ? 0 : k < uops ? cycles * k / uops : cycles;
      // The store takes a loaded register a cycle after a dependent micro-op could (measured:
      // vle16.v then vse16.v copies at vl 7, 20 cycles a pair of copies as before loaded
      // registers were readable when handed over; vec_mem_dtcm copy probes).
      const uint64_t needed = ready_[r + k] + (loaded ? 1 : 0);
      if (needed > reached) floor = std::max(floor, needed - reached);
    }
  }
  return floor;
}

// A vector load or store: one operation in the scalar LSU's slot, in program order with the
// scalar memory operations. Returns when the loaded registers are written.
uint64_t CoreTiming::vector_memory(const rv::StepInfo& s, uint64_t t, uint64_t decoded) {
  const rv::DecodedInsn& d = *s.insn;
  const bool store = d.cls == OpClass::VecStore;
  const uint32_t registers = std::max<uint32_t>(store ? s.src_group : s.dst_group, 1);
  // The registers of each field's group that hold elements below vl are accessed; the
  // others, up to a power of two (micro_ops), still cost the slot a little.
  const uint32_t fields = std::max<uint32_t>(s.fields, 1);
  const uint32_t per_field = uint32_t((uint64_t(std::max<uint32_t>(s.vl, 1)) * std::max<uint32_t>(s.sew_bytes, 1) +
                                       rv::kVlenBytes - 1) / rv::kVlenBytes);
  const uint32_t held = std::min(registers, fields * std::min(per_field, std::max(registers / fields, 1u)));
  uint32_t slots = 1;
  while (slots < held) slots *= 2;
  const uint32_t idle = std::min(slots, registers) - held;
  // Index registers holding elements below vl beyond the data registers that do cost the
  // slot a cycle each (measured: e8 data with 16-bit indices +1 per data register, 32-bit +3).
  const uint32_t index_held = uint32_t((uint64_t(std::max<uint32_t>(s.vl, 1)) * s.index_bytes + rv::kVlenBytes - 1) /
                                       rv::kVlenBytes);
  uint32_t index_slots = 1;
  while (index_slots < index_held) index_slots *= 2;
  const uint32_t extra_index = index_slots > slots ? index_slots - slots : 0;
  const uint32_t extra = idle * vt_.idle_register_cycles + extra_index * vt_.index_register_cycles;
  // Its micro-ops, one per register, take reorder-buffer entries in order like any other:
  // with the buffer full the LSU starts once the oldest entry retires (the later
  // registers' entries free up while the first ones are accessed).
  const uint32_t uops = std::min(slots, registers);
  const uint64_t rob_free = rob_entries_ >= vt_.rob ? rob_retire_[rob_entries_ % vt_.rob] : 0;
  // Its micro-ops dispatch in order with the other vector micro-ops: not before the previous one.
  const bool axi = kind_of(s.mem_addr) == MemKind::Axi;
  const uint64_t sources = store && fields == 1 && s.index_bytes == 0
                               ? store_data_floor(s, lsu_cycles(true, axi, s.mem_blocks, held, true, extra), uops)
                               : vector_sources_ready(s);
  // The micro-op leaves the queue in order with the other vector micro-ops, once its
  // reorder-buffer entry is free, into the LSU's reservation station, a register stage: the
  // LSU takes it the cycle after (rvv_backend.sv: u_lsu_rs; LsuV2 takes each register's
  // micro-op from io_rvv2lsu). The data a store writes and the index and mask registers are
  // needed as the LSU starts, not to leave the queue.
  const uint64_t queued = dispatch_slot(std::max(t + vt_.lsu_start - 1, rob_free));
  const uint64_t earliest = std::max(queued + 1, sources);
  const LsuOp op = lsu_operation(earliest, store, axi, s.mem_blocks, held, true, extra);
  const uint64_t written = op.done + vt_.load_writeback;
  // The slot works register by register and hands each one over as it finishes it: a loaded
  // register's micro-op retires then, in order (its reorder-buffer entry is free for a micro-op
  // leaving the queue in that cycle), and a dependent micro-op may leave the queue then too;
  // the retirement buffer hears of it load_writeback later, as of a result vector.writeback
  // after it retires (measured: an m8 vwadd.wv behind two DTCM m2 loads completes 2 cycles after
  // the second load, tests/platforms/coral_rtl_programs/vwadd_behind_loads.s). A store's
  // micro-op retires as the retirement buffer hears of its register.
  std::array<uint64_t, 8> handed{};
  for (uint32_t k = 0; k < uops; ++k, ++uops_) {
    const uint64_t lsu_done = op.start + (op.done - op.start) * (k + 1) / uops;
    if (k < handed.size()) handed[k] = lsu_done;
    if (k == 0) first_register_done_ = lsu_done + vt_.load_writeback;
    // Traces only: the entry it takes frees when the micro-op `rob` places back retires.
    const uint64_t entry_free = events_ && rob_entries_ >= vt_.rob ? rob_retire_[rob_entries_ % vt_.rob] : 0;
    const uint64_t retire = retire_entry(store ? lsu_done + vt_.load_writeback : lsu_done);
    uop_issue_[uops_ % vt_.uop_queue] = queued;
    rob_retire_[rob_entries_++ % vt_.rob] = retire;
    hold(kUopQueue, decoded, queued + 1);
    hold(kReorderBuffer, std::max(queued, entry_free), retire);
  }
  // Segment loads fill registers out of order, and registers beyond the micro-ops come with
  // the last.
  if (!store && d.dst[0] != rv::kNoReg)
    for (uint32_t k = 0; k < registers && d.dst[0] + k < rv::kVecBase + 32; ++k) {
      const uint64_t reg_handed = fields == 1 && k < uops && k < handed.size() ? handed[k] : op.done;
      ready_[d.dst[0] + k] = std::max(ready_[d.dst[0] + k], reg_handed);
      loaded_registers_ |= 1u << (d.dst[0] + k - rv::kVecBase);
    }
  if (store) store_tail_at(written);
  else complete_at(written);
  busy(kVecLsu, op.start, op.done - op.start, op.start - earliest);
  return written;
}

// A custom instruction's vector load step: a unit-stride load of its group through the LSU
// slot like vle<eew>.v (vector_memory), into the unit rather than a register. Returns when
// the slot has handed over its last register: the arithmetic micro-ops start after it.
uint64_t CoreTiming::vector_load_step(const rv::StepInfo& s, uint64_t t, uint64_t decoded) {
  rv::DecodedInsn load;
  load.cls = OpClass::VecLoad;
  load.src[0] = s.insn->src[0];  // the address register
  rv::StepInfo ls;
  ls.insn = &load;
  ls.pc = s.pc;
  ls.mem_addr = s.mem_addr;
  ls.mem_bytes = s.mem_bytes;
  ls.mem_blocks = s.mem_blocks;
  ls.vl = s.vl;
  ls.sew_bytes = s.load_sew_bytes;
  ls.dst_group = s.load_group;
  ls.src_group = 1;
  return vector_memory(ls, t, decoded) - vt_.load_writeback;
}

// The execution units of a vector operation class: 2 ALUs, 2 multipliers, one
// permute/reduction unit and one divider (rvv_backend_define.svh: NUM_ALU, NUM_MUL,
// NUM_PMTRDT, NUM_DIV).
CoreTiming::UnitPool CoreTiming::unit_pool(OpClass cls) {
  switch (cls) {
    case OpClass::VecMul: return {&vmul_free_, vt_.mul_units, kVecMul0, kVecMul1};
    case OpClass::VecDiv: return {&vdiv_free_, vt_.div_units, kVecDiv, kVecDiv};
    case OpClass::VecReduction:
    case OpClass::VecPermute: return {&vperm_free_, vt_.permute_units, kVecPermute, kVecPermute};
    default: return {&valu_free_, vt_.alu_units, kVecAlu0, kVecAlu1};
  }
}

// One micro-op per register of the larger group, as many as the registers that hold
// elements below vl (vl elements of the widest operand's width) rounded up to a power of
// two: the backend splits by an effective group size (measured: an m8 vadd at vl 40, three
// registers of elements, takes as long as four). A reduction, a compare into a mask or an
// extension has groups of different sizes at one width.
uint32_t CoreTiming::micro_ops(const rv::StepInfo& s) {
  const uint32_t full = std::max<uint32_t>({s.dst_group, s.src_group, 1});
  const uint64_t bytes = uint64_t(std::max<uint32_t>(s.vl, 1)) * std::max<uint32_t>(s.sew_bytes, 1) * s.element_scale;
  uint32_t used = 1;
  while (uint64_t(used) * rv::kVlenBytes < bytes) used *= 2;
  return std::min(full, used);
}

// A divide micro-op's latency and occupancy: its slowest lane's dividend bits, a few per
// cycle (vector_divider.h); the next micro-op starts div_overlap cycles before the result.
void CoreTiming::divide_timing(const rv::StepInfo& s, uint32_t uop, uint32_t& lat, uint32_t& occ) {
  const uint32_t bits = divider_.micro_op_bits(s, uop);
  lat = vt_.div + (bits + vt_.div_bits_per_cycle - 1) / vt_.div_bits_per_cycle;
  occ = std::max(vt_.div_interval, lat > vt_.div_overlap ? lat - vt_.div_overlap : 1);
}

// A multiply-class vector instruction does one multiply(-accumulate) per element below vl,
// at its source element width (widening ops: the narrow width they multiply).
void CoreTiming::count_vector_macs(const rv::StepInfo& s) {
  const int width = s.sew_bytes == 1 ? 0 : s.sew_bytes == 2 ? 1 : 2;
  vector_macs_[width] += s.vl;
}

// Splits one vector command into micro-ops and times them through the backend. Returns
// when its result is written (the last micro-op retired, or the scalar register written).
uint64_t CoreTiming::vector_command(const rv::StepInfo& s, uint64_t t) {
  const rv::DecodedInsn& d = *s.insn;
  const OpClass cls = d.cls;
  const uint32_t uops = micro_ops(s);
  if (cls == OpClass::VecMul) count_vector_macs(s);
  const bool memory = cls == OpClass::VecLoad || cls == OpClass::VecStore;
  const uint64_t td = decode_command(t, memory ? 0 : uops);
  if (memory) return vector_memory(s, t, td);
  const uint64_t loaded = s.load_group ? vector_load_step(s, t, td) : 0;

  uint32_t lat = vt_.alu, occ = 1;
  switch (cls) {
    case OpClass::VecMul: lat = vt_.mul; break;
    case OpClass::VecDiv: break;  // per micro-op: see divide_timing
    case OpClass::VecFixedPoint: lat = vt_.fixed_point; break;
    case OpClass::VecReduction: {  // widening sums (vwredsum[u]) take a cycle more, twice the unit
      const bool widening = (d.raw >> 26) == 0x30 || (d.raw >> 26) == 0x31;
      lat = vt_.reduction + (widening ? 1 : 0);
      occ = vt_.reduction_interval * (widening ? 2 : 1);
      break;
    }
    case OpClass::VecPermute: lat = vt_.permute; break;  // slides and gathers: see below
    case OpClass::VecMask: lat = vt_.mask; break;
    case OpClass::VecToScalar: lat = vt_.mask; break;
    default: break;
  }
  if (d.latency) lat = d.latency;  // a custom instruction's own latency and interval
  if (d.ii) occ = d.ii;
  const bool standard = (d.raw & 0x7f) == 0x57;  // funct6 below names an OP-V instruction

  // Vector register operands (first register of each group).
  uint8_t vsrc[4];
  int nsrc = 0;
  for (uint8_t r : d.src)
    if (r != rv::kNoReg && r >= rv::kVecBase) vsrc[nsrc++] = r;
  const uint8_t vdst = (d.dst[0] != rv::kNoReg && d.dst[0] >= rv::kVecBase) ? d.dst[0] : rv::kNoReg;
  const uint32_t dgroup = std::max<uint32_t>(s.dst_group, 1), sgroup = std::max<uint32_t>(s.src_group, 1);
  const uint32_t vs2 = (d.raw >> 20) & 31;
  const uint32_t funct6 = d.raw >> 26;
  // Multiply-adds (vmacc, vnmsac and the widening vwmacc*) read their accumulator, the
  // destination group, like any source: a chain through it waits for the full latency
  // (measured: 3 cycles per dependent op for vmacc and for vwmaccu/vwmacc/vwmaccsu at any
  // SEW and LMUL, tests/platforms/coral_rtl_programs/vwmaccu_chain.s).
  // Slides and gathers hold the permute unit longer for every micro-op after the first
  // (measured: m2 3 cycles, m4 7, m8 16 per instruction).
  const bool slide_or_gather = standard && cls == OpClass::VecPermute && (funct6 == 0x0c || funct6 == 0x0e || funct6 == 0x0f);

  // vwaddu.w, vwadd.w, vwsubu.w, vwsub.w (OPMVV/OPMVX): vs2 has the destination's width.
  const uint32_t funct3 = (d.raw >> 12) & 7;
  const bool slideup = standard && funct6 == 0x0e && (funct3 == 3 || funct3 == 4);  // .vx, .vi (not vslide1up)
  const bool wide_vs2 = standard && funct6 >= 0x34 && funct6 <= 0x37 && (funct3 == 2 || funct3 == 6);

  // Micro-ops read the sources as they were before the instruction: its own results (a
  // destination that is also a source, as in vwadd.wv v0, v0, v16) never hold it up.
  std::array<std::pair<uint32_t, uint64_t>, 8> writes{};
  uint32_t n_writes = 0;
  uint64_t last_done = td;
  // A reduction takes one reorder-buffer entry, for its last micro-op (the others only
  // fold into it: rvv_backend_decode_unit_ari, pshrob_valid).
  // Compares into a mask (vmseq..vmsgt, vmadc, vmsbc) likewise: the RTL sends them to the
  // permute/reduction unit (rvv_backend_decode_unit_ari: uop_exe_unit CMP; dispatch: one
  // reorder-buffer address for all their micro-ops).
  const bool compare = standard && (funct3 == 0 || funct3 == 3 || funct3 == 4) &&
                       (funct6 == 0x11 || funct6 == 0x13 || (funct6 >= 0x18 && funct6 <= 0x1f));
  const bool one_entry = cls == OpClass::VecReduction || compare;
  for (uint32_t j = 0; j < uops; ++j) {
    if (cls == OpClass::VecDiv) divide_timing(s, j, lat, occ);
    // Micro-ops leave the queue in order, each once its operands are ready and its
    // reorder-buffer entry is free, into a reservation station of its unit; they wait there
    // for the unit (stations are as deep as the reorder buffer, so they never fill).
    uint64_t ready = std::max({td, last_dispatch_, loaded});
    const uint64_t in_order = ready;
    for (int k = 0; k < nsrc; ++k) {
      // Sources are groups read in proportion, except v0 as a mask and a reduction's
      // scalar operand vs1 (single registers).
      const bool mask = vsrc[k] == rv::kVecBase && (d.raw >> 25 & 1) == 0;
      const bool single = mask || (cls == OpClass::VecReduction && uint32_t(vsrc[k] - rv::kVecBase) != vs2);
      // A widening op's wide operands are destination-sized groups: the accumulator of
      // vwmacc* and vs2 of vwadd.w*/vwsub.w* (at m4 they read 8 registers).
      const bool accumulator = vsrc[k] == vdst && cls == OpClass::VecMul;
      const bool wide = accumulator || (wide_vs2 && uint32_t(vsrc[k] - rv::kVecBase) == vs2);
      const uint32_t off = single ? 0 : (j * (wide ? dgroup : sgroup)) / uops;
      const uint32_t reg = std::min<uint32_t>(vsrc[k] + off, rv::kVecBase + 31);
      // A reduction folds its source registers first, one per cycle, and its scalar
      // operand vs1 only with the last: the first micro-op may start uops - 1 cycles early.
      const bool reduction_scalar = cls == OpClass::VecReduction && single && !mask;
      const uint64_t need = ready_[reg];
      const uint32_t early = reduction_scalar ? uops - 1 : 0;
      ready = std::max(ready, need > early ? need - early : 0);
    }
    const uint32_t dreg = vdst == rv::kNoReg ? 0 : std::min<uint32_t>(vdst + (j * dgroup) / uops, rv::kVecBase + 31);
    // vslideup keeps vd's elements below the offset: it reads its destination.
    if (slideup && vdst != rv::kNoReg) ready = std::max(ready, ready_[dreg]);
    const bool takes_entry = !one_entry || j + 1 == uops;
    if (takes_entry && rob_entries_ >= vt_.rob)  // ROB full: wait for a retire
      ready = std::max(ready, rob_retire_[rob_entries_ % vt_.rob]);
    ready = dispatch_slot(ready);

    // The earliest free unit of its kind.
    const UnitPool up = unit_pool(compare ? OpClass::VecReduction : cls);
    uint32_t best = 0;
    for (uint32_t u = 1; u < up.units && u < up.free->size(); ++u)
      if ((*up.free)[u] < (*up.free)[best]) best = u;
    auto& pool = *up.free;
    const Unit unit = static_cast<Unit>(up.first + std::min<uint32_t>(best, up.last - up.first));
    const uint64_t issue = std::max(ready, pool[best]);
    const uint64_t done = issue + lat;
    pool[best] = issue + (j > 0 && slide_or_gather ? vt_.slide_interval : occ);
    uop_issue_[uops_ % vt_.uop_queue] = ready;
    ++uops_;
    // A dispatched micro-op frees its queue slot the cycle after (decode_command).
    hold(kUopQueue, td, ready + 1);
    if (takes_entry) {
      const uint64_t retire = retire_entry(done);
      rob_retire_[rob_entries_++ % vt_.rob] = retire;
      hold(kReorderBuffer, ready, retire);
    }
    if (vdst != rv::kNoReg && n_writes < writes.size()) writes[n_writes++] = {dreg, done};
    last_done = std::max(last_done, done);
    complete_at(std::max(done, last_retire_));
    busy(unit, issue, occ, issue - in_order);
  }
  for (uint32_t w = 0; w < n_writes; ++w) {
    const uint8_t reg = writes[w].first;
    ready_[reg] = std::max(ready_[reg], writes[w].second);
    if (reg >= rv::kVecBase && reg < rv::kVecBase + 32) loaded_registers_ &= ~(1u << (reg - rv::kVecBase));
  }
  // A scalar result (vmv.x.s, vcpop.m, vfirst.m) reaches the x register file later.
  if (cls == OpClass::VecToScalar) {
    set_ready(d.dst[0], last_done + vt_.to_scalar);
    complete_at(last_done + vt_.to_scalar);
    return last_done + vt_.to_scalar;
  }
  complete_at(last_retire_ + vt_.writeback);
  return last_retire_ + vt_.writeback;
}

}  // namespace tlmcraft::coral
