// The PLENA FlashAttention template: a real online softmax (at least two KV blocks at
// every configuration, running max per row in FP_MEM, the running sum and the
// accumulator rescaled per block), the KV block size as a parameter, and the check
// against the task's reference (softmax computed exactly from the BF16 scores, so the
// per-block offsets of an online softmax are not penalised; docs/tasks.md).
#include <cstdlib>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "platforms/registry.h"
#include "platforms/plena/pack/baselines/flash_attention.h"
#include "tasks/registry.h"

namespace tlmcraft {
namespace {

namespace bp = tlmcraft::tasks::plena;

nlohmann::json run_kernel(const std::string& config, const std::string& kernel, uint64_t seed,
                          const std::string& mode = "serial") {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  auto platform = make_platform("plena", "default", {"timing.mode=" + mode});
  EvalOptions o;
  o.limits.wall_seconds = 0;  // no host-time limit: the instruction and cycle limits bound the run
  o.task = "flash_attention";
  o.config = config;
  o.kernel_source = kernel;
  o.trials = 1;
  o.seed = seed;
  o.compare_baseline = false;
  return evaluate(*platform, o);
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

tasks::Instance instance(const std::string& config) {
  return tasks::Registry::builtin().instance("flash_attention", "plena", config);
}

TEST(FlashAttentionBaseline, DefaultBlockGivesTwoKvBlocksAtEveryConfig) {
  // s = 32, 64, 64, 128, 128 -> block min(64, s/2) = 16, 32, 32, 64, 64 -> two blocks each.
  const std::map<std::string, uint32_t> block{{"C1", 16}, {"C2", 32}, {"C3", 32}, {"C4", 64}, {"C5", 64}};
  for (const auto& [config, b] : block) {
    const auto inst = instance(config);
    EXPECT_EQ(bp::default_kv_block(uint32_t(inst.params().at("s")), {}), b) << config;
    const std::string k = bp::plena_flash_attention(inst, {});
    // One online-softmax stage and one S = Q K_b^T per block; the running sum and the
    // accumulator are rescaled by every block after the first (the last one also divides
    // by l as it forms O).
    EXPECT_EQ(count(k, "online softmax over a block"), 2u) << config;
    EXPECT_EQ(count(k, ": S = Q K_b^T"), 2u) << config;
    EXPECT_EQ(count(k, "stage: KV block 1: l = sum E + alpha l"), 1u) << config;
    EXPECT_EQ(count(k, "stage: KV block 1: O = P V_b + diag(alpha / l) O"), 1u) << config;
    EXPECT_NE(k.find("alpha = exp(m - m')"), std::string::npos);
    EXPECT_NE(k.find("S_ST_FP f5, gp3, 256"), std::string::npos) << "running max stored per row";
  }
}

TEST(FlashAttentionBaseline, KvBlockIsAParameter) {
  const auto inst = instance("C4");  // s = 128
  const std::string k16 = bp::plena_flash_attention(inst, {}, 16);
  EXPECT_EQ(count(k16, "online softmax over a block of 16 keys"), 8u);  // 128 / 16
  EXPECT_EQ(count(k16, ": l = sum E + alpha l"), 7u);                    // blocks 1..7
  EXPECT_EQ(count(k16, ": O = E V_b + diag(alpha) O"), 6u);              // blocks 1..6
  EXPECT_EQ(count(k16, ": O = P V_b + diag(alpha / l) O"), 1u);          // block 7
  // Eight blocks (seven rescales of the accumulator) still pass.
  const auto r = run_kernel("C4", k16, 1);
  EXPECT_EQ(r.at("status"), "pass") << r.dump().substr(0, 1500);
  // One block of all 64 keys at C2 (s = 64): no rescale, O = (E / l) V directly.
  const std::string k64 = bp::plena_flash_attention(instance("C2"), {}, 64);
  EXPECT_EQ(count(k64, "online softmax over a block of 64 keys"), 1u);
  EXPECT_EQ(count(k64, "diag(alpha"), 0u);
  EXPECT_EQ(run_kernel("C2", k64, 1).at("status"), "pass");
}

TEST(FlashAttentionBaseline, BadKvBlocksAreRejected) {
  const auto inst = instance("C2");  // s = 64
  for (uint32_t b : {8u, 24u, 128u, 48u}) {
    try {
      bp::plena_flash_attention(inst, {}, b);
      ADD_FAILURE() << "block " << b << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("KV block (" + std::to_string(b) + ")"), std::string::npos) << e.what();
    }
  }
}

// Every configuration passes (seeds 1 and 2 serial, seed 1 pipelined: same numerics),
// and C1's serial cycles are pinned: a regression value recorded from a run, not a hand
// derivation.
TEST(FlashAttentionBaseline, PassesEveryConfigAndC1CyclesArePinned) {
  for (const char* config : {"C1", "C2", "C3", "C4", "C5"}) {
    const std::string kernel = bp::plena_flash_attention(instance(config), {});
    for (uint64_t seed : {1u, 2u}) {
      const auto r = run_kernel(config, kernel, seed);
      EXPECT_EQ(r.at("status"), "pass") << config << " seed " << seed << ": " << r.dump().substr(0, 1500);
      if (std::string(config) == "C1" && seed == 1) {
        EXPECT_EQ(r.at("cycles").get<uint64_t>(), 13345u);
      }
    }
    EXPECT_EQ(run_kernel(config, kernel, 1, "pipelined").at("status"), "pass") << config << " pipelined";
  }
}

// Fresh seeds on which the baseline missed one element by 2 BF16 steps (its online softmax
// rounds where the exact-softmax reference does not): found by `tlmcraft bench -p plena
// --trials 60 --seed 9100000`; the reference's rounding slack covers them.
TEST(FlashAttentionBaseline, PassesTheFreshSeedsThatOnceFailedIt) {
  for (const auto& [config, seed] : {std::pair{"C1", 9100004u}, {"C2", 9100001u}, {"C3", 9100002u}}) {
    const auto r = run_kernel(config, bp::plena_flash_attention(instance(config), {}), seed);
    EXPECT_EQ(r.at("status"), "pass") << config << " seed " << seed << ": " << r.dump().substr(0, 800);
  }
}

// A fresh seed on which the baseline missed O[27][69] at C2 by 2 BF16 steps (got -1.328125,
// want -1.34375, tolerance 0.0134): the BF16 roundings of the running sum l and of the
// partial output between its two KV blocks add up there, and the rounding slack, measured
// on BF16-rounded samples without those partial outputs, was 0 at that element
// (docs/tasks.md, "Rounding slack"). The kernel is unchanged; the slack now models them.
TEST(FlashAttentionBaseline, PassesTheSeedWhosePartialOutputRoundingOnceFailedIt) {
  const auto r = run_kernel("C2", bp::plena_flash_attention(instance("C2"), {}), 5465615605023916u);
  EXPECT_EQ(r.at("status"), "pass") << r.dump().substr(0, 800);
}

}  // namespace
}  // namespace tlmcraft
