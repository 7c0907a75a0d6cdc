#include "platforms/plena/pack/agent/plena_analysis.h"

#include <algorithm>

namespace tlmcraft::agent::search::plena {

namespace {

constexpr uint64_t kMask32 = 0xffffffffull;

int key_of(const isa::RegisterRef& r) { return 16 * r.reg_class + r.number; }
int resource_key(uint16_t resource) { return 64 + resource; }

int resource_key(const std::string& name) {
  return resource_key(static_cast<uint16_t>(plena_spec().resource_index(name)));
}

enum TermOp { kAdd = 1, kSub, kMul, kAddr, kLoad };

}  // namespace

int reg_key_gp(int n) { return n; }

std::string key_name(int key) {
  const isa::IsaSpec& spec = plena_spec();
  if (key >= 64) return spec.resources()[static_cast<size_t>(key - 64)].name;
  return spec.register_classes()[static_cast<size_t>(key / 16)].prefix + std::to_string(key % 16);
}

std::set<int> gp_registers_named(const Kernel& kernel) {
  std::set<int> used = gp_registers_used(kernel.code);
  used.insert(kernel.around.gp_outside.begin(), kernel.around.gp_outside.end());
  return used;
}
bool is_gp_key(int key) { return key >= 0 && key < 16; }

RegEffects reg_effects(const Op& op) {
  RegEffects e;
  const isa::Accesses a = plena_spec().accesses(op.to_instruction());
  for (const auto& r : a.reads) e.reads.push_back(key_of(r));
  for (const auto& r : a.writes) e.writes.push_back(key_of(r));
  for (uint16_t r : a.resource_reads) e.reads.push_back(resource_key(r));
  for (uint16_t r : a.resource_writes) e.writes.push_back(resource_key(r));
  return e;
}

std::set<int> written_in(const Block& block) {
  std::set<int> keys;
  for (const Node& n : block) {
    if (n.is_loop) {
      keys.insert(reg_key_gp(n.counter));
      const auto inner = written_in(n.body);
      keys.insert(inner.begin(), inner.end());
    } else {
      for (int k : reg_effects(n.op).writes) keys.insert(k);
    }
  }
  return keys;
}

std::set<int> read_in(const Block& block) {
  std::set<int> keys;
  for (const Node& n : block) {
    if (n.is_loop) {
      keys.insert(reg_key_gp(n.counter));
      const auto inner = read_in(n.body);
      keys.insert(inner.begin(), inner.end());
    } else {
      for (int k : reg_effects(n.op).reads) keys.insert(k);
    }
  }
  return keys;
}

std::set<int> gp_registers_used(const Block& block) {
  std::set<int> regs;
  const isa::IsaSpec& spec = plena_spec();
  for (const Node& n : block) {
    if (n.is_loop) {
      regs.insert(n.counter);
      const auto inner = gp_registers_used(n.body);
      regs.insert(inner.begin(), inner.end());
      continue;
    }
    for (size_t i = 0; i < n.op.operands.size(); ++i) {
      const auto& kind = spec.kinds()[n.op.spec->operands[i].kind];
      if (kind.type == isa::KindType::Register && spec.register_classes()[kind.register_class].name == "gp")
        regs.insert(static_cast<int>(n.op.operands[i]));
    }
  }
  return regs;
}

Val Values::get(int key) {
  if (key == 0 || key == 16) return Val{0, 0};  // gp0, f0
  auto it = regs_.find(key);
  if (it != regs_.end()) return it->second;
  const Val v = fresh();
  regs_[key] = v;
  return v;
}

Val Values::term(int op, Val a, Val b) {
  const auto key = std::make_tuple(op, a, b);
  auto it = terms_.find(key);
  if (it != terms_.end()) return Val{it->second, 0};
  const Val v = fresh();
  terms_[key] = v.sym;
  return v;
}

bool is_pure_setup(const Op& op) {
  static const std::set<std::string> pure = {"S_ADDI_INT",      "S_ADD_INT",        "S_SUB_INT",
                                             "S_MUL_INT",       "S_LUI_INT",        "C_SET_ADDR_REG",
                                             "C_SET_SCALE_REG", "C_SET_STRIDE_REG", "C_SET_V_MASK_REG"};
  return pure.count(op.mnemonic()) > 0;
}

bool Values::computed_value(const Op& op, int& dest, Val& v) {
  const std::string& m = op.mnemonic();
  auto gp = [&](const char* name) { return get(reg_key_gp(static_cast<int>(op.operand(name)))); };
  auto wrap = [](Val x) { return Val{x.sym, x.off & kMask32}; };
  if (m == "S_ADDI_INT") {
    const Val a = gp("rs1");
    dest = reg_key_gp(static_cast<int>(op.operand("rd")));
    v = wrap(Val{a.sym, a.off + static_cast<uint64_t>(op.operand("imm"))});
    return true;
  }
  if (m == "S_ADD_INT" || m == "S_SUB_INT" || m == "S_MUL_INT") {
    const Val a = gp("rs1"), b = gp("rs2");
    dest = reg_key_gp(static_cast<int>(op.operand("rd")));
    if (m == "S_ADD_INT") {
      if (a.is_const())
        v = Val{b.sym, b.off + a.off};
      else if (b.is_const())
        v = Val{a.sym, a.off + b.off};
      else {
        // Canonical order so gp4 + gp7 and gp7 + gp4 number alike; offsets pulled out.
        Val x{a.sym, 0}, y{b.sym, 0};
        if (y < x) std::swap(x, y);
        const Val t = term(kAdd, x, y);
        v = Val{t.sym, a.off + b.off};
      }
    } else if (m == "S_SUB_INT") {
      if (b.is_const())
        v = Val{a.sym, a.off - b.off};
      else if (a.sym == b.sym)
        v = Val{0, a.off - b.off};
      else {
        const Val t = term(kSub, Val{a.sym, 0}, Val{b.sym, 0});
        v = Val{t.sym, a.off - b.off};
      }
    } else {
      if (a.is_const() && b.is_const())
        v = Val{0, a.off * b.off};
      else if ((a.is_const() && (a.off & kMask32) == 0) || (b.is_const() && (b.off & kMask32) == 0))
        v = Val{0, 0};
      else {
        Val x = wrap(a), y = wrap(b);
        if (y < x) std::swap(x, y);
        v = term(kMul, x, y);
      }
    }
    v = wrap(v);
    return true;
  }
  if (m == "S_LUI_INT") {
    dest = reg_key_gp(static_cast<int>(op.operand("rd")));
    v = Val{0, (static_cast<uint64_t>(op.operand("imm")) << 12) & kMask32};
    return true;
  }
  if (m == "C_SET_ADDR_REG") {
    const Val hi = gp("rs1"), lo = gp("rs2");  // aD = {gp[rs1], gp[rs2]}
    dest = 32 + static_cast<int>(op.operand("rd"));
    v = lo.is_const() && hi.is_const() ? Val{0, (hi.off << 32) | lo.off} : term(kAddr, lo, hi);
    return true;
  }
  static const std::map<std::string, std::string> special = {
      {"C_SET_SCALE_REG", "SCALE"}, {"C_SET_STRIDE_REG", "STRIDE"}, {"C_SET_V_MASK_REG", "V_MASK"}};
  auto it = special.find(m);
  if (it != special.end()) {
    dest = resource_key(it->second);
    v = gp("rd");
    return true;
  }
  return false;
}

void Values::apply(const Op& op) {
  int dest = -1;
  Val v;
  if (computed_value(op, dest, v)) {
    if (dest != 0) set(dest, v);  // writes to gp0 are dropped
    return;
  }
  for (int k : reg_effects(op).writes) forget(k);
}

void Values::enter_loop(const Node& loop) {
  for (int k : written_in(loop.body)) forget(k);
  forget(reg_key_gp(loop.counter));
}

namespace {

MemAccess whole(Space s, bool write) {
  MemAccess a;
  a.space = s;
  a.write = write;
  return a;
}

MemAccess range(Space s, bool write, Val base, int64_t len) {
  MemAccess a;
  a.space = s;
  a.write = write;
  a.whole = false;
  a.base = base;
  a.lo = 0;
  a.hi = len;
  return a;
}

}  // namespace

std::vector<MemAccess> memory_effects(const Op& op, Values& values, const Arch& arch) {
  const std::string& m = op.mnemonic();
  auto gpv = [&](const char* name) { return values.get(reg_key_gp(static_cast<int>(op.operand(name)))); };
  auto plus = [](Val v, int64_t d) { return Val{v.sym, (v.off + static_cast<uint64_t>(d)) & kMask32}; };
  const int64_t tile = arch.mlen * arch.mlen;
  // The MSRAM tile around an address that points inside it (tile base + column/row).
  auto msram_tile = [&](Val v) {
    MemAccess a = range(Space::Msram, false, v, 0);
    a.lo = -tile;
    a.hi = tile;
    return a;
  };
  std::vector<MemAccess> out;
  if (m == "V_ADD_VV" || m == "V_SUB_VV" || m == "V_MUL_VV") {
    out = {range(Space::Vram, true, gpv("rd"), arch.vlen), range(Space::Vram, false, gpv("rs1"), arch.vlen),
           range(Space::Vram, false, gpv("rs2"), arch.vlen)};
  } else if (m == "V_ADD_VF" || m == "V_SUB_VF" || m == "V_MUL_VF" || m == "V_MAX_VF" || m == "V_MIN_VF" ||
             m == "V_EXP_V" || m == "V_RECI_V" || m == "V_SHFT_V") {
    out = {range(Space::Vram, true, gpv("rd"), arch.vlen), range(Space::Vram, false, gpv("rs1"), arch.vlen)};
  } else if (m == "V_RED_SUM" || m == "V_RED_MAX") {
    out = {range(Space::Vram, false, gpv("rs1"), arch.vlen)};
  } else if (m == "M_MM") {
    out = {msram_tile(gpv("rs1")), range(Space::Vram, false, gpv("rs2"), arch.blen * arch.vlen)};
  } else if (m == "M_TMM") {
    out = {range(Space::Vram, false, gpv("rs1"), arch.blen * arch.vlen), msram_tile(gpv("rs2"))};
  } else if (m == "M_MV" || m == "M_TMV") {
    out = {msram_tile(gpv("rs1")), range(Space::Vram, false, gpv("rs2"), arch.vlen)};
  } else if (m == "M_BMM" || m == "M_BTMM") {
    out = {whole(Space::Msram, false), range(Space::Vram, false, gpv("rs2"), arch.mlen * arch.vlen)};
  } else if (m == "M_BMV" || m == "M_BTMV") {
    out = {whole(Space::Msram, false), range(Space::Vram, false, gpv("rs2"), arch.vlen)};
  } else if (m == "M_MM_WO") {
    const Val stride = gpv("rs1");
    if (stride.is_const()) {
      const int64_t s = stride.off == 0 ? arch.vlen : static_cast<int64_t>(stride.off);
      out = {range(Space::Vram, true, plus(gpv("rd"), op.operand("imm")), (arch.blen - 1) * s + arch.vlen)};
    } else {
      out = {whole(Space::Vram, true)};
    }
  } else if (m == "M_MV_WO") {
    out = {range(Space::Vram, true, plus(gpv("rd"), op.operand("imm")), arch.mlen)};
  } else if (m == "M_BMV_WO") {
    out = {range(Space::Vram, true, plus(gpv("rd"), op.operand("imm")), (arch.mlen / arch.hlen) * arch.vlen)};
  } else if (m == "M_BMM_WO") {
    out = {whole(Space::Vram, true)};
  } else if (m == "H_PREFETCH_M") {
    out = {range(Space::Msram, true, gpv("rd"), tile), whole(Space::Hbm, false)};
  } else if (m == "H_PREFETCH_V") {
    out = {range(Space::Vram, true, gpv("rd"), arch.prefetch_rows * arch.vlen), whole(Space::Hbm, false)};
  } else if (m == "H_STORE_V") {
    out = {range(Space::Vram, false, gpv("rd"), arch.prefetch_rows * arch.vlen), whole(Space::Hbm, true)};
  } else if (m == "S_LD_FP" || m == "S_ST_FP") {
    out = {range(Space::FpMem, m == "S_ST_FP", plus(gpv("rs1"), op.operand("imm")), 1)};
  } else if (m == "S_LD_INT" || m == "S_ST_INT") {
    out = {range(Space::IntMem, m == "S_ST_INT", plus(gpv("rs1"), op.operand("imm")), 1)};
  } else if (m == "S_MAP_V_FP") {
    out = {range(Space::Vram, true, gpv("rd"), arch.vlen),
           range(Space::FpMem, false, plus(gpv("rs1"), op.operand("imm")), arch.vlen)};
  } else if (op.spec->cls == 'S' || (op.spec->cls == 'C' && m != "C_BREAK")) {
    // register-only scalar arithmetic and special-register set-up
  } else {
    out = {whole(Space::All, true)};  // C_BREAK and anything not modelled: a barrier
  }
  return out;
}

bool may_conflict(const MemAccess& a, const MemAccess& b) {
  if (!a.write && !b.write) return false;
  if (a.space == Space::All || b.space == Space::All) return true;
  if (a.space != b.space) return false;
  if (a.whole || b.whole) return true;
  if (a.base.sym != b.base.sym) return true;  // unrelated unknown bases: assume overlap
  // Same base symbol: compare the element intervals (offsets are 32-bit addresses).
  // Offsets from an unknown base are read as signed (sym - 64 is stored as 2^32 - 64).
  auto start = [](const MemAccess& m) {
    return m.base.is_const() ? static_cast<int64_t>(m.base.off)
                             : static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(m.base.off)));
  };
  const int64_t a0 = start(a) + a.lo, a1 = start(a) + a.hi;
  const int64_t b0 = start(b) + b.lo, b1 = start(b) + b.hi;
  return a0 < b1 && b0 < a1;
}

}  // namespace tlmcraft::agent::search::plena
