// Issue 22 item 5, the input-range cheat: a PLENA softmax that subtracts the constant 12
// (or nothing) instead of the row maximum passed every trial while the generator kept the
// peaks in [10, 14]. With the range schedule (docs/tasks.md, "Input ranges") every
// evaluation of the default trial count meets an adversarial range, where exp(x - 12)
// overflows (large_max) or underflows to zero (negative_max), and fails. And every shipped
// baseline passes every adversarial range of its task on every platform at C1.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft {
namespace {

std::string replace_line(std::string text, const std::string& line, const std::string& with) {
  const size_t at = text.find(line);
  EXPECT_NE(at, std::string::npos) << line;
  if (at != std::string::npos) text.replace(at, line.size(), with);
  return text;
}

// The PLENA softmax baseline with its running maximum replaced: f2 = 12 (built as
// ((1 + 1) + 1) * 2 * 2 from FP_MEM[1] = 1.0), or f2 = 0 (no max subtraction); the
// V_RED_MAX of the max loop becomes f2 = f2 + 0.
std::string cheat_kernel(bool constant_twelve) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const auto platform = make_platform("plena");
  const tasks::Instance inst = tasks::Registry::builtin().instance("softmax", "plena", "C1");
  std::string k = tasks::baseline_kernel(inst, platform->config());
  const std::string twelve = constant_twelve ? "S_ADD_FP f2, f1, f1\nS_ADD_FP f2, f2, f1\nS_ADD_FP f2, f2, f2\nS_ADD_FP f2, f2, f2"
                                             : "S_ADD_FP f2, f0, f0";
  k = replace_line(k, "V_RED_SUM f2, gp4, 0", twelve);
  return replace_line(k, "V_RED_MAX f2, gp3, 0", "S_ADD_FP f2, f2, f0");
}

nlohmann::json evaluate_softmax(const std::string& kernel, uint64_t seed, int trials) {
  const auto platform = make_platform("plena");
  EvalOptions o;
  o.limits.wall_seconds = 0;  // no host-time limit: the instruction and cycle limits bound the run
  o.task = "softmax";
  o.config = "C1";
  o.kernel_source = kernel;
  o.seed = seed;
  o.trials = trials;
  o.compare_baseline = false;
  return evaluate(*platform, o);
}

TEST(InputRangeCheat, ConstantMaxPassesOrdinaryInputsOnly) {
  for (bool twelve : {true, false}) {
    const std::string k = cheat_kernel(twelve);
    // the hole: the ordinary range alone (one trial) lets the cheat through
    for (uint64_t seed = 1; seed <= 5; ++seed)
      EXPECT_EQ(evaluate_softmax(k, seed, 1).at("status"), "pass") << "twelve " << twelve << " seed " << seed;
    // the fix: every evaluation of the default trial count fails, on an adversarial trial
    const int trials = EvalOptions{}.trials;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      const nlohmann::json r = evaluate_softmax(k, seed, trials);
      EXPECT_EQ(r.at("status"), "fail") << "twelve " << twelve << " seed " << seed << ": " << r.value("reason", "");
      const nlohmann::json& last = r.at("trials").back();
      EXPECT_NE(last.at("range"), "ordinary") << "seed " << seed;
      EXPECT_NE(r.value("reason", "").find("(input range " + last.at("range").get<std::string>() + ")"),
                std::string::npos);
    }
  }
}

// The AIE-ML softmax baseline with its running maximum seeded with 12 (bf16 0x4140 =
// 16704 instead of -inf, 65408) or 0, and never raised (VMAX x5 with itself). The issue found
// it passing C1 and C4. Its exp2 wraps the exponent instead of saturating, so the AIE-ML
// ranges straddle a wrap boundary (tasks/specs/softmax.yaml).
TEST(InputRangeCheat, ConstantMaxFailsOnAieMlC1AndC4) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const auto platform = make_platform("aie_ml");
  for (const char* config : {"C1", "C4"})
  for (const char* seed_max : {"MOVXM r4, 16704", "MOVXM r4, 0"}) {  // 12, or 0: no maximum
    const tasks::Instance inst = tasks::Registry::builtin().instance("softmax", "aie_ml", config);
    std::string k = tasks::baseline_kernel(inst, platform->config());
    k = replace_line(k, "MOVXM r4, 65408", seed_max);
    k = replace_line(k, "VMAX.BF16 x5, x5, x0", "VMAX.BF16 x5, x5, x5");
    EvalOptions o;
    o.limits.wall_seconds = 0;  // no host-time limit: the instruction and cycle limits bound the run
    o.task = "softmax";
    o.config = config;
    o.kernel_source = k;
    o.compare_baseline = false;
    o.trials = 1;
    o.seed = 1;
    EXPECT_EQ(evaluate(*platform, o).at("status"), "pass") << config << " " << seed_max;  // ordinary inputs: the hole
    o.trials = EvalOptions{}.trials;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      o.seed = seed;
      const nlohmann::json r = evaluate(*platform, o);
      EXPECT_EQ(r.at("status"), "fail") << config << " " << seed_max << " seed " << seed << ": " << r.value("reason", "");
    }
  }
}

// Coral's integer softmax with the maximum replaced by the int8 ceiling 127: the ordinary
// range (peaks in [100, 127]) lets it through; negative_max (every index 127 - x_i >= 187,
// where exp_q15 is 0) and small_max (indices near 127: the rounded table entries no
// longer scale alike) do not.
TEST(InputRangeCheat, ConstantMaxFailsOnCoralC1) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const auto platform = make_platform("coral");
  const tasks::Instance inst = tasks::Registry::builtin().instance("softmax", "coral", "C1");
  const std::string k = replace_line(tasks::baseline_kernel(inst, platform->config()),
                                     "const int32_t m = first_i8(mx);", "const int32_t m = 127; (void)mx;");
  // a C kernel goes in as a file: the extension tells the toolchain the language
  const std::string path =
      (std::filesystem::temp_directory_path() / ("tlm_cheat_" + std::to_string(::getpid()) + ".c")).string();
  std::ofstream(path) << k;
  EvalOptions o;
  o.limits.wall_seconds = 0;  // no host-time limit: the instruction and cycle limits bound the run
  o.task = "softmax";
  o.config = "C1";
  o.kernel_path = path;
  o.compare_baseline = false;
  o.trials = 1;
  o.seed = 1;
  const nlohmann::json first = evaluate(*platform, o);
  EXPECT_EQ(first.at("status"), "pass") << first.value("reason", "");  // ordinary inputs: the hole
  o.trials = EvalOptions{}.trials;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    o.seed = seed;
    const nlohmann::json r = evaluate(*platform, o);
    EXPECT_EQ(r.at("status"), "fail") << "seed " << seed << ": " << r.value("reason", "");
  }
  std::filesystem::remove(path);
}

// Trials = ranges + 1 from seed 1: consecutive seeds give trials 1..count every range.
TEST(InputRangeBaselines, EveryBaselinePassesEveryAdversarialRangeAtC1) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const tasks::Registry& reg = tasks::Registry::builtin();
  int cells = 0;
  for (const tasks::TaskSpec& task : reg.tasks())
    for (const char* p : {"plena", "aie_ml", "coral"}) {
      const tasks::PlatformId pid = *tasks::parse_platform(p);
      if (!task.supports(pid)) continue;
      const tasks::Instance inst = reg.instance(task.name, p, "C1");
      if (inst.input_ranges().empty() || !tasks::has_baseline(inst)) continue;
      const auto platform = make_platform(p);
      EvalOptions o;
      o.limits.wall_seconds = 0;  // no host-time limit: the instruction and cycle limits bound the run
      o.task = task.name;
      o.config = "C1";
      o.use_baseline = true;
      o.seed = 1;
      o.trials = int(inst.input_ranges().size()) + 1;
      o.compare_baseline = false;
      const nlohmann::json r = evaluate(*platform, o);
      EXPECT_EQ(r.at("status"), "pass") << task.name << " on " << p << ": " << r.value("reason", "");
      ++cells;
    }
  // softmax, layernorm, rmsnorm, gemm, scaled_dot_product and flash_attention on 3 platforms;
  // conv2d, depthwise_conv and conv_block on PLENA and AIE-ML (Coral's int8 convolutions have
  // no range yet: docs/tasks.md, "Input ranges"); mha, gqa, mqa, rope, llama_decoder and
  // t5_decoder on Coral
  EXPECT_EQ(cells, 30);
}

}  // namespace
}  // namespace tlmcraft
