// Accumulating vector steps (vd read and written: vmacc, vmadd) in Coral candidates: mined
// from hand-built ReLU kernels (C1: 512 int8 values at 0x20000000, results at
// 0x20000200), written as overlays, placed by the toolchain's peephole and run on fresh
// inputs. relu(x) = x - min(x, 0) = min(x, 0) * (-1) + x; int8 wraps, so x = -128 gives
// -128 * -1 = -128 (wrapped) + -128 = 0. The loops run at e8, m1: VLEN 128 = 16 lanes, 512 /
// 16 = 32 iterations.
#include <gtest/gtest.h>

#include "agent/codesign/miner.h"
#include "agent/codesign/overlay_yaml.h"
#include "isa/riscv/peephole.h"
#include "tests/agent/codesign/coral_codesign_fixture.h"

namespace tlmcraft::agent::codesign {
namespace {

using nlohmann::json;

const json kRelu = {{"platform", "coral"}, {"platform_config", "default"}, {"task", "relu"}, {"task_config", "C1"}};

// clang-16 -O2 compiles the vmacc intrinsic as vmadd on the min's register:
//   vmin.vx v9, v8, zero; vmadd.vx v9, a3, v8   (v9 = v9 * a3 + v8, a3 = -1)
const char* kReluMadd = R"(#include <stddef.h>
#include <stdint.h>
#include <riscv_vector.h>
int main(void) {
  const int8_t* in = (const int8_t*)0x20000000u;
  int8_t* out = (int8_t*)0x20000200u;
  for (size_t i = 0, vl; i < 512; i += vl) {
    vl = __riscv_vsetvl_e8m1(512 - i);
    vint8m1_t x = __riscv_vle8_v_i8m1(in + i, vl);
    vint8m1_t m = __riscv_vmin_vx_i8m1(x, 0, vl);
    x = __riscv_vmacc_vx_i8m1(x, -1, m, vl);
    __riscv_vse8_v_i8m1(out + i, x, vl);
  }
  return 0;
}
)";

// Fresh inputs, not the miner's seed 1; two trials.
constexpr uint64_t kFreshSeed = 20261129;

const DataflowAdapter& coral() { return coral_test::coral_adapter(); }

// A candidate's overlay on kReluMadd: placed once in the loop by the peephole (32
// executions on seed 1); on fresh inputs the kernel passes without and with it and executes
// `fewer_instructions` fewer with it.
void expect_relu_madd_placed_once_and_exact(const json& overlay, int64_t fewer_instructions) {
  const KernelRewrite use = coral().use_overlay(kReluMadd, overlay, kRelu);
  ASSERT_TRUE(use.uses.count("cd0"));
  EXPECT_EQ(use.uses.at("cd0").static_count, 1u);
  EXPECT_EQ(use.uses.at("cd0").executions, 32u);
  const auto [base, fused] = coral_test::evaluate_c1_shipped_and_variant("relu", "relu.c", kReluMadd, kReluMadd,
                                                                         to_yaml(overlay), kFreshSeed, 2);
  ASSERT_EQ(base.at("status"), "pass") << base.dump();
  ASSERT_EQ(fused.at("status"), "pass") << fused.dump();
  EXPECT_EQ(base.at("instructions").get<int64_t>() - fused.at("instructions").get<int64_t>(), fewer_instructions);
}

TEST(CoralAccumulator, MinedFromCPlacedByThePeepholeAndExact) {
  const auto found = mine(coral(), {{"relu/C1", "hand.c", kReluMadd, kRelu}}, {1000});
  ASSERT_FALSE(found.empty());
  // The vmadd continues the value vmin wrote (v9): one name, out0, stored after the loop
  // body; x (v8) read by both steps is in0, a3 (-1) in1. Two reads, one write.
  const MinedCandidate& c = found[0];
  EXPECT_EQ(c.signature, "vmin.vx out0, in0, zero\nvmadd.vx out0, in1, in0\n");
  EXPECT_EQ(c.pattern.inputs, (std::vector<std::string>{"in0", "in1"}));
  EXPECT_EQ(c.pattern.outputs, (std::vector<std::string>{"out0"}));
  EXPECT_EQ(c.dynamic_instances, 32u);
  // vmin on the vector ALU (2 cycles) then vmadd on the multiplier (3): 5 -> 3 fused.
  EXPECT_EQ(c.cost.step_cycles, 5.0);
  EXPECT_EQ(c.cost.fused_cycles, 3.0);
  EXPECT_EQ(c.cycles_saved, 64.0);

  const json doc = candidates_document(coral(), "coral", found, "CD");
  const json& ins = doc["candidates"][0]["overlay"]["instructions"][0];
  EXPECT_EQ(ins["encoding"]["format"], "r");
  EXPECT_EQ(ins["operands"], (json{{{"name", "rd"}, {"field", "rd"}, {"role", "write"}, {"value", "v"}},
                                   {{"name", "rs1"}, {"field", "rs1"}, {"role", "read"}, {"value", "v"}},
                                   {{"name", "rs2"}, {"field", "rs2"}, {"role", "read"}, {"value", "x"}}}));
  EXPECT_EQ(ins["compose"]["steps"], (json{"vmin.vx rd, rs1, zero", "vmadd.vx rd, rs2, rs1"}));
  EXPECT_EQ(ins["timing"]["unit"], "vmul");

  // The peephole places it once in the loop; on fresh inputs the kernel with the instruction
  // passes (the relu check is exact) and executes one instruction fewer per iteration.
  expect_relu_madd_placed_once_and_exact(doc["candidates"][0]["overlay"], 32);
}

TEST(CoralAccumulator, WithItsVectorLoadMinedPlacedAndExact) {
  // The same chain with the vle8.v that feeds it (one load step: the ISA's memory port):
  // in + i (a5) in, v9 out; the load costs what it does unfused (1 + 1 + 3), so the saving
  // is the chain's, 64.
  const auto found = mine(coral(), {{"relu/C1", "hand.c", kReluMadd, kRelu}}, {1000});
  const MinedCandidate* c = nullptr;
  for (const MinedCandidate& m : found)
    if (m.signature == "vle8.v t0, 0, in0\nvmin.vx out0, t0, zero\nvmadd.vx out0, in1, t0\n") c = &m;
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->dynamic_instances, 32u);
  EXPECT_EQ(c->cycles_saved, 64.0);
  const json doc = candidates_document(coral(), "coral", {*c}, "CD");
  const json& ins = doc["candidates"][0]["overlay"]["instructions"][0];
  EXPECT_EQ(ins["compose"]["steps"], (json{"vle8.v t0, (rs1)", "vmin.vx rd, t0, zero", "vmadd.vx rd, rs2, t0"}));
  // Placed once in the loop by the peephole; on fresh inputs the kernel passes and executes
  // two instructions fewer per iteration.
  expect_relu_madd_placed_once_and_exact(doc["candidates"][0]["overlay"], 64);
}

// The same ReLU with a vmacc at the end of a three-step chain: m = min(x, 0) (v16 = 0);
// m = m * 1 (v24 = 1); x += -1 * m (v20 = -1; vmacc reads and writes x, v8).
const char* kReluMacc = R"(        .text
        .globl  main
main:
        li      a0, 0x20000000
        li      a1, 0x20000200
        li      a2, 512
        vsetvli t0, a2, e8, m1, ta, ma
        vmv.v.i v16, 0
        vmv.v.i v20, -1
        vmv.v.i v24, 1
.Lloop:
        vsetvli t0, a2, e8, m1, ta, ma
        vle8.v  v8, (a0)
        vmin.vv v12, v8, v16
        vmul.vv v12, v12, v24
        vmacc.vv v8, v20, v12
        vse8.v  v8, (a1)
        add     a0, a0, t0
        add     a1, a1, t0
        sub     a2, a2, t0
        bnez    a2, .Lloop
        li      a0, 0
        ret
)";

TEST(CoralAccumulator, AnAccumulatorsReadTakesASourcePort) {
  // Chains holding the vmacc: {vmul, vmacc} reads m, v24, v20 and x (the accumulator);
  // {vmin, vmul, vmacc} x, v16, v24, v20: four reads each, one more than the R4 format's
  // three source fields (the accumulator counted as a read), so neither is proposed.
  // {vmin, vmacc} is not connected (vmacc reads vmul's m). Left: {vmin, vmul}, three
  // inputs, its m read by the vmacc outside. The scalar adds share no value.
  const auto found = mine(coral(), {{"relu/C1", "hand.s", kReluMacc, kRelu}}, {1000});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].signature, "vmin.vv t0, in0, in1\nvmul.vv out0, t0, in2\n");
  EXPECT_EQ(found[0].dynamic_instances, 32u);
}

TEST(CoralAccumulator, AnInputAccumulatedOntoIsReadAndWrittenThroughRd) {
  // vmacc as the chain's last step on the loaded x: with m = min(x, 0) and v20 = -1 the
  // chain reads x (the accumulator, through rd) and v20: rd readwrite, rs1 only.
  std::string k = kReluMacc;
  k.replace(k.find("        vmul.vv v12, v12, v24\n"), 30, "");
  const auto found = mine(coral(), {{"relu/C1", "hand.s", k, kRelu}}, {1000});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].signature, "vmin.vv t0, in0, in1\nvmacc.vv in0, in2, t0\n");
  EXPECT_EQ(found[0].pattern.outputs, (std::vector<std::string>{"in0"}));
  const json doc = candidates_document(coral(), "coral", found, "CD");
  const json& ins = doc["candidates"][0]["overlay"]["instructions"][0];
  EXPECT_EQ(ins["operands"][0], (json{{"name", "rd"}, {"field", "rd"}, {"role", "readwrite"}, {"value", "v"}}));
  EXPECT_EQ(ins["compose"]["steps"], (json{"vmin.vv t0, rd, rs1", "vmacc.vv rd, rs2, t0"}));
  EXPECT_EQ(ins["encoding"]["format"], "r");

  // The peephole (C kernels' assembly; here the kernel itself) replaces the two steps by
  // cd0 v8, v16, v20; the rewritten kernel passes on fresh inputs with the overlay.
  isa::riscv::CustomExtensions ext;
  isa::riscv::parse_custom_overlay(to_yaml(doc["candidates"][0]["overlay"]), "cd0.yaml", ext);
  const isa::riscv::PeepholeResult r = isa::riscv::apply_composed_peephole(k, ext);
  ASSERT_EQ(r.replaced.count("cd0"), 1u);
  EXPECT_EQ(r.replaced.at("cd0"), 1u);
  EXPECT_EQ(r.assembly.find("vmacc"), std::string::npos);
  // An assembly kernel names the instruction by its mnemonic (GNU as takes no vector
  // registers in `.insn`): the line the peephole wrote, as a kernel author writes it.
  std::string kernel = r.assembly;
  const size_t insn = kernel.find("\t.insn r 0x7b, 4, 0, v8, v16, v20\t# cd0");
  ASSERT_NE(insn, std::string::npos) << r.assembly;
  kernel.replace(insn, kernel.find('\n', insn) - insn, "        cd0 v8, v16, v20");
  // Placed only where it can execute: at m4 with registers v16, v8, v24, v0 (groups of
  // 4) its four vector names (rd, rs1, rs2, t0) take 5 x 4 scratch registers; at m8 they
  // would take 5 x 8 > 32, so the hart could not run it: not placed.
  std::string wide = k;
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"vmin.vv v12, v8, v16", "vmin.vv v16, v8, v24"}, {"vmacc.vv v8, v20, v12", "vmacc.vv v8, v0, v16"}})
    wide.replace(wide.find(from), from.size(), to);
  std::string m8 = wide;
  for (size_t at; (at = wide.find("e8, m1")) != std::string::npos;) wide.replace(at, 6, "e8, m4");
  for (size_t at; (at = m8.find("e8, m1")) != std::string::npos;) m8.replace(at, 6, "e8, m8");
  EXPECT_EQ(isa::riscv::apply_composed_peephole(wide, ext).replaced.count("cd0"), 1u);
  EXPECT_EQ(isa::riscv::apply_composed_peephole(m8, ext).replaced.count("cd0"), 0u);

  // No cd0 without the overlay: the base does not pass.
  const auto [base, fused] = coral_test::evaluate_c1_shipped_and_variant(
      "relu", "relu.s", kernel, kernel, to_yaml(doc["candidates"][0]["overlay"]), kFreshSeed, 2);
  EXPECT_NE(base.at("status"), "pass");
  ASSERT_EQ(fused.at("status"), "pass") << fused.dump();
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
