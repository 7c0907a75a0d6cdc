// The random program generator (see program_generator.h). Register conventions: s11
// (x27) holds the data buffer's address and is never written by the body; every other x
// register is fair game. Vector units track the static SEW/LMUL set by the last vsetvli
// so every operand group is aligned and every overlap rule is respected.
#include "tests/isa/riscv/difftest/program_generator.h"

#include <algorithm>
#include <cstdarg>
#include <cstdlib>
#include <cstdio>
#include <random>
#include <sstream>

namespace tlmcraft::isa::riscv::difftest {

namespace {

const char* const kX[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                            "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                            "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
constexpr unsigned kBase = 27;  // s11: the data buffer

const uint32_t kSpecialFloats[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001,
    0xffc00001, 0x7fa00000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x80800000, 0x7f7fffff,
    0xff7fffff, 0x33800000, 0x34000000, 0x4b800001, 0x4f000000, 0xcf000000, 0xcf000001, 0x4f800000,
    0x3f000000, 0xbf000000, 0x3fc00000, 0x40200000, 0xc0200000, 0x3effffff, 0x00400000, 0x0c000000,
    0x72800000, 0x73000000, 0x14000400, 0x2bfff800, 0x40000000, 0x3f800001, 0x4effffff, 0x4f7fffff,
    // few significant bits: sums and conversions of these hit exact ties (RNE vs RMM)
    0x40400000, 0xbfc00000, 0x4b000001, 0x4b7fffff, 0x33000000, 0x3f800003, 0x34400000, 0x3f400000};
const uint32_t kSpecialInts[] = {0, 1, 2, 0xffffffff, 0x80000000, 0x7fffffff, 0xfffffffe, 0x80000001,
                                 16, 31, 32, 255, 256, 0xffff, 0x8000, 0x7f, 0x80, 0xff80,
                                 16777217, 16777219, 0xfeffffff, 0x7fffffc0, 0x80000040};

const char* const kRm[6] = {"", ",rne", ",rtz", ",rdn", ",rup", ",rmm"};

class Generator {
 public:
  Generator(uint64_t seed, const GeneratorOptions& options) : rng_(seed), options_(options) {}

  GeneratedProgram run(uint64_t seed) {
    GeneratedProgram p;
    p.seed = seed;
    for (uint32_t i = 0; i < kBufBytes / 4; ++i) p.data.push_back(random_word());
    prologue(p.prologue);
    for (unsigned i = 0; i < options_.units; ++i) p.units.push_back(unit());
    return p;
  }

 private:
  std::mt19937_64 rng_;
  GeneratorOptions options_;
  // Static vector configuration after the last vsetvli: SEW in bits, log2(LMUL) (-2..3).
  unsigned sew_ = 32;
  int lmul_log_ = 0;

  uint64_t next() { return rng_(); }
  unsigned below(unsigned n) { return static_cast<unsigned>(next() % n); }
  int range(int lo, int hi) { return lo + static_cast<int>(below(static_cast<unsigned>(hi - lo + 1))); }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <typename T, size_t N> T pick(const T (&a)[N]) { return a[below(N)]; }

  uint32_t random_word() {
    switch (below(5)) {
      case 0: return pick(kSpecialInts);
      case 1: return pick(kSpecialFloats);
      case 2: return static_cast<uint32_t>(range(-300, 300));
      case 3: {  // a float near 1 with a short significand (exact ties are likely)
        const uint32_t exponent = 100 + below(56), significand = below(256) << 15;
        return (chance(50) ? 0x80000000u : 0u) | exponent << 23 | significand;
      }
      default: return static_cast<uint32_t>(next());
    }
  }

  // Any x register but x0 and the buffer base.
  unsigned dst() {
    unsigned r;
    do r = 1 + below(31);
    while (r == kBase);
    return r;
  }
  unsigned src() { return below(32); }
  // A destination: sometimes x0 (the write must be discarded), else any writable register.
  const char* xd() { return chance(4) ? kX[0] : kX[dst()]; }
  const char* xs() { return kX[src()]; }
  static std::string f(unsigned r) { return "f" + std::to_string(r); }
  std::string fr() { return f(below(32)); }
  std::string rm() { return kRm[below(6)]; }

  static std::string fmt(const char* format, ...) __attribute__((format(printf, 1, 2))) {
    char buf[256];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buf, sizeof buf, format, args);
    va_end(args);
    return buf;
  }

  void prologue(std::vector<std::string>& out) {
    out.push_back("la s11, buf");
    // FP registers from special patterns and random words (through t0).
    for (unsigned i = 0; i < 32; ++i) {
      const uint32_t v = chance(60) ? pick(kSpecialFloats) : random_word();
      out.push_back(fmt("li t0, %d", static_cast<int32_t>(v)));
      out.push_back(fmt("fmv.w.x f%u, t0", i));
    }
    out.push_back(fmt("csrwi frm, %u", below(5)));
    out.push_back("csrwi fflags, 0");
    out.push_back(fmt("csrwi vxrm, %u", below(4)));
    out.push_back("csrwi vxsat, 0");
    if (options_.vector) {
      // v0..v31 from the buffer's first 512 bytes.
      out.push_back("li t0, 128");
      out.push_back("vsetvli t0, t0, e8, m8, tu, mu");
      out.push_back("vle8.v v0, (s11)");
      out.push_back("addi t0, s11, 128");
      out.push_back("vle8.v v8, (t0)");
      out.push_back("addi t0, s11, 256");
      out.push_back("vle8.v v16, (t0)");
      out.push_back("addi t0, s11, 384");
      out.push_back("vle8.v v24, (t0)");
      out.push_back(vsetvli());
    }
    for (unsigned r = 1; r < 32; ++r) {
      if (r == kBase) continue;
      out.push_back(fmt("li %s, %d", kX[r], static_cast<int32_t>(random_word())));
    }
  }

  std::string unit() {
    if (options_.vector && chance(45)) return vector_unit();
    switch (below(12)) {
      case 0: {  // forward branch over one or two simple units
        static const char* const br[] = {"beq", "bne", "blt", "bge", "bltu", "bgeu"};
        std::string s = fmt("%s %s, %s, 1f", pick(br), xs(), xs());
        for (unsigned i = 0, n = 1 + below(2); i < n; ++i) s += "\n" + simple_unit();
        return s + "\n1:";
      }
      case 1: return fmt("jal %s, 1f\n", xd()) + simple_unit() + "\n1:";
      case 2: {
        const unsigned t = dst();
        return fmt("la %s, 1f\njalr %s, 0(%s)\n", kX[t], xd(), kX[t]) + simple_unit() + "\n1:";
      }
      default: return simple_unit();
    }
  }

  // One scalar instruction (or a short sequence) with no control flow.
  std::string simple_unit() {
    switch (below(16)) {
      case 0: case 1: {
        static const char* const ops[] = {"add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and"};
        return fmt("%s %s, %s, %s", pick(ops), xd(), xs(), xs());
      }
      case 2: case 3: {
        static const char* const ops[] = {"addi", "slti", "sltiu", "xori", "ori", "andi"};
        return fmt("%s %s, %s, %d", pick(ops), xd(), xs(), range(-2048, 2047));
      }
      case 4: {
        static const char* const ops[] = {"slli", "srli", "srai"};
        return fmt("%s %s, %s, %d", pick(ops), xd(), xs(), range(0, 31));
      }
      case 5: return chance(50) ? fmt("lui %s, %u", xd(), below(1 << 20)) : fmt("auipc %s, %u", xd(), below(1 << 20));
      case 6: case 7: {
        static const char* const ops[] = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
        return fmt("%s %s, %s, %s", pick(ops), xd(), xs(), xs());
      }
      case 8: {
        static const char* const ops[] = {"lb", "lbu", "lh", "lhu", "lw"};
        static const unsigned size[] = {1, 1, 2, 2, 4};
        const unsigned k = below(5);
        return fmt("%s %s, %u(s11)", ops[k], xd(), below(kBufBytes / size[k]) * size[k]);
      }
      case 9: {
        static const char* const ops[] = {"sb", "sh", "sw"};
        const unsigned k = below(3), size = 1u << k;
        return fmt("%s %s, %u(s11)", ops[k], xs(), below(kBufBytes / size) * size);
      }
      case 10: return chance(90) ? csr_unit() : "fence";
      case 11:
        if (chance(50)) return fmt("flw %s, %u(s11)", fr().c_str(), below(kBufBytes / 4) * 4);
        return fmt("fsw %s, %u(s11)", fr().c_str(), below(kBufBytes / 4) * 4);
      default: return fp_unit();
    }
  }

  std::string csr_unit() {
    static const char* const readable[] = {"fflags", "frm", "fcsr", "vl", "vtype", "vlenb", "vxrm", "vxsat", "vcsr", "vstart"};
    switch (below(7)) {
      case 0: return fmt("csrr %s, %s", xd(), pick(readable));
      case 1: return fmt("csrrw %s, fflags, %s", xd(), xs());
      case 2: return fmt("csrrwi %s, frm, %u", xd(), below(5));
      case 3: return fmt("csrrsi %s, fcsr, %u", xd(), below(32));  // only the flag bits
      case 4: return fmt("csrrci %s, fcsr, %u", xd(), below(32));
      case 5:
        // qemu 7.2 stores whole register values into vxrm/vxsat (they are 2 and 1 bits
        // wide): write those two only with in-range immediates; vcsr is masked by qemu.
        switch (below(3)) {
          case 0: return fmt("csrrwi %s, vxrm, %u", xd(), below(4));
          case 1: return fmt("csrrwi %s, vxsat, %u", xd(), below(2));
          default: return fmt("csrrw %s, vcsr, %s", xd(), xs());
        }
      default: return fmt("csrrs %s, fflags, %s", xd(), xs());
    }
  }

  std::string fp_unit() {
    switch (below(14)) {
      case 0: case 1: {
        static const char* const ops[] = {"fadd.s", "fsub.s", "fmul.s", "fdiv.s"};
        return fmt("%s %s, %s, %s", pick(ops), fr().c_str(), fr().c_str(), fr().c_str()) + rm();
      }
      case 2: return fmt("fsqrt.s %s, %s", fr().c_str(), fr().c_str()) + rm();
      case 3: case 4: {
        static const char* const ops[] = {"fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s"};
        return fmt("%s %s, %s, %s, %s", pick(ops), fr().c_str(), fr().c_str(), fr().c_str(), fr().c_str()) + rm();
      }
      case 5: {
        static const char* const ops[] = {"fsgnj.s", "fsgnjn.s", "fsgnjx.s", "fmin.s", "fmax.s"};
        return fmt("%s %s, %s, %s", pick(ops), fr().c_str(), fr().c_str(), fr().c_str());
      }
      case 6: {
        static const char* const ops[] = {"feq.s", "flt.s", "fle.s"};
        return fmt("%s %s, %s, %s", pick(ops), xd(), fr().c_str(), fr().c_str());
      }
      case 7: return fmt("fclass.s %s, %s", xd(), fr().c_str());
      case 8: case 9: {
        static const char* const ops[] = {"fcvt.w.s", "fcvt.wu.s"};
        return fmt("%s %s, %s", pick(ops), xd(), fr().c_str()) + rm();
      }
      case 10: {
        static const char* const ops[] = {"fcvt.s.w", "fcvt.s.wu"};
        return fmt("%s %s, %s", pick(ops), fr().c_str(), xs()) + rm();
      }
      case 11: return fmt("fmv.x.w %s, %s", xd(), fr().c_str());
      case 12: return fmt("fmv.w.x %s, %s", fr().c_str(), xs());
      default: return fmt("fmin.s %s, %s, %s", fr().c_str(), fr().c_str(), fr().c_str());
    }
  }

  // ---------------------------------------------------------------- vector ----------
  unsigned vlmax() const {
    const unsigned per_reg = 128 / sew_;
    return lmul_log_ >= 0 ? per_reg << lmul_log_ : per_reg >> -lmul_log_;
  }
  static unsigned regs(int emul_log) { return emul_log > 0 ? 1u << emul_log : 1u; }
  static std::string lmul_name(int log) {
    if (log >= 0) return "m" + std::to_string(1 << log);
    return "mf" + std::to_string(1 << -log);
  }

  std::string vsetvli() {
    // SEW/LMUL pairs legal for ELEN = 32: LMUL >= SEW / 32.
    for (;;) {
      static const unsigned sews[] = {8, 16, 32};
      const unsigned sew = pick(sews);
      const int lmul_log = range(-2, 3);
      if (lmul_log < 0 && (sew << -lmul_log) > 32) continue;
      sew_ = sew;
      lmul_log_ = lmul_log;
      break;
    }
    const char* ta = chance(50) ? "ta" : "tu";
    const char* ma = chance(50) ? "ma" : "mu";
    const std::string type = fmt("e%u, %s, %s, %s", sew_, lmul_name(lmul_log_).c_str(), ta, ma);
    switch (below(3)) {
      case 0: return fmt("vsetivli %s, %u, ", xd(), below(32)) + type;
      case 1: return fmt("vsetvli %s, zero, ", kX[dst()]) + type;  // rd != x0: vl = VLMAX
      default: {
        const unsigned t = dst();
        return fmt("li %s, %u\nvsetvli %s, %s, ", kX[t], below(vlmax() * 2 + 3) , xd(), kX[t]) + type;
      }
    }
  }

  // A register group of 2^emul_log registers, aligned; avoids v0 when `masked`.
  unsigned group(int emul_log, bool masked) {
    const unsigned n = regs(emul_log);
    for (;;) {
      const unsigned base = n * below(32 / n);
      if (!(masked && base == 0)) return base;
    }
  }
  static bool overlap(unsigned a, unsigned an, unsigned b, unsigned bn) { return a < b + bn && b < a + an; }
  // A group disjoint from the given (base, count) pairs.
  unsigned group_avoiding(int emul_log, bool masked, std::initializer_list<std::pair<unsigned, unsigned>> avoid) {
    const unsigned n = regs(emul_log);
    for (int tries = 0; tries < 200; ++tries) {
      const unsigned g = group(emul_log, masked);
      bool ok = true;
      for (auto [b, bn] : avoid) ok = ok && !overlap(g, n, b, bn);
      if (ok) return g;
    }
    return 32;  // none found: callers fall back to another unit
  }
  static std::string v(unsigned r) { return "v" + std::to_string(r); }
  std::string mask_suffix(bool masked) { return masked ? ", v0.t" : ""; }

  // vsetvl (register vtype): a legal configuration, or a reserved one (vill, vl = 0)
  // observed through vtype/vl and then replaced by a legal vsetvli.
  std::string vsetvl() {
    const unsigned t = dst();
    unsigned avl;
    do avl = dst();
    while (avl == t);
    if (chance(70)) {
      const std::string legal = vsetvli();  // picks sew_/lmul_log_
      const unsigned lmul_bits = lmul_log_ >= 0 ? unsigned(lmul_log_) : unsigned(8 + lmul_log_);
      const unsigned sew_bits = sew_ == 8 ? 0 : sew_ == 16 ? 1 : 2;
      const unsigned vtype = lmul_bits | sew_bits << 3 | below(4) << 6;
      return fmt("li %s, %u\nvsetvl %s, %s, %s", kX[t], vtype, xd(), kX[avl], kX[t]);
    }
    static const unsigned reserved[] = {0x18, 0x05, 0x04, 0x17, 0x0e, 0x20, 0x100, 0x80000000u, 0x0d};
    const unsigned r1 = dst(), r2 = dst();
    return fmt("li %s, %u\nvsetvl %s, %s, %s\ncsrr %s, vtype\ncsrr %s, vl\n", kX[t], pick(reserved), xd(), kX[avl],
               kX[t], kX[r1], kX[r2]) + vsetvli();
  }

  std::string vector_unit() {
    if (chance(3)) return vsetvl();
    if (chance(8)) return vsetvli();
    const bool masked = chance(30);
    const int L = lmul_log_;
    const unsigned n = regs(L);
    switch (below(20)) {
      case 0: case 1: case 2: {  // single-width integer .vv/.vx/.vi
        static const char* const vv[] = {"vadd", "vsub", "vand", "vor", "vxor", "vminu", "vmin", "vmaxu", "vmax",
                                         "vsll", "vsrl", "vsra", "vsaddu", "vsadd", "vssubu", "vssub", "vssrl",
                                         "vssra", "vsmul", "vmul", "vmulh", "vmulhu", "vmulhsu", "vdivu", "vdiv",
                                         "vremu", "vrem", "vaaddu", "vaadd", "vasubu", "vasub"};
        static const char* const vi[] = {"vadd", "vrsub", "vand", "vor", "vxor", "vsll", "vsrl", "vsra",
                                         "vsaddu", "vsadd", "vssrl", "vssra"};
        const unsigned vd = group(L, masked), vs2 = group(L, false);
        switch (below(3)) {
          case 0: return fmt("%s.vv %s, %s, %s", pick(vv), v(vd).c_str(), v(vs2).c_str(), v(group(L, false)).c_str()) + mask_suffix(masked);
          case 1: return fmt("%s.vx %s, %s, %s", chance(5) ? "vrsub" : pick(vv), v(vd).c_str(), v(vs2).c_str(), xs()) + mask_suffix(masked);
          default: {
            const char* op = pick(vi);
            const bool shift = op[1] == 's' && (op[2] == 'l' || op[2] == 'r' || op[3] == 'r');
            const int imm = shift ? range(0, 31) : range(-16, 15);
            return fmt("%s.vi %s, %s, %d", op, v(vd).c_str(), v(vs2).c_str(), imm) + mask_suffix(masked);
          }
        }
      }
      case 3: {  // multiply-add (vd is also a source)
        static const char* const ops[] = {"vmacc", "vnmsac", "vmadd", "vnmsub"};
        const unsigned vd = group(L, masked);
        if (chance(50)) return fmt("%s.vv %s, %s, %s", pick(ops), v(vd).c_str(), v(group(L, false)).c_str(), v(group(L, false)).c_str()) + mask_suffix(masked);
        return fmt("%s.vx %s, %s, %s", pick(ops), v(vd).c_str(), xs(), v(group(L, false)).c_str()) + mask_suffix(masked);
      }
      case 4: {  // merge / move / carry
        const unsigned vd = group(L, true);
        switch (below(8)) {
          case 6: return fmt("vmv.v.v %s, %s", v(vd).c_str(), v(group(L, false)).c_str());
          case 7: return fmt("vmv.v.i %s, %d", v(vd).c_str(), range(-16, 15));
          case 0: return fmt("vmerge.vvm %s, %s, %s, v0", v(vd).c_str(), v(group(L, false)).c_str(), v(group(L, false)).c_str());
          case 1: return fmt("vmerge.vxm %s, %s, %s, v0", v(vd).c_str(), v(group(L, false)).c_str(), xs());
          case 2: return fmt("vmerge.vim %s, %s, %d, v0", v(vd).c_str(), v(group(L, false)).c_str(), range(-16, 15));
          case 3: return fmt("vmv.v.x %s, %s", v(vd).c_str(), xs());
          case 4: return fmt("vadc.vvm %s, %s, %s, v0", v(vd).c_str(), v(group(L, false)).c_str(), v(group(L, false)).c_str());
          default: return fmt("vsbc.vxm %s, %s, %s, v0", v(vd).c_str(), v(group(L, false)).c_str(), xs());
        }
      }
      case 5: {  // compares and carry-out into a mask register disjoint from the sources
        static const char* const vv[] = {"vmseq", "vmsne", "vmsltu", "vmslt", "vmsleu", "vmsle"};
        static const char* const vx[] = {"vmseq", "vmsne", "vmsltu", "vmslt", "vmsleu", "vmsle", "vmsgtu", "vmsgt"};
        const unsigned vs2 = group(L, false), vs1 = group(L, false);
        const unsigned vd = group_avoiding(0, masked, {{vs2, n}, {vs1, n}});
        if (vd == 32) return "nop";
        switch (below(7)) {
          case 0: return fmt("%s.vv %s, %s, %s", pick(vv), v(vd).c_str(), v(vs2).c_str(), v(vs1).c_str()) + mask_suffix(masked);
          case 1: return fmt("%s.vx %s, %s, %s", pick(vx), v(vd).c_str(), v(vs2).c_str(), xs()) + mask_suffix(masked);
          case 2: {
            static const char* const vi[] = {"vmseq", "vmsne", "vmsleu", "vmsle", "vmsgtu", "vmsgt"};
            return fmt("%s.vi %s, %s, %d", pick(vi), v(vd).c_str(), v(vs2).c_str(), range(-16, 15)) + mask_suffix(masked);
          }
          case 3: return fmt("vmadc.vv %s, %s, %s", v(vd).c_str(), v(vs2).c_str(), v(vs1).c_str());
          case 4: return fmt("vmsbc.vx %s, %s, %s", v(vd).c_str(), v(vs2).c_str(), xs());
          default: {  // carry/borrow in from v0: keep vd off v0
            const unsigned vdc = group_avoiding(0, true, {{vs2, n}, {vs1, n}});
            if (vdc == 32) return "nop";
            if (chance(50)) return fmt("%s.vvm %s, %s, %s, v0", chance(50) ? "vmadc" : "vmsbc", v(vdc).c_str(), v(vs2).c_str(), v(vs1).c_str());
            return fmt("vmadc.vim %s, %s, %d, v0", v(vdc).c_str(), v(vs2).c_str(), range(-16, 15));
          }
        }
      }
      case 6: {  // reductions
        static const char* const ops[] = {"vredsum", "vredand", "vredor", "vredxor", "vredminu", "vredmin", "vredmaxu", "vredmax"};
        const unsigned vs2 = group(L, false);
        const unsigned vd = group_avoiding(0, false, {{vs2, n}});
        const unsigned vs1 = group_avoiding(0, false, {{vs2, n}});
        if (vd == 32 || vs1 == 32) return "nop";
        if (sew_ <= 16 && chance(30))
          return fmt("%s.vs %s, %s, %s", chance(50) ? "vwredsum" : "vwredsumu", v(vd).c_str(), v(vs2).c_str(), v(vs1).c_str()) + mask_suffix(masked);
        return fmt("%s.vs %s, %s, %s", pick(ops), v(vd).c_str(), v(vs2).c_str(), v(vs1).c_str()) + mask_suffix(masked);
      }
      case 7: {  // widening
        if (sew_ > 16 || L > 2) return vsetvli();
        static const char* const ops[] = {"vwaddu", "vwadd", "vwsubu", "vwsub", "vwmulu", "vwmul", "vwmulsu"};
        static const char* const wops[] = {"vwaddu", "vwadd", "vwsubu", "vwsub"};
        static const char* const macc[] = {"vwmaccu", "vwmacc", "vwmaccsu"};
        const unsigned vs2 = group(L, false), vs1 = group(L, false);
        const unsigned vd = group_avoiding(L + 1, masked, {{vs2, n}, {vs1, n}});
        if (vd == 32) return "nop";
        switch (below(4)) {
          case 0: return fmt("%s.vv %s, %s, %s", pick(ops), v(vd).c_str(), v(vs2).c_str(), v(vs1).c_str()) + mask_suffix(masked);
          case 1: return fmt("%s.vx %s, %s, %s", pick(ops), v(vd).c_str(), v(vs2).c_str(), xs()) + mask_suffix(masked);
          case 2: return fmt("%s.wv %s, %s, %s", pick(wops), v(vd).c_str(), v(vd).c_str(), v(vs1).c_str()) + mask_suffix(masked);
          default:
            if (chance(25)) return fmt("vwmaccus.vx %s, %s, %s", v(vd).c_str(), xs(), v(vs2).c_str()) + mask_suffix(masked);
            return fmt("%s.vv %s, %s, %s", pick(macc), v(vd).c_str(), v(vs1).c_str(), v(vs2).c_str()) + mask_suffix(masked);
        }
      }
      case 8: {  // narrowing shifts and clips
        if (sew_ > 16 || L > 2) return vsetvli();
        static const char* const ops[] = {"vnsrl", "vnsra", "vnclipu", "vnclip"};
        const unsigned vs2 = group(L + 1, false);
        const unsigned vd = group_avoiding(L, masked, {{vs2, regs(L + 1)}});
        if (vd == 32) return "nop";
        switch (below(3)) {
          case 0: {
            const unsigned vs1 = group(L, false);
            return fmt("%s.wv %s, %s, %s", pick(ops), v(vd).c_str(), v(vs2).c_str(), v(vs1).c_str()) + mask_suffix(masked);
          }
          case 1: return fmt("%s.wx %s, %s, %s", pick(ops), v(vd).c_str(), v(vs2).c_str(), xs()) + mask_suffix(masked);
          default: return fmt("%s.wi %s, %s, %d", pick(ops), v(vd).c_str(), v(vs2).c_str(), range(0, 31)) + mask_suffix(masked);
        }
      }
      case 9: {  // integer extension: source EEW = SEW / factor, EMUL = LMUL / factor
        const int factor_log = sew_ == 32 && chance(50) ? 2 : 1;
        const unsigned src_eew = sew_ >> factor_log;
        const int src_log = L - factor_log;
        if (src_eew < 8 || src_log < -3 || (src_log < 0 && (src_eew << -src_log) > 32)) return vsetvli();
        const unsigned vs2 = group(src_log, false);
        const unsigned vd = group_avoiding(L, masked, {{vs2, regs(src_log)}});
        if (vd == 32) return "nop";
        return fmt("%s.vf%u %s, %s", chance(50) ? "vzext" : "vsext", 1u << factor_log, v(vd).c_str(), v(vs2).c_str()) + mask_suffix(masked);
      }
      case 10: {  // mask logic and mask-derived
        static const char* const mm[] = {"vmand", "vmnand", "vmandn", "vmxor", "vmor", "vmnor", "vmorn", "vmxnor"};
        switch (below(5)) {
          case 0: return fmt("%s.mm %s, %s, %s", pick(mm), v(below(32)).c_str(), v(below(32)).c_str(), v(below(32)).c_str());
          case 1: return fmt("%s %s, %s", chance(50) ? "vcpop.m" : "vfirst.m", xd(), v(below(32)).c_str()) + mask_suffix(masked);
          case 2: {
            static const char* const ops[] = {"vmsbf.m", "vmsif.m", "vmsof.m"};
            const unsigned vs2 = below(32);
            unsigned vd;
            do vd = below(32);
            while (vd == vs2 || (masked && vd == 0));
            return fmt("%s %s, %s", pick(ops), v(vd).c_str(), v(vs2).c_str()) + mask_suffix(masked);
          }
          case 3: {
            const unsigned vs2 = below(32);
            const unsigned vd = group_avoiding(L, masked, {{vs2, 1}, {0, masked ? 1u : 0u}});
            if (vd == 32) return "nop";
            return fmt("viota.m %s, %s", v(vd).c_str(), v(vs2).c_str()) + mask_suffix(masked);
          }
          default: return fmt("vid.v %s", v(group(L, masked)).c_str()) + mask_suffix(masked);
        }
      }
      case 11: {  // scalar moves
        if (chance(50)) return fmt("vmv.x.s %s, %s", xd(), v(group(L, false)).c_str());
        return fmt("vmv.s.x %s, %s", v(group(L, false)).c_str(), xs());
      }
      case 12: {  // slides
        const unsigned vs2 = group(L, false);
        const unsigned vd = group_avoiding(L, masked, {{vs2, n}});
        if (vd == 32) return "nop";
        switch (below(5)) {
          case 0: return fmt("vslideup.vx %s, %s, %s", v(vd).c_str(), v(vs2).c_str(), xs()) + mask_suffix(masked);
          case 1: return fmt("vslideup.vi %s, %s, %d", v(vd).c_str(), v(vs2).c_str(), range(0, 31)) + mask_suffix(masked);
          case 2:
            if (chance(40)) return fmt("vslidedown.vi %s, %s, %d", v(vd).c_str(), v(vs2).c_str(), range(0, 31)) + mask_suffix(masked);
            return fmt("vslidedown.vx %s, %s, %s", v(vd).c_str(), v(vs2).c_str(), xs()) + mask_suffix(masked);
          case 3: return fmt("vslide1up.vx %s, %s, %s", v(vd).c_str(), v(vs2).c_str(), xs()) + mask_suffix(masked);
          default: return fmt("vslide1down.vx %s, %s, %s", v(vd).c_str(), v(vs2).c_str(), xs()) + mask_suffix(masked);
        }
      }
      case 13: {  // gathers and compress
        const unsigned vs2 = group(L, false), vs1 = group(L, false);
        const unsigned vd = group_avoiding(L, masked, {{vs2, n}, {vs1, n}});
        if (vd == 32) return "nop";
        switch (below(4)) {
          case 0: return fmt("vrgather.vv %s, %s, %s", v(vd).c_str(), v(vs2).c_str(), v(vs1).c_str()) + mask_suffix(masked);
          case 1: return fmt("vrgather.vx %s, %s, %s", v(vd).c_str(), v(vs2).c_str(), xs()) + mask_suffix(masked);
          case 2: {
            int index_log;
            if (chance(50) && emul_for(16, index_log)) {  // 16-bit indices: their own EMUL
              const unsigned vi = group(index_log, false);
              const unsigned vdg = group_avoiding(L, masked, {{vs2, n}, {vi, regs(index_log)}});
              if (vdg == 32) return "nop";
              return fmt("vrgatherei16.vv %s, %s, %s", v(vdg).c_str(), v(vs2).c_str(), v(vi).c_str()) + mask_suffix(masked);
            }
            return fmt("vrgather.vi %s, %s, %d", v(vd).c_str(), v(vs2).c_str(), range(0, 31)) + mask_suffix(masked);
          }
          default: {
            const unsigned m = group_avoiding(0, false, {{vd, n}});
            if (m == 32) return "nop";
            return fmt("vcompress.vm %s, %s, %s", v(vd).c_str(), v(vs2).c_str(), v(m).c_str());
          }
        }
      }
      case 14: {  // whole-register move
        const unsigned nr = 1u << below(4);
        return fmt("vmv%ur.v %s, %s", nr, v(nr * below(32 / nr)).c_str(), v(nr * below(32 / nr)).c_str());
      }
      default: return vector_memory(masked);
    }
  }

  // EMUL (log2) for element width `eew` under the current SEW/LMUL; false if illegal.
  bool emul_for(unsigned eew, int& emul_log) const {
    int ratio = 0;
    for (unsigned e = eew; e < sew_; e <<= 1) --ratio;
    for (unsigned s = sew_; s < eew; s <<= 1) ++ratio;
    emul_log = lmul_log_ + ratio;
    if (emul_log < -3 || emul_log > 3) return false;
    if (emul_log < 0 && (eew << -emul_log) > 32) return false;  // EMUL >= EEW / ELEN
    return true;
  }

  std::string vector_memory(bool masked) {
    static const unsigned eews[] = {8, 16, 32};
    const unsigned eew = below(3) == 0 ? sew_ : pick(eews);
    int emul_log;
    if (!emul_for(eew, emul_log)) return "nop";
    const unsigned eb = eew / 8, vlmax_elems = vlmax();
    const unsigned t = dst();
    const char* rt = kX[t];
    const bool load = chance(55);
    switch (below(7)) {
      case 0: case 1: {  // unit stride (and fault-only-first loads)
        const unsigned span = vlmax_elems * eb;
        const unsigned off = below((kBufBytes - span) / eb + 1) * eb;
        const unsigned vr = group(emul_log, masked && load);
        if (load)
          return fmt("addi %s, s11, %u\nvle%u%s.v %s, (%s)", rt, off, eew, chance(25) ? "ff" : "", v(vr).c_str(), rt) + mask_suffix(masked);
        return fmt("addi %s, s11, %u\nvse%u.v %s, (%s)", rt, off, eew, v(vr).c_str(), rt) + mask_suffix(masked);
      }
      case 2: {  // strided, stride in [-2, 2] elements (0 included)
        const int stride = range(-2, 2) * static_cast<int>(eb);
        const unsigned span = static_cast<unsigned>(std::abs(stride)) * (vlmax_elems - 1) + eb;
        unsigned off = below((kBufBytes - span) / eb + 1) * eb;
        if (stride < 0) off += span - eb;  // the first element is the highest address
        unsigned s;
        do s = dst();
        while (s == t);
        const unsigned vr = group(emul_log, masked && load);
        return fmt("addi %s, s11, %u\nli %s, %d\n%s%u.v %s, (%s), %s", rt, off, kX[s], stride, load ? "vlse" : "vsse",
                   eew, v(vr).c_str(), rt, kX[s]) + mask_suffix(masked);
      }
      case 3: {  // indexed: index EEW = SEW, byte offsets masked into [0, 255] and aligned
        int data_log;
        if (!emul_for(sew_, data_log)) return "nop";
        const unsigned vi = group(lmul_log_, false);
        const unsigned vr = group_avoiding(lmul_log_, masked && load, {{vi, regs(lmul_log_)}});
        if (vr == 32) return "nop";
        const unsigned mask = 0xff & ~(sew_ / 8 - 1);
        return fmt("li %s, %u\nvand.vx %s, %s, %s\n%s%u.v %s, (s11), %s", rt, mask, v(vi).c_str(), v(vi).c_str(), rt,
                   load ? (chance(50) ? "vluxei" : "vloxei") : (chance(50) ? "vsuxei" : "vsoxei"), sew_,
                   v(vr).c_str(), v(vi).c_str()) + mask_suffix(masked);
      }
      case 4: {  // segments: nf fields of EMUL registers each, at most 8 registers
        const unsigned nf = 2 + below(3);
        const unsigned group_regs = regs(emul_log);
        if (nf * group_regs > 8) return "nop";
        const unsigned span = vlmax_elems * eb * nf;
        if (span > kBufBytes) return "nop";
        const unsigned off = below((kBufBytes - span) / eb + 1) * eb;
        unsigned vr;
        do vr = group(emul_log, masked && load);
        while (vr + nf * group_regs > 32);
        return fmt("addi %s, s11, %u\n%s%ue%u.v %s, (%s)", rt, off, load ? "vlseg" : "vsseg", nf, eew, v(vr).c_str(), rt) + mask_suffix(masked);
      }
      case 5: {  // whole registers
        const unsigned nr = 1u << below(4);
        const unsigned off = below((kBufBytes - nr * 16) / 16 + 1) * 16;
        const unsigned vr = nr * below(32 / nr);
        if (load) return fmt("addi %s, s11, %u\nvl%ure%u.v %s, (%s)", rt, off, nr, eew, v(vr).c_str(), rt);
        return fmt("addi %s, s11, %u\nvs%ur.v %s, (%s)", rt, off, nr, v(vr).c_str(), rt);
      }
      default: {  // mask load/store
        const unsigned off = below(kBufBytes - 16);
        return fmt("addi %s, s11, %u\n%s %s, (%s)", rt, off, load ? "vlm.v" : "vsm.v", v(below(32)).c_str(), rt);
      }
    }
  }
};

}  // namespace

const char* dump_csr_name(unsigned index) {
  static const char* const names[] = {"fcsr", "vl", "vtype", "vxsat", "vxrm"};
  return index < 5 ? names[index] : "?";
}

GeneratedProgram generate_program(uint64_t seed, const GeneratorOptions& options) {
  return Generator(seed, options).run(seed);
}

std::string GeneratedProgram::source(size_t unit_count) const {
  std::ostringstream s;
  s << "# difftest program, seed " << seed << "\n";
  s << "  .option norvc\n  .text\n  .globl _start\n_start:\n";
  for (const std::string& line : prologue) s << "  " << line << "\n";
  s << "# ---- body ----\n";
  for (size_t i = 0; i < unit_count && i < units.size(); ++i) {
    s << "# unit " << i << "\n";
    std::istringstream lines(units[i]);
    for (std::string line; std::getline(lines, line);) s << (line.back() == ':' ? "" : "  ") << line << "\n";
  }
  s << "# ---- dump ----\n";
  for (unsigned r = 1; r < 32; ++r) s << "  sw x" << r << ", " << kDumpX + 4 * (r - 1) << "(s11)\n";
  for (unsigned r = 0; r < 32; ++r) s << "  fsw f" << r << ", " << kDumpF + 4 * r << "(s11)\n";
  static const char* const csrs[] = {"fcsr", "vl", "vtype", "vxsat", "vxrm"};
  for (unsigned i = 0; i < 5; ++i) s << "  csrr t0, " << csrs[i] << "\n  sw t0, " << kDumpCsr + 4 * i << "(s11)\n";
  s << "  addi t0, s11, " << kDumpV << "\n";
  s << "  vsetvli t1, zero, e8, m8, tu, mu\n";
  for (unsigned r = 0; r < 32; r += 8) s << "  vse8.v v" << r << ", (t0)\n  addi t0, t0, 128\n";
  s << "  li a7, 64\n  li a0, 1\n  mv a1, s11\n  li a2, " << kOutputBytes << "\n  ecall\n";
  s << "  li a7, 93\n  li a0, 0\n  ecall\n";
  s << "  .data\n  .balign 16\nbuf:\n";
  for (size_t i = 0; i < data.size(); ++i) s << (i % 8 == 0 ? "  .word " : ", ") << data[i] << (i % 8 == 7 ? "\n" : "");
  s << "\n  .space " << (kOutputBytes - kBufBytes) << "\n";
  return s.str();
}

}  // namespace tlmcraft::isa::riscv::difftest
