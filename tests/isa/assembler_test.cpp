// Assembler: a full template-style kernel, every error kind with its exact text and
// column, several errors in one file, loop checks, and a 10,000-line input.
#include <gtest/gtest.h>

#include "tests/isa/test_support.h"

namespace tlmcraft::isa {
namespace {

using test::assemble_text;
using test::plena;

// The SiLU and GEMM inner loops the PLENA template compiler emits, with all three
// comment styles, tabs and a CRLF line.
const char* kKernel =
    "; SiLU over 4 rows, template style\n"            // 1
    "S_ADDI_INT gp1, gp0, 512        ; HBM offset\n"  // 2
    "C_SET_ADDR_REG a0, gp0, gp0\n"                   // 3
    "S_ADDI_INT gp2, gp0, 256\n"                      // 4
    "C_SET_SCALE_REG gp2\n"                           // 5
    "S_ADDI_INT gp3, gp0, 0x40\n"                     // 6
    "C_SET_STRIDE_REG gp3\r\n"                        // 7
    "S_ADDI_INT gp4, gp0, 0          # VRAM dst\n"    // 8
    "H_PREFETCH_V gp4, gp0, a0, 1, 0\n"               // 9
    "S_LD_FP f1, gp0, 2\n"                            // 10
    "\n"                                              // 11
    "S_ADDI_INT gp5, gp0, 4096\n"                     // 12
    "C_LOOP_START gp6, 4\n"                           // 13
    "\tV_SUB_VF gp5, gp4, f0, 0, 1\n"                 // 14
    "\tV_EXP_V gp5, gp5, 0\n"                         // 15
    "\tV_ADD_VF gp5, gp5, f1, 0   // 1 + exp(-x)\n"   // 16
    "\tV_RECI_V gp5, gp5, 0\n"                        // 17
    "\tV_MUL_VV gp4, gp5, gp4, 0\n"                   // 18
    "\tS_ADDI_INT gp4, gp4, 64\n"                     // 19
    "C_LOOP_END gp6\n"                                // 20
    "; matmul part\n"                                 // 21
    "S_ADDI_INT gp7, gp0, 0\n"                        // 22
    "H_PREFETCH_M gp7, gp0, a0, 1, 0\n"               // 23
    "C_LOOP_START gp8, 2\n"                           // 24
    "  C_LOOP_START gp9, 16\n"                        // 25
    "    M_MM 0, gp2, gp3\n"                          // 26
    "  C_LOOP_END gp9\n"                              // 27
    "  M_MM_WO gp1, gp0, 0\n"                         // 28
    "  M_MM_WO gp1, 0, 4\n"                           // 29 (template also writes 0 for gp0)
    "C_LOOP_END gp8\n"                                // 30
    "M_BTMM 0, gp2, gp3\n"                            // 31
    "M_BMM_WO gp4, 0\n"                               // 32
    "V_RED_SUM f2, gp4\n"                             // 33
    "V_RED_MAX f3, gp4, 0\n"                          // 34
    "H_STORE_V gp4, gp1, a0, 0, 0\n"                  // 35
    "C_BREAK\n";                                      // 36

TEST(Assembler, TemplateKernel) {
  auto a = assemble_text(kKernel);
  ASSERT_TRUE(a.ok) << (a.lines.empty() ? "" : a.lines[0]);
  // The only diagnostic: C_BREAK outside a loop faults when it executes (a warning).
  ASSERT_EQ(a.diags.size(), 1u);
  EXPECT_EQ(a.lines[0], "k.asm:36:1: warning: C_BREAK outside any loop faults when it executes (hint: C_BREAK leaves "
                        "the innermost open hardware loop)");
  const Program& p = a.program;
  EXPECT_EQ(p.isa, "plena");
  EXPECT_EQ(p.source_name, "k.asm");
  ASSERT_EQ(p.source_lines.size(), 36u);
  EXPECT_EQ(p.source_lines[6], "C_SET_STRIDE_REG gp3");  // CR stripped
  // 36 lines minus the comment-only/blank lines 1, 11 and 21 = 33 instructions.
  ASSERT_EQ(p.code.size(), 33u);
  // S_ADDI_INT gp3, gp0, 0x40 -> rd 3, rs1 0, imm 64.
  const Instruction& addi = p.code[4];
  EXPECT_EQ(plena().instruction(addi).mnemonic, "S_ADDI_INT");
  EXPECT_EQ(addi.line, 6u);
  EXPECT_EQ(addi.col, 1u);
  EXPECT_EQ(addi.field[kRd], 3);
  EXPECT_EQ(addi.field[kImm], 64);
  // The tab-indented V_SUB_VF on line 14: rd 5, rs1 4, f0, rmask 0, rorder 1; column 2.
  const Instruction& sub = p.code[11];
  EXPECT_EQ(plena().instruction(sub).mnemonic, "V_SUB_VF");
  EXPECT_EQ(sub.line, 14u);
  EXPECT_EQ(sub.col, 2u);
  EXPECT_EQ(sub.field[kRd], 5);
  EXPECT_EQ(sub.field[kRs1], 4);
  EXPECT_EQ(sub.field[kRs2], 0);
  EXPECT_EQ(sub.field[kRs3], 0);
  EXPECT_EQ(sub.field[kFunct1], 1);
  // M_MM 0, gp2, gp3 on line 26 (column 5).
  const Instruction& mm = p.code[22];
  EXPECT_EQ(plena().instruction(mm).mnemonic, "M_MM");
  EXPECT_EQ(mm.opcode, 0x01u);
  EXPECT_EQ(mm.line, 26u);
  EXPECT_EQ(mm.col, 5u);
  EXPECT_EQ(mm.field[kRd], 0);
  EXPECT_EQ(mm.field[kRs1], 2);
  EXPECT_EQ(mm.field[kRs2], 3);
  // M_MM_WO gp1, 0, 4: the literal 0 stands for gp0.
  const Instruction& wo = p.code[25];
  EXPECT_EQ(wo.line, 29u);
  EXPECT_EQ(wo.field[kRs1], 0);
  EXPECT_EQ(wo.field[kImm], 4);
  // V_RED_SUM f2, gp4 leaves out rmask (default 0).
  EXPECT_EQ(p.code[29].field[kRd], 2);
  EXPECT_EQ(p.code[29].field[kRs3], 0);

  // Counts: M = M_MM, M_MM_WO x2, M_BTMM, M_BMM_WO = 5; V = 5 in the loop + 2 reductions = 7;
  // S = S_ADDI_INT x7 + S_LD_FP = 8; H = 3; C = addr, scale, stride, 3 starts, 3 ends, break = 10.
  const InstructionCounts c = count_instructions(plena(), p);
  EXPECT_EQ(c.total, 33u);
  EXPECT_EQ(c.by_class.at("M"), 5u);
  EXPECT_EQ(c.by_class.at("V"), 7u);
  EXPECT_EQ(c.by_class.at("S"), 8u);
  EXPECT_EQ(c.by_class.at("H"), 3u);
  EXPECT_EQ(c.by_class.at("C"), 10u);
  EXPECT_EQ(c.by_unit.at("scalar_int"), 7u);
  EXPECT_EQ(c.by_unit.at("scalar_fp"), 1u);
  EXPECT_EQ(c.by_unit.at("hbm_prefetch"), 2u);
  EXPECT_EQ(c.by_unit.at("hbm_store"), 1u);
  EXPECT_EQ(c.by_mnemonic.at("S_ADDI_INT"), 7u);
}

// One error per case: the exact formatted line (file:line:col: error: message (hint)).
struct ErrorCase {
  const char* source;
  const char* expected;
};

class AssemblerError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(AssemblerError, ExactMessage) {
  auto a = assemble_text(GetParam().source);
  EXPECT_FALSE(a.ok);
  EXPECT_TRUE(a.program.code.empty());
  ASSERT_EQ(a.lines.size(), 1u) << (a.lines.size() > 1 ? a.lines[1] : "");
  EXPECT_EQ(a.lines[0], GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, AssemblerError,
    ::testing::Values(
        ErrorCase{"M_MMM 0, gp2, gp3\n",
                  "k.asm:1:1: error: unknown mnemonic 'M_MMM' (hint: did you mean M_BMM, M_MM, M_TMM?)"},
        ErrorCase{"  m_mm 0, gp2, gp3\n",
                  "k.asm:1:3: error: unknown mnemonic 'm_mm' (hint: mnemonics are upper case: M_MM)"},
        ErrorCase{"FOO gp1\n",
                  "k.asm:1:1: error: unknown mnemonic 'FOO' (hint: see the instruction list in the PLENA ISA "
                  "reference)"},
        // 'f2' starts at byte 19 -> column 20.
        ErrorCase{"V_ADD_VV gp1, gp2, f2, 0\n",
                  "k.asm:1:20: error: expected a gp register (gp0-gp15), got 'f2' (hint: 'f2' is an fp register; "
                  "operand 3 (rs2) of V_ADD_VV; syntax: V_ADD_VV rd, rs1, rs2, rmask)"},
        ErrorCase{"S_ADD_FP f1, gp2, f3\n",
                  "k.asm:1:14: error: expected an fp register (f0-f7), got 'gp2' (hint: 'gp2' is a gp register; "
                  "operand 2 (rs1) of S_ADD_FP; syntax: S_ADD_FP rd, rs1, rs2)"},
        ErrorCase{"S_ADD_INT gp16, gp1, gp2\n",
                  "k.asm:1:11: error: register number out of range: 'gp16' (gp registers are gp0-gp15) (hint: PLENA "
                  "has 16 gp registers; operand 1 (rd) of S_ADD_INT; syntax: S_ADD_INT rd, rs1, rs2)"},
        ErrorCase{"S_ADD_FP f8, f1, f2\n",
                  "k.asm:1:10: error: register number out of range: 'f8' (fp registers are f0-f7) (hint: PLENA has 8 "
                  "fp registers; operand 1 (rd) of S_ADD_FP; syntax: S_ADD_FP rd, rs1, rs2)"},
        ErrorCase{"S_ADD_INT GP1, gp1, gp2\n",
                  "k.asm:1:11: error: expected a gp register (gp0-gp15), got 'GP1' (hint: register names are lower "
                  "case: gp1; operand 1 (rd) of S_ADD_INT; syntax: S_ADD_INT rd, rs1, rs2)"},
        // A bare number is a register number (as the template compiler writes), 0..15 only.
        ErrorCase{"S_ADD_INT gp1, 16, gp2\n",
                  "k.asm:1:16: error: register number out of range: '16' (gp registers are gp0-gp15, or the numbers "
                  "0..15) (hint: operand 2 (rs1) of S_ADD_INT; syntax: S_ADD_INT rd, rs1, rs2)"},
        // 2^18 = 262144 is one past the imm18 range; 300000 >> 12 = 73, 300000 & 0xFFF = 992.
        ErrorCase{"S_ADDI_INT gp1, gp0, 300000\n",
                  "k.asm:1:22: error: immediate out of range: expected 0..262143 for imm of S_ADDI_INT, got "
                  "'300000' (hint: load larger constants in two steps: S_LUI_INT gpX, 73 then S_ADDI_INT gpX, gpX, "
                  "992 (S_LUI_INT + S_ADDI_INT), and S_ADD_INT to add it to a register)"},
        ErrorCase{"S_LUI_INT gp1, 0x400000\n",
                  "k.asm:1:16: error: immediate out of range: expected 0..4194303 for imm of S_LUI_INT, got "
                  "'0x400000' (hint: operand 2 (imm) of S_LUI_INT; syntax: S_LUI_INT rd, imm)"},
        ErrorCase{"S_LD_INT gp1, gp2, -1\n",
                  "k.asm:1:20: error: immediate out of range: expected 0..262143 for imm of S_LD_INT, got '-1' "
                  "(hint: immediates are unsigned; operand 3 (imm) of S_LD_INT; syntax: S_LD_INT rd, rs1, imm)"},
        ErrorCase{"S_ADDI_INT gp1, gp0, gp2\n",
                  "k.asm:1:22: error: expected an unsigned 18-bit immediate (0..262143), got 'gp2' (hint: 'gp2' is a "
                  "register, but this operand is a number written in the instruction; operand 3 (imm) of "
                  "S_ADDI_INT; syntax: S_ADDI_INT rd, rs1, imm)"},
        ErrorCase{"S_ADDI_INT gp1, gp0, 12abc\n",
                  "k.asm:1:22: error: expected an unsigned 18-bit immediate (0..262143), got '12abc' (hint: "
                  "immediates are decimal (123) or hex (0x7B); operand 3 (imm) of S_ADDI_INT; syntax: S_ADDI_INT "
                  "rd, rs1, imm)"},
        ErrorCase{"V_EXP_V gp1, gp2, 2\n",
                  "k.asm:1:19: error: expected a flag (0 or 1) for rmask of V_EXP_V, got '2' (hint: rmask is 0 or 1 "
                  "(1: only heads enabled in V_MASK))"},
        ErrorCase{"H_PREFETCH_V gp1, gp2, a0, 2, 0\n",
                  "k.asm:1:28: error: expected a flag (0 or 1) for rstride of H_PREFETCH_V, got '2' (hint: "
                  "rstride is 0 or 1 (1: rows are STRIDE elements apart; 0: rows are contiguous))"},
        ErrorCase{"H_STORE_V gp1, gp2, a0, 0, 16\n",
                  "k.asm:1:28: error: immediate out of range: expected 0..15 for precision of H_STORE_V, got '16' "
                  "(hint: operand 5 (precision) of H_STORE_V; syntax: H_STORE_V rd, rs1, rs2, rstride, precision[, 0])"},
        ErrorCase{"M_MM gp1, gp2, gp3\n",
                  "k.asm:1:6: error: expected the placeholder 0 (or gp0), got 'gp1' (hint: this operand position is "
                  "unused and must be 0; operand 1 of M_MM; syntax: M_MM 0, rs1, rs2)"},
        ErrorCase{"loop:\n",
                  "k.asm:1:1: error: labels are not supported: 'loop:' (hint: PLENA has no labels or branches; use "
                  "C_LOOP_START/C_LOOP_END)"},
        ErrorCase{"V_ADD_VV gp1, gp2, gp3\n",
                  "k.asm:1:1: error: too few operands: V_ADD_VV takes 4 operands, got 3 (hint: syntax: V_ADD_VV rd, "
                  "rs1, rs2, rmask)"},
        ErrorCase{"S_EXP_FP f1, f2, f3\n",
                  "k.asm:1:18: error: too many operands: S_EXP_FP takes 2 operands, got 3 (extra operand 'f3') "
                  "(hint: syntax: S_EXP_FP rd, rs1)"},
        ErrorCase{"V_RED_SUM f1\n",
                  "k.asm:1:1: error: too few operands: V_RED_SUM takes 2 to 3 operands, got 1 (hint: syntax: "
                  "V_RED_SUM rd, rs1[, rmask])"},
        ErrorCase{"V_PS_V gp1, gp2\n",
                  "k.asm:1:1: error: 'V_PS_V' is listed in the PLENA ISA but not implemented on this platform (hint: "
                  "see the PLENA ISA reference for the implemented instructions)"},
        ErrorCase{"C_HADAMARD_TRANSFORM gp1, gp2\n",
                  "k.asm:1:1: error: 'C_HADAMARD_TRANSFORM' is listed in the PLENA ISA but not implemented on this "
                  "platform (hint: see the PLENA ISA reference for the implemented instructions)"},
        ErrorCase{"M_MM 0, gp2 gp3\n",
                  "k.asm:1:13: error: unexpected 'gp3' after operand 'gp2' (hint: separate operands with commas; "
                  "comments start with ;)"},
        ErrorCase{"M_MM 0, gp2, gp3,\n",
                  "k.asm:1:17: error: trailing comma ',' after the last operand (hint: syntax: M_MM 0, rs1, rs2)"},
        ErrorCase{"M_MM 0,, gp3\n",
                  "k.asm:1:8: error: empty operand between commas (hint: syntax: M_MM 0, rs1, rs2)"},
        ErrorCase{"C_LOOP_START gp4, 0\nC_LOOP_END gp4\n",
                  "k.asm:1:19: error: immediate out of range: expected 1..4194303 for count of C_LOOP_START, got '0' "
                  "(hint: the body runs count times, so count must be at least 1; leave the loop out for zero "
                  "iterations)"},
        ErrorCase{"C_LOOP_END gp4\n",
                  "k.asm:1:12: error: C_LOOP_END gp4 has no open loop to close (hint: every C_LOOP_END closes the "
                  "innermost open loop; is a loop start missing or closed twice?)"},
        ErrorCase{"S_ADDI_INT gp1, gp0, 1\nC_LOOP_START gp4, 3\nS_ADDI_INT gp1, gp1, 1\n",
                  "k.asm:2:1: error: C_LOOP_START gp4 is never closed (hint: add C_LOOP_END gp4 after the loop body "
                  "(the file ends at line 3))"},
        ErrorCase{"C_LOOP_START gp0, 3\nC_LOOP_END gp0\n",
                  "k.asm:1:14: error: the loop counter of C_LOOP_START cannot be 'gp0' (it always reads 0) (hint: "
                  "use a free gp register as the counter, e.g. gp15)"},
        ErrorCase{"C_LOOP_START gp1, 2\nC_BREAK 1\n",
                  "k.asm:2:9: error: expected the placeholder 0 (or gp0), got '1' (hint: this operand position is "
                  "unused and must be 0; operand 1 of C_BREAK; syntax: C_BREAK [0, 0, 0])"}));

TEST(Assembler, MismatchedLoopEndNamesBothLines) {
  auto a = assemble_text(
      "C_LOOP_START gp4, 2\n"   // 1
      "C_LOOP_START gp5, 3\n"   // 2
      "M_MM 0, gp1, gp2\n"      // 3
      "C_LOOP_END gp4\n"        // 4: closes gp5's loop with the wrong counter
      "C_LOOP_END gp5\n");      // 5
  EXPECT_FALSE(a.ok);
  ASSERT_EQ(a.lines.size(), 4u);
  EXPECT_EQ(a.lines[0],
            "k.asm:4:12: error: C_LOOP_END gp4 does not match the innermost open loop, C_LOOP_START gp5 at line 2 "
            "(hint: close the innermost loop first: C_LOOP_END gp5)");
  EXPECT_EQ(a.lines[1], "k.asm:2:1: note: the innermost open loop (counter gp5) starts here");
  // The mismatched end popped gp5's loop; line 5 then closes gp4's loop with the wrong counter again.
  EXPECT_EQ(a.lines[2],
            "k.asm:5:12: error: C_LOOP_END gp5 does not match the innermost open loop, C_LOOP_START gp4 at line 1 "
            "(hint: close the innermost loop first: C_LOOP_END gp4)");
  EXPECT_EQ(a.lines[3], "k.asm:1:1: note: the innermost open loop (counter gp4) starts here");
}

TEST(Assembler, NestedLoopsNeedDistinctCounters) {
  auto a = assemble_text("C_LOOP_START gp4, 2\nC_LOOP_START gp4, 3\nC_LOOP_END gp4\nC_LOOP_END gp4\n");
  EXPECT_FALSE(a.ok);
  ASSERT_EQ(a.lines.size(), 2u);
  EXPECT_EQ(a.lines[0],
            "k.asm:2:14: error: 'gp4' is already the counter of an enclosing loop (C_LOOP_START at line 1) (hint: "
            "nested loops need different counter registers)");
  EXPECT_EQ(a.lines[1], "k.asm:1:1: note: the enclosing loop with counter gp4 starts here");
}

TEST(Assembler, WriteToZeroRegisterIsAWarning) {
  auto a = assemble_text("S_ADDI_INT gp0, gp0, 5\nS_ADD_FP f0, f1, f2\n");
  EXPECT_TRUE(a.ok);
  EXPECT_EQ(a.program.code.size(), 2u);
  ASSERT_EQ(a.lines.size(), 2u);
  EXPECT_EQ(a.diags[0].severity, Severity::Warning);
  EXPECT_EQ(a.lines[0],
            "k.asm:1:12: warning: S_ADDI_INT writes gp0, but writes to 'gp0' are dropped (hint: gp0 always reads "
            "zero; use another gp register)");
  EXPECT_EQ(a.lines[1],
            "k.asm:2:10: warning: S_ADD_FP writes f0, but writes to 'f0' are dropped (hint: f0 always reads zero; "
            "use another fp register)");
  EXPECT_EQ(error_count(a.diags), 0u);
}

TEST(Assembler, ReportsEveryErrorOfTheFile) {
  auto a = assemble_text(
      "S_ADDI_INT gp1, gp0, 64\n"      // 1 ok
      "M_MMM 0, gp1, gp2\n"            // 2 unknown mnemonic
      "V_ADD_VV gp1, gp2, f2, 0\n"     // 3 wrong class
      "S_ADDI_INT gp17, gp0, 1\n"      // 4 out of range register
      "back: S_ADDI_INT gp1, gp1, 1\n" // 5 label (the instruction after it is fine)
      "V_EXP_V gp1, gp1, 7\n"          // 6 flag
      "C_LOOP_END gp3\n");             // 7 no open loop
  EXPECT_FALSE(a.ok);
  EXPECT_TRUE(a.program.code.empty());
  ASSERT_EQ(a.diags.size(), 6u);
  const uint32_t lines[] = {2, 3, 4, 5, 6, 7};
  const uint32_t cols[] = {1, 20, 12, 1, 19, 12};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(a.diags[i].line, lines[i]) << a.lines[i];
    EXPECT_EQ(a.diags[i].col, cols[i]) << a.lines[i];
    EXPECT_EQ(a.diags[i].severity, Severity::Error);
  }
  EXPECT_EQ(a.diags[0].token, "M_MMM");
  EXPECT_EQ(a.diags[1].token, "f2");
  EXPECT_EQ(a.diags[2].token, "gp17");
  EXPECT_EQ(a.diags[3].token, "back:");
  EXPECT_EQ(a.diags[4].token, "7");
  EXPECT_EQ(error_count(a.diags), 6u);
}

TEST(Assembler, UnimplementedAllowedByOption) {
  AssembleOptions opt;
  opt.allow_unimplemented = true;
  auto a = assemble_text("V_TOPK gp1, gp2, 1\n", opt);
  ASSERT_TRUE(a.ok);
  EXPECT_EQ(a.program.code[0].opcode, 0x37u);
  EXPECT_EQ(a.program.code[0].field[kRs3], 1);
}

TEST(Assembler, CommentsAndWhitespace) {
  auto a = assemble_text(
      "# hash comment\n"
      "// slash comment\n"
      "   \t  \n"
      "C_BREAK 0, 0, 0 ; the template's form\n"
      "C_BREAK gp0\n"
      "\t S_ADDI_INT\tgp1 ,gp0,   0x1f // hex\n");
  ASSERT_TRUE(a.ok) << (a.lines.empty() ? "" : a.lines[0]);
  ASSERT_EQ(a.program.code.size(), 3u);
  EXPECT_EQ(a.program.code[2].field[kImm], 31);
  EXPECT_EQ(a.program.code[2].col, 3u);
  EXPECT_EQ(a.program.source_lines.size(), 6u);
}

TEST(Assembler, EmptySourceIsAnEmptyProgram) {
  auto a = assemble_text("");
  EXPECT_TRUE(a.ok);
  EXPECT_TRUE(a.program.code.empty());
  a = assemble_text("; nothing\n\n");
  EXPECT_TRUE(a.ok);
  EXPECT_TRUE(a.program.code.empty());
}

TEST(Assembler, BinaryGarbageIsReportedNotCrashed) {
  std::string junk = "M_MM 0, gp1, gp2\n";
  junk += std::string("\x01\xff\x80 ,,: \x7f", 9);
  junk += "\n";
  auto a = assemble_text(junk);
  EXPECT_FALSE(a.ok);
  EXPECT_GE(a.diags.size(), 1u);
  EXPECT_EQ(a.diags[0].line, 2u);
}

TEST(Assembler, TenThousandLines) {
  // 2,500 groups of 4 instructions = 10,000 lines.
  std::string src;
  for (int i = 0; i < 2500; ++i) {
    src += "S_ADDI_INT gp1, gp1, 64 ; step\n";
    src += "V_ADD_VV gp2, gp1, gp3, 0\n";
    src += "H_PREFETCH_V gp2, gp1, a0, 1, 0\n";
    src += "M_MM 0, gp4, gp2\n";
  }
  auto a = assemble_text(src);
  ASSERT_TRUE(a.ok);
  ASSERT_EQ(a.program.code.size(), 10000u);
  EXPECT_EQ(a.program.code.back().line, 10000u);
  EXPECT_EQ(count_instructions(plena(), a.program).by_class.at("M"), 2500u);
}

TEST(Assembler, NearestMnemonics) {
  // "S_ADDI" is 3+ edits from every mnemonic, but a prefix of S_ADDI_INT.
  EXPECT_EQ(nearest_mnemonics(plena(), "S_ADDI"), (std::vector<std::string>{"S_ADDI_INT"}));
  // V_ADD_W: one edit from V_ADD_VV (W -> VV is two: substitute + insert) and V_ADD_VF (two).
  EXPECT_EQ(nearest_mnemonics(plena(), "V_ADD_W"), (std::vector<std::string>{"V_ADD_VF", "V_ADD_VV"}));
  EXPECT_EQ(nearest_mnemonics(plena(), "h_prefetch_v", 1), (std::vector<std::string>{"H_PREFETCH_V"}));
  EXPECT_TRUE(nearest_mnemonics(plena(), "XYZZY").empty());
}

TEST(Diagnostic, FormatAppendsAnUnmentionedToken) {
  Diagnostic d;
  d.file = "a.asm";
  d.line = 3;
  d.col = 7;
  d.token = "gp9";
  d.message = "bad register";
  d.hint = "try gp1";
  EXPECT_EQ(d.format(), "a.asm:3:7: error: bad register 'gp9' (hint: try gp1)");
  d.message = "gp9 is bad";
  d.severity = Severity::Warning;
  d.hint.clear();
  EXPECT_EQ(d.format(), "a.asm:3:7: warning: gp9 is bad");
  d.message = "gp90 is bad";  // gp9 inside gp90 does not count as mentioned
  EXPECT_EQ(d.format(), "a.asm:3:7: warning: gp90 is bad 'gp9'");
}

// The template compiler's operand forms (AICrossSim/PLENA_Compiler asm_templates) assemble
// unmodified: bare register numbers, the 6th H_PREFETCH_V operand, 3-operand M_MV_WO.
TEST(Assembler, TemplateCompilerOperandForms) {
  auto a = assemble_text(
      "M_MM_WO 3, gp0, 0\nM_MV_WO gp5, gp0, 8\nM_MV_WO gp5, 8\nH_PREFETCH_V gp1, gp2, a0, 0, 0, 0\n"
      "M_MM 0, gp2, gp3\nC_SET_ADDR_REG 1, gp0, gp2\nM_BMM_WO gp4, 0\n");
  ASSERT_TRUE(a.ok) << (a.lines.empty() ? "" : a.lines[0]);
  const auto& c = a.program.code;
  ASSERT_EQ(c.size(), 7u);
  EXPECT_EQ(c[0].field[0], 3);  // rd = gp3
  EXPECT_EQ(c[1].field, c[2].field);  // the unused middle operand changes nothing
  EXPECT_EQ(c[5].field[0], 1);  // a1
  // A 6th operand other than 0 is an error, as is a 4th M_MV_WO operand.
  EXPECT_FALSE(assemble_text("H_PREFETCH_V gp1, gp2, a0, 0, 0, 1\n").ok);
  EXPECT_FALSE(assemble_text("M_MV_WO gp5, gp0, 8, 0\n").ok);
}

}  // namespace
}  // namespace tlmcraft::isa
