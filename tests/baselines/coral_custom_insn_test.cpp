// Coral custom instructions on the suite (issue 20, "Must show"): an ISA overlay alone
// (no rebuild) gives (1) the unmodified dotprod C baseline a composed multiply-accumulate
// through the toolchain's peephole pass, and (2) a C ReLU kernel a vector custom-0
// instruction through the generated header. Both pass evaluate() on fresh seeds; the cycle
// changes are derived below from the timing model's rules (docs/platforms/coral.md).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "platforms/registry.h"

namespace tlmcraft {
namespace {

namespace fs = std::filesystem;

const std::string kExamples = std::string(TLMCRAFT_SOURCE_DIR) + "/examples/isa_ext/coral/";

// A Coral platform whose config picks up `overlay` (TLMCRAFT_ISA_EXT; "" = none).
std::unique_ptr<Platform> coral_with(const std::string& overlay) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  if (overlay.empty()) unsetenv("TLMCRAFT_ISA_EXT");
  else setenv("TLMCRAFT_ISA_EXT", overlay.c_str(), 1);
  auto p = make_platform("coral");
  unsetenv("TLMCRAFT_ISA_EXT");
  return p;
}

nlohmann::json eval(Platform& p, const std::string& task, const std::string& config, const std::string& kernel = "") {
  EvalOptions o;
  o.limits.wall_seconds = 0;  // no host-time limit: the instruction and cycle limits bound the run
  o.platform = "coral";
  o.task = task;
  o.config = config;
  o.use_baseline = kernel.empty();
  if (!kernel.empty()) {  // a C kernel: the file name's extension picks the compiler
    o.kernel_path = (fs::path(::testing::TempDir()) / ("custom_kernel_" + std::to_string(getpid()) + ".c")).string();
    std::ofstream(o.kernel_path) << kernel;
  }
  o.trials = 3;
  o.seed = 20261128;  // fresh inputs: not the golden tests' seed 1
  o.compare_baseline = false;
  return evaluate(p, o);
}

std::string diagnostics(const nlohmann::json& r) {
  return r.value("reason", std::string()) + (r.contains("assemble") ? r["assemble"].dump() : "");
}

TEST(CoralCustomInsn, PeepholeGivesTheDotprodBaselineAComposedMac) {
  const auto plain = coral_with("");
  const auto mac = coral_with(kExamples + "mac.yaml");
  const auto base = eval(*plain, "dotprod", "C1");
  const auto fused = eval(*mac, "dotprod", "C1");
  ASSERT_EQ(base.at("status"), "pass") << diagnostics(base);
  ASSERT_EQ(fused.at("status"), "pass") << diagnostics(fused);
  // clang's loop (DIM_N = 256 iterations): lw a4; lw a5; mul a4,a5,a4; add a0,a4,a0;
  // addi x3; bnez. The peephole turns mul+add into cmac a0,a5,a4,a0 (the add commuted, a4
  // dead: reloaded next iteration): one instruction fewer per iteration.
  EXPECT_EQ(base.at("instructions").get<int64_t>() - fused.at("instructions").get<int64_t>(), 256);
  // Baseline period, 61 cycles: the two external loads take the LSU back to back, 28 cycles
  // each (1 + AXI read latency 24 + load tail 3) = 56; the add and the three addis dispatch
  // when the product is ready (mul latency 2) = 58, bnez after addi a1 = 59. The fetch unit
  // requests the loop's first line again only once the add has dispatched (its 8-entry
  // buffer holds the waiting add, addis and bnez: no room for a line) = 59, and the line
  // arrives a fetch interval (2) later = 61 (the RTL runs this baseline in 15641 cycles).
  // With cmac (mul unit: it waits for its operands in the unit, not at dispatch), the
  // addis and bnez dispatch right behind it and the next iteration's loads wait only for
  // the LSU: the period is the LSU's 56 cycles.
  // Both start their first loads at cycle 6 (main's first line arrives the cycle after the
  // call). The end, from the last iteration's start L: base: the fallen-through bnez at
  // L+59 (mispredict 4) brings lui at L+63 and sw at L+65, which takes the LSU for 15
  // cycles: mpause at L+80, cycles L+81; cmac: a0 ready at L+58, sw at L+59 (+1 operand
  // read), mpause at L+74, cycles L+75. Difference: 255 x (61 - 56) + (81 - 75) = 1281.
  EXPECT_EQ(base.at("cycles").get<int64_t>() - fused.at("cycles").get<int64_t>(), 255 * 5 + 6);
  EXPECT_EQ(base.at("cycles").get<int64_t>(), 6 + 255 * 61 + 81);
  EXPECT_EQ(fused.at("cycles").get<int64_t>(), 6 + 255 * 56 + 75);
}

// cmac again, but with new semantics (`rd = rs1 * rs2 + rs3`) and `replaces:` the mul+add
// composition: the peephole places it in the unmodified dotprod baseline wherever that
// composition matches, and it executes by its semantics. Same unit and latency as cmac, so
// the same schedule as derived above: 14361 cycles.
TEST(CoralCustomInsn, SemanticsWithReplacesReachesTheUnmodifiedBaseline) {
  const fs::path path = fs::path(::testing::TempDir()) / ("cmacs_" + std::to_string(getpid()) + ".yaml");
  std::ofstream(path) << R"(isa: riscv
instructions:
  - mnemonic: cmacs
    encoding: {opcode: custom-0, format: r4, funct3: 0, funct2: 0}
    operands:
      - {name: rd,  field: rd,  role: write, value: x}
      - {name: rs1, field: rs1, role: read,  value: x}
      - {name: rs2, field: rs2, role: read,  value: x}
      - {name: rs3, field: rs3, role: read,  value: x}
    semantics: |
      rd = rs1 * rs2 + rs3
    replaces:
      temps: [t0]
      steps: ["mul t0, rs1, rs2", "add rd, t0, rs3"]
    timing: {unit: mul, latency: 2, ii: 1}
)";
  const auto p = coral_with(path.string());
  const auto r = eval(*p, "dotprod", "C1");
  ASSERT_EQ(r.at("status"), "pass") << diagnostics(r);
  EXPECT_EQ(r.at("cycles").get<int64_t>(), 6 + 255 * 56 + 75);
  // Its actions are the semantics' operation counts: one 32-bit multiply and add per
  // execution (256), and the mul of the baseline is gone.
  EXPECT_EQ(r["actions"].value("scalar.mul.int32", int64_t(-1)), 256);
}

// The suite's ReLU with its vmax.vx written as the custom cv.relu, called from C through
// the generated header (the toolchain puts the header's wrappers before the kernel).
const char* kReluKernel = R"(/* ReLU: y = max(x, 0) on int8 through the custom cv.relu. */
#include <riscv_vector.h>
#include <stdint.h>

int main(void) {
  const int8_t* x = (const int8_t*)X_ADDR;
  int8_t* y = (int8_t*)Y_ADDR;
  for (size_t i = 0; i < DIM_N;) {
    size_t vl = __riscv_vsetvl_e8m4(DIM_N - i);
    vint8m4_t v = __riscv_vle8_v_i8m4(x + i, vl);
    __riscv_vse8_v_i8m4(y + i, cv_relu_i8m4(v, vl), vl);
    i += vl;
  }
  return 0;
}
)";

// vrelu.yaml with the given latency, written next to the test's temporary files.
std::string relu_overlay(int latency) {
  std::ifstream in(kExamples + "vrelu.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string from = "latency: 1}";
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos);
  text.replace(at, from.size(), "latency: " + std::to_string(latency) + "}");
  const fs::path path = fs::path(::testing::TempDir()) / ("vrelu_" + std::to_string(getpid()) + "_" + std::to_string(latency) + ".yaml");
  std::ofstream(path) << text;
  return path.string();
}

TEST(CoralCustomInsn, VectorCustom0FromCThroughTheGeneratedHeader) {
  const auto plain = coral_with("");
  const auto base = eval(*plain, "relu", "C1");
  ASSERT_EQ(base.at("status"), "pass") << diagnostics(base);
  for (int latency : {1, 2, 5}) {
    const auto p = coral_with(relu_overlay(latency));
    const auto r = eval(*p, "relu", "C1", kReluKernel);
    ASSERT_EQ(r.at("status"), "pass") << latency << ": " << diagnostics(r);
    // ReLU C1 is 512 int8 elements: 8 iterations of 64 (e8, m4, VLEN 128). Each iteration
    // is a chain through the single LSU slot: vle -> relu -> vse, and the next vle queues
    // behind that vse, so the relu's latency is paid once per iteration. The baseline's
    // vmax.vx takes the vector ALU latency (2); cv.relu runs on the same unit with its own
    // latency, so the change is 8 x (latency - 2): -8, 0 and +24 cycles. (The wrapper's
    // vsetvli is scalar dispatch work hidden behind the vector chain.)
    EXPECT_EQ(r.at("cycles").get<int64_t>() - base.at("cycles").get<int64_t>(), 8 * (latency - 2)) << latency;
    // cv.relu is composed (vmax.vx vd, vs1, zero): the unmodified baseline gets it through
    // the peephole and takes exactly as long as the kernel calling it by hand.
    const auto peep = eval(*p, "relu", "C1");
    ASSERT_EQ(peep.at("status"), "pass") << latency << ": " << diagnostics(peep);
    EXPECT_EQ(peep.at("cycles"), r.at("cycles")) << latency;
  }
}

// The same instruction given by `semantics:` (vd = relu(vs1), the shared evaluator) is a
// new-semantics instruction on the suite: the ReLU kernel through the header passes with the
// composed form's cycles (same unit and latency 1: the baseline's cycles - 8). The peephole
// does not apply (there is no composition to match), so the unmodified baseline keeps
// vmax.vx and its own cycles.
TEST(CoralCustomInsn, NewSemanticsVectorInstructionFromC) {
  const auto plain = coral_with("");
  const auto base = eval(*plain, "relu", "C1");
  const auto p = coral_with(kExamples + "vrelu_semantics.yaml");
  const auto r = eval(*p, "relu", "C1", kReluKernel);
  ASSERT_EQ(r.at("status"), "pass") << diagnostics(r);
  EXPECT_EQ(r.at("cycles").get<int64_t>(), base.at("cycles").get<int64_t>() - 8);
  // Energy actions: one int8 compare per element (relu) over 512 elements; the v register
  // file (priced with the standard instructions' traffic): cv.relu reads 512 bytes and
  // writes 512, the vle8.v loads write 512 and the vse8.v stores read 512.
  EXPECT_EQ(r.at("actions").at("vector.cmp.int8"), 512);
  EXPECT_EQ(r.at("actions").at("vreg.read_bytes"), 512 + 512);
  EXPECT_EQ(r.at("actions").at("vreg.write_bytes"), 512 + 512);
  const auto unchanged = eval(*p, "relu", "C1");
  ASSERT_EQ(unchanged.at("status"), "pass") << diagnostics(unchanged);
  EXPECT_EQ(unchanged.at("cycles"), base.at("cycles"));
}

TEST(CoralCustomInsn, ABadOverlayIsAnInputErrorNamingItsLine) {
  const fs::path path = fs::path(::testing::TempDir()) / ("bad_ext_" + std::to_string(getpid()) + ".yaml");
  std::ofstream(path) << "isa: riscv\ninstructions:\n  - mnemonic: x\n    encoding: {opcode: custom-4, format: r, funct3: 0, funct7: 0}\n";
  try {
    coral_with(path.string());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ":4:24: unknown opcode 'custom-4' (custom-0..3, or 0x0b, 0x2b, 0x5b, 0x7b)\n" + path.string() +
                                         ":3:5: missing `operands:`");
  }
  unsetenv("TLMCRAFT_ISA_EXT");
}

}  // namespace
}  // namespace tlmcraft
