// decode_vector(): turns an OP-V / vector load / vector store word into a DecodedInsn
// (handler, operand fields, immediate, OpClass, register dependencies). Handlers come from
// the per-group lookups of vector_handlers.h; reserved encodings return false.
#include "isa/riscv/vector_handlers.h"

namespace tlmcraft::isa::riscv {
namespace {

using namespace vec;

void add_src(DecodedInsn& d, unsigned reg) {
  for (uint8_t& slot : d.src) {
    if (slot == reg) return;
    if (slot == kNoReg) { slot = uint8_t(reg); return; }
  }
}
uint8_t vreg(unsigned r) { return uint8_t(kVecBase + r); }
uint8_t xreg_or_none(unsigned r) { return r == 0 ? kNoReg : uint8_t(r); }

// .vi immediates are sign-extended except for shifts, slides and gathers (unsigned).
bool unsigned_imm(unsigned f6) {
  return f6 == 0x0c || f6 == 0x0e || f6 == 0x0f || f6 == 0x25 || (f6 >= 0x28 && f6 <= 0x2f);
}

bool decode_config(uint32_t raw, DecodedInsn& d) {
  const VecImpl impl = config_impl(raw);
  if (impl.exec == nullptr) return false;
  d.exec = impl.exec;
  d.cls = impl.cls;
  if ((raw >> 31) == 0) d.imm = int32_t((raw >> 20) & 0x7ff);        // vsetvli zimm[10:0]
  else if ((raw >> 30) == 3) d.imm = int32_t((raw >> 20) & 0x3ff);   // vsetivli zimm[9:0]
  d.dst[0] = xreg_or_none(d.rd);
  if ((raw >> 30) != 3 && d.rs1 != 0) add_src(d, d.rs1);
  if ((raw >> 25) == 0x40) add_src(d, d.rs2);                         // vsetvl
  return true;
}

bool decode_arith(uint32_t raw, DecodedInsn& d) {
  const unsigned f3 = funct3(raw), f6 = funct6(raw);
  VecImpl impl = integer_impl(f3, f6, raw);
  if (!impl.exec) impl = multiply_impl(f3, f6, raw);
  if (!impl.exec) impl = fixed_point_impl(f3, f6, raw);
  if (!impl.exec) impl = reduction_impl(f3, f6, raw);
  if (!impl.exec) impl = mask_impl(f3, f6, raw);
  if (!impl.exec) impl = permute_impl(f3, f6, raw);
  if (!impl.exec) return false;
  d.exec = impl.exec;
  d.cls = impl.cls;
  if (f3 == kOPIVI) {
    const uint32_t field = (raw >> 15) & 31;
    d.imm = unsigned_imm(f6) ? int32_t(field) : int32_t(field << 27) >> 27;
  }

  const bool opm = f3 == kOPMVV || f3 == kOPMVX;
  const bool unary = opm && f3 == kOPMVV && (f6 == 0x10 || f6 == 0x12 || f6 == 0x14);
  const bool to_scalar = impl.cls == OpClass::VecToScalar;
  const bool vmv_s_x = opm && f3 == kOPMVX && f6 == 0x10;
  const bool vmv_v = !opm && f6 == 0x17 && vm_bit(raw);
  const bool vid = unary && f6 == 0x14 && d.rs1 == 0x11;
  const bool multiply_add = opm && (f6 == 0x29 || f6 == 0x2b || f6 == 0x2d || f6 == 0x2f ||
                                    f6 >= 0x3c);
  d.dst[0] = to_scalar ? xreg_or_none(d.rd) : vreg(d.rd);
  if (!vmv_s_x && !vmv_v && !vid) add_src(d, vreg(d.rs2));
  if (is_v_form(f3) && !unary) add_src(d, vreg(d.rs1));
  if (is_x_form(f3)) add_src(d, d.rs1);
  if (multiply_add) add_src(d, vreg(d.rd));
  if (!vm_bit(raw)) add_src(d, vreg(0));
  return true;
}

bool decode_memory(uint32_t raw, DecodedInsn& d) {
  const VecImpl impl = memory_impl(raw, d);
  if (impl.exec == nullptr) return false;
  d.exec = impl.exec;
  d.cls = impl.cls;
  const bool store = impl.cls == OpClass::VecStore;
  const unsigned mop = (raw >> 26) & 3;
  if (store) add_src(d, vreg(d.rd));
  else d.dst[0] = vreg(d.rd);
  add_src(d, d.rs1);
  if (mop == 2) add_src(d, d.rs2);
  if (mop == 1 || mop == 3) add_src(d, vreg(d.rs2));
  if (!vm_bit(raw)) add_src(d, vreg(0));
  return true;
}

}  // namespace

bool decode_vector(uint32_t raw, DecodedInsn& out) {
  DecodedInsn d;
  d.raw = raw;
  d.rd = uint8_t((raw >> 7) & 31);
  d.rs1 = uint8_t((raw >> 15) & 31);
  d.rs2 = uint8_t((raw >> 20) & 31);
  const unsigned opcode = raw & 0x7f;
  bool ok = false;
  if (opcode == 0x57) {
    const unsigned f3 = funct3(raw);
    if (f3 == kOPCFG) ok = decode_config(raw, d);
    else if (f3 != kOPFVV && f3 != kOPFVF) ok = decode_arith(raw, d);  // no vector FP in Zve32x
  } else if (opcode == 0x07 || opcode == 0x27) {
    ok = decode_memory(raw, d);
  }
  if (ok) out = d;
  return ok;
}

}  // namespace tlmcraft::isa::riscv
