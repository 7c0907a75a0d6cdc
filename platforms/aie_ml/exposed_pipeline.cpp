#include "platforms/aie_ml/exposed_pipeline.h"

#include <algorithm>
#include <cstring>

#include "isa/aie_ml/def_use.h"

namespace tlmcraft::aie_ml {

namespace aie = isa::aie_ml;

namespace {

// First storage-unit id of each register file (ids are the ISA's, stable within a build).
struct UnitBases {
  uint16_t r, p, m, dn, dj, dc, s, x, bm, ls, le, lc, lr, cr;
};
const UnitBases& bases() {
  static const UnitBases b = [] {
    auto first = [](aie::RegClass c) { return aie::storage_units(c, 0).front(); };
    using C = aie::RegClass;
    return UnitBases{first(C::R), first(C::P),  first(C::M),  first(C::DN), first(C::DJ), first(C::DC), first(C::S),
                     first(C::X), first(C::BM), first(C::LS), first(C::LE), first(C::LC), first(C::LR), first(C::CR)};
  }();
  return b;
}

bool is_vector_unit(uint16_t u) { return u >= bases().x && u < bases().x + aie::kVectorRegs; }
bool is_acc_unit(uint16_t u) { return u >= bases().bm && u < bases().bm + aie::kAccumulatorRegs; }

// The bytes of a scalar-side unit in the state (every such register is 32 bits wide).
uint8_t* scalar_bytes(aie::CoreState& s, uint16_t u) {
  const UnitBases& b = bases();
  auto at = [](auto& arr, int i) { return reinterpret_cast<uint8_t*>(&arr[static_cast<size_t>(i)]); };
  if (u < b.p) return at(s.r, u - b.r);
  if (u < b.m) return at(s.p, u - b.p);
  if (u < b.dn) return at(s.m, u - b.m);
  if (u < b.dj) return at(s.dn, u - b.dn);
  if (u < b.dc) return at(s.dj, u - b.dj);
  if (u < b.s) return at(s.dc, u - b.dc);
  if (u < b.x) return at(s.s, u - b.s);
  if (u == b.ls) return reinterpret_cast<uint8_t*>(&s.ls);
  if (u == b.le) return reinterpret_cast<uint8_t*>(&s.le);
  if (u == b.lc) return reinterpret_cast<uint8_t*>(&s.lc);
  if (u == b.lr) return reinterpret_cast<uint8_t*>(&s.lr);
  if (u == b.cr) return reinterpret_cast<uint8_t*>(&s.crrnd);
  return reinterpret_cast<uint8_t*>(&s.crsat);
}

uint8_t* cell_bytes(aie::CoreState& s, uint16_t unit, uint8_t half, size_t& n) {
  n = 32;
  if (is_vector_unit(unit)) return s.vec.data() + (unit - bases().x) * aie::kVectorBytes + half * 32;
  if (is_acc_unit(unit)) return s.acc.data() + (unit - bases().bm) * aie::kVectorBytes + half * 32;
  n = 4;
  return scalar_bytes(s, unit);
}

using CellData = std::array<uint8_t, 32>;

void read_cell(aie::CoreState& s, uint16_t unit, uint8_t half, CellData& out) {
  size_t n = 0;
  const uint8_t* p = cell_bytes(s, unit, half, n);
  std::memcpy(out.data(), p, n);
}

void write_cell(aie::CoreState& s, uint16_t unit, uint8_t half, const CellData& in) {
  size_t n = 0;
  uint8_t* p = cell_bytes(s, unit, half, n);
  std::memcpy(p, in.data(), n);
}

std::string cell_name(uint16_t unit, uint8_t half) {
  if (is_vector_unit(unit)) {
    const int k = unit - bases().x;
    return "w" + std::to_string(2 * k + half) + " (half of x" + std::to_string(k) + ")";
  }
  if (is_acc_unit(unit)) {
    const int k = unit - bases().bm;
    return "am" + std::to_string(2 * k + half) + " (half of bm" + std::to_string(k) + ")";
  }
  return aie::unit_name(unit);
}

struct CellUse {
  uint16_t unit;
  uint8_t half;
  uint32_t offset;  // read: cycles after issue; write: cycles after issue it lands
};

// The cells of a 256-, 512- or 1024-bit view `num` of a register file whose 512-bit
// registers are units base, base + 1, ...: a 256-bit view is half num % 2 of unit num / 2.
void file_cells(uint16_t base, int bits, int num, uint32_t offset, std::vector<CellUse>& out) {
  if (bits == 256) {
    out.push_back({uint16_t(base + num / 2), uint8_t(num % 2), offset});
    return;
  }
  const int units = bits / 512;
  for (int u = 0; u < units; ++u)
    for (uint8_t h = 0; h < 2; ++h) out.push_back({uint16_t(base + units * num + u), h, offset});
}

// The 32-byte cells of one register view.
void view_cells(aie::RegClass cls, int num, uint32_t offset, std::vector<CellUse>& out) {
  using C = aie::RegClass;
  switch (cls) {
    case C::W:
      return file_cells(bases().x, 256, num, offset, out);
    case C::X:
      return file_cells(bases().x, 512, num, offset, out);
    case C::Y:
      return file_cells(bases().x, 1024, num, offset, out);
    case C::AM:
      return file_cells(bases().bm, 256, num, offset, out);
    case C::BM:
      return file_cells(bases().bm, 512, num, offset, out);
    case C::CM:
      return file_cells(bases().bm, 1024, num, offset, out);
    default:
      for (uint16_t u : aie::storage_units(cls, num)) out.push_back({u, 0, offset});
  }
}

// Units an op touches that no explicit operand names (pointer, modifiers, dimension
// counters, shift and control registers, the second mask register): whole units.
void implicit_cells(const std::vector<uint16_t>& units, std::vector<CellUse>& out, size_t explicit_end, uint32_t offset,
                    const std::vector<uint16_t>& agu_units, uint32_t agu_offset) {
  for (uint16_t u : units) {
    bool named = false;
    for (size_t i = 0; i < explicit_end; ++i)
      if (out[i].unit == u) named = true;
    if (named) continue;
    const uint32_t off = std::find(agu_units.begin(), agu_units.end(), u) != agu_units.end() ? agu_offset : offset;
    out.push_back({u, 0, off});
    if (is_vector_unit(u) || is_acc_unit(u)) out.push_back({u, 1, off});
  }
}

std::vector<CellUse> read_cells(const aie::SlotOp& op, uint32_t acc_read) {
  std::vector<CellUse> out;
  const bool late = aie::reads_accumulator_late(op);
  for (int i = 0; i < op.n_operands; ++i) {
    const aie::OperandUse use = aie::operand_use(op, i);
    if (use != aie::OperandUse::Read && use != aie::OperandUse::ReadWrite) continue;
    const aie::Operand& o = op.operands[size_t(i)];
    view_cells(o.cls, o.num, late && i == 1 ? acc_read : 0, out);
  }
  implicit_cells(op.reads, out, out.size(), 0, {}, 0);
  std::vector<CellUse> unique;  // `ADD r2, r1, r1` reads r1 once
  for (const CellUse& c : out)
    if (std::none_of(unique.begin(), unique.end(),
                     [&](const CellUse& u) { return u.unit == c.unit && u.half == c.half && u.offset == c.offset; }))
      unique.push_back(c);
  return unique;
}

std::vector<CellUse> written_cells(const aie::SlotOp& op) {
  const auto& isa = aie::AieIsa::get();
  const uint32_t lat = std::max<uint32_t>(1, isa.latency_of(op));
  std::vector<CellUse> out;
  for (int i = 0; i < op.n_operands; ++i) {
    const aie::OperandUse use = aie::operand_use(op, i);
    if (use != aie::OperandUse::Write && use != aie::OperandUse::ReadWrite) continue;
    view_cells(op.operands[size_t(i)].cls, op.operands[size_t(i)].num, lat, out);
  }
  implicit_cells(op.writes, out, out.size(), lat, post_modify_units(op), std::max<uint32_t>(1, isa.latency.at("agu")));
  return out;
}

}  // namespace

std::vector<uint16_t> post_modify_units(const aie::SlotOp& op) {
  using Mode = aie::MemOperand::Mode;
  std::vector<uint16_t> units;
  for (int i = 0; i < op.n_operands; ++i) {
    const aie::Operand& o = op.operands[size_t(i)];
    if (o.kind != aie::Operand::Kind::Mem) continue;
    const Mode m = o.mem.mode;
    if (m != Mode::PostImm && m != Mode::PostMod && m != Mode::Post2D && m != Mode::Post3D) continue;
    for (uint16_t u : aie::storage_units(aie::RegClass::P, o.mem.pointer)) units.push_back(u);
    if (m == Mode::Post2D || m == Mode::Post3D)
      for (uint16_t u : aie::storage_units(aie::RegClass::DC, o.mem.reg)) units.push_back(u);
    if (m == Mode::Post3D)
      for (uint16_t u : aie::storage_units(aie::RegClass::DC, o.mem.reg2)) units.push_back(u);
  }
  return units;
}

void ExposedPipeline::land(aie::CoreState& s, uint64_t t) {
  std::stable_sort(flight_.begin(), flight_.end(),
                   [](const InFlight& a, const InFlight& b) { return a.land < b.land; });
  size_t n = 0;
  for (; n < flight_.size() && flight_[n].land <= t; ++n) {
    write_cell(s, flight_[n].cell.unit, flight_[n].cell.half, flight_[n].data);
  }
  flight_.erase(flight_.begin(), flight_.begin() + static_cast<std::ptrdiff_t>(n));
}

std::string ExposedPipeline::check_reads(const aie::Bundle& b, uint64_t t) {
  early_.clear();
  for (const auto& op : b.ops) {
    std::string early;  // the op's first read of a result in flight (counted once per op)
    for (const CellUse& c : read_cells(op, acc_read_)) {
      const uint64_t when = t + c.offset;
      for (const InFlight& w : flight_) {
        if (!(w.cell == Cell{c.unit, c.half}) || w.land <= when) continue;
        const std::string what = "line " + std::to_string(b.line) + " (" + aie::AieIsa::get().ops[op.op].mnemonic +
                                 ") reads " + cell_name(c.unit, c.half) + " " + std::to_string(w.land - when) +
                                 " cycle(s) before the result of line " + std::to_string(w.line) + " (" + w.mnemonic +
                                 ") lands";
        if (w.crossed_branch)
          return what +
                 ", and that result is in flight across a taken branch: this model has no branch delay "
                 "slots, so the hardware reads it at another time (let it land before the branch)";
        if (early.empty()) early = what;
      }
    }
    if (!early.empty()) early_.push_back(early + ": it reads the old value");
  }
  return "";
}

void ExposedPipeline::apply_late_reads(aie::CoreState& s, const aie::Bundle& b, uint64_t t) {
  late_.clear();
  if (!acc_read_) return;
  for (const auto& op : b.ops) {
    if (!aie::reads_accumulator_late(op)) continue;
    std::vector<CellUse> acc;
    view_cells(op.operands[1].cls, op.operands[1].num, acc_read_, acc);
    for (const CellUse& c : acc) {
      const InFlight* seen = nullptr;  // the last result landing by the late read
      for (const InFlight& w : flight_)
        if (w.cell == Cell{c.unit, c.half} && w.land <= t + acc_read_ && (!seen || w.land > seen->land)) seen = &w;
      if (!seen) continue;
      Saved real{{c.unit, c.half}, {}};
      read_cell(s, c.unit, c.half, real.data);
      late_.push_back(real);
      write_cell(s, c.unit, c.half, seen->data);
    }
  }
}

std::string ExposedPipeline::before(aie::CoreState& s, const aie::Bundle& b, uint64_t t) {
  land(s, t);
  std::string hazard = check_reads(b, t);
  if (!hazard.empty()) return hazard;
  before_.clear();
  for (const auto& op : b.ops)
    for (const CellUse& c : written_cells(op)) {
      Saved v{{c.unit, c.half}, {}};
      read_cell(s, c.unit, c.half, v.data);
      before_.push_back(v);
    }
  apply_late_reads(s, b, t);
  // A late read changes the state every op of the bundle reads: only sound when no op reads
  // those cells at issue.
  for (const Saved& l : late_)
    for (const auto& op : b.ops)
      for (const CellUse& c : read_cells(op, acc_read_))
        if (c.offset == 0 && Cell{c.unit, c.half} == l.cell)
          return "line " + std::to_string(b.line) + " reads " + cell_name(c.unit, c.half) +
                 " at issue and as a late accumulator input while a result lands in between (not modelled)";
  return "";
}

void ExposedPipeline::abort(aie::CoreState& s) {
  for (const Saved& l : late_) {
    write_cell(s, l.cell.unit, l.cell.half, l.data);
  }
  late_.clear();
}

std::string ExposedPipeline::enqueue(InFlight w) {
  for (const InFlight& f : flight_) {
    if (!(f.cell == w.cell) || f.land < w.land) continue;
    const std::string reg = cell_name(w.cell.unit, w.cell.half);
    if (f.land == w.land)
      return "line " + std::to_string(f.line) + " (" + f.mnemonic + ") and line " + std::to_string(w.line) + " (" +
             w.mnemonic + ") both write " + reg + " in the same cycle (a write-port collision: undefined)";
    return "line " + std::to_string(w.line) + " (" + w.mnemonic + ") writes " + reg + " " +
           std::to_string(f.land - w.land) + " cycle(s) before the earlier write of line " + std::to_string(f.line) +
           " (" + f.mnemonic + ") lands, which would overwrite it (results land out of order)";
  }
  flight_.push_back(std::move(w));
  return "";
}

std::string ExposedPipeline::after(aie::CoreState& s, const aie::Bundle& b, uint64_t t, const aie::BundleResult& r) {
  std::vector<InFlight> out;
  for (const auto& op : b.ops)
    for (const CellUse& c : written_cells(op)) {
      InFlight w;
      w.cell = {c.unit, c.half};
      w.land = t + c.offset;
      read_cell(s, c.unit, c.half, w.data);
      w.line = b.line;
      w.mnemonic = aie::AieIsa::get().ops[op.op].mnemonic;
      out.push_back(std::move(w));
    }
  abort(s);  // cells a late read changed get their real values back
  for (const Saved& v : before_) {
    write_cell(s, v.cell.unit, v.cell.half, v.data);
  }
  for (InFlight& w : out) {
    std::string hazard = enqueue(std::move(w));
    if (!hazard.empty()) return hazard;
  }
  early_reads_ += early_.size();  // counted once the bundle has executed (not per lock retry)
  for (std::string& e : early_)
    if (notes_.size() < 8) notes_.push_back(std::move(e));
  early_.clear();
  if (r.branch_taken && !r.loop_back)
    for (InFlight& f : flight_)
      if (f.land > t + 1) f.crossed_branch = true;
  return "";
}

void ExposedPipeline::drain(aie::CoreState& s) { land(s, UINT64_MAX); }

}  // namespace tlmcraft::aie_ml
