// Out-of-line parts of vector_common.h: illegal-instruction traps with a message that
// names the instruction, vtype support, and the register-group overlap rule.
#include "isa/riscv/vector_common.h"

#include <string>

namespace tlmcraft::isa::riscv::vec {

void illegal(const DecodedInsn& d, const char* why) {
  std::string text = disassemble_vector(d.raw);
  if (text.empty()) text = "vector instruction";
  throw Trap{TrapCause::IllegalInstruction, d.raw, text + ": " + why};
}

void illegal_reg(const DecodedInsn& d, const char* what, unsigned reg, unsigned group) {
  const std::string why = std::string(what) + " = v" + std::to_string(reg) +
                          " is not a multiple of the register group size " +
                          std::to_string(group);
  illegal(d, why.c_str());
}

bool vtype_supported(uint32_t vtype) {
  if (vtype >> 8) return false;  // vill or reserved bits
  const unsigned sew_log2 = (vtype >> 3) & 7;
  if (sew_log2 > 2) return false;  // SEW > ELEN = 32
  const int lmul = lmul_log2_of(vtype);
  if (lmul == -4) return false;  // vlmul = 100 is reserved
  // Fractional LMUL: LMUL * ELEN >= SEW.
  if (lmul < 0 && (kElen >> -lmul) < (8u << sew_log2)) return false;
  return true;
}

void require_legal_overlap(const DecodedInsn& d, unsigned dst, unsigned dst_eew,
                           int dst_emul_log2, unsigned src, unsigned src_eew,
                           int src_emul_log2) {
  const unsigned nd = group_regs(dst_emul_log2), ns = group_regs(src_emul_log2);
  if (!overlaps(dst, nd, src, ns) || dst_eew == src_eew) return;
  if (dst_eew < src_eew) {
    if (dst == src) return;  // the lowest-numbered part of the source
    illegal(d, "destination overlaps a wider source other than in its lowest-numbered part");
  }
  if (src_emul_log2 >= 0 && src == dst + nd - ns) return;  // highest part of the destination
  illegal(d, "destination overlaps a narrower source other than in its highest-numbered part");
}

}  // namespace tlmcraft::isa::riscv::vec
