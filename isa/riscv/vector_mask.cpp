// Mask instructions: mask-register logic (vmand ... vmxnor), vcpop.m, vfirst.m,
// vmsbf/vmsif/vmsof, viota.m and vid.v.
#include "isa/riscv/vector_handlers.h"

namespace tlmcraft::isa::riscv::vec {
namespace {

// Mask logic on bits vstart..vl-1 (a = vs2, b = vs1); always unmasked (vm = 1).
struct MAndN { static bool apply(bool a, bool b) { return a && !b; } };
struct MAnd { static bool apply(bool a, bool b) { return a && b; } };
struct MOr { static bool apply(bool a, bool b) { return a || b; } };
struct MXor { static bool apply(bool a, bool b) { return a != b; } };
struct MOrN { static bool apply(bool a, bool b) { return a || !b; } };
struct MNand { static bool apply(bool a, bool b) { return !(a && b); } };
struct MNor { static bool apply(bool a, bool b) { return !(a || b); } };
struct MXnor { static bool apply(bool a, bool b) { return a == b; } };

template <class Op> void exec_mask_logic(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  // Bit i of the result depends only on bit i of the sources: in-place is safe.
  for (unsigned i = h.vstart, end = h.vl; i < end; ++i)
    set_mask_bit(h.v[d.rd], i, Op::apply(mask_bit(h, d.rs2, i), mask_bit(h, d.rs1, i)));
  finish(h, h.vstart, h.vl, t.sew_bytes, 1, 1);
}

void write_x(Hart& h, unsigned rd, uint32_t value) {
  if (rd != 0) h.x[rd] = value;
}

void exec_vcpop(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  require_vstart_zero(h, d);
  const bool masked = is_masked(d);
  uint32_t count = 0;
  for (unsigned i = 0, end = h.vl; i < end; ++i) count += active(h, masked, i) && mask_bit(h, d.rs2, i);
  write_x(h, d.rd, count);
  finish(h, 0, h.vl, t.sew_bytes, 0, 1);
}

void exec_vfirst(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  require_vstart_zero(h, d);
  const bool masked = is_masked(d);
  uint32_t first = ~0u;  // -1: no active set bit
  for (unsigned i = 0, end = h.vl; i < end; ++i) {
    if (active(h, masked, i) && mask_bit(h, d.rs2, i)) { first = i; break; }
  }
  write_x(h, d.rd, first);
  finish(h, 0, h.vl, t.sew_bytes, 0, 1);
}

// vmsbf (set before first), vmsif (including first), vmsof (only first) over the active
// elements of vs2.
enum class SetFirst { Before, Including, Only };
template <SetFirst kMode> void exec_set_first(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  require_vstart_zero(h, d);
  if (d.rd == d.rs2) illegal(d, "destination overlaps the source mask");
  require_vd_not_v0(d);
  const bool masked = is_masked(d);
  bool seen = false;
  for (unsigned i = 0, end = h.vl; i < end; ++i) {
    if (!active(h, masked, i)) continue;
    const bool bit = mask_bit(h, d.rs2, i);
    bool out;
    if (kMode == SetFirst::Before) out = !seen && !bit;
    else if (kMode == SetFirst::Including) out = !seen;
    else out = !seen && bit;
    seen = seen || bit;
    set_mask_bit(h.v[d.rd], i, out);
  }
  finish(h, 0, h.vl, t.sew_bytes, 1, 1);
}

// viota.m: vd[i] = number of set vs2 bits among active elements before i.
void exec_viota(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  require_vstart_zero(h, d);
  require_aligned(d, "vd", d.rd, t.lmul_log2);
  require_vd_not_v0(d);
  require_disjoint(d, d.rd, group_regs(t.lmul_log2), d.rs2, 1,
                   "destination overlaps the source mask");
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    U count = 0;
    for (unsigned i = 0, end = h.vl; i < end; ++i) {
      if (!active(h, masked, i)) continue;
      h.vset<U>(d.rd, i, count);
      count = U(count + mask_bit(h, d.rs2, i));
    }
  });
  finish(h, 0, h.vl, t.sew_bytes, group_regs(t.lmul_log2), 1);
}

// vid.v: vd[i] = i.
void exec_vid(Hart& h, const DecodedInsn& d) {
  const VType t = current_vtype(h, d);
  require_aligned(d, "vd", d.rd, t.lmul_log2);
  require_vd_not_v0(d);
  const bool masked = is_masked(d);
  dispatch_sew(t.sew_log2, [&](auto z) {
    using U = decltype(z);
    for (unsigned i = h.vstart, end = h.vl; i < end; ++i)
      if (active(h, masked, i)) h.vset<U>(d.rd, i, U(i));
  });
  finish(h, h.vstart, h.vl, t.sew_bytes, group_regs(t.lmul_log2), 0);
}

}  // namespace

VecImpl mask_impl(unsigned f3, unsigned f6, uint32_t raw) {
  if (f3 != kOPMVV) return {};
  const unsigned vs1 = (raw >> 15) & 31, vs2 = (raw >> 20) & 31;
  const bool vm = vm_bit(raw);
  switch (f6) {
    case 0x10:  // VWXUNARY0 (vmv.x.s is a permute)
      if (vs1 == 0x10) return {&exec_vcpop, OpClass::VecToScalar};
      if (vs1 == 0x11) return {&exec_vfirst, OpClass::VecToScalar};
      return {};
    case 0x14:  // VMUNARY0
      switch (vs1) {
        case 0x01: return {&exec_set_first<SetFirst::Before>, OpClass::VecMask};
        case 0x02: return {&exec_set_first<SetFirst::Only>, OpClass::VecMask};
        case 0x03: return {&exec_set_first<SetFirst::Including>, OpClass::VecMask};
        case 0x10: return {&exec_viota, OpClass::VecMask};
        case 0x11: return vs2 == 0 ? VecImpl{&exec_vid, OpClass::VecMask} : VecImpl{};
        default: return {};
      }
    default: break;
  }
  if (!vm) return {};  // mask-register logic is unmasked only
  switch (f6) {
    case 0x18: return {&exec_mask_logic<MAndN>, OpClass::VecMask};
    case 0x19: return {&exec_mask_logic<MAnd>, OpClass::VecMask};
    case 0x1a: return {&exec_mask_logic<MOr>, OpClass::VecMask};
    case 0x1b: return {&exec_mask_logic<MXor>, OpClass::VecMask};
    case 0x1c: return {&exec_mask_logic<MOrN>, OpClass::VecMask};
    case 0x1d: return {&exec_mask_logic<MNand>, OpClass::VecMask};
    case 0x1e: return {&exec_mask_logic<MNor>, OpClass::VecMask};
    case 0x1f: return {&exec_mask_logic<MXnor>, OpClass::VecMask};
    default: return {};
  }
}

}  // namespace tlmcraft::isa::riscv::vec
