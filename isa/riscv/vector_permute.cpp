// Permutations and moves: vmv.x.s, vmv.s.x, vslideup/vslidedown, vslide1up/vslide1down,
// vrgather (.vv/.vx/.vi), vrgatherei16.vv, vcompress.vm and whole-register vmv<nr>r.v.
#include <algorithm>

#include "isa/riscv/vector_handlers.h"

namespace tlmcraft::isa::riscv::vec {
namespace {

// x[rd] = sign-extended vs2[0]; done even when vl = 0 or vstart >= vl.
void exec_vmv_x_s(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    if (d.rd != 0) h.x[d.rd] = uint32_t(int32_t(sext(h.vget<U>(d.rs2, 0))));
  });
  finish(h, 0, 1, t.sew_bytes, 0, 1);
}

// vd[0] = x[rs1] when vstart < vl; other elements undisturbed.
void exec_vmv_s_x(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  const bool write = h.vstart < h.vl;
  if (write) {
    dispatch_sew(t.sew_log2, [&](auto z) {
      using U = decltype(z);
      h.vset<U>(d.rd, 0, U(h.x[d.rs1]));
    });
  }
  finish(h, 0, write ? 1 : 0, t.sew_bytes, 1, 0);
}

// The slide amount / gather index of the .vx and .vi forms (XLEN unsigned).
template <Src S> uint64_t scalar_offset(const Hart& h, const DecodedInsn& d) {
  return S == Src::X ? uint64_t(h.x[d.rs1]) : uint64_t(uint32_t(d.imm));
}

void check_plain_groups(const DecodedInsn& d, const VType& t) {
  require_aligned(d, "vd", d.rd, t.lmul_log2);
  require_aligned(d, "vs2", d.rs2, t.lmul_log2);
  require_vd_not_v0(d);
}

// vslideup: vd[i] = vs2[i - offset] for offset <= i < vl (vd below offset undisturbed).
template <Src S> void exec_slideup(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  check_plain_groups(d, t);
  const unsigned g = group_regs(t.lmul_log2);
  require_disjoint(d, d.rd, g, d.rs2, g, "vslideup destination overlaps the source");
  const uint64_t offset = scalar_offset<S>(h, d);
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    for (uint64_t i = std::max<uint64_t>(h.vstart, offset); i < h.vl; ++i)
      if (active(h, masked, unsigned(i)))
        h.vset<U>(d.rd, unsigned(i), h.vget<U>(d.rs2, unsigned(i - offset)));
  });
  finish(h, h.vstart, h.vl, t.sew_bytes, g, g);
}

// vslidedown: vd[i] = i + offset < VLMAX ? vs2[i + offset] : 0.
template <Src S> void exec_slidedown(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  check_plain_groups(d, t);
  const uint64_t offset = scalar_offset<S>(h, d);
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i) {
      if (!active(h, masked, i)) continue;
      const uint64_t src = i + offset;
      h.vset<U>(d.rd, i, src < t.vlmax ? h.vget<U>(d.rs2, unsigned(src)) : U(0));
    }
  });
  const unsigned g = group_regs(t.lmul_log2);
  finish(h, h.vstart, h.vl, t.sew_bytes, g, g);
}

// vslide1up: vd[0] = x[rs1], vd[i] = vs2[i - 1].
void exec_slide1up(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  check_plain_groups(d, t);
  const unsigned g = group_regs(t.lmul_log2);
  require_disjoint(d, d.rd, g, d.rs2, g, "vslide1up destination overlaps the source");
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i)
      if (active(h, masked, i))
        h.vset<U>(d.rd, i, i == 0 ? U(h.x[d.rs1]) : h.vget<U>(d.rs2, i - 1));
  });
  finish(h, h.vstart, h.vl, t.sew_bytes, g, g);
}

// vslide1down: vd[i] = vs2[i + 1] for i < vl - 1, vd[vl - 1] = x[rs1].
void exec_slide1down(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  check_plain_groups(d, t);
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i)
      if (active(h, masked, i))
        h.vset<U>(d.rd, i, i + 1 == h.vl ? U(h.x[d.rs1]) : h.vget<U>(d.rs2, i + 1));
  });
  const unsigned g = group_regs(t.lmul_log2);
  finish(h, h.vstart, h.vl, t.sew_bytes, g, g);
}

// vrgather: vd[i] = index < VLMAX ? vs2[index] : 0, index from vs1[i] (SEW or 16-bit
// elements for vrgatherei16), x[rs1] or uimm5.
template <Src S, bool kEi16> void exec_gather(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  check_plain_groups(d, t);
  const unsigned g = group_regs(t.lmul_log2);
  require_disjoint(d, d.rd, g, d.rs2, g, "vrgather destination overlaps vs2");
  if (S == Src::V) {
    int index_emul = t.lmul_log2;
    if (kEi16) {
      index_emul = t.lmul_log2 + 1 - int(t.sew_log2);  // EMUL = (16 / SEW) * LMUL
      if (index_emul > 3) illegal(d, "index EMUL = (16 / SEW) * LMUL exceeds 8");
    }
    require_aligned(d, "vs1", d.rs1, index_emul);
    require_disjoint(d, d.rd, g, d.rs1, group_regs(index_emul),
                     "vrgather destination overlaps vs1");
  }
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i) {
      if (!active(h, masked, i)) continue;
      uint64_t index;
      if constexpr (S != Src::V) index = scalar_offset<S>(h, d);
      else if constexpr (kEi16) index = h.vget<uint16_t>(d.rs1, i);
      else index = h.vget<U>(d.rs1, i);
      h.vset<U>(d.rd, i, index < t.vlmax ? h.vget<U>(d.rs2, unsigned(index)) : U(0));
    }
  });
  finish(h, h.vstart, h.vl, t.sew_bytes, g, g);
}

// vcompress.vm: packs the vs2 elements whose vs1 mask bit is set (i < vl) into vd.
void exec_compress(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  require_vstart_zero(h, d);
  require_aligned(d, "vd", d.rd, t.lmul_log2);
  require_aligned(d, "vs2", d.rs2, t.lmul_log2);
  const unsigned g = group_regs(t.lmul_log2);
  require_disjoint(d, d.rd, g, d.rs2, g, "vcompress destination overlaps vs2");
  require_disjoint(d, d.rd, g, d.rs1, 1, "vcompress destination overlaps the mask vs1");
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    unsigned out = 0;
    for (unsigned i = 0, end = h.vl; i < end; ++i)
      if (mask_bit(h, d.rs1, i)) h.vset<U>(d.rd, out++, h.vget<U>(d.rs2, i));
  });
  finish(h, 0, h.vl, t.sew_bytes, g, g);
}

// vmv<nr>r.v: copies nr whole registers (EEW = SEW, from vstart); independent of vl.
void exec_whole_move(Hart& h, const DecodedInsn& d) {
  const unsigned nr = unsigned(d.imm) + 1;
  require_aligned(d, "vd", d.rd, int(nr == 1 ? 0 : nr == 2 ? 1 : nr == 4 ? 2 : 3));
  require_aligned(d, "vs2", d.rs2, int(nr == 1 ? 0 : nr == 2 ? 1 : nr == 4 ? 2 : 3));
  const unsigned eew = h.vsew_bytes() <= 4 ? h.vsew_bytes() : 1;
  const unsigned evl = nr * kVlenBytes / eew;
  const unsigned first_byte = h.vstart * eew;
  if (h.vstart < evl && d.rd != d.rs2)
    std::memmove(&h.v[d.rd][0] + first_byte, &h.v[d.rs2][0] + first_byte,
                 nr * kVlenBytes - first_byte);
  finish(h, h.vstart, evl, eew, nr, nr);
}

}  // namespace

VecImpl permute_impl(unsigned f3, unsigned f6, uint32_t raw) {
  const unsigned vs1 = (raw >> 15) & 31, vs2 = (raw >> 20) & 31;
  const bool vm = vm_bit(raw);
  const OpClass p = OpClass::VecPermute;
  switch (f3) {
    case kOPIVV:
      if (f6 == 0x0c) return {&exec_gather<Src::V, false>, p};
      if (f6 == 0x0e) return {&exec_gather<Src::V, true>, p};
      return {};
    case kOPIVX:
      if (f6 == 0x0c) return {&exec_gather<Src::X, false>, p};
      if (f6 == 0x0e) return {&exec_slideup<Src::X>, p};
      if (f6 == 0x0f) return {&exec_slidedown<Src::X>, p};
      return {};
    case kOPIVI:
      if (f6 == 0x0c) return {&exec_gather<Src::I, false>, p};
      if (f6 == 0x0e) return {&exec_slideup<Src::I>, p};
      if (f6 == 0x0f) return {&exec_slidedown<Src::I>, p};
      if (f6 == 0x27 && vm && (vs1 == 0 || vs1 == 1 || vs1 == 3 || vs1 == 7))
        return {&exec_whole_move, p};
      return {};
    case kOPMVV:
      if (f6 == 0x10 && vs1 == 0 && vm) return {&exec_vmv_x_s, OpClass::VecToScalar};
      if (f6 == 0x17 && vm) return {&exec_compress, p};
      return {};
    case kOPMVX:
      if (f6 == 0x10 && vs2 == 0 && vm) return {&exec_vmv_s_x, p};
      if (f6 == 0x0e) return {&exec_slide1up, p};
      if (f6 == 0x0f) return {&exec_slide1down, p};
      return {};
    default: return {};
  }
}

}  // namespace tlmcraft::isa::riscv::vec
