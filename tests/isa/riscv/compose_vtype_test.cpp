// Compositions across a vtype change (isa/riscv/compose_vtype.h): the int8 matmul loop's
// multiply-accumulate `vwmul.vx` at e8, `vsetvli` e16, `vwadd.wv` into the e32 accumulator,
// `vsetvli` back, as one custom instruction. Per lane against hand-derived values and
// against the same four instructions run on the ISS; vl < VLMAX with the tail kept, the
// vtype left as it was, the groups the timing model sees, and the traps and load errors.
#include <gtest/gtest.h>

#include <cstring>

#include "isa/riscv/custom_ext.h"
#include "isa/riscv/peephole.h"
#include "scalar_support.h"

namespace tlmcraft::isa::riscv {
namespace {

using test::Machine;

// A quad-widening multiply-accumulate entry (custom-3, R, funct3 4), entry vtype e8/m2: `u`
// is "" for the signed steps and "u" for the unsigned ones; `timing` an optional last line.
std::string quad_mac_overlay_entry(const std::string& mnemonic, int funct7, const std::string& u,
                                   const std::string& timing = "") {
  return "  - mnemonic: " + mnemonic +
         "\n    encoding: {opcode: custom-3, format: r, funct3: 4, funct7: " + std::to_string(funct7) +
         "}\n"
         "    operands:\n"
         "      - {name: acc, field: rd,  role: readwrite, value: v}\n"
         "      - {name: x,   field: rs1, role: read, value: x}\n"
         "      - {name: vb,  field: rs2, role: read, value: v}\n"
         "    compose:\n"
         "      temps: [p]\n"
         "      steps: [\"vwmul" +
         u + ".vx p, vb, x\", \"vsetvli zero, zero, e16, m4, ta, ma\", \"vwadd" + u +
         ".wv acc, acc, p\",\n"
         "              \"vsetvli zero, zero, e8, m2, ta, ma\"]\n" +
         timing;
}

// vqmacc (custom-3, R): acc (e32, 4 x LMUL) += vb (e8) * x, widened twice, at entry vtype
// e8/m2. vqmaccu: the unsigned forms.
const std::string kQuadMac = "isa: riscv\ninstructions:\n" +
                             quad_mac_overlay_entry("vqmacc", 0, "", "    timing: {unit: vmul, latency: 3}\n") +
                             quad_mac_overlay_entry("vqmaccu", 1, "u");

std::shared_ptr<const CustomExtensions> overlay(const std::string& text = kQuadMac) {
  auto ext = std::make_shared<CustomExtensions>();
  parse_custom_overlay(text, "quad.yaml", *ext);
  return ext;
}

uint32_t custom3(uint32_t f7, uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | 4u << 12 | rd << 7 | 0x7b;
}
uint32_t opv(uint32_t f6, uint32_t f3, uint32_t vd, uint32_t vs2, uint32_t rs1) {
  return f6 << 26 | 1u << 25 | vs2 << 20 | rs1 << 15 | f3 << 12 | vd << 7 | 0x57;
}
uint32_t vsetvli_x0(uint32_t vtype) { return vtype << 20 | 7u << 12 | 0x57; }
constexpr uint32_t kE8M2 = 0xc0 | 0 << 3 | 1, kE16M4 = 0xc0 | 1 << 3 | 2;

// e8/m2, vl 20 (VLMAX 32): vb in v16..v17, the accumulator in v8..v15, v20..v23 (where
// clang keeps the product) poisoned.
void setup(Hart& h, uint32_t x) {
  h.vtype = kE8M2;
  h.vl = 20;
  h.x[10] = x;
  for (unsigned i = 0; i < 32; ++i) {
    h.vset<int8_t>(16, i, int8_t(i * 37 - 90));
    h.vset<int32_t>(8, i, int32_t(1000 * i) - 7000);
  }
  for (unsigned r = 20; r < 24; ++r) std::memset(h.v[r], 0xa5, kVlenBytes);
}

TEST(ComposeVtype, SignedQuadMacPerLaneWithTailKept) {
  const auto ext = overlay();
  Machine m;
  Hart& h = m.hart;
  h.custom = ext.get();
  setup(h, uint32_t(-3));          // x = -3: vwmul.vx takes the low SEW bits, sign-extended
  m.run({custom3(0, 8, 10, 16)});  // vqmacc v8, a0, v16
  for (unsigned i = 0; i < 32; ++i) {
    // Below vl: 1000 i - 7000 + (37 i - 90 as int8) * -3 (fits int16); the tail keeps its value.
    const int32_t b = int8_t(i * 37 - 90);
    const int32_t want = int32_t(1000 * i) - 7000 + (i < 20 ? b * -3 : 0);
    EXPECT_EQ(h.vget<int32_t>(8, i), want) << i;
  }
  // Lane 2: b = int8(74 - 90) = -16, acc -5000 + 48 = -4952; lane 4: b = int8(148 - 90) = 58, -3000 - 174.
  EXPECT_EQ(h.vget<int32_t>(8, 2), -4952);
  EXPECT_EQ(h.vget<int32_t>(8, 4), -3174);
  // vtype and vl as before; the product never leaves the scratch file.
  EXPECT_EQ(h.vtype, kE8M2);
  EXPECT_EQ(h.vl, 20u);
  EXPECT_EQ(h.v[20][0], 0xa5);
  // What the timing model sees: 20 elements at e8, the accumulator's 8 registers, 4 x SEW.
  h.pc = 0;
  h.step();
  EXPECT_EQ(h.info.vl, 20);
  EXPECT_EQ(h.info.sew_bytes, 1);
  EXPECT_EQ(h.info.dst_group, 8);
  EXPECT_EQ(h.info.src_group, 2);  // vb; the accumulator is read by the destination's group
  EXPECT_EQ(h.info.element_scale, 4);
}

TEST(ComposeVtype, UnsignedQuadMacWidensWithoutSign) {
  const auto ext = overlay();
  Machine m;
  Hart& h = m.hart;
  h.custom = ext.get();
  setup(h, 250);
  h.vset<uint8_t>(16, 0, 200);
  h.vset<uint32_t>(8, 0, 0xffff0000u);
  m.run({custom3(1, 8, 10, 16)});  // vqmaccu v8, a0, v16
  // 200 * 250 = 50000 (u16), zero-extended: 0xffff0000 + 50000 = 0xffffc350.
  EXPECT_EQ(h.vget<uint32_t>(8, 0), 0xffffc350u);
  // Lane 1: uint8(37 - 90) = 203; 203 * 250 = 50750 added to -6000.
  EXPECT_EQ(h.vget<int32_t>(8, 1), -6000 + 50750);
}

// The instruction equals the four it stands for, on every register, signed and unsigned.
TEST(ComposeVtype, EqualsTheFourInstructionsItReplaces) {
  const auto ext = overlay();
  for (const bool is_unsigned : {false, true}) {
    Machine fused, plain;
    fused.hart.custom = ext.get();
    setup(fused.hart, uint32_t(-77));
    setup(plain.hart, uint32_t(-77));
    fused.run({custom3(is_unsigned ? 1 : 0, 8, 10, 16)});
    plain.run({opv(is_unsigned ? 0x38 : 0x3b, 6, 20, 16, 10), vsetvli_x0(kE16M4),
               opv(is_unsigned ? 0x34 : 0x35, 2, 8, 8, 20), vsetvli_x0(kE8M2)});
    for (unsigned r = 0; r < 32; ++r) {
      if (r >= 20 && r < 24) continue;  // the product: a register the original writes, the instruction does not
      EXPECT_EQ(std::memcmp(fused.hart.v[r], plain.hart.v[r], kVlenBytes), 0)
          << "v" << r << " unsigned " << is_unsigned;
    }
    EXPECT_EQ(fused.hart.vtype, plain.hart.vtype);
    EXPECT_EQ(fused.hart.vl, plain.hart.vl);
  }
}

TEST(ComposeVtype, AnotherRatioOrAMisalignedGroupIsIllegal) {
  const auto ext = overlay();
  Machine m;
  m.hart.custom = ext.get();
  setup(m.hart, 1);
  m.hart.vtype = 0xc0;  // e8/m1: e16/m4 would have another VLMAX
  EXPECT_EQ(m.run_expect_trap({custom3(0, 8, 10, 16)}).detail,
            "illegal instruction 0x0105447b (vqmacc): step 'vsetvli zero, zero, e16, m4, ta, ma' would change VLMAX "
            "from vtype e8, m1, ta, ma (it keeps vl only at an equal SEW/LMUL ratio)");
  setup(m.hart, 1);
  // The accumulator spans 8 registers at e8/m2: v4 does not start a group of 8.
  EXPECT_EQ(m.run_expect_trap({custom3(0, 4, 10, 16)}).detail,
            "illegal instruction 0x0105427b (vqmacc): register v4 is not aligned to its group of 8");
}

TEST(ComposeVtype, BadVtypeStepsNameTheColumn) {
  const std::string head =
      "isa: riscv\ninstructions:\n  - mnemonic: q\n    encoding: {opcode: custom-3, format: r, funct3: 4, funct7: 0}\n"
      "    operands:\n      - {name: acc, field: rd, role: readwrite, value: v}\n"
      "      - {name: vb, field: rs2, role: read, value: v}\n";
  auto error_of = [&](const std::string& step) {
    try {
      overlay(head + "    compose: {steps: [\"vadd.vv acc, acc, vb\", \"" + step + "\"]}\n");
    } catch (const CustomExtError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  // "    compose: {steps: [" is 22 columns, the first step 22 more and ", " 2: the second
  // step's quote is column 47 and its text starts at 48.
  EXPECT_EQ(error_of("vsetvli t0, zero, e16, m4, ta, ma"),
            "quad.yaml:8:48: a vtype step is 'vsetvli zero, zero, <sew>, <lmul>, <ta|tu>, <ma|mu>' (vl kept)");
  EXPECT_EQ(error_of("vsetvli zero, zero, e64, m4, ta, ma"),
            "quad.yaml:8:48: unknown vtype 'e64, m4, ta, ma' (sew e8/e16/e32, lmul mf8..m8, ta|tu, ma|mu)");
  EXPECT_EQ(error_of("vsetvli zero, zero, e32, mf4, ta, ma"),
            "quad.yaml:8:48: vtype 'e32, mf4' is not supported (LMUL x ELEN must be at least SEW)");
}

// clang-16's int8 matmul loop (gemm's searched kernel, two of its eight steps): the load
// of the next row and the scalar are interleaved between the two vsetvli, and the last
// step runs on at e16 into the requantisation.
const std::string kLoop =
    "\tvsetvli\tzero, a0, e8, m2, ta, ma\n"
    "\tvle8.v\tv16, (a1)\n"
    "\tlb\tt5, 0(a2)\n"
    "\tvwmul.vx\tv20, v16, t5\n"
    "\tvsetvli\tzero, zero, e16, m4, ta, ma\n"
    "\taddi\tt4, a1, 32\n"
    "\tvle8.v\tv16, (t4)\n"
    "\tlb\tt5, 1(a2)\n"
    "\tvwadd.wv\tv8, v8, v20\n"
    "\tvsetvli\tzero, zero, e8, m2, ta, ma\n"
    "\tvwmul.vx\tv20, v16, t5\n"
    "\tvsetvli\tzero, zero, e16, m4, ta, ma\n"
    "\tvwadd.wv\tv8, v8, v20\n"
    "\tvnclip.wi\tv16, v8, 10\n"
    "\tret\n";

std::string peep(const std::string& text, size_t expect_replaced) {
  const PeepholeResult r = apply_composed_peephole(text, *overlay());
  const size_t n = r.replaced.count("vqmacc") ? r.replaced.at("vqmacc") : 0;
  EXPECT_EQ(n, expect_replaced);
  return r.assembly;
}

TEST(ComposeVtypePeephole, PlacesTheMacAndDropsTheVsetvliPairWhereVtypeComesBack) {
  // First step: entry e8/m2 is known (the loop's vsetvli), both vsetvli keep the ratio 8/2 =
  // 16/4 (so vl) and the policies, the second sets e8/m2 again, the product v20 is rewritten
  // before it is read: one instruction at the vwmul's place, the load and lb after it (they
  // read only vl, which the pair never changed). Second step: the window would end at e16/m4
  // (the vnclip needs it) and has no vsetvli back: left as it is.
  EXPECT_EQ(peep(kLoop, 1),
            "\tvsetvli\tzero, a0, e8, m2, ta, ma\n"
            "\tvle8.v\tv16, (a1)\n"
            "\tlb\tt5, 0(a2)\n"
            "\t.insn r 0x7b, 4, 0, v8, t5, v16\t# vqmacc\n"
            "\taddi\tt4, a1, 32\n"
            "\tvle8.v\tv16, (t4)\n"
            "\tlb\tt5, 1(a2)\n"
            "\tvwmul.vx\tv20, v16, t5\n"
            "\tvsetvli\tzero, zero, e16, m4, ta, ma\n"
            "\tvwadd.wv\tv8, v8, v20\n"
            "\tvnclip.wi\tv16, v8, 10\n"
            "\tret\n");
}

TEST(ComposeVtypePeephole, RefusesWhenVlWouldDifferOrTheProductIsReadLater) {
  auto replace_all = [](std::string s, const std::string& from, const std::string& to) {
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  // Entry e8/m1: e16/m4 has another VLMAX (vl is clamped) and e8/m2 is not where it started.
  const std::string m1 = replace_all(kLoop, "e8, m2, ta, ma\n\tvle8", "e8, m1, ta, ma\n\tvle8");
  EXPECT_EQ(peep(m1, 0), m1);
  // The vtype before the window is not known (no vsetvli on the path from the entry).
  const std::string unknown = kLoop.substr(kLoop.find("\tvle8.v"));
  EXPECT_EQ(peep(unknown, 0), unknown);
  // The product v20 is read after the first window (stored): it is not a dead temp.
  const std::string live = replace_all(kLoop, "\tvsetvli\tzero, zero, e8, m2, ta, ma\n",
                                       "\tvsetvli\tzero, zero, e8, m2, ta, ma\n\tvse16.v\tv20, (a3)\n");
  EXPECT_EQ(peep(live, 0), live);
  // An element-wise op between the vsetvli pair runs at e16 there; after the instruction it
  // would run at e8 (it reads SEW, not only vl): it cannot move past, nothing is replaced.
  const std::string policy =
      replace_all(kLoop, "\taddi\tt4, a1, 32\n", "\tvadd.vv\tv24, v24, v28\n\taddi\tt4, a1, 32\n");
  EXPECT_EQ(peep(policy, 0), policy);
}

}  // namespace
}  // namespace tlmcraft::isa::riscv
