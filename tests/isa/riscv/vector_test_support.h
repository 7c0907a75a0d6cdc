// Helpers for the vector-extension tests: a small RVV 1.0 encoder and a fixture holding a
// hart with 64 KB of DTCM at 0x10000, which executes one encoded word at a time through
// decode_vector() and the decoded handler.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "isa/riscv/hart.h"

namespace tlmcraft::isa::riscv::vtest {

// ---- encoder (field layout of the RVV 1.0 spec) ----
enum F3 : uint32_t { IVV = 0, MVV = 2, IVI = 3, IVX = 4, MVX = 6 };
constexpr bool kMasked = true;

inline uint32_t opv(uint32_t f6, uint32_t f3, uint32_t vd, uint32_t vs2, uint32_t rs1,
                    bool masked = false) {
  return f6 << 26 | uint32_t(!masked) << 25 | vs2 << 20 | (rs1 & 31) << 15 | f3 << 12 |
         vd << 7 | 0x57;
}
// vtype immediate: sew in bits (8/16/32), lmul_log2 -3..3, tail/mask agnostic bits.
inline uint32_t vtypei(unsigned sew, int lmul_log2, bool ta = true, bool ma = true) {
  const unsigned vsew = sew == 8 ? 0 : sew == 16 ? 1 : sew == 32 ? 2 : sew == 64 ? 3 : 7;
  return uint32_t(ma) << 7 | uint32_t(ta) << 6 | vsew << 3 | (uint32_t(lmul_log2) & 7);
}
inline uint32_t vsetvli(uint32_t rd, uint32_t rs1, uint32_t vtype) {
  return (vtype & 0x7ff) << 20 | rs1 << 15 | 7u << 12 | rd << 7 | 0x57;
}
inline uint32_t vsetivli(uint32_t rd, uint32_t uimm, uint32_t vtype) {
  return 3u << 30 | (vtype & 0x3ff) << 20 | uimm << 15 | 7u << 12 | rd << 7 | 0x57;
}
inline uint32_t vsetvl(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return 0x40u << 25 | rs2 << 20 | rs1 << 15 | 7u << 12 | rd << 7 | 0x57;
}
// Memory: width field for an EEW in bits.
inline uint32_t width_of(unsigned eew) {
  return eew == 8 ? 0 : eew == 16 ? 5 : eew == 32 ? 6 : 7;
}
enum Mop : uint32_t { kUnit = 0, kIndexedUnordered = 1, kStrided = 2, kIndexedOrdered = 3 };
inline uint32_t vmem(bool store, uint32_t nf, uint32_t mop, bool masked, uint32_t rs2,
                     uint32_t rs1, unsigned eew, uint32_t vd) {
  return (nf - 1) << 29 | mop << 26 | uint32_t(!masked) << 25 | rs2 << 20 | rs1 << 15 |
         width_of(eew) << 12 | vd << 7 | (store ? 0x27u : 0x07u);
}
inline uint32_t vle(unsigned eew, uint32_t vd, uint32_t rs1, bool masked = false, uint32_t nf = 1) {
  return vmem(false, nf, kUnit, masked, 0, rs1, eew, vd);
}
inline uint32_t vse(unsigned eew, uint32_t vs3, uint32_t rs1, bool masked = false, uint32_t nf = 1) {
  return vmem(true, nf, kUnit, masked, 0, rs1, eew, vs3);
}
inline uint32_t vleff(unsigned eew, uint32_t vd, uint32_t rs1, uint32_t nf = 1) {
  return vmem(false, nf, kUnit, false, 0x10, rs1, eew, vd);
}
inline uint32_t vlse(unsigned eew, uint32_t vd, uint32_t rs1, uint32_t rs2, bool masked = false,
                     uint32_t nf = 1) {
  return vmem(false, nf, kStrided, masked, rs2, rs1, eew, vd);
}
inline uint32_t vsse(unsigned eew, uint32_t vs3, uint32_t rs1, uint32_t rs2, uint32_t nf = 1) {
  return vmem(true, nf, kStrided, false, rs2, rs1, eew, vs3);
}

// ---- fixture ----
class VectorTest : public ::testing::Test {
 protected:
  static constexpr uint32_t kBase = 0x10000, kSize = 0x10000;
  Hart h;
  std::vector<uint8_t> mem = std::vector<uint8_t>(kSize, 0);
  DecodedInsn last;

  VectorTest() {
    MemoryRegion r;
    r.name = "dtcm";
    r.base = kBase;
    r.size = kSize;
    r.data = mem.data();
    h.add_region(r);
  }
  // Decodes and executes one word; an undecodable word throws the illegal trap.
  void exec(uint32_t raw) {
    last = DecodedInsn{};
    if (!decode_vector(raw, last))
      throw Trap{TrapCause::IllegalInstruction, raw, "reserved vector encoding"};
    h.info = StepInfo{};
    last.exec(h, last);
  }
  // The trap cause of executing `raw` (fails the test when nothing is thrown).
  TrapCause trap_of(uint32_t raw) {
    try {
      exec(raw);
    } catch (const Trap& t) {
      return t.cause;
    }
    ADD_FAILURE() << "no trap for " << disassemble_vector(raw);
    return TrapCause::Breakpoint;
  }
  std::string trap_text(uint32_t raw) {
    try {
      exec(raw);
    } catch (const Trap& t) {
      return t.detail;
    }
    return "";
  }
  // vsetvli x5, x6 with AVL = avl; returns the vl granted.
  uint32_t setvl(unsigned sew, int lmul_log2, uint32_t avl) {
    h.x[6] = avl;
    exec(vsetvli(5, 6, vtypei(sew, lmul_log2)));
    return h.x[5];
  }
  template <typename T> void fill(unsigned vreg, const std::vector<T>& values) {
    for (unsigned i = 0; i < values.size(); ++i) h.vset<T>(vreg, i, values[i]);
  }
  template <typename T> std::vector<T> get(unsigned vreg, unsigned n) const {
    std::vector<T> out(n);
    for (unsigned i = 0; i < n; ++i) out[i] = h.vget<T>(vreg, i);
    return out;
  }
  // Fills a register group with a recognisable pattern (byte k of v[r] = 0xA0 + r + k).
  void poison(unsigned first, unsigned count) {
    for (unsigned r = first; r < first + count; ++r)
      for (unsigned k = 0; k < kVlenBytes; ++k) h.v[r][k] = uint8_t(0xA0 + r + k);
  }
  void set_mask(unsigned vreg, uint32_t bits) {
    std::memset(h.v[vreg], 0, kVlenBytes);
    std::memcpy(h.v[vreg], &bits, 4);
  }
  uint32_t mask_of(unsigned vreg) const {
    uint32_t bits;
    std::memcpy(&bits, h.v[vreg], 4);
    return bits;
  }
  template <typename T> void poke(uint32_t addr, T value) {
    std::memcpy(&mem[addr - kBase], &value, sizeof(T));
  }
  template <typename T> T peek(uint32_t addr) const {
    T value;
    std::memcpy(&value, &mem[addr - kBase], sizeof(T));
    return value;
  }
};

}  // namespace tlmcraft::isa::riscv::vtest
