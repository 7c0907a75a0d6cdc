// Generated fidelity programs. Prefetch: HBM bases, scale offsets, strides and offsets
// drawn to hit every channel/bank pattern (contiguous, 8-element to 2 KiB strides, rows
// straddling 64-byte blocks, large bases), short non-HBM gaps between prefetches. Compute: straight-line and looped
// vector, scalar-FP (including f0 destinations), integer and matrix code. Mixed: both.
#include <random>

#include "bench/plena_fidelity/programs.h"

namespace tlmcraft::bench {

namespace {

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  uint64_t below(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  template <class T>
  T pick(std::initializer_list<T> v) { return *(v.begin() + below(v.size())); }
  std::string n(uint64_t v) { return std::to_string(v); }

  // Sets gpN to v (any 32-bit value).
  std::string set(int r, uint64_t v) {
    if (v < (1u << 18)) return "S_ADDI_INT gp" + n(r) + ", gp0, " + n(v) + "\n";
    return "S_LUI_INT gp" + n(r) + ", " + n(v >> 12) + "\nS_ADDI_INT gp" + n(r) + ", gp" + n(r) + ", " + n(v & 0xFFF) + "\n";
  }

  std::string prefetch_block() {
    std::string s = set(12, pick<uint64_t>({0, 4096, 16384, 262144, below(4096) * 8}));
    s += "C_SET_SCALE_REG gp12\n";
    // Multiples of 8 elements that are not multiples of 64 put rows across two 64-byte blocks.
    s += set(13, pick<uint64_t>({64, 128, 256, 512, 1024, 2048, (below(63) + 1) * 64, (below(255) + 1) * 8}));
    s += "C_SET_STRIDE_REG gp13\n";
    s += set(14, pick<uint64_t>({0, 64, below(1000) * 64, below(8000) * 8}));
    for (uint64_t k = below(4); k > 0; --k) s += "S_ADDI_INT gp15, gp15, 1\n";
    const bool m = below(2);
    const std::string dst = m ? "gp0" : "gp" + n(1 + below(4));
    s += std::string(m ? "H_PREFETCH_M " : "H_PREFETCH_V ") + dst + ", gp14, a" + n(below(2)) + ", " + n(below(2)) + ", 0\n";
    return s;
  }

  std::string prefetch_program() {
    std::string s = vram_registers();
    for (int a = 0; a < 2; ++a) {
      s += set(11, pick<uint64_t>({0, 4096, 65536, below(1 << 20) * 64}));
      s += "C_SET_ADDR_REG a" + n(a) + ", gp0, gp11\n";
    }
    for (uint64_t i = below(6) + 1; i > 0; --i) s += prefetch_block();
    return s;
  }

  // gp1..gp4: VRAM rows; gp5: MSRAM tile 0; gp6: output rows; gp7: FP_MEM base.
  std::string vram_registers() {
    std::string s;
    for (int r = 1; r <= 4; ++r) s += set(r, below(256) * 64);
    return s + set(5, below(4) * 4096) + set(6, (512 + below(256)) * 64) + set(7, below(512));
  }

  std::string vreg() { return "gp" + n(1 + below(4)); }
  std::string freg() { return "f" + n(below(8)); }

  std::string compute_op() {
    switch (below(16)) {
      case 0: return "V_ADD_VV " + vreg() + ", " + vreg() + ", " + vreg() + ", 0\n";
      case 1: return "V_MUL_VF " + vreg() + ", " + vreg() + ", " + freg() + ", 0\n";
      case 2: return "V_SUB_VF " + vreg() + ", " + vreg() + ", " + freg() + ", 0, " + n(below(2)) + "\n";
      case 3: return "V_EXP_V " + vreg() + ", " + vreg() + ", 0\n";
      case 4: return "V_RECI_V " + vreg() + ", " + vreg() + ", 0\n";
      case 5: return "V_RED_SUM " + freg() + ", " + vreg() + ", 0\n";
      case 6: return "V_RED_MAX " + freg() + ", " + vreg() + ", 0\n";
      case 7: return "V_MAX_VF " + vreg() + ", " + vreg() + ", " + freg() + ", 0\n";
      case 8: return pick<std::string>({"S_ADD_FP ", "S_MUL_FP ", "S_MAX_FP ", "S_SUB_FP "}) + freg() + ", " + freg() + ", " + freg() + "\n";
      case 9: return pick<std::string>({"S_EXP_FP ", "S_RECI_FP ", "S_SQRT_FP "}) + freg() + ", " + freg() + "\n";
      case 10: return "S_LD_FP " + freg() + ", gp7, " + n(below(256)) + "\n";
      case 11: return "S_MAP_V_FP " + vreg() + ", gp7, " + n(below(8) * 8) + "\n";
      case 12: return "M_MM 0, gp5, " + vreg() + "\n";
      case 13: return "M_MM_WO gp6, gp0, " + n(below(16) * 4) + "\n";
      case 14: return "S_ADDI_INT gp" + n(8 + below(3)) + ", gp" + n(8 + below(3)) + ", " + n(below(1000)) + "\n";
      default: return "S_MUL_INT gp" + n(8 + below(3)) + ", gp" + n(8 + below(3)) + ", gp" + n(8 + below(3)) + "\n";
    }
  }

  std::string body(int depth, int counter) {
    std::string s;
    for (uint64_t i = below(8) + 1; i > 0; --i) {
      if (depth < 2 && below(6) == 0) {
        s += "C_LOOP_START gp" + n(counter) + ", " + n(below(6) + 1) + "\n" + body(depth + 1, counter + 1) +
             "C_LOOP_END gp" + n(counter) + "\n";
      } else {
        s += compute_op();
      }
    }
    return s;
  }

  std::string compute_program() { return vram_registers() + body(0, 12); }
  std::string mixed_program() { return prefetch_program() + body(0, 12) + prefetch_block(); }

 private:
  std::mt19937_64 rng_;
};

}  // namespace

std::vector<FidelityProgram> generated_programs(const std::string& kind, int count, uint64_t seed) {
  std::vector<FidelityProgram> out;
  for (int i = 0; i < count; ++i) {
    Gen g(seed * 1000003u + uint64_t(i) * 7919u + kind.size());
    std::string text = kind == "prefetch" ? g.prefetch_program() : kind == "compute" ? g.compute_program() : g.mixed_program();
    out.push_back({kind, kind + "_" + std::to_string(i), "; generated " + kind + " program " + std::to_string(i) + "\n" + text});
  }
  return out;
}

}  // namespace tlmcraft::bench
