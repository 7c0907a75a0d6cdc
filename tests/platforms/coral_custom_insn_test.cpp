// Custom instructions on the Coral platform: an assembly kernel writes an overlay's
// mnemonics (rewritten to .insn before GNU as), the run computes and times them, faults
// name the mnemonic, the run reports their energy actions; without the overlay the same
// word is an illegal instruction.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "coral_test_util.h"
#include "perfetto_json.h"

namespace tlmcraft::coral {
namespace {

const std::string kExamples = std::string(TLMCRAFT_SOURCE_DIR) + "/examples/isa_ext/coral/";

CoralPlatform platform_with(const std::vector<std::string>& overlays) {
  CoralConfig cfg = load_coral_config("default");
  set_isa_extensions(cfg, overlays);
  return CoralPlatform(cfg);
}

// a0 = 7 * -3 + 100 = 79 through `cmac a0, a0, a1, a2` (rd = rs1), stored to DTCM.
const char* kMacKernel = R"(    .globl main
main:
    li a0, 7
    li a1, -3
    li a2, 100
    cmac a0, a0, a1, a2
    la t0, out
    sw a0, 0(t0)
    li a0, 0
    ret
    .data
out: .word 0
)";

TEST(CoralCustomInsn, AssemblyKernelWritesTheMnemonic) {
  CoralPlatform p = platform_with({kExamples + "mac.yaml"});
  const isa::Program prog = testing::build(p, kMacKernel);
  const RunResult r = testing::run(p, prog);
  ASSERT_EQ(r.stop, StopReason::Halted) << r.message;
  EXPECT_EQ(int32_t(testing::read_u32(p, testing::symbol(prog, "out"))), 79);
  // The same kernel without the cmac line: the difference is the custom instruction's own
  // actions, one int32 multiply and add, 12 register bytes read, 4 written.
  std::string without(kMacKernel);
  without.erase(without.find("    cmac"), std::string("    cmac a0, a0, a1, a2\n").size());
  CoralPlatform q = platform_with({kExamples + "mac.yaml"});
  const RunResult base = testing::run(q, testing::build(q, without));
  auto delta = [&](const char* a) {
    return (r.actions.count(a) ? r.actions.at(a) : 0) - (base.actions.count(a) ? base.actions.at(a) : 0);
  };
  EXPECT_EQ(delta("scalar.mul.int32"), 1u);
  EXPECT_EQ(delta("scalar.add.int32"), 1u);
  EXPECT_EQ(delta("xreg.read_bytes"), 12u);
  EXPECT_EQ(delta("xreg.write_bytes"), 4u);
  EXPECT_EQ(r.instructions_by_class.at("mul"), 1u);  // timed on the multiplier
}

TEST(CoralCustomInsn, TracesNameTheCustomMnemonic) {
  CoralPlatform p = platform_with({kExamples + "mac.yaml"});
  p.load(testing::build(p, kMacKernel));
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("coral_custom_trace_" + std::to_string(::getpid()) + ".json");
  TraceOptions t;
  t.perfetto_path = path.string();
  ASSERT_EQ(p.run({}, t).stop, StopReason::Halted);
  const auto trace = tlmcraft::testing::read_perfetto(t.perfetto_path);
  std::filesystem::remove(path);
  const bool named = std::any_of(trace.slices.begin(), trace.slices.end(),
                                 [](const tlmcraft::testing::PerfettoSlice& s) { return s.name == "cmac a0,a0,a1,a2"; });
  EXPECT_TRUE(named);
}

TEST(CoralCustomInsn, WithoutTheOverlayTheWordIsIllegal) {
  CoralPlatform p = testing::make_platform();
  // The same instruction as raw .insn (GNU as takes it without any overlay).
  std::string src = kMacKernel;
  src.replace(src.find("cmac a0, a0, a1, a2"), 19, ".insn r4 0x0b, 0, 0, a0, a0, a1, a2");
  const RunResult r = testing::run(p, testing::build(p, src));
  EXPECT_EQ(r.stop, StopReason::Fault);
  EXPECT_NE(r.message.find("illegal instruction"), std::string::npos) << r.message;
}

TEST(CoralCustomInsn, FaultsNameTheCustomMnemonic) {
  // cv.relu at LMUL 2 with an odd source register: illegal, and the message names it (main
  // follows crt0 at 0x84; cv.relu is its second instruction).
  CoralPlatform p = platform_with({kExamples + "vrelu.yaml"});
  const char* src = R"(    .globl main
main:
    vsetivli zero, 8, e16, m2, ta, ma
    cv.relu v2, v3
    ret
)";
  const RunResult r = testing::run(p, testing::build(p, src));
  EXPECT_EQ(r.stop, StopReason::Fault);
  EXPECT_EQ(r.message, "Fault at PC 0x00000088 (line 4: cv.relu v2, v3): illegal instruction 0x0201a10b (cv.relu): "
                       "register v3 is not aligned to LMUL 2")
      << r.message;
}

}  // namespace
}  // namespace tlmcraft::coral
