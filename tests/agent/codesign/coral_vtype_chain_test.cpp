// Compositions across a vtype change mined, placed and run on Coral (docs/codesign.md,
// "Coral", "Chains across a vtype change"): a hand-built int8 GEMM (task gemm, C1: A and
// B 32 x 32 int8 at 0x20000000 and 0x20000400, C at 0x20000800, shift 10) in the shape
// clang-16 gives the suite's matmul loops: `vwmul.vx` at e8/m2, `vsetvli zero, zero, e16,
// m4`, `vwadd.wv` into the e32/m8 accumulator, `vsetvli` back. Two k steps per iteration,
// 16 iterations per row, 32 rows: the first step of each iteration has the vsetvli back
// (512 executions), the second runs on at e16 into the next iteration's vsetvli with a
// register AVL (a barrier).
#include <gtest/gtest.h>

#include "agent/codesign/miner.h"
#include "agent/codesign/overlay_yaml.h"
#include "isa/riscv/peephole.h"
#include "tests/agent/codesign/coral_codesign_fixture.h"

namespace tlmcraft::agent::codesign {
namespace {

using nlohmann::json;

const json kGemm = {{"platform", "coral"}, {"platform_config", "default"}, {"task", "gemm"}, {"task_config", "C1"}};

const std::string kKernel = R"(        .text
        .globl  main
main:
        csrwi   vxrm, 0
        li      a0, 0
        li      a1, 0x20000000
        li      a2, 32
        li      a3, 0x20000400
        li      a4, 0x20000800
.Lrow:
        vsetvli t5, a2, e32, m8, ta, mu
        vmv.v.i v8, 0
        mv      t0, a3
        mv      t1, a1
        li      t2, 16
.Lk:
        vsetvli zero, t5, e8, m2, ta, ma
        vle8.v  v16, (t0)
        lb      t3, 0(t1)
        vwmul.vx v20, v16, t3
        vsetvli zero, zero, e16, m4, ta, ma
        addi    t4, t0, 32
        vle8.v  v16, (t4)
        lb      t3, 1(t1)
        vwadd.wv v8, v8, v20
        vsetvli zero, zero, e8, m2, ta, ma
        vwmul.vx v20, v16, t3
        vsetvli zero, zero, e16, m4, ta, ma
        vwadd.wv v8, v8, v20
        addi    t0, t0, 64
        addi    t1, t1, 2
        addi    t2, t2, -1
        bnez    t2, .Lk
        vnclip.wi v16, v8, 10
        vsetvli zero, zero, e8, m2, ta, ma
        vnclip.wi v8, v16, 0
        vse8.v  v8, (a4)
        addi    a1, a1, 32
        addi    a4, a4, 32
        addi    a0, a0, 1
        bne     a0, a2, .Lrow
        li      a0, 0
        ret
)";

// The chain: product t0 (v20) dead after it, the accumulator read as in2 and written as
// out0 (clang names v8 twice, so it is no read-write operand), vb in0, the scalar in1.
const std::string kChain =
    "vwmul.vx t0, in0, in1\nvsetvli zero, zero, e16, m4, ta, ma\nvwadd.wv out0, in2, t0\n"
    "vsetvli zero, zero, e8, m2, ta, ma\n";

// Fresh inputs, not the miner's seed 1; two trials.
constexpr uint64_t kFreshSeed = 20261129;

const DataflowAdapter& coral() { return coral_test::coral_adapter(); }

const MinedCandidate* find(const std::vector<MinedCandidate>& found, const std::string& signature) {
  for (const MinedCandidate& c : found)
    if (c.signature == signature) return &c;
  return nullptr;
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}

TEST(CoralVtypeChain, MinedWithItsDynamicCountPlacedAndExact) {
  const auto found = mine(coral(), {{"gemm/C1", "hand.s", kKernel, kGemm}}, {1000});
  const MinedCandidate* c = find(found, kChain);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->dynamic_instances, 512u);  // 32 rows x 16 iterations, the first k step of each
  // vwmul 3 + vsetvli 1 + vwadd.wv 2 + vsetvli 1 cycles; fused: the slowest step, 3.
  EXPECT_EQ(c->cost.step_cycles, 7.0);
  EXPECT_EQ(c->cost.fused_cycles, 3.0);
  // Area at the widths it runs (e8 multiply, e32 accumulate), 4 lanes: 4 x (int8
  // multiplier 282 + int32 adder 137) + one 128-bit pipeline register with its bypass
  // multiplexers, 128 x (4.522 + 1.862) = 817.152: 2493.152 um2.
  EXPECT_NEAR(c->cost.area_mm2, 2493.152e-6, 1e-12);

  const json doc = candidates_document(coral(), "coral", found, "CD");
  json overlay;
  for (const json& cand : doc["candidates"])
    if (cand["signature"] == kChain) overlay = cand["overlay"];
  ASSERT_TRUE(overlay.is_object()) << doc.dump();
  const std::string mnemonic = overlay["instructions"][0]["mnemonic"];
  // The peephole (what the toolchain runs on a C kernel's assembly; here on the kernel
  // itself) places it once, at the first k step's vwmul, and drops both vsetvli.
  isa::riscv::CustomExtensions ext;
  isa::riscv::parse_custom_overlay(to_yaml(overlay), "chain.yaml", ext);
  const isa::riscv::PeepholeResult r = isa::riscv::apply_composed_peephole(kKernel, ext);
  ASSERT_EQ(r.replaced.count(mnemonic), 1u);
  EXPECT_EQ(r.replaced.at(mnemonic), 1u);
  // An assembly kernel names it by its mnemonic (GNU as takes no vector registers in
  // `.insn`): "\t.insn r4 0x5b, 0, 1, v8, v16, t3, v8" is "cd1 v8, v16, t3, v8".
  std::string kernel = r.assembly;
  const size_t insn = kernel.find("\t.insn r4 ");
  ASSERT_NE(insn, std::string::npos) << kernel;
  const size_t end = kernel.find('\t', insn + 1);
  std::string fields = kernel.substr(insn + 11, end - insn - 11);
  for (int k = 0; k < 3; ++k) fields = fields.substr(fields.find(", ") + 2);
  kernel.replace(insn, kernel.find('\n', insn) - insn, "        " + mnemonic + " " + fields);
  EXPECT_EQ(kernel.find("vwmul.vx v20, v16, t3\n        vsetvli zero, zero, e16"), kernel.rfind("vwmul.vx"));

  // Fresh inputs: passes with the instruction (gemm's check is exact); it runs 512 times,
  // each standing for four instructions.
  const auto [base, fused] =
      coral_test::evaluate_c1_shipped_and_variant("gemm", "gemm.s", kKernel, kernel, to_yaml(overlay), kFreshSeed, 2);
  ASSERT_EQ(base.at("status"), "pass") << base.dump();
  ASSERT_EQ(fused.at("status"), "pass") << fused.dump();
  EXPECT_EQ(fused.at("added_instructions").at(mnemonic).at("static"), 1);  // the one placement above
  EXPECT_EQ(fused.at("added_instructions").at(mnemonic).at("executions"), 512);
  EXPECT_EQ(base.at("instructions").get<int64_t>() - fused.at("instructions").get<int64_t>(), 3 * 512);
}

TEST(CoralVtypeChain, RefusedWhenVlIsNotProvablyKeptOrTheProductIsReadLater) {
  // vl set again from a register (t5 holds the same 32, but the miner cannot know it): the
  // vsetvli is a barrier, the chain is split.
  const std::string avl = replaced(kKernel, "vwmul.vx v20, v16, t3\n        vsetvli zero, zero, e16",
                                   "vwmul.vx v20, v16, t3\n        vsetvli zero, t5, e16");
  const auto from_avl = mine(coral(), {{"gemm/C1", "avl.s", avl, kGemm}}, {1000});
  EXPECT_EQ(find(from_avl, kChain), nullptr);
  // The product is read after the window: a second output, beyond the one write port.
  const std::string live = replaced(kKernel, "vsetvli zero, zero, e8, m2, ta, ma\n        vwmul",
                                    "vsetvli zero, zero, e8, m2, ta, ma\n        vmv.v.v v24, v20\n        vwmul");
  const auto from_live = mine(coral(), {{"gemm/C1", "live.s", live, kGemm}}, {1000});
  EXPECT_EQ(find(from_live, kChain), nullptr);
  // The kernel itself still has it.
  EXPECT_NE(find(mine(coral(), {{"gemm/C1", "hand.s", kKernel, kGemm}}, {1000}), kChain), nullptr);
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
