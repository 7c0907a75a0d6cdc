// Bundle assembler: accepted syntax and the diagnostics for each kind of bad input.
#include "tests/isa/aie_ml/core_fixture.h"

namespace aie_test {
namespace {

TEST(AieAssembler, BundlesSlotsLabelsAndCounts) {
  const AieProgram p = assemble_ok(
      "; header comment\n"
      "start:\n"
      "  { VLDA w0, [p0], #32 ;; VLDB w2, [p1], #32 ;; VST w4, [p2], #32 ;; ADD r1, r1, -1 ;; VMUL.I8 cm0, w0, x1 ;; MOV r2, 5 }\n"
      "  JNZ r1, start   # loop back\n"
      "  DONE\n");
  ASSERT_EQ(p.bundles.size(), 3u);
  EXPECT_EQ(p.labels.at("start"), 0u);
  // Ops are stored in slot order lda, ldb, st, alu, vec, mv whatever the written order.
  const Bundle& b = p.bundles[0];
  ASSERT_EQ(b.ops.size(), 6u);
  EXPECT_EQ(b.line, 3u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(int(b.ops[size_t(i)].slot), i);
  EXPECT_EQ(p.bundles[1].ops[0].operands[1].imm, 0);  // label resolved to bundle 0
  EXPECT_EQ(p.total_ops, 8u);
  EXPECT_EQ(p.ops_by_slot[size_t(Slot::Scalar)], 3u);  // ADD, JNZ, DONE
  EXPECT_EQ(p.ops_by_mnemonic.at("VLDA"), 1u);
}

TEST(AieAssembler, RealRegisterNamesMapToViews) {
  const AieProgram p = assemble_ok("VMOV wh3, wl5 ;; VCLR bmh2\nVMOV bml4, x1\nDONE\n");
  const SlotOp& mv = *p.bundles[0].in_slot(Slot::Move);
  EXPECT_EQ(mv.operands[0].cls, RegClass::W);
  EXPECT_EQ(mv.operands[0].num, 7);  // wh3 = w(2*3+1)
  EXPECT_EQ(mv.operands[1].num, 10); // wl5 = w10
  EXPECT_EQ(p.bundles[0].in_slot(Slot::Vector)->operands[0].num, 5);  // bmh2 = bm5
  EXPECT_EQ(p.bundles[1].ops[0].operands[0].num, 8);                  // bml4 = bm8
}

TEST(AieAssembler, ScoreboardUnitsOfViewsAndPostModify) {
  const AieProgram p = assemble_ok("VLDA wh1, [p3], m2\nVMAC.I8 cm1, cm1, w0, x3\n");
  // wh1 is the high half of x1; the post-modify reads p3 and m2 and writes p3.
  const SlotOp& ld = p.bundles[0].ops[0];
  std::vector<std::string> w, r;
  for (auto u : ld.writes) w.push_back(unit_name(u));
  for (auto u : ld.reads) r.push_back(unit_name(u));
  EXPECT_EQ(w, (std::vector<std::string>{"x1", "p3"}));
  EXPECT_EQ(r, (std::vector<std::string>{"p3", "m2"}));
  (void)p;
}

TEST(AieAssembler, SlotConflictNamesBothOps) {
  const auto d = assemble_errors("nop\n  VLDA w0, [p0] ;; ADD r0, r1, r2 ;; SUB r3, r4, r5\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].line, 2u);
  EXPECT_EQ(d[0].col, 38u);  // column of SUB: 2 spaces + 13 (VLDA ...) + 4 (" ;; ") + 14 (ADD ...) + 4 + 1
  EXPECT_NE(d[0].message.find("slot conflict: 'SUB' needs the alu slot, already taken by 'ADD' (column 20)"), std::string::npos)
      << d[0].format();
}

TEST(AieAssembler, WrongRegisterClassSaysWhatWasExpected) {
  const auto d = assemble_errors("VMAC.I8 cm0, cm0, x0, x1\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].col, 19u);
  EXPECT_EQ(d[0].token, "x0");
  EXPECT_NE(d[0].message.find("expected a 256-bit vector register"), std::string::npos) << d[0].format();
  EXPECT_NE(d[0].message.find("got 'x0' (a 512-bit vector register (x0-x11))"), std::string::npos) << d[0].format();
}

// AIE2 loads accumulators only through load unit A (Xilinx/llvm-aie AIE2GenRegisterInfo.td:
// VLDB's destination class mWb holds wl/wh registers only), so VLDB am3 is refused where
// VLDA am2 in the same bundle is accepted. Column 30: 2 spaces + "VLDA am2, [p2, #0]" (18)
// + " ;; " (4) + "VLDB " (5) + 1.
TEST(AieAssembler, AccumulatorsLoadOnlyThroughLoadUnitA) {
  const auto d = assemble_errors("  VLDA am2, [p2, #0] ;; VLDB am3, [p2, #32]\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].format(),
            "k.s:1:30: error: wrong register class for operand 1 of VLDB: expected a 256-bit vector register (w0-w23 "
            "or wl0-wl11/wh0-wh11), got 'am3' (a 256-bit accumulator (am0-am35)) (hint: syntax: VLDB w, mem)");
  const AieProgram p = assemble_ok("  VLDA am2, [p2, #0] ;; VLDB w3, [p2, #32]\n");
  EXPECT_EQ(p.bundles.size(), 1u);
}

// AIE2 has an immediate move in the scalar slot (MOVX_alu_cg: r or lc, 11-bit immediate;
// Xilinx/llvm-aie aie2/AIE2MultiSlotPseudoInstrInfo.td), so MOVX beside a MOV takes the
// alu slot whichever op is written first; with a pointer destination or a 20-bit
// immediate it has only the move slot, and beside a MOV it is refused. Column 3: the
// MOVX after two spaces.
TEST(AieAssembler, MovxTakesTheScalarSlotOnlyInItsNarrowForm) {
  const AieProgram p = assemble_ok("  MOVX r0, #28 ;; MOV p3, p2\n  MOV p3, p2 ;; MOVX lc, #-1024\n");
  ASSERT_EQ(p.bundles.size(), 2u);
  for (const Bundle& b : p.bundles) {
    ASSERT_EQ(b.ops.size(), 2u);
    EXPECT_EQ(b.ops[0].slot, Slot::Scalar);  // slot order: alu before mv
    EXPECT_EQ(b.ops[1].slot, Slot::Move);
  }
  const auto d = assemble_errors("  MOVX p0, #28 ;; MOV p3, p2\n  MOVX r0, #1024 ;; MOV p3, p2\n");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(
      d[0].format(),
      "k.s:1:3: error: 'MOVX' in the alu slot takes only r|lc, imm11s (operand 1 does not fit), and its mv slot is "
      "taken (hint: the hardware has this form only in its own slot; put the op in another bundle)");
  EXPECT_EQ(d[1].message,
            "'MOVX' in the alu slot takes only r|lc, imm11s (operand 2 does not fit), and its mv slot is taken");
  EXPECT_EQ(d[1].line, 2u);
}

TEST(AieAssembler, RegisterOutOfRange) {
  const auto d = assemble_errors("ADD r32, r0, r1\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "no register 'r32'");
  EXPECT_EQ(d[0].hint, "valid: a scalar register (r0-r31)");
}

TEST(AieAssembler, MisalignedVectorOffsetAndPostIncrement) {
  const auto d = assemble_errors("VLDA w0, [p0, #48]\nVST w1, [p1], #-8\nVLDA w0, [p0], #4096\n");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].message, "misaligned immediate: offset 48 is not a multiple of 32");
  EXPECT_EQ(d[0].col, 15u);
  EXPECT_EQ(d[1].message, "misaligned immediate: post-increment -8 is not a multiple of 32");
  EXPECT_EQ(d[2].message, "post-increment 4096 is out of range -4096..4064");
}

TEST(AieAssembler, ImmediateRanges) {
  const auto d = assemble_errors("ADD r0, r0, 64\nMOV r1, -513\nVSRS.S8.S32 w0, cm0, 32\nACQ 64, 1\n");
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0].message, "immediate 64 is out of range -64..63");
  EXPECT_EQ(d[1].message, "immediate -513 is out of range -512..511");
  EXPECT_EQ(d[2].message, "immediate 32 is out of range 0..31");
  EXPECT_EQ(d[3].message, "immediate 64 is out of range 0..63");
}

TEST(AieAssembler, UnknownOpGivesNearestNames) {
  const auto d = assemble_errors("VMACC.I8 cm0, cm0, w0, x1\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "unknown operation 'VMACC.I8'");
  EXPECT_EQ(d[0].hint.rfind("did you mean VMAC.I8", 0), 0u) << d[0].hint;
}

TEST(AieAssembler, LabelsUndefinedAndDuplicate) {
  const auto d = assemble_errors("loop:\n  NOP\nloop:\n  J lop\n");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].message, "label 'loop' is defined twice");
  EXPECT_EQ(d[0].line, 3u);
  EXPECT_EQ(d[1].message, "undefined label 'lop'");
  EXPECT_EQ(d[1].hint, "did you mean loop?");
  EXPECT_EQ(d[1].line, 4u);
  EXPECT_EQ(d[1].col, 5u);
}

TEST(AieAssembler, OperandCountAndSyntaxErrors) {
  const auto d = assemble_errors("ADD r0, r1\n{ NOP ;; }\n{ ADD r0, r0, r0\nVLDA w0, p0\n");
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0].message, "'ADD' takes 3 operands, got 2");
  EXPECT_EQ(d[0].hint, "syntax: ADD r, r, r|imm7s");
  EXPECT_EQ(d[1].message, "empty slot operation between ';;' separators");
  EXPECT_EQ(d[2].message, "unterminated bundle: expected '}' at the end of the line");
  EXPECT_EQ(d[3].message, "VLDA: expected a memory operand in brackets");
}

TEST(AieAssembler, FirstLineOffsetsDiagnostics) {
  std::vector<tlmcraft::isa::Diagnostic> diags;
  assemble_core("NOP\nFOO r0\n", "kernel.aie", 40, diags);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].line, 41u);
  EXPECT_EQ(diags[0].format().rfind("kernel.aie:41:1: error: unknown operation 'FOO'", 0), 0u) << diags[0].format();
}

TEST(AieAssembler, ThreeDimensionalAddressingNeedsTwoDimensions) {
  const auto d = assemble_errors("VLDA w0, [p0], d1, d1\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "3-D addressing needs two different dimensions");
}

TEST(AieAssembler, LatencyTableComesFromTheYaml) {
  const AieIsa& isa = AieIsa::get();
  EXPECT_EQ(isa.latency.at("vmac"), 6u);
  const AieProgram p = assemble_ok("VMAC.BF16 bm0, bm0, x0, x1 ;; LDA r0, [p0]\n");
  EXPECT_EQ(isa.latency_of(*p.bundles[0].in_slot(Slot::Vector)), 6u);
  EXPECT_EQ(isa.latency_of(*p.bundles[0].in_slot(Slot::LoadA)), 7u);
}

}  // namespace
}  // namespace aie_test

namespace aie_test {
namespace {

TEST(AieAssembler, PointerUpdatesTakeTheirStepAndNeverReadPastTheOperands) {
  // PADDA [p0], #64 adds 64 to p0; a PADD without a step is a diagnostic, not a crash.
  CoreState s;
  FlatMemory m;
  s.p[0] = 0x100;
  run_text("PADDA [p0], #64\nPADDB [p0], #-32\nDONE\n", s, m);
  EXPECT_EQ(s.p[0], 0x100u + 64 - 32);
  const auto d = assemble_errors("PADDA [p0]\nDONE\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].line, 1u);
  EXPECT_NE(d[0].message.find("needs a step"), std::string::npos) << d[0].format();
}

}  // namespace
}  // namespace aie_test
