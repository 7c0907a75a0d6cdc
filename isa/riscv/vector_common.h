// Shared pieces of the Zve32x semantics: encoding fields, vtype decoding, the legality
// checks the RVV 1.0 spec makes reserved (group alignment, overlap, v0 masks), mask-bit
// access, fixed-point rounding, and the per-instruction bookkeeping (vstart reset,
// StepInfo). Every vector_*.cpp file builds its handlers from these.
//
// Policy: tail and masked-off elements are always left undisturbed, whatever vta/vma say
// (the spec allows it; qemu-user does the same by default, which the differential tests
// compare against).
#pragma once
#include <cstdint>
#include <type_traits>

#include "isa/riscv/hart.h"

namespace tlmcraft::isa::riscv::vec {

// ---- encoding fields -------------------------------------------------------------------
inline bool vm_bit(uint32_t raw) { return (raw >> 25) & 1; }
inline bool is_masked(const DecodedInsn& d) { return !vm_bit(d.raw); }
inline unsigned funct6(uint32_t raw) { return raw >> 26; }
inline unsigned funct3(uint32_t raw) { return (raw >> 12) & 7; }

// ---- traps -----------------------------------------------------------------------------
// Throws Trap{IllegalInstruction} naming the instruction and the rule it breaks.
[[noreturn]] void illegal(const DecodedInsn& d, const char* why);
[[noreturn]] void illegal_reg(const DecodedInsn& d, const char* what, unsigned reg,
                              unsigned group);

// ---- vtype -----------------------------------------------------------------------------
// Decoded vtype of the hart. lmul_log2 is -3..3; sew_log2 is 0..2 (e8/e16/e32).
struct VType {
  unsigned sew_bytes;
  unsigned sew_log2;
  int lmul_log2;
  unsigned vlmax;
};

inline int lmul_log2_of(uint32_t vtype) {
  const int l = vtype & 7;
  return l >= 4 ? l - 8 : l;
}
inline unsigned vlmax_of(unsigned sew_bytes, int lmul_log2) {
  return lmul_log2 >= 0 ? (kVlenBytes << lmul_log2) / sew_bytes
                        : (kVlenBytes >> -lmul_log2) / sew_bytes;
}
// Whether a vtype value written by vset{i}vl{i} is supported (otherwise vill is set):
// SEW 8/16/32, LMUL 1/8..8 with LMUL * ELEN >= SEW (so mf8 never, mf4 only for e8, mf2
// for e8/e16), no reserved bits, vill clear.
bool vtype_supported(uint32_t vtype);

// The current vtype; vill set -> illegal instruction.
inline VType current_vtype(const Hart& h, const DecodedInsn& d) {
  if (h.vill()) illegal(d, "vtype.vill is set");
  const unsigned sew_log2 = (h.vtype >> 3) & 7;
  const unsigned sew_bytes = 1u << sew_log2;
  const int lmul = lmul_log2_of(h.vtype);
  return {sew_bytes, sew_log2, lmul, vlmax_of(sew_bytes, lmul)};
}

// ---- register groups -------------------------------------------------------------------
// Registers in a group of EMUL = 2^emul_log2 (fractional groups occupy one register).
inline unsigned group_regs(int emul_log2) { return emul_log2 > 0 ? 1u << emul_log2 : 1u; }

inline void require_aligned(const DecodedInsn& d, const char* what, unsigned reg,
                            int emul_log2) {
  const unsigned n = group_regs(emul_log2);
  if (reg % n != 0) illegal_reg(d, what, reg, n);
}
// A masked instruction whose destination is not a mask may not write v0.
inline void require_vd_not_v0(const DecodedInsn& d) {
  if (is_masked(d) && d.rd == 0) illegal(d, "masked instruction with destination group v0");
}
inline bool overlaps(unsigned a, unsigned na, unsigned b, unsigned nb) {
  return a < b + nb && b < a + na;
}
// The spec's overlap rule between a destination group and a source group of different
// EEW (eew in bits, 1 for masks): allowed when disjoint; when the destination is narrower,
// only in the lowest-numbered part of the source; when wider, only in the highest-
// numbered part of the destination and with source EMUL >= 1.
void require_legal_overlap(const DecodedInsn& d, unsigned dst, unsigned dst_eew,
                           int dst_emul_log2, unsigned src, unsigned src_eew,
                           int src_emul_log2);
// Destination and source may not overlap at all (slides up, gathers, compress, ...).
inline void require_disjoint(const DecodedInsn& d, unsigned dst, unsigned dst_regs,
                             unsigned src, unsigned src_regs, const char* why) {
  if (overlaps(dst, dst_regs, src, src_regs)) illegal(d, why);
}
inline void require_vstart_zero(const Hart& h, const DecodedInsn& d) {
  if (h.vstart != 0) illegal(d, "vstart must be 0 for this instruction");
}

// ---- element and mask access -----------------------------------------------------------
inline bool mask_bit(const Hart& h, unsigned vreg, unsigned i) {
  return (h.v[vreg][i >> 3] >> (i & 7)) & 1;
}
inline void set_mask_bit(uint8_t* bytes, unsigned i, bool value) {
  const uint8_t bit = uint8_t(1u << (i & 7));
  bytes[i >> 3] = value ? uint8_t(bytes[i >> 3] | bit) : uint8_t(bytes[i >> 3] & ~bit);
}
inline bool active(const Hart& h, bool masked, unsigned i) {
  return !masked || mask_bit(h, 0, i);
}

// The element type twice as wide (widening/narrowing and high-half multiplies).
template <typename U> struct Wider;
template <> struct Wider<uint8_t> { using type = uint16_t; };
template <> struct Wider<uint16_t> { using type = uint32_t; };
template <> struct Wider<uint32_t> { using type = uint64_t; };
template <typename U> using WideT = typename Wider<U>::type;
template <typename U> using SignedT = std::make_signed_t<U>;

template <typename U> constexpr unsigned kBits = sizeof(U) * 8;

// Sign-extension of an unsigned element to int64.
template <typename U> inline int64_t sext(U value) { return int64_t(SignedT<U>(value)); }

// ---- fixed-point rounding (vxrm) -------------------------------------------------------
// The rounding increment for shifting `value` right by `shift` bits (the spec's r):
// rnu: v[d-1]; rne: v[d-1] & (v[d-2:0] != 0 | v[d]); rdn: 0; rod: !v[d] & v[d-1:0] != 0.
inline uint64_t round_increment(uint64_t value, unsigned shift, unsigned vxrm) {
  if (shift == 0) return 0;
  const uint64_t half = (value >> (shift - 1)) & 1;
  const uint64_t below_half = shift >= 2 ? value & ((uint64_t(1) << (shift - 1)) - 1) : 0;
  const uint64_t lsb = shift < 64 ? (value >> shift) & 1 : 0;
  switch (vxrm & 3) {
    case 0: return half;
    case 1: return half & ((below_half != 0) | lsb);
    case 2: return 0;
    default: return (!lsb) & ((half | below_half) != 0);
  }
}
inline uint64_t round_shift_unsigned(uint64_t value, unsigned shift, unsigned vxrm) {
  return (value >> shift) + round_increment(value, shift, vxrm);
}
inline int64_t round_shift_signed(int64_t value, unsigned shift, unsigned vxrm) {
  return (value >> shift) + int64_t(round_increment(uint64_t(value), shift, vxrm));
}

// ---- bookkeeping -----------------------------------------------------------------------
// Records what the instruction did and resets vstart (every vector instruction ends with
// vstart = 0).
inline void finish(Hart& h, unsigned first, unsigned end, unsigned sew_bytes,
                   unsigned dst_regs, unsigned src_regs) {
  h.info.vl = uint16_t(end > first ? end - first : 0);
  h.info.sew_bytes = uint8_t(sew_bytes);
  h.info.dst_group = uint8_t(dst_regs);
  h.info.src_group = uint8_t(src_regs);
  h.vstart = 0;
}

// Calls fn(U{}) with U the unsigned element type of `sew_log2` (a generic lambda picks
// its element type from the tag), so inner loops are specialised per SEW.
template <typename Fn> inline void dispatch_sew(unsigned sew_log2, Fn&& fn) {
  switch (sew_log2) {
    case 0: fn(uint8_t{}); break;
    case 1: fn(uint16_t{}); break;
    default: fn(uint32_t{}); break;
  }
}

}  // namespace tlmcraft::isa::riscv::vec
