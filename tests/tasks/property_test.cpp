// Anti-hacking properties, for every task, platform and configuration: the reference
// output passes its own check; writing zeros, the constant 1.0 or a copy of the first
// input fails; inputs depend on the seed; the outputs are not mostly near zero.
// Large configurations of level 2/3 are skipped to keep the suite fast (their small
// configurations exercise the same code); PLENA level 1 runs all five.
#include <gtest/gtest.h>

#include <cmath>

#include "tasks/registry.h"

namespace tlmcraft::tasks {
namespace {

// Multiply-accumulates of the reference, roughly; above this the config is skipped.
bool affordable(const Instance& in) {
  if (in.task().level == 1) return true;
  return in.config().name == "C1" || in.config().name == "C2";
}

TensorSet fake(const TensorSet& want, const TensorSet& inputs, int kind) {
  TensorSet got = want;
  for (Tensor& t : got)
    for (size_t i = 0; i < t.size(); ++i) {
      if (kind == 0) t.data[i] = 0.0;
      else if (kind == 1) t.data[i] = 1.0;
      else t.data[i] = inputs[0].data[i % inputs[0].size()];
    }
  return got;
}

TEST(AntiHacking, EveryTaskPlatformConfig) {
  const Registry& reg = Registry::builtin();
  int checked = 0;
  for (const auto& task : reg.tasks())
    for (PlatformId p : all_platforms()) {
      if (!task.supports(p)) continue;
      for (const auto& cfg : task.platform(p).configs) {
        const Instance in(task, p, cfg);
        if (!affordable(in)) continue;
        SCOPED_TRACE(task.name + " " + platform_name(p) + " " + cfg.name);
        const TensorSet inputs = in.generate_inputs(7);
        const TensorSet want = in.reference_outputs(inputs);
        for (const Tensor& t : want)
          for (double v : t.data) ASSERT_TRUE(std::isfinite(v)) << t.name;
        EXPECT_TRUE(in.check(want, {}, want).passed());
        const char* names[] = {"zeros", "ones", "copy of the first input"};
        for (int kind = 0; kind < 3; ++kind)
          EXPECT_FALSE(in.check(fake(want, inputs, kind), {}, want).passed()) << names[kind];
        ++checked;
      }
    }
  // 100 PLENA + 110 AIE-ML + 75 Coral cells, minus the skipped large level-2/3 ones.
  EXPECT_GT(checked, 150);
}

TEST(AntiHacking, OutputsAreMostlyAwayFromZeroOnElementwiseAndMatmulTasks) {
  // At least 80% of the output elements exceed the PLENA absolute tolerance, so that
  // writing zeros cannot come close to passing. (Softmax is excluded: most entries of
  // a softmax over thousands of values are necessarily tiny; its peaks still fail zeros.)
  const Registry& reg = Registry::builtin();
  for (const char* name : {"silu", "gelu", "layernorm", "rmsnorm", "gemv", "gemm", "linear", "rope", "ffn", "swiglu",
                           "scaled_dot_product", "mha", "gqa", "mqa", "llama_decoder", "t5_decoder"}) {
    const Instance in = reg.instance(name, PlatformId("plena"), "C1");
    const TensorSet want = in.reference_outputs(in.generate_inputs(3));
    size_t big = 0, n = 0;
    for (const Tensor& t : want)
      for (double v : t.data) {
        big += std::fabs(v) > 0.012;
        ++n;
      }
    EXPECT_GT(double(big) / double(n), 0.8) << name;
  }
}

TEST(AntiHacking, DifferentSeedsGiveDifferentInputsAndOutputs) {
  const Registry& reg = Registry::builtin();
  for (const auto& task : reg.tasks())
    for (PlatformId p : all_platforms()) {
      if (!task.supports(p)) continue;
      const Instance in(task, p, task.platform(p).configs[0]);
      const TensorSet a = in.generate_inputs(1), b = in.generate_inputs(2), a2 = in.generate_inputs(1);
      EXPECT_EQ(a[0].data, a2[0].data) << task.name;
      EXPECT_NE(a[0].data, b[0].data) << task.name;
      const TensorSet wa = in.reference_outputs(a), wb = in.reference_outputs(b);
      EXPECT_FALSE(in.check(wa, {}, wb).passed()) << task.name << " " << platform_name(p)
                                                  << ": outputs of seed 1 pass for seed 2";
    }
}

}  // namespace
}  // namespace tlmcraft::tasks
