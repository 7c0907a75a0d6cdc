// Functional execution of one AIE-ML bundle. Every slot reads the state as it was before
// the bundle (a snapshot) and writes the live state; stores are buffered and written at the
// end, so loads of the same bundle see the old memory. A fault restores the snapshot, so a
// bundle either commits entirely or not at all.
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "isa/aie_ml/aie_core.h"
#include "isa/aie_ml/extension_ops.h"
#include "isa/aie_ml/extension_semantics.h"
#include "isa/aie_ml/lanes.h"
#include "isa/aie_ml/op_codes.h"
#include "isa/aie_ml/vector_ops.h"

namespace tlmcraft::isa::aie_ml {

int CoreState::view_bytes(RegClass cls) {
  switch (cls) {
    case RegClass::W: case RegClass::AM: return 32;
    case RegClass::X: case RegClass::BM: return 64;
    case RegClass::Y: case RegClass::CM: return 128;
    default: return 0;
  }
}

uint8_t* CoreState::vreg(RegClass cls, int num) {
  const size_t bytes = size_t(view_bytes(cls));
  const bool is_acc = cls == RegClass::AM || cls == RegClass::BM || cls == RegClass::CM;
  uint8_t* base = is_acc ? acc.data() : vec.data();
  const size_t size = is_acc ? acc.size() : vec.size();
  const size_t at = size_t(num) * bytes;
  return bytes == 0 || at + bytes > size ? nullptr : base + at;
}

const uint8_t* CoreState::vreg(RegClass cls, int num) const { return const_cast<CoreState*>(this)->vreg(cls, num); }

namespace {

constexpr uint32_t kPointerMask = 0xFFFFF;  // p, m, dn, dj, dc, ls, le, lr are 20-bit (AM020)

uint32_t read_scalar(const CoreState& s, const Operand& o) {
  if (o.kind == Operand::Kind::Imm || o.kind == Operand::Kind::Label) return uint32_t(o.imm);
  if (o.kind != Operand::Kind::Reg) return 0;
  switch (o.cls) {
    case RegClass::R: return s.r[o.num];
    case RegClass::P: return s.p[o.num];
    case RegClass::M: return uint32_t(s.m[o.num]);
    case RegClass::DN: return s.dn[o.num];
    case RegClass::DJ: return uint32_t(s.dj[o.num]);
    case RegClass::DC: return s.dc[o.num];
    case RegClass::S: return s.s[o.num];
    case RegClass::LS: return s.ls;
    case RegClass::LE: return s.le;
    case RegClass::LC: return s.lc;
    case RegClass::LR: return s.lr;
    case RegClass::CR: return o.num == 0 ? s.crrnd : s.crsat;
    default: return 0;
  }
}

// Sign-extends a 20-bit register value (modifiers and strides are signed steps).
int32_t sext20(uint32_t v) { return int32_t(v << 12) >> 12; }

void write_scalar(CoreState& s, RegClass cls, int n, uint32_t v) {
  switch (cls) {
    case RegClass::R: s.r[size_t(n)] = v; break;
    case RegClass::P: s.p[size_t(n)] = v & kPointerMask; break;
    case RegClass::M: s.m[size_t(n)] = sext20(v); break;
    case RegClass::DN: s.dn[size_t(n)] = v & kPointerMask; break;
    case RegClass::DJ: s.dj[size_t(n)] = sext20(v); break;
    case RegClass::DC: s.dc[size_t(n)] = v & kPointerMask; break;
    case RegClass::S: s.s[size_t(n)] = v & 63; break;  // 6-bit shift control
    case RegClass::LS: s.ls = v & kPointerMask; break;
    case RegClass::LE: s.le = v & kPointerMask; break;
    case RegClass::LC: s.lc = v; break;
    case RegClass::LR: s.lr = v & kPointerMask; break;
    case RegClass::CR:
      if (n == 0) s.crrnd = v & 15;
      else s.crsat = v & 3;
      break;
    default: break;
  }
}

struct Exec {
  const CoreState& old;
  CoreState& s;
  DataMemoryPort& mem;
  const Bundle& bundle;
  BundleResult& res;
  const SlotOp* cur = nullptr;
  struct PendingStore {
    uint32_t addr;
    std::vector<uint8_t> bytes;
  };
  std::vector<PendingStore> stores;
  bool failed = false;

  void fault(const std::string& msg) {
    if (failed) return;
    failed = true;
    res.fault = true;
    std::ostringstream os;
    os << "line " << bundle.line << ": " << AieIsa::get().ops[cur->op].mnemonic << ": " << msg;
    res.fault_message = os.str();
  }

  // Effective address of a memory operand; applies the pointer post-modify to the live state.
  uint32_t address(const MemOperand& m) {
    const uint32_t p = old.p[m.pointer];
    uint32_t addr = p, np = p;
    switch (m.mode) {
      case MemOperand::Mode::Plain: break;
      case MemOperand::Mode::OffsetImm: addr = p + uint32_t(m.imm); break;
      case MemOperand::Mode::OffsetMod: addr = p + uint32_t(old.m[m.reg]); break;
      case MemOperand::Mode::PostImm: np = p + uint32_t(m.imm); break;
      case MemOperand::Mode::PostMod: np = p + uint32_t(old.m[m.reg]); break;
      case MemOperand::Mode::Post2D: {
        // Inner dimension K: step mK until dcK reaches dnK - 1, then jump djK and restart.
        const uint8_t k = m.reg;
        if (old.dc[k] + 1 < old.dn[k]) {
          s.dc[k] = old.dc[k] + 1;
          np = p + uint32_t(old.m[k]);
        } else {
          s.dc[k] = 0;
          np = p + uint32_t(old.dj[k]);
        }
        break;
      }
      case MemOperand::Mode::Post3D: {
        // Inner K as in 2-D; when K wraps, the outer dimension L counts: it steps djK until
        // dcL reaches dnL - 1, then jumps djL and both restart.
        const uint8_t k = m.reg, l = m.reg2;
        if (old.dc[k] + 1 < old.dn[k]) {
          s.dc[k] = old.dc[k] + 1;
          np = p + uint32_t(old.m[k]);
        } else if (old.dc[l] + 1 < old.dn[l]) {
          s.dc[k] = 0;
          s.dc[l] = old.dc[l] + 1;
          np = p + uint32_t(old.dj[k]);
        } else {
          s.dc[k] = 0;
          s.dc[l] = 0;
          np = p + uint32_t(old.dj[l]);
        }
        break;
      }
    }
    if (m.mode != MemOperand::Mode::Plain && m.mode != MemOperand::Mode::OffsetImm && m.mode != MemOperand::Mode::OffsetMod)
      s.p[m.pointer] = np & kPointerMask;  // only post-modify forms write the pointer
    return addr & kPointerMask;
  }

  bool aligned(uint32_t addr, uint32_t align, bool store) {
    if (align > 1 && addr % align != 0) {
      std::ostringstream os;
      os << "misaligned " << (store ? "store" : "load") << ": address 0x" << std::hex << addr << std::dec
         << " is not a multiple of " << align;
      fault(os.str());
      return false;
    }
    return true;
  }

  bool load(const MemOperand& m, uint32_t bytes, void* dst) {
    const uint32_t addr = address(m);
    if (!aligned(addr, bytes >= 32 ? kVectorAlign : bytes, false)) return false;
    res.accesses.push_back({cur->slot, addr, bytes, false});
    if (!mem.read(addr, dst, bytes)) {
      std::ostringstream os;
      os << "load of " << bytes << " bytes at 0x" << std::hex << addr << " is outside the data memory this core can reach";
      fault(os.str());
      return false;
    }
    return true;
  }

  void store(const MemOperand& m, const void* src, uint32_t bytes) {
    const uint32_t addr = address(m);
    if (!aligned(addr, bytes >= 32 ? kVectorAlign : bytes, true)) return;
    res.accesses.push_back({cur->slot, addr, bytes, true});
    const uint8_t* b = static_cast<const uint8_t*>(src);
    stores.push_back({addr, std::vector<uint8_t>(b, b + bytes)});
  }

  void pointer_update(const MemOperand& m) { (void)address(m); }

  const Operand& op(int i) const { return cur->operands[size_t(i)]; }
  uint32_t sv(int i) const { return read_scalar(old, op(i)); }
  void set_r(int i, uint32_t v) { write_scalar(s, op(i).cls, op(i).num, v); }
  const uint8_t* vin(int i) const { return old.vreg(op(i).cls, op(i).num); }
  uint8_t* vout(int i) { return s.vreg(op(i).cls, op(i).num); }

  void jump(uint32_t target) {
    res.branch_taken = true;
    res.target = target;
  }

  void run(const SlotOp& o);
  void run_extension(const SlotOp& o);
  void run_composed(const ExtensionOp& e, const SlotOp& o);
  void run_semantics(const ExtensionOp& e, const SlotOp& o);
};

// Copies register (cls, from_num) of `from` into (cls, to_num) of `to`.
void copy_register(const CoreState& from, int from_num, CoreState& to, int to_num, RegClass cls) {
  if (const int bytes = CoreState::view_bytes(cls)) {
    std::memcpy(to.vreg(cls, to_num), from.vreg(cls, from_num), size_t(bytes));
    return;
  }
  Operand src;
  src.kind = Operand::Kind::Reg;
  src.cls = cls;
  src.num = uint8_t(from_num);
  write_scalar(to, cls, to_num, read_scalar(from, src));
}

void Exec::run_extension(const SlotOp& o) {
  const AieIsa& isa = AieIsa::get();
  const ExtensionOp& e = *isa.extensions.at(size_t(isa.ops[o.op].extension));
  if (e.composed()) run_composed(e, o);
  else run_semantics(e, o);
}

// The steps run on a private copy of the state in which every output and temp is a
// register no operand uses: inputs keep their values until the last step, so operands may
// alias. Outputs are copied to their registers at the end; nothing else escapes.
void Exec::run_composed(const ExtensionOp& e, const SlotOp& o) {
  CoreState scratch = old;
  std::vector<uint16_t> used;
  for (int i = 0; i < o.n_operands; ++i)
    if (op(i).kind == Operand::Kind::Reg)
      for (uint16_t u : storage_units(op(i).cls, op(i).num)) used.push_back(u);
  std::vector<int> renamed(e.operands.size(), 0), temps(e.temps.size(), 0);
  bool ok = true;
  for (size_t i = 0; i < e.operands.size(); ++i)
    if (e.operands[i].written()) {
      ok = ok && allocate_hidden_register(e.operands[i].cls, used, renamed[i]);
      if (ok) copy_register(old, op(int(i)).num, scratch, renamed[i], e.operands[i].cls);  // partial writes keep the rest
    }
  for (size_t t = 0; t < e.temps.size(); ++t) ok = ok && allocate_hidden_register(e.temps[t].cls, used, temps[t]);
  if (!ok) return fault("no free register to rename an output or temp (internal error: checked when loading)");
  for (const ComposeStep& step : e.steps) {
    SlotOp so = step.op;
    for (const StepBinding& b : step.bindings) {
      Operand& x = so.operands[size_t(b.step_operand)];
      if (b.temp) {
        x.num = uint8_t(temps[size_t(b.index)]);
        continue;
      }
      const Operand& src = op(b.index);
      if (src.kind != Operand::Kind::Reg) {
        x.imm = src.imm;
        continue;
      }
      x.cls = src.cls;
      x.num = uint8_t(e.operands[size_t(b.index)].written() ? renamed[size_t(b.index)] : src.num);
    }
    const CoreState before = scratch;
    BundleResult sub;
    Exec inner{before, scratch, mem, bundle, sub, nullptr, {}, false};
    inner.run(so);
    if (inner.failed) return fault("step '" + step.text + "': " + sub.fault_message);
  }
  for (size_t i = 0; i < e.operands.size(); ++i)
    if (e.operands[i].written()) copy_register(scratch, renamed[i], s, op(int(i)).num, e.operands[i].cls);
}

// Inputs come from the state before the bundle and outputs go to the live state, so all
// inputs are read before any output is written.
void Exec::run_semantics(const ExtensionOp& e, const SlotOp& o) {
  ExtensionIo io;
  const size_t n = e.operands.size();
  io.in.assign(n, nullptr);
  io.out.assign(n, nullptr);
  io.scalar.assign(n, 0);
  io.scalar_out.assign(n, 0);
  for (size_t i = 0; i < n && i < o.n_operands; ++i) {
    const Operand& a = op(int(i));
    if (a.kind == Operand::Kind::Reg && CoreState::view_bytes(a.cls)) {
      io.in[i] = old.vreg(a.cls, a.num);
      if (e.operands[i].written()) io.out[i] = s.vreg(a.cls, a.num);
    } else {
      io.scalar[i] = int64_t(int32_t(read_scalar(old, a)));
    }
  }
  std::string error;
  if (!e.semantics || !run_extension_semantics(*e.semantics, e, io, error)) return fault(error);
  for (size_t i = 0; i < n && i < o.n_operands; ++i)
    if (e.operands[i].written() && !io.out[i]) write_scalar(s, op(int(i)).cls, op(int(i)).num, uint32_t(io.scalar_out[i]));
}

void Exec::run(const SlotOp& o) {
  cur = &o;
  const Code c = Code(o.code);
  switch (c) {
    case Code::Extension: run_extension(o); return;
    case Code::NOP: return;
    // ---- loads
    case Code::VLDA: case Code::VLDB: {
      uint8_t buf[32];
      if (load(op(1).mem, 32, buf)) std::memcpy(vout(0), buf, 32);
      return;
    }
    case Code::VLDA_UPS_S32_S8: {
      uint8_t buf[32];
      if (load(op(1).mem, 32, buf)) ups(vout(0), buf, 32, 1, 4, sv(2));
      return;
    }
    case Code::VLDA_CONV_FP32_BF16: {
      uint8_t buf[32];
      if (load(op(1).mem, 32, buf)) conv_bf16_to_fp32(vout(0), buf, 16);
      return;
    }
    case Code::LDA: case Code::LDA_S16: case Code::LDA_U16: case Code::LDA_S8: case Code::LDA_U8: {
      const uint32_t n = c == Code::LDA ? 4 : (c == Code::LDA_S16 || c == Code::LDA_U16) ? 2 : 1;
      uint8_t buf[4] = {0, 0, 0, 0};
      if (!load(op(1).mem, n, buf)) return;
      uint32_t v = 0;
      std::memcpy(&v, buf, n);
      if (c == Code::LDA_S16) v = uint32_t(int32_t(int16_t(v)));
      if (c == Code::LDA_S8) v = uint32_t(int32_t(int8_t(v)));
      set_r(0, v);
      return;
    }
    case Code::PADDA: case Code::PADDB: case Code::PADDS: pointer_update(op(0).mem); return;
    // ---- stores
    case Code::VST: store(op(1).mem, vin(0), 32); return;
    case Code::VST_SRS_S8_S32: {
      uint8_t buf[32];
      srs(buf, vin(0), 32, 4, 1, false, sv(2), old.crrnd, old.crsat);
      store(op(1).mem, buf, 32);
      return;
    }
    case Code::VST_SRS_S16_S32: {
      uint8_t buf[32];
      srs(buf, vin(0), 16, 4, 2, false, sv(2), old.crrnd, old.crsat);
      store(op(1).mem, buf, 32);
      return;
    }
    case Code::VST_CONV_BF16_FP32: {
      uint8_t buf[32];
      conv_fp32_to_bf16(buf, vin(0), 16);
      store(op(1).mem, buf, 32);
      return;
    }
    case Code::ST: case Code::ST_S16: case Code::ST_S8: {
      const uint32_t n = c == Code::ST ? 4 : c == Code::ST_S16 ? 2 : 1;
      const uint32_t v = sv(0);
      store(op(1).mem, &v, n);
      return;
    }
    // ---- scalar
    case Code::ADD: set_r(0, sv(1) + sv(2)); return;
    case Code::SUB: set_r(0, sv(1) - sv(2)); return;
    case Code::MUL: set_r(0, uint32_t(uint64_t(sv(1)) * uint64_t(sv(2)))); return;
    case Code::AND: set_r(0, sv(1) & sv(2)); return;
    case Code::OR: set_r(0, sv(1) | sv(2)); return;
    case Code::XOR: set_r(0, sv(1) ^ sv(2)); return;
    case Code::LSHL: case Code::ASHL: {
      const uint32_t a = sv(1);
      const int32_t sh = int32_t(sv(2));
      uint32_t v;
      if (sh >= 0) v = sh >= 32 ? 0 : a << sh;
      else if (c == Code::LSHL) v = sh <= -32 ? 0 : a >> -sh;
      else v = uint32_t(int32_t(a) >> (sh <= -32 ? 31 : -sh));
      set_r(0, v);
      return;
    }
    case Code::LT: set_r(0, int32_t(sv(1)) < int32_t(sv(2))); return;
    case Code::LTU: set_r(0, sv(1) < sv(2)); return;
    case Code::GE: set_r(0, int32_t(sv(1)) >= int32_t(sv(2))); return;
    case Code::GEU: set_r(0, sv(1) >= sv(2)); return;
    case Code::EQ: set_r(0, sv(1) == sv(2)); return;
    case Code::NE: set_r(0, sv(1) != sv(2)); return;
    case Code::SEL_EQZ: set_r(0, sv(3) == 0 ? sv(1) : sv(2)); return;
    case Code::SEL_NEZ: set_r(0, sv(3) != 0 ? sv(1) : sv(2)); return;
    // ---- control
    case Code::J: jump(sv(0)); return;
    case Code::JL:
      s.lr = (old.pc + 1) & kPointerMask;
      jump(sv(0));
      return;
    case Code::JZ: if (sv(0) == 0) jump(sv(1)); return;
    case Code::JNZ: if (sv(0) != 0) jump(sv(1)); return;
    case Code::JNZD:
      set_r(0, sv(1) - 1);
      if (sv(1) != 0) jump(sv(2));
      return;
    case Code::RET: jump(old.lr); return;
    case Code::ACQ: case Code::ACQ_EQ: case Code::REL: return;  // performed before execution
    case Code::DONE:
      res.halt = true;
      s.halted = true;
      return;
    // ---- moves
    case Code::MOV: case Code::MOVX: case Code::MOVXM: set_r(0, sv(1)); return;
    case Code::VMOV: {
      const int nb = CoreState::view_bytes(op(0).cls);
      if (nb != CoreState::view_bytes(op(1).cls)) {
        fault("VMOV needs two registers of the same width");
        return;
      }
      std::memcpy(vout(0), vin(1), size_t(nb));
      return;
    }
    case Code::VCLR: std::memset(vout(0), 0, size_t(CoreState::view_bytes(op(0).cls))); return;
    case Code::VADD_ACC32: case Code::VSUB_ACC32: case Code::VADD_ACC64: {
      const int nb = CoreState::view_bytes(op(0).cls);
      if (nb != CoreState::view_bytes(op(1).cls) || nb != CoreState::view_bytes(op(2).cls)) {
        fault("accumulator add/sub needs three accumulators of the same width");
        return;
      }
      break;
    }
    default: break;
  }
  VectorArgs va;
  va.out = vout(0);
  va.rnd = old.crrnd;
  va.sat = old.crsat;
  va.out_bytes = op(0).kind == Operand::Kind::Reg ? CoreState::view_bytes(op(0).cls) : 0;
  for (int i = 1; i < o.n_operands && i < 4; ++i) {
    va.in[size_t(i - 1)] = op(i).kind == Operand::Kind::Reg ? old.vreg(op(i).cls, op(i).num) : nullptr;
    va.scalar[size_t(i - 1)] = read_scalar(old, op(i));
  }
  // Vector ops whose destination is a scalar register (masks, extracts) or read it (insert).
  switch (c) {
    case Code::VLT_S8: case Code::VLT_S16: case Code::VLT_S32: case Code::VLT_BF16: case Code::VGE_S16:
    case Code::VGE_BF16: case Code::VEQ_16: {
      const uint64_t mask = compare_mask(c, va.in[0], va.in[1]);
      s.r[op(0).num] = uint32_t(mask);
      if (c == Code::VLT_S8) s.r[(op(0).num + 1) % kScalarRegs] = uint32_t(mask >> 32);
      return;
    }
    case Code::VEXTRACT_S8: case Code::VEXTRACT_S16: case Code::VEXTRACT_U16: case Code::VEXTRACT_S32:
      s.r[op(0).num] = extract_lane(c, va.in[0], va.scalar[1]);
      return;
    case Code::VSEL_8: {
      const uint64_t mask = uint64_t(old.r[op(3).num]) | (uint64_t(old.r[(op(3).num + 1) % kScalarRegs]) << 32);
      select_lanes(va.out, va.in[0], va.in[1], mask, 1);
      return;
    }
    case Code::VINSERT_8: case Code::VINSERT_16: case Code::VINSERT_32: {
      std::memcpy(va.out, vin(0), 64);
      insert_lane(c, va.out, va.scalar[0], va.scalar[1]);
      return;
    }
    default: break;
  }
  if (!run_vector(c, va)) fault("no vector semantics (internal error)");
}

}  // namespace

std::vector<LockRequest> lock_requests(const CoreState& state, const Bundle& bundle) {
  std::vector<LockRequest> out;
  for (const auto& op : bundle.ops) {
    const Code c = Code(op.code);
    if (c != Code::ACQ && c != Code::ACQ_EQ && c != Code::REL) continue;
    LockRequest r;
    r.kind = c == Code::ACQ ? LockRequest::Kind::AcquireGE : c == Code::ACQ_EQ ? LockRequest::Kind::AcquireEQ : LockRequest::Kind::Release;
    r.id = read_scalar(state, op.operands[0]);
    r.value = int32_t(read_scalar(state, op.operands[1]));
    out.push_back(r);
  }
  return out;
}

BundleResult execute_bundle(CoreState& state, DataMemoryPort& mem, const Bundle& bundle, LockPort* locks) {
  BundleResult res;
  res.locks = lock_requests(state, bundle);
  if (locks) {
    // Acquires first (all-or-nothing per request; a refused one undoes the earlier ones by
    // releasing what this bundle took), then the bundle runs and releases are applied.
    std::vector<LockRequest> taken;
    for (const auto& r : res.locks) {
      if (r.kind == LockRequest::Kind::Release) continue;
      if (!locks->try_acquire(r)) {
        for (const auto& t : taken)
          if (t.kind == LockRequest::Kind::AcquireGE) locks->release(t);
        res.stalled = true;
        return res;
      }
      taken.push_back(r);
    }
  }
  const CoreState old = state;
  Exec ex{old, state, mem, bundle, res, nullptr, {}, false};
  const AieIsa& isa = AieIsa::get();
  for (const auto& op : bundle.ops) {
    ex.run(op);
    if (ex.failed) break;
    res.latencies.push_back({op.slot, isa.ops[op.op].latency_class, isa.latency_of(op)});
  }
  if (!ex.failed)
    for (const auto& st : ex.stores)
      if (!mem.write(st.addr, st.bytes.data(), uint32_t(st.bytes.size()))) {
        std::ostringstream os;
        os << "line " << bundle.line << ": store of " << st.bytes.size() << " bytes at 0x" << std::hex << st.addr
           << " is outside the data memory this core can reach";
        res.fault = true;
        res.fault_message = os.str();
        ex.failed = true;
      }
  if (ex.failed) {
    state = old;  // nothing of a faulting bundle commits
    res.branch_taken = false;
    res.halt = false;
    return res;
  }
  if (locks)
    for (const auto& r : res.locks)
      if (r.kind == LockRequest::Kind::Release) locks->release(r);
  // Next pc: a taken branch wins; otherwise the zero-overhead loop closes at le.
  uint32_t next = old.pc + 1;
  if (res.branch_taken) {
    next = res.target;
  } else if (old.pc == state.le && state.lc > 0) {
    state.lc -= 1;
    if (state.lc > 0) {
      next = state.ls;
      res.branch_taken = true;
      res.loop_back = true;
      res.target = next;
    }
  }
  state.pc = next;
  ++state.bundles_retired;
  return res;
}

BundleResult step(CoreState& state, DataMemoryPort& mem, const AieProgram& program, LockPort* locks) {
  if (state.pc >= program.bundles.size()) {
    BundleResult r;
    r.fault = true;
    r.fault_message = "pc " + std::to_string(state.pc) + " is past the end of the program (" +
                      std::to_string(program.bundles.size()) + " bundles; a core program must end with DONE)";
    return r;
  }
  return execute_bundle(state, mem, program.bundles[state.pc], locks);
}

}  // namespace tlmcraft::isa::aie_ml
