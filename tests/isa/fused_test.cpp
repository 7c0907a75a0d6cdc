// Fused instructions in the generic ISA schema (isa/fused.h): loading validates every
// step with file:line messages, and expansion substitutes the operand values.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/fused.h"
#include "isa/isa_spec.h"
#include "tests/isa/test_support.h"

namespace tlmcraft::isa {
namespace {

using test::line_count;
using test::plena_yaml;

// A fused V_SIGMOID_V appended to the PLENA ISA, with `steps` as its fused list.
std::string with_sigmoid(const std::string& steps) {
  return plena_yaml() +
         "\n  - mnemonic: V_SIGMOID_V\n    opcode: 0x38\n    class: V\n    unit: vector\n"
         "    latency_class: vector_exp\n    operands:\n"
         "      - {name: rd, kind: gp, field: rd}\n      - {name: rs1, kind: gp, field: rs1}\n"
         "      - {name: fone, kind: fp, field: rs2}\n      - {name: rmask, kind: flag, field: rs3}\n"
         "    doc: \"sigmoid\"\n    operation: \"1 / (1 + exp(-x))\"\n    fused:\n" +
         steps;
}

const char* kSigmoidSteps =
    "      - \"V_SUB_VF rd, rs1, f0, rmask, 1\"\n      - \"V_EXP_V rd, rd, rmask\"\n"
    "      - \"V_ADD_VF rd, rd, fone, rmask\"\n      - \"V_RECI_V rd, rd, rmask\"\n";

// The legacy form writes rd in place; loading gives its first three writes temporaries
// (_rd1, _rd2, _rd3, gp registers), so only the last step writes rd. The temporaries take
// the lowest gp registers no step names: gp1, gp2, gp5 (gp0 is zero; rd = gp3, rs1 = gp4).
TEST(Fused, ExpansionSubstitutesTheOperandValues) {
  const IsaSpec spec = IsaSpec::parse(with_sigmoid(kSigmoidSteps), "sig.yaml");
  const InstructionSpec& sig = *spec.find("V_SIGMOID_V");
  EXPECT_EQ(sig.compose.temps, (std::vector<std::string>{"_rd1", "_rd2", "_rd3"}));
  ASSERT_EQ(sig.compose.steps.size(), 4u);
  EXPECT_EQ(sig.compose.steps[0].text, "V_SUB_VF _rd1, rs1, f0, rmask, 1");
  EXPECT_EQ(sig.compose.steps[1].text, "V_EXP_V _rd2, _rd1, rmask");
  EXPECT_EQ(sig.compose.steps[3].text, "V_RECI_V rd, _rd3, rmask");
  Program prog;
  std::vector<Diagnostic> diags;
  ASSERT_TRUE(assemble(spec, "\n\nV_SIGMOID_V gp3, gp4, f2, 1\n", "k.asm", prog, diags));
  std::vector<int> regs;
  std::vector<Instruction> steps;
  std::string err;
  ASSERT_TRUE(choose_temp_registers(spec, prog.code[0], regs, err)) << err;
  EXPECT_EQ(regs, (std::vector<int>{1, 2, 5}));
  EXPECT_FALSE(expand_fused(spec, prog.code[0], steps, err));
  EXPECT_EQ(err, "V_SIGMOID_V needs temporaries (_rd1, _rd2, _rd3), which this platform gives no hidden storage");
  ASSERT_TRUE(expand_fused(spec, prog.code[0], regs, steps, err)) << err;
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(spec.instruction(steps[0]).mnemonic, "V_SUB_VF");
  EXPECT_EQ(steps[0].field[kRd], 1);      // _rd1
  EXPECT_EQ(steps[0].field[kRs1], 4);
  EXPECT_EQ(steps[0].field[kRs2], 0);     // the literal f0
  EXPECT_EQ(steps[0].field[kRs3], 1);     // rmask
  EXPECT_EQ(steps[0].field[kFunct1], 1);  // rorder literal
  EXPECT_EQ(spec.instruction(steps[2]).mnemonic, "V_ADD_VF");
  EXPECT_EQ(steps[2].field[kRs2], 2);  // fone = f2
  EXPECT_EQ(spec.instruction(steps[3]).mnemonic, "V_RECI_V");
  EXPECT_EQ(steps[3].field[kRd], 3);
  EXPECT_EQ(steps[3].field[kRs1], 5);  // _rd3
  for (const auto& s : steps) EXPECT_EQ(s.line, 3u);
}

TEST(Fused, LatencyClassCyclesAreReadAndChecked) {
  std::string y = plena_yaml();
  const std::string anchor = "  - {name: hbm, doc:";
  y.insert(y.find(anchor), "  - {name: vector_sigmoid, cycles: 3, doc: \"fused\"}\n");
  const IsaSpec spec = IsaSpec::parse(y, "c.yaml");
  EXPECT_EQ(spec.default_cycles("vector_sigmoid"), 3);
  EXPECT_EQ(spec.default_cycles("vector_exp"), -1);
  std::string bad = plena_yaml();
  bad.insert(bad.find(anchor), "  - {name: vector_sigmoid, cycles: -2, doc: \"fused\"}\n");
  const int line = line_count(bad.substr(0, bad.find("vector_sigmoid"))) + 1;
  try {
    IsaSpec::parse(bad, "c.yaml");
    FAIL() << "negative cycles accepted";
  } catch (const IsaSpecError& e) {
    EXPECT_NE(std::string(e.what()).find("c.yaml:" + std::to_string(line) + ":"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("latency class vector_sigmoid: cycles must be 0..1048576, got -2"),
              std::string::npos)
        << e.what();
  }
}

// Each bad step is reported at its own line and column (the quoted step starts at column
// 10; a name at its own column), naming the step and the cause.
TEST(Fused, BadStepsAreReportedWithFileLineColAndCause) {
  const struct {
    const char* steps;
    int col;
    const char* message;
  } cases[] = {
      {"      - \"V_FOO rd, rs1\"\n", 10, "step 1 ('V_FOO rd, rs1'): unknown instruction 'V_FOO'"},
      {"      - \"C_LOOP_START rd, 4\"\n", 10,
       "step 1 ('C_LOOP_START rd, 4'): C_LOOP_START is a loop instruction (not allowed in a composed instruction)"},
      {"      - \"V_EXP_V rd, rx, rmask\"\n", 22,
       "step 1 ('V_EXP_V rd, rx, rmask'): unknown operand or temporary 'rx' (known: rd, rs1, fone, rmask)"},
      {"      - \"V_TOPK rd, rs1, rmask\"\n", 10, "step 1 ('V_TOPK rd, rs1, rmask'): V_TOPK is not implemented"},
  };
  for (const auto& c : cases) {
    const std::string y = with_sigmoid(c.steps);
    const int line = line_count(y.substr(0, y.rfind("      - \""))) + 1;
    try {
      IsaSpec::parse(y, "bad.yaml");
      ADD_FAILURE() << "accepted: " << c.steps;
    } catch (const IsaSpecError& e) {
      EXPECT_EQ(std::string(e.what()), "bad.yaml:" + std::to_string(line) + ":" + std::to_string(c.col) +
                                           ": instruction V_SIGMOID_V: " + c.message);
    }
  }
}

TEST(Fused, AFusedStepCannotBeFusedItself) {
  std::string y = with_sigmoid(kSigmoidSteps);
  y += "\n  - mnemonic: V_TWICE\n    opcode: 0x39\n    class: V\n    unit: vector\n    latency_class: vector_exp\n"
       "    operands:\n      - {name: rd, kind: gp, field: rd}\n      - {name: rs1, kind: gp, field: rs1}\n"
       "      - {name: fone, kind: fp, field: rs2}\n    doc: \"x\"\n    operation: \"x\"\n    fused:\n"
       "      - \"V_SIGMOID_V rd, rs1, fone, 0\"\n";
  try {
    IsaSpec::parse(y, "t.yaml");
    FAIL() << "nested fusion accepted";
  } catch (const IsaSpecError& e) {
    EXPECT_NE(std::string(e.what()).find("V_SIGMOID_V is itself composed (steps must be ordinary instructions)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tlmcraft::isa
