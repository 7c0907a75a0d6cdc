// The Coral memory-layout contract: offsets, formats, #defines, the agent text, and the
// encode -> poison -> decode round trip with the poison-equals-expected rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "platforms/coral/pack/layout_coral.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks {
namespace {

struct FakeMemory {
  std::map<std::string, std::map<uint64_t, uint8_t>> bytes;
  void apply(const std::vector<MemoryWrite>& ws) {
    for (const auto& w : ws)
      for (size_t i = 0; i < w.bytes.size(); ++i) bytes[w.memory][w.address + i] = w.bytes[i];
  }
  MemoryReader reader() {
    return [this](const std::string& m, uint64_t a, uint64_t n) {
      std::vector<uint8_t> out(n);
      for (uint64_t i = 0; i < n; ++i) out[i] = bytes[m][a + i];
      return out;
    };
  }
};

TEST(CoralLayout, LinearC1OffsetsAndFormats) {
  const Instance in = Registry::builtin().instance("linear", "coral", "C1");
  const auto lay = in.layout();
  ASSERT_EQ(lay->platform(), PlatformId("coral"));
  // x [32, 32] int8 = 1024 bytes at 0; W [32, 32] at 1024; bias [32] int32 = 128 bytes at
  // 2048; y at 2176 (= 34 * 64, already aligned).
  const auto& x = lay->placement("x");
  EXPECT_EQ(x.memory, "ext");
  EXPECT_EQ(x.address, 0u);
  EXPECT_EQ(x.bytes, 1024u);
  EXPECT_EQ(lay->placement("W").address, 1024u);
  const auto& bias = lay->placement("bias");
  EXPECT_EQ(bias.address, 2048u);
  EXPECT_EQ(bias.format, "int32");
  EXPECT_EQ(bias.bytes, 128u);
  const auto& y = lay->placement("y");
  EXPECT_EQ(y.address, 2176u);
  EXPECT_EQ(y.role, Role::Output);
  const auto& coral = dynamic_cast<const CoralLayout&>(*lay);
  EXPECT_EQ(coral.cpu_address("y"), 0x20000880u);  // 0x20000000 + 2176
  // shift = max(1, round(log2(73.9^2 sqrt(32) / 32))) = round(9.92) = 10.
  const std::string defs = coral.c_defines();
  EXPECT_NE(defs.find("#define Y_ADDR 0x20000880u"), std::string::npos) << defs;
  EXPECT_NE(defs.find("#define DIM_K 32\n"), std::string::npos) << defs;
  EXPECT_NE(defs.find("#define SHIFT 10 "), std::string::npos) << defs;
  EXPECT_NE(defs.find("#define BIAS_ELEMS 32\n"), std::string::npos) << defs;
  const std::string text = lay->text();
  EXPECT_NE(text.find("0x20000880"), std::string::npos) << text;
  EXPECT_NE(text.find("shift = 10"), std::string::npos) << text;
  EXPECT_NE(text.find("global function `main`"), std::string::npos) << text;
  EXPECT_NE(in.describe().find("Coral memory layout for task linear"), std::string::npos);
}

TEST(CoralLayout, SoftmaxAlignsAfterTheInt32Table) {
  const auto lay = Registry::builtin().instance("softmax", "coral", "C1").layout();
  // x: 256 bytes at 0; exp_table: 256 int32 = 1024 bytes at 256; y at 1280 (= 20 * 64).
  EXPECT_EQ(lay->placement("exp_table").address, 256u);
  EXPECT_EQ(lay->placement("y").address, 1280u);
  const auto gemv = Registry::builtin().instance("gemv", "coral", "C1").layout();
  // A [32, 64] = 2048 bytes at 0; x [64] at 2048; y [32] at 2112 (= 33 * 64).
  EXPECT_EQ(gemv->placement("y").address, 2112u);
  // Depthwise C1: x [8, 8, 16] = 1024 at 0; w [3, 3, 16] = 144 at 1024; y at 1216 (= 19 * 64).
  EXPECT_EQ(Registry::builtin().instance("depthwise_conv", "coral", "C1").layout()->placement("y").address, 1216u);
}

TEST(CoralLayout, EncodePoisonDecodeRoundTrip) {
  const Instance in = Registry::builtin().instance("linear", "coral", "C1");
  const auto lay = in.layout();
  TensorSet inputs = in.generate_inputs(7);
  find(inputs, "bias").data[1] = -2;  // int32 little-endian: FE FF FF FF
  find(inputs, "x").data[0] = -128;   // int8: 0x80
  FakeMemory mem;
  mem.apply(lay->encode_inputs(inputs));
  mem.apply(lay->poison_outputs());
  EXPECT_EQ(mem.bytes["ext"][0], 0x80);
  EXPECT_EQ(mem.bytes["ext"][2052], 0xFE);  // bias[1] at 2048 + 4
  for (uint64_t b = 2053; b < 2056; ++b) EXPECT_EQ(mem.bytes["ext"][b], 0xFF) << b;
  EXPECT_EQ(mem.bytes["ext"][2052 - 4], uint8_t(int64_t(find(inputs, "bias").data[0]) & 0xFF));

  // A kernel writes y[0] = 5 and y[1] = -91 (= 0xA5, the poison), nothing else.
  const uint64_t y = lay->placement("y").address;
  mem.bytes["ext"][y] = 5;
  DecodedOutputs got = lay->decode_outputs(mem.reader());
  ASSERT_EQ(got.tensors.size(), 1u);
  EXPECT_EQ(got.tensors[0].data[0], 5);
  EXPECT_EQ(got.tensors[0].data[1], -91);
  EXPECT_EQ(got.unwritten[0][0], 0);
  EXPECT_EQ(got.unwritten[0][1], 1);

  // Expected: y[0] = 5, y[1] = -91, the rest 0. The poison-valued y[1] is right, so not
  // unwritten; the 1022 others are unwritten and wrong.
  TensorSet want{Tensor("y", {32, 32})};
  want[0].data[0] = 5;
  want[0].data[1] = -91;
  const CheckResult c = in.check(got, want);
  EXPECT_EQ(c.mismatches, 1022);
  EXPECT_EQ(c.unwritten, 1022);
}

TEST(CoralLayout, Int32OutputsAndBadInput) {
  const Instance in = Registry::builtin().instance("relu", "coral", "C1");
  const auto lay = in.layout();
  TensorSet inputs = in.generate_inputs(1);
  find(inputs, "x").data[3] = 300;  // not an int8
  try {
    lay->encode_inputs(inputs);
    FAIL() << "expected invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("input 'x' element 3 (300.000000) is not an int8 value"), std::string::npos)
        << e.what();
  }
  inputs = in.generate_inputs(1);
  find(inputs, "x").data.pop_back();
  EXPECT_THROW(lay->encode_inputs(inputs), std::invalid_argument);
  EXPECT_THROW(Registry::builtin().instance("pmp", "coral", "C1"), TaskError);  // the one task Coral lacks
}

TEST(CoralLayout, CpuProgramsAreCoralTasksWithInt32Arrays) {
  const Registry& reg = Registry::builtin();
  ASSERT_EQ(reg.cpu_tasks().size(), 10u);
  EXPECT_EQ(reg.tasks().size(), 23u);  // the ML tasks stay apart
  const Instance in = reg.instance("towers", "coral", "C1");
  EXPECT_EQ(in.task().level, 0);
  const auto lay = in.layout();
  // x: 6 int32 = 24 bytes at 0; y: 8 int32 (discs + 2) at 64.
  EXPECT_EQ(lay->placement("x").format, "int32");
  EXPECT_EQ(lay->placement("y").address, 64u);
  EXPECT_EQ(lay->placement("y").bytes, 32u);
  const std::string d = in.describe();
  EXPECT_NE(d.find("Numerics on coral: int32 integer arithmetic"), std::string::npos) << d;
  EXPECT_NE(d.find("y: output, shape [8] (discs + 2), int32"), std::string::npos) << d;
  // qsort's reference sorts the generated inputs (signed order).
  const Instance q = reg.instance("qsort", "coral", "C1");
  const TensorSet x = q.generate_inputs(3);
  const std::vector<double> y = q.reference_outputs(x).at(0).data;
  std::vector<double> sorted = find(x, "x").data;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(y, sorted);
  EXPECT_LT(sorted.front(), 0);
  const nlohmann::json j = reg.list_json();
  EXPECT_EQ(j["cpu"][7]["name"], "towers");
  EXPECT_EQ(j["cpu"][7]["platforms"]["coral"]["configs"]["C5"]["discs"], 14);
  EXPECT_EQ(j["cpu"][9]["platforms"]["coral"]["supported"], false);
  EXPECT_NE(reg.list_text().find("CPU towers (discs)\n"), std::string::npos);
  try {
    reg.instance("pmp", "coral", "C1");
    FAIL() << "pmp is unsupported on coral";
  } catch (const TaskError& e) {
    EXPECT_NE(std::string(e.what()).find("no PMP"), std::string::npos) << e.what();
  }
}

TEST(CoralLayout, MacroNames) {
  EXPECT_EQ(coral_macro_name("W_gate"), "W_GATE");
  EXPECT_EQ(coral_macro_name("h_i"), "H_I");
  EXPECT_EQ(coral_macro_name("a-b"), "A_B");
}

}  // namespace
}  // namespace tlmcraft::tasks
