#include "isa/aie_ml/def_use.h"

#include <algorithm>

#include "isa/aie_ml/isa_tables.h"
#include "isa/aie_ml/op_codes.h"

namespace tlmcraft::isa::aie_ml {

namespace {

constexpr int kVectorHalf = 1000;  // + w index: 256-bit halves of x0..x11
constexpr int kAccQuarter = 2000;  // + am index: 256-bit quarters of cm0..cm8

bool is_vector_class(RegClass c) {
  return c == RegClass::W || c == RegClass::X || c == RegClass::Y || c == RegClass::AM || c == RegClass::BM ||
         c == RegClass::CM;
}

void add(std::vector<int>& v, const std::vector<int>& units) {
  for (int u : units)
    if (std::find(v.begin(), v.end(), u) == v.end()) v.push_back(u);
}

// The assembler's storage unit ids of x and bm registers (coarser than ours).
bool is_coarse_vector_unit(uint16_t u) {
  const std::string n = unit_name(u);
  return (n.size() > 1 && n[0] == 'x' && std::isdigit(static_cast<unsigned char>(n[1]))) || n.rfind("bm", 0) == 0;
}

}  // namespace

std::vector<int> register_units(RegClass cls, int num) {
  switch (cls) {
    case RegClass::W: return {kVectorHalf + num};
    case RegClass::X: return {kVectorHalf + 2 * num, kVectorHalf + 2 * num + 1};
    case RegClass::Y: return {kVectorHalf + 4 * num, kVectorHalf + 4 * num + 1, kVectorHalf + 4 * num + 2, kVectorHalf + 4 * num + 3};
    case RegClass::AM: return {kAccQuarter + num};
    case RegClass::BM: return {kAccQuarter + 2 * num, kAccQuarter + 2 * num + 1};
    case RegClass::CM: return {kAccQuarter + 4 * num, kAccQuarter + 4 * num + 1, kAccQuarter + 4 * num + 2, kAccQuarter + 4 * num + 3};
    default: {
      std::vector<int> out;
      for (uint16_t u : storage_units(cls, num)) out.push_back(u);
      return out;
    }
  }
}

std::string unit_label(int unit) {
  if (unit >= kAccQuarter) return "am" + std::to_string(unit - kAccQuarter);
  if (unit >= kVectorHalf) return "w" + std::to_string(unit - kVectorHalf);
  return unit_name(static_cast<uint16_t>(unit));
}

OpEffects effects_of(const AieOp& o) {
  const AieIsaDetails& d = aie_isa_details();
  const SlotOp& op = o.op;
  OpEffects e;
  // Scalar-side units, memory-operand pointer/modifier/dimension effects and implicit
  // registers from the assembler; vector views replaced by the finer units below.
  for (uint16_t u : op.reads)
    if (!is_coarse_vector_unit(u)) add(e.reads, {u});
  for (uint16_t u : op.writes)
    if (!is_coarse_vector_unit(u)) add(e.writes, {u});
  const OpExtra& ex = d.extra.at(op.op);
  for (int i = 0; i < op.n_operands; ++i) {
    const Operand& a = op.operands[static_cast<size_t>(i)];
    if (a.kind != Operand::Kind::Reg || !is_vector_class(a.cls)) continue;
    const bool w = i < ex.dst;
    const bool r = !w || std::find(ex.rw.begin(), ex.rw.end(), i) != ex.rw.end();
    if (w) add(e.writes, register_units(a.cls, a.num));
    if (r) add(e.reads, register_units(a.cls, a.num));
  }
  e.bytes = ex.access_bytes;
  if (ex.access_bytes > 0) {
    e.load = op.slot == Slot::LoadA || op.slot == Slot::LoadB;
    e.store = op.slot == Slot::Store;
  }
  switch (Code(op.code)) {
    case Code::ACQ: case Code::ACQ_EQ: case Code::REL: e.lock = true; break;
    case Code::J: case Code::JL: case Code::JZ: case Code::JNZ: case Code::JNZD:
    case Code::RET: e.control = true; break;
    case Code::DONE: e.halt = true; break;
    case Code::NOP: e.nop = true; break;
    default: break;
  }
  e.latency = AieIsa::get().latency_of(op);
  return e;
}

OperandUse operand_use(const SlotOp& op, int i) {
  if (i < 0 || i >= op.n_operands || op.operands[size_t(i)].kind != Operand::Kind::Reg) return OperandUse::None;
  const OpExtra& ex = aie_isa_details().extra.at(op.op);
  const bool w = i < ex.dst;
  const bool rw = std::find(ex.rw.begin(), ex.rw.end(), i) != ex.rw.end();
  return rw ? OperandUse::ReadWrite : w ? OperandUse::Write : OperandUse::Read;
}

PointerTracker::PointerTracker(const PointerRanges* entry_ranges) : ranges(entry_ranges) {
  for (int p = 0; p < kPointerRegs; ++p) {
    base[static_cast<size_t>(p)] = next_base++;
    offset[static_cast<size_t>(p)] = 0;
  }
}

MemRef PointerTracker::access(const AieOp& o, const OpEffects& e) {
  MemRef m;
  const SlotOp& op = o.op;
  const Operand* mem = nullptr;
  for (int i = 0; i < op.n_operands; ++i)
    if (op.operands[static_cast<size_t>(i)].kind == Operand::Kind::Mem) mem = &op.operands[static_cast<size_t>(i)];
  int updated = -1;  // pointer this op post-modifies by an immediate
  if (mem) {
    const MemOperand& mo = mem->mem;
    const size_t p = mo.pointer;
    if ((e.load || e.store) && e.bytes > 0) {
      m.valid = true;
      m.pointer = mo.pointer;
      m.bytes = e.bytes;
      m.base = base[p];
      m.offset = offset[p];
      if (mo.mode == MemOperand::Mode::OffsetImm) m.offset += mo.imm;
      if (mo.mode == MemOperand::Mode::OffsetMod) m.base = -1;  // modifier value unknown here
      // Bases 0..7 are the pointers' values at block entry.
      if (ranges && m.base == static_cast<int>(p)) {
        const auto r = ranges->find(static_cast<int>(p));
        // Only ranges that cannot wrap around the 20-bit address space.
        if (r != ranges->end() && r->second.first + m.offset >= 0 &&
            r->second.second + m.offset + static_cast<int64_t>(m.bytes) <= (int64_t{1} << 20)) {
          m.ranged = true;
          m.lo = r->second.first + m.offset;
          m.hi = r->second.second + m.offset + static_cast<int64_t>(m.bytes);
        }
      }
    }
    if (mo.mode == MemOperand::Mode::PostImm) {
      offset[p] += mo.imm;
      updated = mo.pointer;
    }
  }
  // Any other write of a pointer gives it a fresh, unknown value.
  for (int u : e.writes)
    for (int p = 0; p < kPointerRegs; ++p)
      if (p != updated && register_units(RegClass::P, p)[0] == u) {
        base[static_cast<size_t>(p)] = next_base++;
        offset[static_cast<size_t>(p)] = 0;
      }
  return m;
}

bool may_overlap(const MemRef& a, const MemRef& b) {
  if (!a.valid || !b.valid) return false;
  if (a.buffer >= 0 && b.buffer >= 0 && a.buffer != b.buffer) return false;
  if (a.base >= 0 && a.base == b.base)
    return a.offset < b.offset + static_cast<int64_t>(b.bytes) && b.offset < a.offset + static_cast<int64_t>(a.bytes);
  if (a.ranged && b.ranged) return a.lo < b.hi && b.lo < a.hi;
  return true;
}

namespace {
bool meet(const std::vector<int>& a, const std::vector<int>& b) {
  for (int x : a)
    if (std::find(b.begin(), b.end(), x) != b.end()) return true;
  return false;
}
}  // namespace

namespace {

// The storage units an access's address generation writes: the pointer of a post-modify
// and the dimension counters of 2-D / 3-D addressing.
bool is_address_update(const SlotOp& op, uint16_t unit) {
  for (int i = 0; i < op.n_operands; ++i) {
    const Operand& o = op.operands[static_cast<size_t>(i)];
    if (o.kind != Operand::Kind::Mem) continue;
    const MemOperand::Mode m = o.mem.mode;
    if (m != MemOperand::Mode::PostImm && m != MemOperand::Mode::PostMod && m != MemOperand::Mode::Post2D &&
        m != MemOperand::Mode::Post3D)
      continue;
    std::vector<uint16_t> units = storage_units(RegClass::P, o.mem.pointer);
    if (m == MemOperand::Mode::Post2D || m == MemOperand::Mode::Post3D)
      for (uint16_t u : storage_units(RegClass::DC, o.mem.reg)) units.push_back(u);
    if (m == MemOperand::Mode::Post3D)
      for (uint16_t u : storage_units(RegClass::DC, o.mem.reg2)) units.push_back(u);
    if (std::find(units.begin(), units.end(), unit) != units.end()) return true;
  }
  return false;
}

}  // namespace

uint32_t result_latency(const AieOp& op, uint16_t unit) {
  const AieIsa& isa = AieIsa::get();
  if (is_address_update(op.op, unit)) return isa.latency.at("agu");
  return isa.latency_of(op.op);
}

int wait_cycles(const OpInfo& a, const OpInfo& b) {
  int wait = 0;
  for (uint16_t w : a.op->op.writes)
    if (std::find(b.op->op.reads.begin(), b.op->op.reads.end(), w) != b.op->op.reads.end())
      wait = std::max(wait, static_cast<int>(result_latency(*a.op, w)));
  return wait;
}

bool interlock_hazard(const OpInfo& a, const OpInfo& b) {
  if (a.fx.nop || b.fx.nop) return false;
  for (uint16_t w : b.op->op.writes)
    if (std::find(a.op->op.reads.begin(), a.op->op.reads.end(), w) != a.op->op.reads.end()) return true;
  return false;
}

Order order_between(const OpInfo& a, const OpInfo& b) {
  if (a.fx.nop || b.fx.nop) return Order::Free;
  const bool a_sync = a.fx.lock || a.fx.control || a.fx.halt, b_sync = b.fx.lock || b.fx.control || b.fx.halt;
  const bool a_mem = a.fx.load || a.fx.store, b_mem = b.fx.load || b.fx.store;
  if (a_sync && b_sync) return Order::Later;
  if ((a_sync && b_mem) || (a_mem && b_sync)) return Order::Later;
  // Register dependences: a bundle reads every register before any slot writes, so a
  // write after a read (WAR) may share the bundle; RAW and WAW may not.
  if (meet(a.fx.writes, b.fx.reads) || meet(a.fx.writes, b.fx.writes)) return Order::Later;
  Order o = meet(a.fx.reads, b.fx.writes) ? Order::SameOrLater : Order::Free;
  if (a_mem && b_mem && (a.fx.store || b.fx.store) && may_overlap(a.mem, b.mem)) {
    // Stores of a bundle are written after its loads read: load then store may share.
    if (a.fx.store) return Order::Later;
    o = Order::SameOrLater;
  }
  return o;
}

bool bundle_sequence(const AieLine& bundle, std::vector<size_t>& order) {
  const size_t n = bundle.ops.size();
  std::vector<OpEffects> fx;
  for (const auto& o : bundle.ops) fx.push_back(effects_of(o));
  // before[a][b]: a must precede b.
  std::vector<std::vector<bool>> before(n, std::vector<bool>(n, false));
  for (size_t a = 0; a < n; ++a)
    for (size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      if (meet(fx[b].writes, fx[a].reads)) before[a][b] = true;  // reader first
      if (meet(fx[a].writes, fx[b].writes) && bundle.ops[a].op.slot < bundle.ops[b].op.slot) before[a][b] = true;
      if (fx[a].lock && !fx[b].lock) before[a][b] = true;
    }
  std::vector<bool> done(n, false);
  order.clear();
  for (size_t k = 0; k < n; ++k) {
    size_t pick = n;
    for (size_t c = 0; c < n && pick == n; ++c) {
      if (done[c]) continue;
      bool ready = true;
      for (size_t a = 0; a < n; ++a)
        if (!done[a] && a != c && before[a][c]) ready = false;
      if (ready) pick = c;  // ops are stored in slot order: ties keep it
    }
    if (pick == n) return false;
    done[pick] = true;
    order.push_back(pick);
  }
  return true;
}

}  // namespace tlmcraft::isa::aie_ml
