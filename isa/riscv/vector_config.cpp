// vsetvli / vsetivli / vsetvl: set vtype and vl (vl = min(AVL, VLMAX)).
// AVL: x[rs1] when rs1 != x0; VLMAX when rs1 = x0 and rd != x0; the current vl when both
// are x0 (clamped to the new VLMAX, as qemu does; the spec reserves a VLMAX change there).
// Unsupported vtype values set vill, vl = 0 and the other vtype bits to zero.
#include "isa/riscv/vector_handlers.h"

namespace tlmcraft::isa::riscv::vec {
namespace {

void set_config(Hart& h, const DecodedInsn& d, uint32_t new_vtype, uint64_t avl) {
  if (vtype_supported(new_vtype)) {
    const unsigned sew_bytes = 1u << ((new_vtype >> 3) & 7);
    const unsigned vlmax = vlmax_of(sew_bytes, lmul_log2_of(new_vtype));
    h.vtype = new_vtype;
    h.vl = uint32_t(avl < vlmax ? avl : vlmax);
  } else {
    h.vtype = 0x80000000u;
    h.vl = 0;
  }
  if (d.rd != 0) h.x[d.rd] = h.vl;
  h.vstart = 0;
  h.info.vl = uint16_t(h.vl);
  h.info.sew_bytes = uint8_t(h.vill() ? 0 : h.vsew_bytes());
  h.info.dst_group = 0;
  h.info.src_group = 0;
}

uint64_t register_avl(const Hart& h, const DecodedInsn& d) {
  if (d.rs1 != 0) return h.x[d.rs1];
  if (d.rd != 0) return ~uint64_t(0);
  return h.vl;
}

void exec_vsetvli(Hart& h, const DecodedInsn& d) {
  set_config(h, d, uint32_t(d.imm), register_avl(h, d));
}
void exec_vsetivli(Hart& h, const DecodedInsn& d) { set_config(h, d, uint32_t(d.imm), d.rs1); }
void exec_vsetvl(Hart& h, const DecodedInsn& d) {
  set_config(h, d, h.x[d.rs2], register_avl(h, d));
}

}  // namespace

VecImpl config_impl(uint32_t raw) {
  if ((raw >> 31) == 0) return {&exec_vsetvli, OpClass::VecConfig};
  if ((raw >> 30) == 3) return {&exec_vsetivli, OpClass::VecConfig};
  if ((raw >> 25) == 0x40) return {&exec_vsetvl, OpClass::VecConfig};
  return {};
}

}  // namespace tlmcraft::isa::riscv::vec
