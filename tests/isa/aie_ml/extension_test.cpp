// Ops added to the AIE-ML YAML by data (docs/isa-extensions.md, "AIE-ML"): composed ops
// computing what their steps compute (also when the destination is a source), the
// strict schema's errors at file:line:col, and the shipped description unchanged.
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "isa/aie_ml/isa_tables.h"
#include "isa/aie_ml/op_codes.h"
#include "isa/isa_spec.h"
#include "tests/isa/aie_ml/core_fixture.h"
#include "tests/isa/aie_ml/split_product_overlay.h"
#include "tests/isa_overlay_dir.h"
#include "tests/unique_temp_dir.h"

namespace aie_test {
namespace {

int line_count(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

// The error text of parsing the shipped YAML with `ops` appended to its op list ("" = ok).
std::string load_errors(const std::string& ops) {
  try {
    parse_aie_isa(tlmcraft::test::shipped_isa_yaml("aie_ml") + ops, "ext.yaml");
    return "";
  } catch (const std::runtime_error& e) {
    return e.what();
  }
}

template <typename T>
T lane_of(const CoreState& s, RegClass c, int reg, int i) {
  T v;
  std::memcpy(&v, s.vreg(c, reg) + i * int(sizeof(T)), sizeof v);
  return v;
}
template <typename T>
void set(CoreState& s, RegClass c, int reg, int i, T v) {
  std::memcpy(s.vreg(c, reg) + i * int(sizeof(T)), &v, sizeof v);
}

// d = a + b + c on 16 fp32 lanes, written as a macro would be: step 2 reads the output
// step 1 wrote. Latency 4 (one fp32 add pipeline pass longer than VADD.F's vacc 3).
const char* kVadd3 = R"(
  - mnemonic: VADD3.F
    slot: vec
    latency: 4
    doc: "Sum of three fp32 accumulators."
    operands:
      - {name: d, class: bm, role: write, format: fp32}
      - {name: a, class: bm, format: fp32}
      - {name: b, class: bm, format: fp32}
      - {name: c, class: bm, format: fp32}
    compose:
      steps:
        - "VADD.F d, a, b"
        - "VADD.F d, d, c"
)";

TEST(AieExtension, ComposedOpComputesItsSteps) {
  tlmcraft::test::IsaOverlayDir isa("aie_ml", kVadd3, "aie-ext-vadd3");
  CoreState s;
  FlatMemory m;
  for (int i = 0; i < 16; ++i) {
    set<float>(s, RegClass::BM, 2, i, 1.5f);
    set<float>(s, RegClass::BM, 3, i, 2.25f);
    set<float>(s, RegClass::BM, 4, i, float(i) - 0.5f);
  }
  run_text("VADD3.F bm1, bm2, bm3, bm4\nDONE\n", s, m);
  // 1.5 + 2.25 = 3.75, + (i - 0.5) = i + 3.25 (all exact in fp32).
  for (int i = 0; i < 16; ++i) EXPECT_EQ(lane_of<float>(s, RegClass::BM, 1, i), float(i) + 3.25f) << i;
  EXPECT_EQ(lane_of<float>(s, RegClass::BM, 2, 0), 1.5f);  // inputs unchanged
}

TEST(AieExtension, ComposedOpWithDestinationEqualToASourceReadsTheOldValue) {
  tlmcraft::test::IsaOverlayDir isa("aie_ml", kVadd3, "aie-ext-vadd3_alias");
  CoreState s;
  FlatMemory m;
  for (int i = 0; i < 16; ++i) {
    set<float>(s, RegClass::BM, 1, i, 10.0f);  // c, also the destination
    set<float>(s, RegClass::BM, 2, i, 1.0f);
    set<float>(s, RegClass::BM, 3, i, float(i));
  }
  // d = a + b + c with c = bm1 = 10: 1 + i + 10 = i + 11. Expanded as a macro, step 1
  // would write bm1 = 1 + i and step 2 read it back: 2 (1 + i) = 2i + 2, wrong for every
  // lane but i = 9.
  run_text("VADD3.F bm1, bm2, bm3, bm1\nDONE\n", s, m);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(lane_of<float>(s, RegClass::BM, 1, i), float(i) + 11.0f) << i;
  // The steps by hand on separate registers give the same value.
  CoreState h;
  for (int i = 0; i < 16; ++i) {
    set<float>(h, RegClass::BM, 1, i, 10.0f);
    set<float>(h, RegClass::BM, 2, i, 1.0f);
    set<float>(h, RegClass::BM, 3, i, float(i));
  }
  run_text("VADD.F bm5, bm2, bm3\nVADD.F bm1, bm5, bm1\nDONE\n", h, m);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(lane_of<float>(h, RegClass::BM, 1, i), lane_of<float>(s, RegClass::BM, 1, i)) << i;
}

TEST(AieExtension, ComposedOpWithATempAndMacsFromItsSteps) {
  tlmcraft::test::IsaOverlayDir isa("aie_ml", tlmcraft::test::kAieMulSplitOverlay, "aie-ext-muls");
  const AieIsa& spec = AieIsa::get();
  const OpSpec* op = spec.find("VMULS.E.BF16");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->code, uint16_t(tlmcraft::isa::aie_ml::Code::Extension));
  EXPECT_EQ(op->macs, 32u);  // 16 (VMUL.E.BF16) + 16 (VMAC.E.BF16)
  EXPECT_EQ(op->mac_format, MacFormat::BF16);
  EXPECT_EQ(spec.latency.at(op->latency_class), 6u);
  CoreState s;
  FlatMemory m;
  for (int i = 0; i < 16; ++i) {
    set<uint16_t>(s, RegClass::W, 0, i, 0x3FC0);  // 1.5
    set<uint16_t>(s, RegClass::W, 2, i, 0x4000);  // hi = 2
    set<uint16_t>(s, RegClass::W, 3, i, 0x3C00);  // lo = 2^-7
    set<float>(s, RegClass::BM, 9, i, 77.0f);     // the temp's placeholder must not leak
  }
  run_text("VMULS.E.BF16 bm9, w0, w2, w3\nDONE\n", s, m);
  // 1.5 * 2 + 1.5 * 2^-7 = 3 + 0.01171875 = 3.01171875 (exact in fp32).
  for (int i = 0; i < 16; ++i) EXPECT_EQ(lane_of<float>(s, RegClass::BM, 9, i), 3.01171875f) << i;
  // The registers the executor used for the temp and renamed output are not architectural.
  for (int r = 0; r < 18; ++r)
    if (r != 9) EXPECT_EQ(lane_of<float>(s, RegClass::BM, r, 0), 0.0f) << "bm" << r;
}

TEST(AieExtension, AssemblerKnowsTheOpsRegistersAndSlot) {
  tlmcraft::test::IsaOverlayDir isa("aie_ml", tlmcraft::test::kAieMulSplitOverlay, "aie-ext-muls_asm");
  const AieProgram p = assemble_ok("VMULS.E.BF16 bm1, w0, w2, w3 ;; VLDA w4, [p0], #32\nDONE\n");
  ASSERT_EQ(p.bundles.size(), 2u);
  const SlotOp& op = p.bundles[0].ops[1];  // slot order: lda, then vec
  EXPECT_EQ(op.slot, Slot::Vector);
  // Reads w0 (x0), w2 and w3 (x1); writes bm1: storage units from the operand roles.
  EXPECT_EQ(op.reads, (std::vector<uint16_t>{storage_units(RegClass::X, 0)[0], storage_units(RegClass::X, 1)[0]}));
  EXPECT_EQ(op.writes, storage_units(RegClass::BM, 1));
  const auto diags = assemble_errors("VMULS.E.BF16 x1, w0, w2, w3\n");
  EXPECT_EQ(diags[0].format().substr(0, 10), "k.s:1:14: ");
}

// New semantics, no C++: the op the issue's error message named (ADD3) as an expression
// over scalar registers, and a bf16 SiLU over 16 lanes.
const char* kAdd3 = R"(
  - mnemonic: ADD3
    slot: alu
    latency: alu
    operands:
      - {name: d, class: r, role: write}
      - {name: a, class: r}
      - {name: b, class: r}
      - {name: c, class: r}
    semantics: "d = a + b + c"
)";

TEST(AieExtension, SemanticsOpOnScalarsWrapsAtI32AndMayAlias) {
  tlmcraft::test::IsaOverlayDir isa("aie_ml", kAdd3, "aie-ext-add3");
  CoreState s;
  FlatMemory m;
  s.r[1] = 5;
  s.r[2] = 0x7FFFFFFF;
  s.r[3] = 7;
  // r1 = 5 + 0x7FFFFFFF + 7 wraps at 32 bits: 0x7FFFFFFF + 12 = 0x8000000B; r1 was 5 when read.
  run_text("ADD3 r1, r1, r2, r3\nDONE\n", s, m);
  EXPECT_EQ(s.r[1], 0x8000000Bu);
  EXPECT_EQ(AieIsa::get().find("ADD3")->code, uint16_t(tlmcraft::isa::aie_ml::Code::Extension));
}

const char* kSilu = R"(
  - mnemonic: VSILU.BF16
    slot: vec
    latency: 8
    doc: "SiLU of 16 bf16 lanes, computed in fp32 and rounded once to bf16."
    operands:
      - {name: d, class: w, role: write, format: bf16}
      - {name: a, class: w, format: bf16}
    semantics: |
      d = silu(a)
)";

TEST(AieExtension, SemanticsOpOnBf16LanesRoundsOnceAndMayAlias) {
  tlmcraft::test::IsaOverlayDir isa("aie_ml", kSilu, "aie-ext-silu");
  CoreState s;
  FlatMemory m;
  const uint16_t x[4] = {0x4000, 0xBF80, 0x3F00, 0xC040};  // 2, -1, 0.5, -3
  for (int i = 0; i < 16; ++i) set<uint16_t>(s, RegClass::W, 0, i, x[i % 4]);
  set<uint16_t>(s, RegClass::W, 1, 0, 0x1234);  // the other half of x0 stays
  run_text("VSILU.BF16 w0, w0\nDONE\n", s, m);
  // x / (1 + e^-x) in fp32, then bf16 nearest even: 2 -> 1.76159 -> 0x3FE1 (1.7578125);
  // -1 -> -0.268941 -> 0xBE8A; 0.5 -> 0.311230 -> 0x3E9F; -3 -> -0.142278 -> 0xBE12.
  const uint16_t y[4] = {0x3FE1, 0xBE8A, 0x3E9F, 0xBE12};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(lane_of<uint16_t>(s, RegClass::W, 0, i), y[i % 4]) << i;
  EXPECT_EQ(lane_of<uint16_t>(s, RegClass::W, 1, 0), 0x1234);
  EXPECT_EQ(AieIsa::get().latency.at(AieIsa::get().find("VSILU.BF16")->latency_class), 8u);
}

TEST(AieExtension, ShippedDescriptionStillLoads) { EXPECT_EQ(load_errors(""), ""); }

// ---- strict schema: each error exact, at file:line:col ----
std::string at(int line_offset, int col) {
  return "ext.yaml:" + std::to_string(line_count(tlmcraft::test::shipped_isa_yaml("aie_ml")) + line_offset) + ":" +
         std::to_string(col) + ": ";
}

// The shipped YAML with `from` replaced by `to` (once): errors ("" = ok).
std::string edit_errors(const std::string& from, const std::string& to) {
  std::string text = tlmcraft::test::shipped_isa_yaml("aie_ml");
  const size_t at_ = text.find(from);
  if (at_ == std::string::npos) return "test error: '" + from + "' not in the shipped YAML";
  text.replace(at_, from.size(), to);
  try {
    parse_aie_isa(text, "ext.yaml");
    return "";
  } catch (const std::runtime_error& e) {
    return e.what();
  }
}

// The 1-based line of the shipped YAML holding `needle`.
int shipped_line_of(const std::string& needle) {
  const std::string text = tlmcraft::test::shipped_isa_yaml("aie_ml");
  return 1 + int(std::count(text.begin(), text.begin() + long(text.find(needle)), '\n'));
}

TEST(AieExtensionErrors, FusedKeyOnAnExistingOp) {
  // `fused:` is PLENA's form; on AIE-ML it was silently ignored ("ok") before.
  const std::string line = "  - {mnemonic: VADD.8, slot: vec, ";
  const std::string e = edit_errors(line, line + "fused: [\"VADD.16 d, a, b\"], ");
  // "  - {mnemonic: VADD.8, slot: vec, " is 34 characters: the key starts at column 35.
  EXPECT_EQ(e, "ext.yaml:" + std::to_string(shipped_line_of(line)) +
                   ":35: unknown key 'fused' in op VADD.8 (known keys: mnemonic, slot, alt_slots, alt_operands, "
                   "operands, dst, rw, "
                   "access, latency, ii, real, doc, operation, macs, format, actions, compose, semantics, replaces, "
                   "commutative); "
                   "AIE-ML has no "
                   "`fused:`: an op built from existing ops is written with `compose: {temps, steps}` "
                   "(docs/isa-extensions.md)\n");
}

TEST(AieExtensionErrors, MisspeltKeyOnAnExistingOp) {
  const std::string line =
      "  - {mnemonic: VADD.16, slot: vec, operands: \"x, x, x\", dst: 1, commutative: [1, 2], latency: valu,";
  const std::string e = edit_errors(
      line, "  - {mnemonic: VADD.16, slot: vec, operands: \"x, x, x\", dst: 1, commutative: [1, 2], latncy: valu,");
  // The misspelt key at column 86 (after 85 characters); the op then has no latency class.
  EXPECT_EQ(e, "ext.yaml:" + std::to_string(shipped_line_of(line)) +
                   ":86: unknown key 'latncy' in op VADD.16 (known keys: mnemonic, slot, alt_slots, alt_operands, "
                   "operands, dst, rw, "
                   "access, latency, ii, real, doc, operation, macs, format, actions, compose, semantics, replaces, "
                   "commutative)\n"
                   "ext.yaml:" +
                   std::to_string(shipped_line_of(line)) + ":5: VADD.16: unknown latency class ''\n");
}

TEST(AieExtensionErrors, MisspeltKey) {
  const std::string e = load_errors("  - {mnemonic: VADD.Q, slot: vec, latncy: valu}\n");
  EXPECT_NE(e.find(at(1, 35) + "unknown key 'latncy' in op VADD.Q"), std::string::npos) << e;
}

TEST(AieExtensionErrors, NewMnemonicWithoutSemantics) {
  const std::string e =
      load_errors("  - {mnemonic: ADD3, slot: alu, operands: \"r, r, r, r\", dst: 1, latency: alu}\n");
  EXPECT_NE(
      e.find(at(1, 5) + "ADD3: no semantics for this mnemonic in isa/aie_ml/op_codes.h, and neither `compose:` nor "
                        "`semantics:` is given (docs/isa-extensions.md, AIE-ML)"),
      std::string::npos)
      << e;
}

const char* kOpHead = R"(
  - mnemonic: ADD3
    slot: %s
    latency: alu
    operands:
      - {name: d, class: %s, role: write}
      - {name: a, class: r}
      - {name: b, class: r}
      - {name: c, class: r}
    compose:
      steps:
        - "%s"
        - "ADD d, d, c"
)";

std::string add3(const char* slot, const char* dclass, const char* step1) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, kOpHead, slot, dclass, step1);
  return buf;
}

TEST(AieExtensionErrors, SlotThatDoesNotExist) {
  const std::string e = load_errors(add3("vec2", "r", "ADD d, a, b"));
  EXPECT_NE(e.find(at(2, 5) + "ADD3: unknown slot 'vec2' (lda, ldb, st, alu, vec, mv)"), std::string::npos) << e;
}

TEST(AieExtensionErrors, RegisterClassTheIsaLacks) {
  const std::string e = load_errors(add3("alu", "q", "ADD d, a, b"));
  EXPECT_NE(
      e.find(at(6, 26) + "ADD3: register class 'q' does not exist in the AIE-ML ISA (r, p, m, dn, dj, dc, s, w, x, "
                         "y, am, bm, cm, ls, le, lc, lr; or an immediate kind: imm7s,"),
      std::string::npos)
      << e;
}

TEST(AieExtensionErrors, UnknownStepOp) {
  const std::string e = load_errors(add3("alu", "r", "ADDX d, a, b"));
  EXPECT_NE(e.find(at(12, 12) + "ADD3 step 1: unknown op 'ADDX' (a step is a built-in op of this ISA)"),
            std::string::npos)
      << e;
}

TEST(AieExtensionErrors, StepOperandOfTheWrongClass) {
  const std::string e = load_errors(add3("alu", "x", "ADD d, a, b"));
  EXPECT_NE(e.find(at(12, 16) + "ADD3 step 1: 'd' (class x) does not fit operand 1 of ADD (r)"), std::string::npos)
      << e;
}

TEST(AieExtensionErrors, StepWritesAnInput) {
  const std::string e = load_errors(add3("alu", "r", "ADD a, a, b"));
  EXPECT_NE(e.find(at(12, 16) + "ADD3 step 1: writes input 'a'; inputs are read-only (write an output or a temp)"),
            std::string::npos)
      << e;
}

TEST(AieExtensionErrors, StepNamesAnUnknownOperand) {
  const std::string e = load_errors(add3("alu", "r", "ADD d, a, e"));
  EXPECT_NE(
      e.find(at(12, 22) + "ADD3 step 1: 'e' is not an operand or temp of ADD3 (d, a, b, c); a step names them, or "
                          "gives an immediate"),
      std::string::npos)
      << e;
}

TEST(AieExtensionErrors, StepReadsAnOutputBeforeWritingIt) {
  const std::string e = load_errors(add3("alu", "r", "ADD d, d, b"));
  EXPECT_NE(e.find(at(12, 19) + "ADD3 step 1: reads 'd' before any step writes it"), std::string::npos) << e;
}

TEST(AieExtensionErrors, MemoryStep) {
  const std::string e = load_errors(add3("alu", "r", "LDA d, [p0]"));
  EXPECT_NE(
      e.find(at(12, 12) + "ADD3 step 1: 'LDA' accesses memory, controls flow, takes a lock or uses a register pair; a "
                          "compose step is a register-to-register op"),
      std::string::npos)
      << e;
}

TEST(AieExtensionErrors, UnknownKeyInAnOperand) {
  std::string ops = add3("alu", "r", "ADD d, a, b");
  ops.replace(ops.find("{name: a, class: r}"), 19, "{name: a, clas: r}");
  EXPECT_EQ(load_errors(ops),
            at(7, 19) + "unknown key 'clas' in an operand of op ADD3 (known keys: name, class, role, format)\n" +
                at(7, 9) + "ADD3: operand 'a' needs `class:` (a register class or an immediate kind)\n");
}

TEST(AieExtensionErrors, UnknownKeyInCompose) {
  std::string ops = add3("alu", "r", "ADD d, a, b");
  ops.replace(ops.find("      steps:"), 12, "      step:");
  EXPECT_EQ(load_errors(ops), at(11, 7) + "unknown key 'step' in compose of op ADD3 (known keys: temps, steps)\n" +
                                  at(11, 7) + "ADD3: compose needs `steps:`, a list of ops (\"VADD.F t, a, b\")\n");
}

TEST(AieExtensionErrors, TypeErrorInSemanticsAtItsColumn) {
  // An i32 scalar register plus a bf16 vector: the error at the first '+' of
  // `    semantics: "d = a + b + c"` (the quote at column 16, the '+' at 23), line 10 of the op.
  std::string ops = kAdd3;
  ops.replace(ops.find("{name: b, class: r}"), 19, "{name: b, class: w, format: bf16}");
  EXPECT_EQ(load_errors(ops), at(10, 23) + "cannot add i32 and vector<bf16>; convert with bf16(...)\n");
}

// ---- the same ops from an overlay file (isa/isa_overlay.h merges it over the shipped YAML) ----
std::string write_overlay(const std::string& name, const std::string& text) {
  static const tlmcraft::test::UniqueTempDir dir("aie-ext-overlays");
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}

TEST(AieExtensionOverlay, AnOverlayAddsOpsAndItsErrorsNameTheOverlayFile) {
  unsetenv("TLMCRAFT_ISA_DIR");
  const std::string base = tlmcraft::isa::isa_yaml_path("aie_ml");
  const std::string ok =
      write_overlay("aie_ext_ok.yaml", std::string("isa: aie_ml\nops:") + tlmcraft::test::kAieMulSplitOverlay + kSilu);
  const AieIsaDetails d = load_aie_isa(base, {ok});
  ASSERT_NE(d.isa.find("VMULS.E.BF16"), nullptr);
  ASSERT_NE(d.isa.find("VSILU.BF16"), nullptr);
  EXPECT_EQ(d.isa.extensions.size(), 2u);
  // A class the core lacks, on line 7 of the overlay (`      - {name: d, class: q, ...}`:
  // the value at column 26).
  const std::string bad = write_overlay("aie_ext_bad.yaml",
                                        "isa: aie_ml\n"
                                        "ops:\n"
                                        "  - mnemonic: VX.BF16\n"
                                        "    slot: vec\n"
                                        "    latency: 2\n"
                                        "    operands:\n"
                                        "      - {name: d, class: q, role: write}\n"
                                        "    compose: {steps: [\"VCLR d\"]}\n");
  try {
    load_aie_isa(base, {bad});
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              bad +
                  ":7:26: VX.BF16: register class 'q' does not exist in the AIE-ML ISA (r, p, m, dn, "
                  "dj, dc, s, w, x, y, am, bm, cm, ls, le, lc, lr; or an immediate kind: imm7s, "
                  "imm10s, imm11s, imm20s, imm32, u5, u6, shfl, lockid, lockval, vofs, sofs32, "
                  "sofs16, sofs8, pofs)\n");
  }
  const std::string bad_expr = write_overlay("aie_ext_bad_expr.yaml",
                                             "isa: aie_ml\n"
                                             "ops:\n"
                                             "  - mnemonic: VX.BF16\n"
                                             "    slot: vec\n"
                                             "    latency: 2\n"
                                             "    operands:\n"
                                             "      - {name: d, class: w, role: write, format: bf16}\n"
                                             "      - {name: a, class: w, format: bf16}\n"
                                             "    semantics: |\n"
                                             "      t = relu(a)\n"
                                             "      d = t + q\n");
  try {
    load_aie_isa(base, {bad_expr});
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    // Line 11 of the overlay, `      d = t + q`: the unknown name q at column 15.
    EXPECT_EQ(std::string(e.what()).substr(0, bad_expr.size() + 7), bad_expr + ":11:15:") << e.what();
  }
}

}  // namespace
}  // namespace aie_test
