// PLENA kernels use composed instructions automatically: the five-step SiLU of
// the shipped SiLU C1 kernel (platforms/plena/kernels/silu_c1.asm, written in
// place on gp5) becomes one V_SILU_V; the expected text is the kernel with
// those five lines replaced.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "platforms/plena/pack/agent/plena_use_composed.h"

namespace tlmcraft::agent::search::plena {
namespace {

const nlohmann::json kHardware = {{"platform", "plena"}, {"config", {{"arch", {{"vlen", 64}}}}}};

ComposedDefinition silu() {
  ComposedDefinition d;
  d.mnemonic = "V_SILU_V";
  d.operands = {{"rd", "gp"}, {"rs1", "gp"}, {"one", "fp"}};
  d.temps = {"t0", "t1", "t2", "t3"};
  d.steps = {"V_SUB_VF t0, rs1, f0, 0, 1", "V_EXP_V t1, t0, 0", "V_ADD_VF t2, t1, one, 0", "V_RECI_V t3, t2, 0",
             "V_MUL_VV rd, t3, rs1, 0"};
  return d;
}

TEST(PlenaUseComposed, PatternOfTheSteps) {
  const isa::dataflow::Pattern p = composed_pattern(silu(), kHardware);
  EXPECT_EQ(p.inputs, (std::vector<std::string>{"rs1", "one"}));
  EXPECT_EQ(p.outputs, (std::vector<std::string>{"rd"}));
  ASSERT_EQ(p.steps.size(), 5u);
  EXPECT_EQ(p.steps[0].operands[1].storage, "rs1");
  EXPECT_EQ(p.steps[0].operands[2].text, "f0");  // the zero register: a literal
}

TEST(PlenaUseComposed, SiluKernelGetsOneInstructionPerRow) {
  const std::string kernel = R"(S_ADDI_INT gp3, gp0, 0
S_LD_FP f1, gp0, 1
S_ADDI_INT gp5, gp0, 256
C_LOOP_START gp6, 4
  V_SUB_VF gp5, gp3, f0, 0, 1
  V_EXP_V gp5, gp5, 0
  V_ADD_VF gp5, gp5, f1, 0
  V_RECI_V gp5, gp5, 0
  V_MUL_VV gp5, gp5, gp3, 0
  S_ADDI_INT gp3, gp3, 64
  S_ADDI_INT gp5, gp5, 64
C_LOOP_END gp6
S_ADDI_INT gp5, gp0, 256
H_STORE_V gp5, gp0, a1, 0, 2
)";
  const UseReport r = use_composed(kernel, {silu()}, kHardware);
  ASSERT_EQ(r.uses.size(), 1u);
  EXPECT_EQ(r.uses[0].second,
            1);  // one static instruction (run 4 times by the loop)
  EXPECT_NE(r.kernel.find("  V_SILU_V gp5, gp3, f1\n"), std::string::npos) << r.kernel;
  EXPECT_EQ(r.kernel.find("V_EXP_V"), std::string::npos) << r.kernel;
}

TEST(PlenaUseComposed, TemporaryReadLaterBlocksTheRewrite) {
  // The steps' temporaries live in row 512 (gp7), which the store reads
  // afterwards: the sigmoid left there is still needed, so nothing is replaced.
  const std::string kernel = R"(S_ADDI_INT gp3, gp0, 0
S_ADDI_INT gp5, gp0, 256
S_ADDI_INT gp7, gp0, 512
V_SUB_VF gp7, gp3, f0, 0, 1
V_EXP_V gp7, gp7, 0
V_ADD_VF gp7, gp7, f1, 0
V_RECI_V gp7, gp7, 0
V_MUL_VV gp5, gp7, gp3, 0
H_STORE_V gp7, gp0, a1, 0, 2
)";
  const UseReport r = use_composed(kernel, {silu()}, kHardware);
  EXPECT_TRUE(r.uses.empty());
  EXPECT_EQ(r.kernel, kernel);
}

}  // namespace
}  // namespace tlmcraft::agent::search::plena
