// Custom instructions from an ISA overlay (isa/riscv/custom_ext.h): decode and disassembly
// of each format, composed semantics with aliased operands, vector ones under vtype/vl and
// a v0 mask, exact file:line:col errors for bad overlays, the C header, mnemonic
// expansion, and the peephole pass on hand-written assembly.
#include <gtest/gtest.h>

#include "isa/riscv/custom_ext.h"
#include "isa/riscv/peephole.h"
#include "scalar_support.h"
#include <cstring>

namespace tlmcraft::isa::riscv {
namespace {

using test::Machine;

// cmac (custom-0, R4): rd = rs1 * rs2 + rs3. cadd3 (custom-1, R): rd = rs1 + rs2 + rs1.
// caddi (custom-2, I): rd = (rs1 << 2) + imm. cvsq (custom-0 funct3 1, R, vector, maskable):
// vd = vs1 * vs1 + vs2. cfmac (custom-3, R4, f32): rd = rs1 * rs2 + rs3 rounded twice.
const char* kOverlay = R"(isa: riscv
instructions:
  - mnemonic: cmac
    encoding: {opcode: custom-0, format: r4, funct3: 0, funct2: 0}
    operands:
      - {name: rd,  field: rd,  role: write, value: x}
      - {name: rs1, field: rs1, role: read,  value: x}
      - {name: rs2, field: rs2, role: read,  value: x}
      - {name: rs3, field: rs3, role: read,  value: x}
    compose:
      temps: [t0]
      steps: ["mul t0, rs1, rs2", "add rd, t0, rs3"]
    timing: {unit: mul, latency: 3, ii: 2}
  - mnemonic: cadd3
    encoding: {opcode: 0x2b, format: r, funct3: 5, funct7: 0x11}
    operands:
      - {name: rd,  field: rd,  role: write, value: x}
      - {name: rs1, field: rs1, role: read,  value: x}
      - {name: rs2, field: rs2, role: read,  value: x}
    compose:
      temps: [t]
      steps: ["add t, rs1, rs2", "add rd, t, rs1"]
  - mnemonic: caddi
    encoding: {opcode: custom-2, format: i, funct3: 3}
    operands:
      - {name: rd,  field: rd,  role: write, value: x}
      - {name: rs1, field: rs1, role: read,  value: x}
      - {name: imm, field: imm, role: read,  value: imm}
    compose:
      temps: [s]
      steps: ["slli s, rs1, 2", "addi rd, s, imm"]
  - mnemonic: cvsq
    encoding: {opcode: custom-0, format: r, funct3: 1, funct7: 0}
    masked: true
    operands:
      - {name: vd,  field: rd,  role: write, value: v}
      - {name: vs1, field: rs1, role: read,  value: v}
      - {name: vs2, field: rs2, role: read,  value: v}
    compose:
      temps: [sq]
      steps: ["vmul.vv sq, vs1, vs1", "vadd.vv vd, sq, vs2"]
    timing: {unit: vmul, latency: 4}
  - mnemonic: cfmac
    encoding: {opcode: custom-3, format: r4, funct3: 7, funct2: 1}
    operands:
      - {name: rd,  field: rd,  role: write, value: f}
      - {name: rs1, field: rs1, role: read,  value: f}
      - {name: rs2, field: rs2, role: read,  value: f}
      - {name: rs3, field: rs3, role: read,  value: f}
    compose:
      temps: [p]
      steps: ["fmul.s p, rs1, rs2", "fadd.s rd, p, rs3"]
)";

std::shared_ptr<const CustomExtensions> overlay(const std::string& text = kOverlay, const std::string& file = "ext.yaml") {
  auto ext = std::make_shared<CustomExtensions>();
  parse_custom_overlay(text, file, *ext);
  return ext;
}

std::string load_error(const std::string& text) {
  try {
    overlay(text, "bad.yaml");
  } catch (const CustomExtError& e) {
    return e.what();
  }
  return "(no error)";
}

uint32_t r_word(uint32_t opcode, uint32_t f3, uint32_t f7, uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opcode;
}
uint32_t r4_word(uint32_t opcode, uint32_t f3, uint32_t f2, uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t rs3) {
  return rs3 << 27 | f2 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opcode;
}

TEST(CustomExt, WithoutAnOverlayTheCustomSpaceIsIllegal) {
  // The word of the issue: custom-0, rd = a3, rs1 = a4, rs2 = a5.
  EXPECT_EQ(decode(0x00f7068bu, nullptr).cls, OpClass::System);
  EXPECT_EQ(disassemble(0x00f7068bu, 0, nullptr), ".word 0x00f7068b");
  Machine m;
  const Trap t = m.run_expect_trap({0x00f7068bu});
  EXPECT_EQ(t.cause, TrapCause::IllegalInstruction);
}

TEST(CustomExt, DecodesAndDisassemblesEachFormat) {
  const auto ext = overlay();
  // R4: rs3 = a3 (13) in bits 31:27, funct2 0: 0x68c5850b = cmac a0,a1,a2,a3.
  const uint32_t r4 = r4_word(0x0b, 0, 0, 10, 11, 12, 13);
  EXPECT_EQ(r4, 0x68c5850bu);
  EXPECT_EQ(disassemble(r4, 0, ext.get()), "cmac a0,a1,a2,a3");
  const DecodedInsn d4 = decode(r4, ext.get());
  EXPECT_EQ(d4.cls, OpClass::Mul);
  EXPECT_EQ(d4.latency, 3);
  EXPECT_EQ(d4.ii, 2);
  EXPECT_EQ(d4.dst[0], 10);
  EXPECT_EQ(d4.src[0], 11);
  EXPECT_EQ(d4.src[1], 12);
  EXPECT_EQ(d4.src[2], 13);
  // R: funct7 0x11, funct3 5 in custom-1.
  EXPECT_EQ(disassemble(r_word(0x2b, 5, 0x11, 5, 6, 7), 0, ext.get()), "cadd3 t0,t1,t2");
  EXPECT_EQ(disassemble(r_word(0x2b, 5, 0x10, 5, 6, 7), 0, ext.get()), ".word 0x207352ab");  // funct7 differs
  // I: imm -5 in bits 31:20.
  const uint32_t i = (uint32_t(-5) << 20) | 9u << 15 | 3u << 12 | 8u << 7 | 0x5b;
  EXPECT_EQ(disassemble(i, 0, ext.get()), "caddi s0,s1,-5");
  EXPECT_EQ(decode(i, ext.get()).imm, -5);
  // Vector R, maskable: funct7 bit 0 is vm (1 = unmasked).
  EXPECT_EQ(disassemble(r_word(0x0b, 1, 1, 8, 16, 24), 0, ext.get()), "cvsq v8,v16,v24");
  EXPECT_EQ(disassemble(r_word(0x0b, 1, 0, 8, 16, 24), 0, ext.get()), "cvsq v8,v16,v24,v0.t");
  const DecodedInsn dv = decode(r_word(0x0b, 1, 1, 8, 16, 24), ext.get());
  EXPECT_EQ(dv.cls, OpClass::VecMul);
  EXPECT_EQ(dv.dst[0], kVecBase + 8);
  EXPECT_EQ(disassemble(r4_word(0x7b, 7, 1, 1, 2, 3, 4), 0, ext.get()), "cfmac ft1,ft2,ft3,ft4");
}

TEST(CustomExt, ComposedMacWithDestinationEqualToASourceComputesItsSteps) {
  const auto ext = overlay();
  Machine m;
  m.hart.custom = ext.get();
  // a0 = 7, a1 = -3, a2 = 100; cmac a0, a0, a1, a2: the steps compute
  // t0 = 7 * -3 = -21, a0 = -21 + 100 = 79 (a0 read before it is written).
  m.run({test::addi(10, 0, 7), test::addi(11, 0, -3), test::addi(12, 0, 100), r4_word(0x0b, 0, 0, 10, 10, 11, 12)});
  EXPECT_EQ(int32_t(m.hart.x[10]), 79);
  // rd = rs3 too: cmac a2, a0, a0, a2 with a0 = 79, a2 = 100: 79 * 79 + 100 = 6341.
  m.run({test::addi(10, 0, 79), test::addi(12, 0, 100), r4_word(0x0b, 0, 0, 12, 10, 10, 12)});
  EXPECT_EQ(m.hart.x[12], 6341u);
  // cadd3 a0, a0, a1 (rd = rs1, read twice by the steps): t = 5 + 6; a0 = 11 + 5 = 16.
  m.run({test::addi(10, 0, 5), test::addi(11, 0, 6), r_word(0x2b, 5, 0x11, 10, 10, 11)});
  EXPECT_EQ(m.hart.x[10], 16u);
  // caddi s0, s0, -5: s = 9 << 2 = 36; s0 = 36 - 5 = 31. Temps are hidden: t0..t6 untouched.
  m.run({test::addi(8, 0, 9), test::addi(5, 0, 1234), (uint32_t(-5) << 20) | 8u << 15 | 3u << 12 | 8u << 7 | 0x5b});
  EXPECT_EQ(m.hart.x[8], 31u);
  EXPECT_EQ(m.hart.x[5], 1234u);
}

TEST(CustomExt, FloatComposeRoundsEachStep) {
  const auto ext = overlay();
  Machine m;
  m.hart.custom = ext.get();
  // 1 + 2^-23 squared = 1 + 2^-22 + 2^-46 rounds (fmul) to 1 + 2^-22; minus 1 (fadd with
  // -1) gives exactly 2^-22. A fused multiply-add would give 2^-22 + 2^-46.
  m.hart.f[1] = test::bits(1.0f + 0x1p-23f);
  m.hart.f[3] = test::bits(-1.0f);
  m.run({r4_word(0x7b, 7, 1, 1, 1, 1, 3)});
  EXPECT_EQ(test::value(m.hart.f[1]), 0x1p-22f);
}

TEST(CustomExt, VectorComposeObeysVlSewAndMask) {
  const auto ext = overlay();
  Machine m;
  Hart& h = m.hart;
  h.custom = ext.get();
  // e16 (vsew 1), m2 (vlmul 1), vl = 10: v8..v9 = vs1 (i), v16..v17 = vs2 (1000 + i),
  // v4..v5 (vd) = 0x7777 everywhere.
  h.vtype = 1u << 3 | 1u;
  h.vl = 10;
  for (unsigned i = 0; i < 16; ++i) {
    h.vset<uint16_t>(8, i, uint16_t(i));
    h.vset<uint16_t>(16, i, uint16_t(1000 + i));
    h.vset<uint16_t>(4, i, 0x7777);
  }
  std::memset(h.v[0], 0x55, kVlenBytes);  // mask: even elements active
  m.run({r_word(0x0b, 1, 0, 4, 8, 16)});   // cvsq v4, v8, v16, v0.t
  for (unsigned i = 0; i < 16; ++i) {
    // Active and below vl: i*i + 1000 + i; masked-off and tail elements keep 0x7777.
    const uint16_t want = (i < 10 && i % 2 == 0) ? uint16_t(i * i + 1000 + i) : 0x7777;
    EXPECT_EQ(h.vget<uint16_t>(4, i), want) << i;
  }
  // vd = vs1 (aliased), unmasked: v8[i] = i*i + 1000 + i for i < 10, i beyond.
  m.run({r_word(0x0b, 1, 1, 8, 8, 16)});
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(h.vget<uint16_t>(8, i), i < 10 ? uint16_t(i * i + 1000 + i) : uint16_t(i)) << i;
  // What the timing model sees: vl, SEW and the group size.
  h.pc = 0;
  h.step();
  EXPECT_EQ(h.info.vl, 10);
  EXPECT_EQ(h.info.sew_bytes, 2);
  EXPECT_EQ(h.info.dst_group, 2);
  // A group not aligned to LMUL 2 is illegal.
  const Trap t = m.run_expect_trap({r_word(0x0b, 1, 1, 8, 9, 16)});
  EXPECT_EQ(t.detail, "illegal instruction 0x0304940b (cvsq): register v9 is not aligned to LMUL 2");
}

// Columns are 1-based and point at the offending YAML value; inside a step string, at the
// token (e.g. `    compose: {steps: ["add rd, rs1, rs9"]}`: the quote is column 23, the
// text starts at 24 and rs9 is 13 characters in: column 37).
TEST(CustomExt, BadOverlaysNameFileLineAndColumn) {
  const std::string head = "isa: riscv\ninstructions:\n";
  const std::string ops3 =
      "    operands:\n"
      "      - {name: rd, field: rd, role: write, value: x}\n"
      "      - {name: rs1, field: rs1, role: read, value: x}\n"
      "      - {name: rs2, field: rs2, role: read, value: x}\n";
  const std::string body = ops3 + "    compose: {steps: [\"add rd, rs1, rs2\"]}\n";
  // Two instructions with the same custom-0 funct3/funct7.
  EXPECT_EQ(load_error(head + "  - mnemonic: a1\n    encoding: {opcode: custom-0, format: r, funct3: 0, funct7: 3}\n" + body +
                       "  - mnemonic: a2\n    encoding: {opcode: 0x0b, format: r, funct3: 0, funct7: 3}\n" + body),
            "bad.yaml:11:15: encoding of 'a2' clashes with 'a1' (bad.yaml:3:15)");
  // An R4 instruction given funct7.
  EXPECT_EQ(load_error(head + "  - mnemonic: m4\n    encoding: {opcode: custom-1, format: r4, funct3: 0, funct7: 1}\n" + body),
            "bad.yaml:4:65: format r4 has funct2 (bits 26:25), not funct7 (bits 31:27 hold rs3)");
  // funct2 out of range.
  EXPECT_EQ(load_error(head + "  - mnemonic: m4\n    encoding: {opcode: custom-1, format: r4, funct3: 0, funct2: 4}\n" + body),
            "bad.yaml:4:65: funct2 4 is out of range [0, 3]");
  // A register class RISC-V lacks.
  EXPECT_EQ(load_error(head + "  - mnemonic: q\n    encoding: {opcode: custom-0, format: r, funct3: 0, funct7: 0}\n"
                              "    operands:\n      - {name: rd, field: rd, role: write, value: gp}\n"),
            "bad.yaml:6:51: unknown register class 'gp' (riscv has x, f, v; imm for the i format's immediate)");
  // An unknown key.
  EXPECT_EQ(load_error(head + "  - mnemonic: q\n    encodng: {}\n"), "bad.yaml:4:5: unknown key 'encodng' in an instruction "
            "(known: mnemonic, encoding, operands, compose, semantics, replaces, timing, doc, masked, energy, area)\nbad.yaml:3:5: missing `encoding:`\n"
            "bad.yaml:3:5: missing `operands:`");
  // A step naming an operand that does not exist; a store in a step (loads are steps:
  // custom_load_step_test.cpp); a class mismatch.
  EXPECT_EQ(load_error(head + "  - mnemonic: q\n    encoding: {opcode: custom-0, format: r, funct3: 0, funct7: 0}\n" + ops3 +
                       "    compose: {steps: [\"add rd, rs1, rs9\"]}\n"),
            "bad.yaml:9:37: unknown name 'rs9' (an operand or a temp of this instruction)");
  EXPECT_EQ(load_error(head + "  - mnemonic: q\n    encoding: {opcode: custom-0, format: r, funct3: 0, funct7: 0}\n" + ops3 +
                       "    compose: {steps: [\"sw rs2, 0(rs1)\", \"add rd, rs1, rs2\"]}\n"),
            "bad.yaml:9:24: 'sw' is not a register-to-register RV32IMF/Zve32x instruction nor a load (compose steps "
            "may not store or branch; loads as 'lw rd, 8(rs1)' or 'vle8.v rd, (rs1)'; vtype changes as 'vsetvli zero, "
            "zero, <sew>, <lmul>, <ta|tu>, <ma|mu>')");
  EXPECT_EQ(load_error(head + "  - mnemonic: q\n    encoding: {opcode: custom-0, format: r, funct3: 0, funct7: 0}\n" + ops3 +
                       "    compose: {steps: [\"fadd.s rd, rs1, rs2\"]}\n"),
            "bad.yaml:9:31: 'rd' is class x but operand 1 of 'fadd.s' is class f");
  // Not a custom opcode; a standard mnemonic.
  EXPECT_EQ(load_error(head + "  - mnemonic: q\n    encoding: {opcode: 0x33, format: r, funct3: 0, funct7: 0}\n" + body),
            "bad.yaml:4:24: opcode 0x33 is not a custom opcode (custom-0..3: 0x0b, 0x2b, 0x5b, 0x7b)");
  EXPECT_EQ(load_error(head + "  - mnemonic: mul\n    encoding: {opcode: custom-0, format: r, funct3: 0, funct7: 0}\n" + body),
            "bad.yaml:3:15: mnemonic 'mul' is a standard RISC-V instruction");
}

TEST(CustomExt, ClashAcrossOverlayFiles) {
  CustomExtensions ext;
  parse_custom_overlay(kOverlay, "first.yaml", ext);
  const std::string second =
      "isa: riscv\ninstructions:\n  - mnemonic: other\n    encoding: {opcode: custom-0, format: r, funct3: 0, funct7: 64}\n"
      "    operands:\n      - {name: rd, field: rd, role: write, value: x}\n      - {name: rs1, field: rs1, role: read, value: x}\n"
      "    compose: {steps: [\"sub rd, zero, rs1\"]}\n";
  try {
    parse_custom_overlay(second, "second.yaml", ext);
    ADD_FAILURE() << "no error";
  } catch (const CustomExtError& e) {
    // funct7 64 = 0b1000000: bits 26:25 are 00, as cmac's funct2 (R4) -> the same words.
    EXPECT_EQ(std::string(e.what()), "second.yaml:4:15: encoding of 'other' clashes with 'cmac' (first.yaml:3:15)");
  }
}

TEST(CustomExt, HeaderWrapsInsnForClang) {
  const auto ext = overlay();
  const std::string h = custom_c_header(*ext);
  EXPECT_NE(h.find("static inline __attribute__((always_inline)) int32_t cmac(int32_t rs1, int32_t rs2, int32_t rs3) {\n"
                   "  int32_t rd;\n"
                   "  __asm__ (\".insn r4 0xb, 0, 0, %[rd], %[rs1], %[rs2], %[rs3]\"\n"
                   "          : [rd] \"=r\"(rd)\n"
                   "          : [rs1] \"r\"(rs1), [rs2] \"r\"(rs2), [rs3] \"r\"(rs3));\n"
                   "  return rd;\n}\n"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("static inline __attribute__((always_inline)) vint16m2_t cvsq_i16m2(vint16m2_t vs1, vint16m2_t vs2, size_t vl) {\n"
                   "  vint16m2_t vd;\n"
                   "  __asm__ (\"vsetvli zero, %[vl], e16, m2, ta, ma\\n\\t.insn r 0xb, 1, 1, %[vd], %[vs1], %[vs2]\"\n"
                   "          : [vd] \"=vr\"(vd)\n"
                   "          : [vs1] \"vr\"(vs1), [vs2] \"vr\"(vs2), [vl] \"r\"(vl));\n"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("#define caddi(rs1, imm)"), std::string::npos);
  EXPECT_NE(h.find("float cfmac(float rs1, float rs2, float rs3)"), std::string::npos);
}

TEST(CustomExt, AssemblyMnemonicsBecomeInsnLines) {
  const auto ext = overlay();
  EXPECT_EQ(expand_custom_mnemonics("loop: cmac a0, a1, a2, a0  # mac\n  cvsq v8, v8, v16\n  add a0, a0, a1", *ext),
            "loop: .insn r4 0xb, 0, 0, a0, a1, a2, a0 # mac\n .insn 0x0304140b\n  add a0, a0, a1");
  // GNU as takes no v registers in `.insn r`: vector instructions become their word; a
  // trailing v0.t clears the vm bit (funct7 bit 0).
  EXPECT_EQ(expand_custom_mnemonics("cvsq v8, v8, v16, v0.t", *ext), " .insn 0x0104140b");
}

// ---- semantics: through the shared evaluator ----

// cabsd (custom-1 funct3 0 funct7 0x20, scalar): |rs1 - rs2| as i32; cvabsd (custom-1
// funct3 1, vector, maskable): |vs1 - vs2| per element of SEW bits, unsigned.
const char* kSemantics = R"(isa: riscv
instructions:
  - mnemonic: cabsd
    encoding: {opcode: custom-1, format: r, funct3: 0, funct7: 0x20}
    operands:
      - {name: rd,  field: rd,  role: write, value: x}
      - {name: rs1, field: rs1, role: read,  value: x}
      - {name: rs2, field: rs2, role: read,  value: x}
    semantics: |
      rd = max(rs1, rs2) - min(rs1, rs2)
  - mnemonic: cvabsd
    encoding: {opcode: custom-1, format: r, funct3: 1, funct7: 0}
    masked: true
    operands:
      - {name: vd,  field: rd,  role: write, value: v, type: unsigned}
      - {name: vs1, field: rs1, role: read,  value: v, type: unsigned}
      - {name: vs2, field: rs2, role: read,  value: v, type: unsigned}
    semantics: |
      vd = select(vs1 > vs2, vs1 - vs2, vs2 - vs1)
    timing: {unit: valu, latency: 2}
)";

TEST(CustomExtSemantics, ScalarAndVectorThroughTheEvaluatorWithAliasing) {
  const auto ext = overlay(kSemantics, "sem.yaml");
  Machine m;
  Hart& h = m.hart;
  h.custom = ext.get();
  EXPECT_EQ(disassemble(r_word(0x2b, 0, 0x20, 10, 10, 11), 0, ext.get()), "cabsd a0,a0,a1");
  // cabsd a0, a0, a1 with a0 = -5, a1 = 7: max 7 - min -5 = 12 (a0 read before written).
  m.run({test::addi(10, 0, -5), test::addi(11, 0, 7), r_word(0x2b, 0, 0x20, 10, 10, 11)});
  EXPECT_EQ(h.x[10], 12u);
  // e8, m1, vl = 5, unsigned: |200 - 10| = 190, |3 - 250| = 247 ...; v0 = 0b10111: element 3
  // is masked off and keeps 0x11; elements 5.. are tail and keep 0x11.
  h.vtype = 0;  // e8, m1
  h.vl = 5;
  const uint8_t a[5] = {200, 3, 0, 9, 255}, b[5] = {10, 250, 0, 1, 0};
  for (unsigned i = 0; i < 16; ++i) {
    h.vset<uint8_t>(2, i, i < 5 ? a[i] : 1);
    h.vset<uint8_t>(3, i, i < 5 ? b[i] : 2);
    h.vset<uint8_t>(4, i, 0x11);
  }
  std::memset(h.v[0], 0, kVlenBytes);
  h.v[0][0] = 0x17;
  m.run({r_word(0x2b, 1, 0, 4, 2, 3)});  // cvabsd v4, v2, v3, v0.t
  const uint8_t want[6] = {190, 247, 0, 0x11, 255, 0x11};
  for (unsigned i = 0; i < 6; ++i) EXPECT_EQ(h.vget<uint8_t>(4, i), want[i]) << i;
  // e16 (another program): |1000 - 3000| = 2000, vd = vs1 (aliased), unmasked.
  h.vtype = 1u << 3;
  h.vl = 1;
  h.vset<uint16_t>(2, 0, 1000);
  h.vset<uint16_t>(3, 0, 3000);
  m.run({r_word(0x2b, 1, 1, 2, 2, 3)});
  EXPECT_EQ(h.vget<uint16_t>(2, 0), 2000);
}

TEST(CustomExtSemantics, TypeErrorsNameTheLineAndColumnInTheOverlay) {
  std::string text = kSemantics;
  const std::string from = "rd = max(rs1, rs2) - min(rs1, rs2)";
  text.replace(text.find(from), from.size(), "rd = rs1 + 1.5");
  // The block starts on line 10, indented 6: `1.5` is column 7 + 11 = 18.
  EXPECT_EQ(load_error(text), "bad.yaml:10:18: float literal 1.5 used as i32");
}

// ---- energy actions (isa/actions.h), derived ----

std::string actions_text(const NamedActions& a) {
  std::string s;
  for (const auto& x : a) s += x.name + "=" + std::to_string(x.count) + " ";
  return s;
}

TEST(CustomExtActions, ComposedStepsMinusTempTrafficAndSemanticsOpCounts) {
  const auto ext = overlay();
  // cmac: mul t0,rs1,rs2 (8 bytes read, 4 written) + add rd,t0,rs3 (8 read, 4 written),
  // minus t0's 4 written and 4 read: one mul and one add on int32, 12 read, 4 written.
  EXPECT_EQ(actions_text(custom_actions(ext->instructions()[0], 4, 1)),
            "scalar.add.int32=1 scalar.mul.int32=1 xreg.read_bytes=12 xreg.write_bytes=4 ");
  // cvsq at e16, vl 10: vmul (40 read, 20 written) + vadd (40 read, 20 written) minus sq's
  // 20 + 20: 10 multiplies and 10 adds on int16, 60 bytes read, 20 written.
  EXPECT_EQ(actions_text(custom_actions(ext->instructions()[3], 2, 10)),
            "vector.add.int16=10 vector.mul.int16=10 vreg.read_bytes=60 vreg.write_bytes=20 ");
  // cfmac: fmul.s + fadd.s on f32 registers.
  EXPECT_EQ(actions_text(custom_actions(ext->instructions()[4], 4, 1)),
            "fpu.add.fp32=1 fpu.mul.fp32=1 freg.read_bytes=12 freg.write_bytes=4 ");
  const auto sem = overlay(kSemantics, "sem.yaml");
  // cvabsd at e8, vl 5: a compare, two subtracts and a select per lane; vs1 and vs2 read
  // (5 bytes each), vd written (5).
  EXPECT_EQ(actions_text(custom_actions(sem->instructions()[1], 1, 5)),
            "vector.add.int8=10 vector.cmp.int8=5 vector.move.int8=5 vreg.read_bytes=10 vreg.write_bytes=5 ");
}

// ---- the peephole pass ----

std::string peep(const std::string& s) {
  const auto ext = overlay();
  return apply_composed_peephole(s, *ext).assembly;
}

TEST(CustomExtPeephole, RenamesCommutesAndSkipsInterleavedInstructions) {
  // mul a5, a5, a4 / (independent addi) / add a0, a0, a5: t0 = a5 (dead afterwards: the
  // loop reloads it), rs1 = a5, rs2 = a4, rs3 = a0 (add commuted), rd = a0.
  const std::string in =
      ".LBB0_1:\n\tlw\ta4, 0(a1)\n\tlw\ta5, 0(a2)\n\tmul\ta5, a5, a4\n\taddi\ta1, a1, 4\n\tadd\ta0, a0, a5\n"
      "\taddi\ta2, a2, 4\n\tbne\ta1, a3, .LBB0_1\n\tret\n";
  EXPECT_EQ(peep(in), ".LBB0_1:\n\tlw\ta4, 0(a1)\n\tlw\ta5, 0(a2)\n\taddi\ta1, a1, 4\n\t.insn r4 0xb, 0, 0, a0, a5, a4, a0\t# cmac\n"
                      "\taddi\ta2, a2, 4\n\tbne\ta1, a3, .LBB0_1\n\tret\n");
}

TEST(CustomExtPeephole, RefusesWhenTheTempIsLiveOrAnInputIsOverwritten) {
  // The product a5 is stored afterwards: it is live, nothing is replaced.
  const std::string live = "\tmul\ta5, a5, a4\n\tadd\ta0, a0, a5\n\tsw\ta5, 0(a1)\n\tret\n";
  EXPECT_EQ(peep(live), live);
  // The product is live out of the function's return (a1 is a return register).
  const std::string ret = "\tmul\ta1, a5, a4\n\tadd\ta0, a0, a1\n\tret\n";
  EXPECT_EQ(peep(ret), ret);
  // An interleaved instruction overwrites input a4 between the steps.
  const std::string clobber = "\tmul\ta5, a5, a4\n\tli\ta4, 3\n\tadd\ta0, a0, a5\n\tli\ta5, 0\n\tret\n";
  EXPECT_EQ(peep(clobber), clobber);
  // A vsetvli between vector steps changes vl: no match.
  const std::string vset = "\tvmul.vv\tv9, v8, v8\n\tvsetvli\tzero, a0, e8, m1, ta, ma\n\tvadd.vv\tv10, v9, v12\n\tret\n";
  EXPECT_EQ(peep(vset), vset);
  // The same vector dataflow without it is replaced (v9 dead before ret), where the LMUL
  // is known (m1: every register starts a group; cvsq's four names fit the scratch file).
  EXPECT_EQ(peep("\tvsetvli\tzero, a0, e8, m1, ta, ma\n\tvmul.vv\tv9, v8, v8\n\tvadd.vv\tv10, v12, v9\n\tret\n"),
            "\tvsetvli\tzero, a0, e8, m1, ta, ma\n\t.insn r 0xb, 1, 1, v10, v8, v12\t# cvsq\n\tret\n");
  // Without a vsetvli the LMUL is unknown, taken as 8: v9 starts no group of 8, not replaced.
  const std::string unknown = "\tvmul.vv\tv9, v8, v8\n\tvadd.vv\tv10, v12, v9\n\tret\n";
  EXPECT_EQ(peep(unknown), unknown);
}

// A new-semantics instruction that replaces a composition: fmul.s then fadd.s (two
// roundings) become one fused multiply-add (one rounding) wherever they match.
const char* kReplaces = R"(isa: riscv
instructions:
  - mnemonic: cfma
    encoding: {opcode: custom-1, format: r4, funct3: 2, funct2: 0}
    operands:
      - {name: rd, field: rd, role: write, value: f}
      - {name: rs1, field: rs1, role: read, value: f}
      - {name: rs2, field: rs2, role: read, value: f}
      - {name: rs3, field: rs3, role: read, value: f}
    semantics: |
      rd = fma(rs1, rs2, rs3)
    replaces:
      temps: [t0]
      steps: ["fmul.s t0, rs1, rs2", "fadd.s rd, t0, rs3"]
)";

TEST(CustomExtPeephole, SemanticsWithReplacesIsPlacedWhereItsCompositionMatches) {
  const auto ext = overlay(kReplaces, "fma.yaml");
  ASSERT_EQ(ext->instructions().size(), 1u);
  EXPECT_FALSE(ext->instructions()[0].semantics.empty());  // it executes by its semantics
  // The fadd's sources commuted (fa2 first); ft0 is dead at the return.
  EXPECT_EQ(apply_composed_peephole("\tfmul.s\tft0, fa0, fa1\n\tfadd.s\tfa0, fa2, ft0\n\tret\n", *ext).assembly,
            "\t.insn r4 0x2b, 2, 0, fa0, fa0, fa1, fa2\t# cfma\n\tret\n");
  // Its energy and area are the semantics' (one f32 MAC), not the replaced steps'.
  EXPECT_EQ(actions_text(custom_actions(ext->instructions()[0], 4, 1)), "fpu.mac.fp32=1 freg.read_bytes=12 freg.write_bytes=4 ");
  // Area: one f32 MAC = multiplier 7700 + adder 4184 um2 [H14]; no temp register.
  EXPECT_NEAR(custom_area_mm2(ext->instructions()[0]), 11884e-6, 1e-12);
}

TEST(CustomExt, ReplacesOnlyBesideSemanticsAndAreaEnergyKeys) {
  const std::string head =
      "isa: riscv\ninstructions:\n  - mnemonic: q\n    encoding: {opcode: custom-0, format: r, funct3: 0, funct7: 0}\n"
      "    operands:\n      - {name: rd, field: rd, role: write, value: x}\n"
      "      - {name: rs1, field: rs1, role: read, value: x}\n";
  EXPECT_EQ(load_error(head + "    compose: {steps: [\"sub rd, zero, rs1\"]}\n    replaces: {steps: [\"sub rd, zero, rs1\"]}\n"),
            "bad.yaml:9:15: `replaces:` is allowed only beside `semantics:` (the composition a new-semantics "
            "instruction replaces); a composed instruction gives its steps in `compose:`");
  EXPECT_EQ(load_error(head + "    compose: {steps: [\"sub rd, zero, rs1\"]}\n    energy: 3\n"),
            "bad.yaml:9:13: `energy:` is not read on Coral: an added instruction's energy is derived per action from "
            "its compose:/semantics: (docs/isa-extensions.md); remove the key");
  EXPECT_EQ(load_error(head + "    compose: {steps: [\"sub rd, zero, rs1\"]}\n    area: lots\n"),
            "bad.yaml:9:11: `area:` is the added area in mm2: a number >= 0");
  // A declared area is the instruction's area.
  EXPECT_DOUBLE_EQ(custom_area_mm2(overlay(head + "    compose: {steps: [\"sub rd, zero, rs1\"]}\n    area: 0.002\n")
                                       ->instructions()[0]),
                   0.002);
  // Derived: sub is one 32-bit adder (137 um2 [H14]).
  EXPECT_DOUBLE_EQ(custom_area_mm2(overlay(head + "    compose: {steps: [\"sub rd, zero, rs1\"]}\n")->instructions()[0]),
                   137e-6);
}

// The operator areas come from the shared table (isa/operator_area.h): a 32-bit divide is a
// reciprocal (2 multipliers + 1 adder, a Newton-Raphson step) and a multiply, as
// docs/energy-area.md prices it: 3 x 3495 + 137 = 10622 um2 [H14]. (Coral's own copy priced
// it as a reciprocal, 7127 um2, before the table was shared.)
TEST(CustomExt, DivideAreaIsTheSharedTablesReciprocalAndMultiply) {
  const std::string text =
      "isa: riscv\ninstructions:\n  - mnemonic: cdiv\n    encoding: {opcode: custom-0, format: r, funct3: 0, "
      "funct7: 0}\n    operands:\n      - {name: rd, field: rd, role: write, value: x}\n"
      "      - {name: rs1, field: rs1, role: read, value: x}\n      - {name: rs2, field: rs2, role: read, value: x}\n"
      "    semantics: \"rd = rs1 / rs2\"\n";
  EXPECT_NEAR(custom_area_mm2(overlay(text, "div.yaml")->instructions()[0]), 10622e-6, 1e-12);
}

// multiply's sign-mask idiom as clang -O2 -g emits it: .Ltmp debug labels between the
// steps (not jump targets) and the input overwritten in place by the first step.
TEST(CustomExtPeephole, MatchesAcrossClangDebugLabels) {
  const auto ext = overlay(R"(isa: riscv
instructions:
  - mnemonic: csgnand
    encoding: {opcode: custom-3, format: r, funct3: 4, funct7: 5}
    operands:
      - {name: rd, field: rd, role: write, value: x}
      - {name: rs1, field: rs1, role: read, value: x}
      - {name: rs2, field: rs2, role: read, value: x}
    compose:
      temps: [t0, t1]
      steps: ["slli t0, rs1, 0x1f", "srai t1, t0, 0x1f", "and rd, t1, rs2"]
)",
                           "sgn.yaml");
  const std::string in =
      ".LBB0_5:\n\t.loc\t0 0 61 is_stmt 0\n\tmv\tt0, a7\n.Ltmp8:\n\t.loc\t0 24 11 is_stmt 1\n\tslli\ta7, a7, 31\n"
      "\tsrai\ta7, a7, 31\n.Ltmp9:\n\t.loc\t0 24 9 is_stmt 0\n\tand\ta7, a7, a6\n\tadd\ta5, a7, a5\n"
      "\tbnez\tt0, .LBB0_5\n\tret\n";
  EXPECT_EQ(apply_composed_peephole(in, *ext).assembly,
            ".LBB0_5:\n\t.loc\t0 0 61 is_stmt 0\n\tmv\tt0, a7\n.Ltmp8:\n\t.loc\t0 24 11 is_stmt 1\n"
            ".Ltmp9:\n\t.loc\t0 24 9 is_stmt 0\n\t.insn r 0x7b, 4, 5, a7, a7, a6\t# csgnand\n\tadd\ta5, a7, a5\n"
            "\tbnez\tt0, .LBB0_5\n\tret\n");
}


// Overlays for the placement order: a radix sort's digit index (srl; andi 255; slli 2; add,
// as rsort compiles it) and 2-op sub-chains of it. `larger_first_insn` writes one R or R4
// instruction with these steps and temps.
std::string larger_first_insn(const std::string& mnemonic, const std::string& encoding, bool rs3,
                              const std::string& temps, const std::string& steps) {
  return "  - mnemonic: " + mnemonic + "\n    encoding: " + encoding +
         "\n    operands:\n      - {name: rd, field: rd, role: write, value: x}\n"
         "      - {name: rs1, field: rs1, role: read, value: x}\n"
         "      - {name: rs2, field: rs2, role: read, value: x}\n" +
         (rs3 ? "      - {name: rs3, field: rs3, role: read, value: x}\n" : "") + "    compose:\n      temps: [" +
         temps + "]\n      steps: [" + steps + "]\n";
}
const std::string kLargerFirstShiftMask =
    larger_first_insn("cshm", "{opcode: custom-0, format: r, funct3: 1, funct7: 2}", false, "t0",
                      "\"srl t0, rs1, rs2\", \"andi rd, t0, 255\"");
const std::string kLargerFirstDigitIndex =
    larger_first_insn("cdix", "{opcode: custom-2, format: r4, funct3: 2, funct2: 1}", true, "t0, t1, t2",
                      "\"srl t0, rs1, rs2\", \"andi t1, t0, 255\", \"slli t2, t1, 0x2\", \"add rd, rs3, t2\"");
// A 2-op instruction of the same size as cshm overlapping its second step: andi 255; slli 2.
const std::string kLargerFirstMaskScale =
    larger_first_insn("cmsc", "{opcode: custom-1, format: r, funct3: 3, funct7: 4}", false, "t0",
                      "\"andi t0, rs1, 255\", \"sll rd, t0, rs2\"");

std::string larger_first_peep(const std::string& instructions, const std::string& assembly) {
  return apply_composed_peephole(assembly, *overlay("isa: riscv\ninstructions:\n" + instructions, "order.yaml"))
      .assembly;
}

// The digit index of a radix sort: a5 = ((a0 >> a1) & 255) << 2, then a0 = a2 + a5; a5 is
// dead at the return (not a return register).
const char* kLargerFirstChain = "\tsrl\ta5, a0, a1\n\tandi\ta5, a5, 255\n\tslli\ta5, a5, 2\n\tadd\ta0, a2, a5\n\tret\n";

TEST(CustomExtPeephole, AnInstructionWithMoreStepsIsPlacedBeforeItsSubChainListedFirst) {
  // cshm (srl; andi) is listed first and matches the chain's first two ops; cdix, the whole
  // chain, is tried first and takes it: rd = a0, rs1 = a0, rs2 = a1, rs3 = a2 (the add's
  // other source), as `.insn r4 custom-2 (0x5b), funct3 2, funct2 1`.
  EXPECT_EQ(larger_first_peep(kLargerFirstShiftMask + kLargerFirstDigitIndex, kLargerFirstChain),
            "\t.insn r4 0x5b, 2, 1, a0, a0, a1, a2\t# cdix\n\tret\n");
  // Without cdix, cshm takes the first two ops: rd = a5, rs1 = a0, rs2 = a1 (custom-0, funct3 1, funct7 2).
  EXPECT_EQ(larger_first_peep(kLargerFirstShiftMask, kLargerFirstChain),
            "\t.insn r 0xb, 1, 2, a5, a0, a1\t# cshm\n\tslli\ta5, a5, 2\n\tadd\ta0, a2, a5\n\tret\n");
}

TEST(CustomExtPeephole, TheOverlaysOrderDecidesBetweenInstructionsOfOneSize) {
  // srl; andi 255; sll by a register: cshm takes (srl, andi) and cmsc takes (andi, sll);
  // both have two steps, so the one listed first takes the andi and the other finds no match.
  const std::string in = "\tsrl\ta5, a0, a1\n\tandi\ta5, a5, 255\n\tsll\ta0, a5, a2\n\tret\n";
  // cshm first: a5 = cshm(a0, a1) (custom-0, funct3 1, funct7 2), the sll kept.
  EXPECT_EQ(larger_first_peep(kLargerFirstShiftMask + kLargerFirstMaskScale, in),
            "\t.insn r 0xb, 1, 2, a5, a0, a1\t# cshm\n\tsll\ta0, a5, a2\n\tret\n");
  // cmsc first: the srl kept, a0 = cmsc(a5, a2) (custom-1 = 0x2b, funct3 3, funct7 4).
  EXPECT_EQ(larger_first_peep(kLargerFirstMaskScale + kLargerFirstShiftMask, in),
            "\tsrl\ta5, a0, a1\n\t.insn r 0x2b, 3, 4, a0, a5, a2\t# cmsc\n\tret\n");
}

}  // namespace
}  // namespace tlmcraft::isa::riscv
