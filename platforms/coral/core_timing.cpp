#include "platforms/coral/core_timing.h"

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
    case kVecLsu: return "vector_lsu";
    case kAxi: return "axi";
    case kNumUnits: break;
  }
  return "unknown";
}

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

CoreTiming::CoreTiming(const CoralConfig& cfg)
    : cfg_(cfg), st_(cfg.scalar), vt_(cfg.vector) {
  mul_starts_.assign(st_.mul_queue, 0);
  fpu_starts_.assign(st_.fpu_queue, 0);
  cq_leave_.assign(vt_.command_queue, 0);
  uop_issue_.assign(vt_.uop_queue, 0);
  rob_retire_.assign(vt_.rob, 0);
}

uint32_t CoreTiming::divider_iterations(uint32_t dividend, uint32_t divisor, bool is_signed) {
  if (divisor == 0) return 32;  // divide-by-zero runs the full latency
  uint32_t inp = dividend;
  if (is_signed && (inp >> 31)) inp = ~inp + 1u;
  // Iterations = 32 - (leading zeros - 1): the divider starts at the dividend's top bit
  // (one position early), except a dividend with bit 31 set starts at bit 31.
  if (inp >> 31) return 32;
  const uint32_t low = inp & 0x7fffffffu;
  const uint32_t lz31 = low == 0 ? 30 : static_cast<uint32_t>(__builtin_clz(low)) - 1;  // zeros in bits 30..0, capped at 30
  return 32 - lz31;
}

// The earliest cycle the next instruction may dispatch in, from slot occupancy alone.
uint64_t CoreTiming::slot_floor(bool alu_ok) const {
  uint64_t t = std::max(cycle_, next_min_);
  if (t == cycle_ && (slots_ >= st_.dispatch_width || (after_branch_ && !alu_ok))) ++t;
  return t;
}

void CoreTiming::take_slot(uint64_t t) {
  if (t != cycle_) {
    cycle_ = t;
    slots_ = 0;
    after_branch_ = false;
  }
  last_slot_ = slots_++;
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
  if (events_) events_->push_back({u, begin, begin + cycles});
}

void CoreTiming::axi_access(uint64_t begin, uint64_t beats, uint64_t done) {
  UnitCounters& c = units_[kAxi];
  ++c.instructions;
  c.busy += beats;
  if (events_) events_->push_back({kAxi, begin, done});
}

uint64_t CoreTiming::csr_dispatch_cycle() const {
  uint64_t t = std::max(slot_floor(false), complete_);
  if (t == cycle_ && slots_ > 0) ++t;  // alone in its cycle
  return t;
}

uint64_t CoreTiming::account(const rv::StepInfo& s, uint32_t next_pc, uint32_t rs1_value, uint32_t rs2_value,
                             uint64_t earliest) {
  const rv::DecodedInsn& d = *s.insn;
  const OpClass cls = d.cls;
  const uint8_t dst = d.dst[0];

  switch (cls) {
    case OpClass::Alu:
    case OpClass::VecConfig: {
      const uint64_t floor = std::max(slot_floor(true), earliest);
      uint64_t t = std::max({floor, src_ready(d), ready_[dst]});
      take_slot(t);
      set_ready(dst, t + st_.alu_latency);
      complete_at(t + st_.alu_latency + 1);  // written back one cycle after forwarding
      busy(kScalarAlu, t, 1, t - floor);
      return t;
    }
    case OpClass::Branch:
    case OpClass::Jump: {
      const uint64_t floor = std::max(slot_floor(true), earliest);
      const uint64_t t = std::max({floor, src_ready(d), ready_[dst]});
      take_slot(t);
      set_ready(dst, t + st_.alu_latency);  // link register
      complete_at(t + 1);
      busy(kScalarAlu, t, 1, t - floor);
      const bool jalr = (s.insn->raw & 0x7f) == 0x67;
      const bool backward = s.insn->imm < 0;  // branch offset: static prediction backward-taken
      uint32_t redirect = 0;
      if (cls == OpClass::Jump) {
        redirect = jalr ? st_.mispredict : 0;  // jal: predicted, costed as a taken branch below
      } else if (s.taken != backward) {
        redirect = st_.mispredict;  // static prediction: backward taken, forward not taken
      }
      if (redirect == 0 && (s.taken || cls == OpClass::Jump)) {
        const uint32_t line = st_.fetch_line_bytes;
        redirect = (next_pc / line == s.pc / line) ? st_.taken_same_line : st_.taken;
      }
      if (redirect) next_min_ = std::max(next_min_, t + redirect);
      else after_branch_ = true;
      return t;
    }
    case OpClass::Mul: {
      // Dispatch waits only for a queue slot; the operands are awaited in the unit.
      const uint64_t floor = std::max(slot_floor(false), earliest);
      const uint64_t queue = mul_count_ >= st_.mul_queue ? mul_starts_[mul_count_ % st_.mul_queue] : 0;
      const uint64_t t = std::max(floor, queue);
      take_slot(t);
      const uint64_t start = std::max({t, src_ready(d), mul_next_});
      mul_starts_[mul_count_++ % st_.mul_queue] = start;
      mul_next_ = start + 1;
      set_ready(dst, start + st_.mul_latency);
      complete_at(start + st_.mul_latency);
      busy(kMul, start, 1, start - floor);
      return t;
    }
    case OpClass::Div: {
      // Blocking: the divider takes a new operation once the previous one is done.
      const uint64_t floor = std::max(slot_floor(false), earliest);
      const uint64_t t = std::max({floor, dvu_free_, src_ready(d), ready_[dst]});
      take_slot(t);
      const uint32_t funct3 = (s.insn->raw >> 12) & 7;  // div=4 divu=5 rem=6 remu=7
      const uint64_t cycles = st_.div_base + divider_iterations(rs1_value, rs2_value, funct3 == 4 || funct3 == 6);
      const uint64_t done = t + cycles;
      dvu_free_ = done;
      set_ready(dst, done);
      complete_at(done);
      busy(kDiv, t, cycles, t - floor);
      return t;
    }
    case OpClass::Load:
    case OpClass::FpLoad:
    case OpClass::Store:
    case OpClass::FpStore: {
      const bool store = cls == OpClass::Store || cls == OpClass::FpStore;
      const uint64_t floor = std::max(slot_floor(false), earliest);
      uint64_t t = std::max({floor, lsu_free_, src_ready(d), vector_store_done_});
      if (!store) t = std::max(t, ready_[dst]);
      take_slot(t);
      const uint32_t bytes = s.mem_bytes ? s.mem_bytes : 4;
      uint64_t done, occupancy;
      if (kind_of(s.mem_addr) == MemKind::Tcm) {
        occupancy = st_.lsu_issue_interval;
        done = t + (store ? st_.store_latency : st_.load_latency);
      } else {
        const uint64_t beats = ceil_div(bytes, cfg_.axi.bytes_per_cycle);
        // External accesses hold the LSU until the data returns (loads) or has been sent (stores).
        done = store ? t + beats + cfg_.axi.write_latency : t + cfg_.axi.read_latency + beats;
        occupancy = std::max<uint64_t>(st_.lsu_issue_interval, store ? beats : done - t);
        axi_access(t, beats, done);
      }
      lsu_free_ = t + occupancy;
      if (store) scalar_store_done_ = std::max(scalar_store_done_, done);
      else set_ready(dst, done);
      complete_at(done);
      busy(kLsu, t, occupancy, t - floor);
      return t;
    }
    case OpClass::FpAdd:
    case OpClass::FpMul:
    case OpClass::FpFma:
    case OpClass::FpCvt:
    case OpClass::FpCmp:
    case OpClass::FpMove:
    case OpClass::FpDiv:
    case OpClass::FpSqrt: {
      const uint64_t floor = std::max(slot_floor(false), earliest);
      const uint64_t queue = fpu_count_ >= st_.fpu_queue ? fpu_starts_[fpu_count_ % st_.fpu_queue] : 0;
      const uint64_t t = std::max(floor, queue);
      take_slot(t);
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
      fpu_starts_[fpu_count_++ % st_.fpu_queue] = start;
      fpu_next_ = start + 1;
      if (iterative) fpu_div_free_ = start + lat;
      set_ready(dst, start + lat);
      complete_at(start + lat);
      busy(kFpu, start, iterative ? lat : 1, start - floor);
      return t;
    }
    case OpClass::Csr:
    case OpClass::Fence:
    case OpClass::System:
    case OpClass::Halt: {
      // Serialising: waits until all older instructions (scalar and vector) are complete,
      // and dispatches alone.
      uint64_t t = std::max(csr_dispatch_cycle(), earliest);
      if (cls == OpClass::Csr) t = std::max(t, src_ready(d));
      take_slot(t);
      slots_ = st_.dispatch_width;
      next_min_ = std::max(next_min_, t + 1);
      set_ready(dst, t + st_.alu_latency);
      complete_at(t + (cls == OpClass::Csr ? st_.csr_latency : 1));
      busy(kScalarAlu, t, 1, 0);
      return t;
    }
    default:
      break;
  }
  // Vector instructions: the scalar core dispatches them into the command queue.
  const uint64_t floor = std::max(slot_floor(false), earliest);
  const uint64_t queue = commands_ >= vt_.command_queue ? cq_leave_[commands_ % vt_.command_queue] : 0;
  const uint64_t t = std::max({floor, queue, scalar_src_ready(d)});
  take_slot(t);
  vector_command(s, t);
  return t;
}

// Splits one vector command into micro-ops and times them through the backend.
uint64_t CoreTiming::vector_command(const rv::StepInfo& s, uint64_t t) {
  const rv::DecodedInsn& d = *s.insn;
  const OpClass cls = d.cls;
  const uint32_t uops = std::max<uint32_t>({s.dst_group, s.src_group, 1});

  // Decode into micro-ops: at most commands_per_cycle per cycle, and only when the
  // micro-op queue has room for all of them.
  uint64_t td = std::max(t + 1, last_decode_);
  if (td == last_decode_ && decodes_in_cycle_ >= vt_.commands_per_cycle) ++td;
  const uint64_t need = uops_ + uops;  // micro-ops ever queued once this command is in
  if (need > vt_.uop_queue) td = std::max(td, uop_issue_[(need - 1 - vt_.uop_queue) % vt_.uop_queue] + 1);
  if (td != last_decode_) decodes_in_cycle_ = 0;
  last_decode_ = td;
  ++decodes_in_cycle_;
  cq_leave_[commands_++ % vt_.command_queue] = td;

  // Unit, latency and per-micro-op occupancy.
  const bool mem = cls == OpClass::VecLoad || cls == OpClass::VecStore;
  const bool is_store = cls == OpClass::VecStore;
  const bool mul_class = cls == OpClass::VecMul || cls == OpClass::VecDiv;
  uint32_t lat = vt_.alu, occ = 1;
  switch (cls) {
    case OpClass::VecMul: lat = vt_.mul; break;
    case OpClass::VecDiv: lat = occ = vt_.div; break;
    case OpClass::VecFixedPoint: lat = vt_.fixed_point; break;
    case OpClass::VecReduction: lat = vt_.reduction; break;
    case OpClass::VecPermute: lat = vt_.permute; break;
    case OpClass::VecMask: lat = vt_.mask; break;
    case OpClass::VecToScalar: lat = vt_.mask; break;
    default: break;
  }
  const bool axi = mem && kind_of(s.mem_addr) == MemKind::Axi;
  const uint64_t bytes_per_uop = mem ? ceil_div(s.mem_bytes, uops) : 0;
  const uint64_t elems_per_uop = ceil_div(std::max<uint32_t>(s.vl, 1), uops);

  // Vector register operands (first register of each group).
  uint8_t vsrc[4];
  int nsrc = 0;
  for (uint8_t r : d.src)
    if (r != rv::kNoReg && r >= rv::kVecBase) vsrc[nsrc++] = r;
  const uint8_t vdst = (d.dst[0] != rv::kNoReg && d.dst[0] >= rv::kVecBase) ? d.dst[0] : rv::kNoReg;
  const uint32_t dgroup = std::max<uint32_t>(s.dst_group, 1), sgroup = std::max<uint32_t>(s.src_group, 1);
  const uint32_t vs2 = (d.raw >> 20) & 31;

  uint64_t last_done = td;
  for (uint32_t j = 0; j < uops; ++j) {
    uint64_t ready = std::max(td, last_issue_);
    const uint64_t in_order = ready;
    for (int k = 0; k < nsrc; ++k) {
      // Sources are groups read in proportion, except v0 as a mask and a reduction's
      // scalar operand vs1 (single registers).
      const bool mask = vsrc[k] == rv::kVecBase && (d.raw >> 25 & 1) == 0;
      const bool single = mask || (cls == OpClass::VecReduction && uint32_t(vsrc[k] - rv::kVecBase) != vs2);
      const uint32_t off = single ? 0 : (j * sgroup) / uops;
      const uint32_t reg = std::min<uint32_t>(vsrc[k] + off, rv::kVecBase + 31);
      ready = std::max(ready, ready_[reg]);
    }
    if (cls == OpClass::VecReduction && j > 0) ready = std::max(ready, last_done);  // accumulates serially
    if (mem && !is_store) ready = std::max(ready, scalar_store_done_);
    if (uops_ >= vt_.rob) ready = std::max(ready, rob_retire_[uops_ % vt_.rob]);  // ROB full: wait for a retire

    // Choose the unit: the earliest free of its kind.
    Unit unit;
    uint64_t* free_at;
    if (mem) {
      unit = kVecLsu;
      free_at = &vlsu_free_;
    } else if (mul_class) {
      uint32_t best = 0;
      for (uint32_t u = 1; u < vt_.mul_units && u < vmul_free_.size(); ++u)
        if (vmul_free_[u] < vmul_free_[best]) best = u;
      unit = best == 0 ? kVecMul0 : kVecMul1;
      free_at = &vmul_free_[best];
    } else {
      uint32_t best = 0;
      for (uint32_t u = 1; u < vt_.alu_units && u < valu_free_.size(); ++u)
        if (valu_free_[u] < valu_free_[best]) best = u;
      unit = best == 0 ? kVecAlu0 : kVecAlu1;
      free_at = &valu_free_[best];
    }
    const uint64_t issue = std::max(ready, *free_at);

    uint64_t done, busy_cycles = occ;
    if (mem) {
      if (axi) {
        const uint64_t beats = ceil_div(bytes_per_uop, cfg_.axi.bytes_per_cycle);
        busy_cycles = s.mem_strided ? elems_per_uop : beats;
        done = issue + busy_cycles + (is_store ? cfg_.axi.write_latency : cfg_.axi.read_latency);
        axi_access(issue, busy_cycles, done);
      } else {
        busy_cycles = s.mem_strided ? ceil_div(elems_per_uop, vt_.strided_elements_per_cycle)
                                    : ceil_div(std::max<uint64_t>(bytes_per_uop, 1), vt_.lsu_bytes_per_cycle);
        done = issue + busy_cycles - 1 + (is_store ? cfg_.scalar.store_latency : cfg_.scalar.load_latency);
      }
    } else {
      done = issue + lat;
    }
    *free_at = issue + busy_cycles;
    last_issue_ = issue;
    uop_issue_[uops_ % vt_.uop_queue] = issue;
    const uint64_t retire = std::max(done, last_retire_);
    last_retire_ = retire;
    rob_retire_[uops_ % vt_.rob] = retire;
    ++uops_;
    if (vdst != rv::kNoReg) {
      const uint32_t reg = std::min<uint32_t>(vdst + (j * dgroup) / uops, rv::kVecBase + 31);
      ready_[reg] = std::max(ready_[reg], done);
    }
    if (is_store) vector_store_done_ = std::max(vector_store_done_, done);
    last_done = std::max(last_done, done);
    complete_at(retire);
    busy(unit, issue, busy_cycles, issue - in_order);
  }
  // A scalar result (vmv.x.s, vcpop.m, vfirst.m) reaches the x register file later.
  if (cls == OpClass::VecToScalar) {
    set_ready(d.dst[0], last_done + vt_.to_scalar);
    complete_at(last_done + vt_.to_scalar);
  }
  return last_done;
}

}  // namespace tlmcraft::coral
