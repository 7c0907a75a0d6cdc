// The AIE-ML memory-layout contract: DDR offsets, bf16 encoding, the 0x7FC1 poison and the
// default data movement's block plan.
#include <gtest/gtest.h>

#include <map>

#include "platforms/aie_ml/pack/layout_aie_ml.h"
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

TEST(AieMlLayout, GemmC1OffsetsInSpecOrder) {
  const Instance in = Registry::builtin().instance("gemm", "aie_ml", "C1");
  const auto lay = in.layout();
  ASSERT_EQ(lay->platform(), PlatformId("aie_ml"));
  // A [8, 64] bf16 = 1024 bytes at 0; B [64, 64] = 8192 bytes at 1024; C [8, 64] at 9216.
  EXPECT_EQ(lay->placement("A").memory, "ddr");
  EXPECT_EQ(lay->placement("A").format, "bf16");
  EXPECT_EQ(lay->placement("A").bytes, 1024u);
  EXPECT_EQ(aie_ml_tensor_offset(in, "A"), 0u);
  EXPECT_EQ(aie_ml_tensor_offset(in, "B"), 1024u);
  EXPECT_EQ(aie_ml_tensor_offset(in, "C"), 9216u);
  EXPECT_THROW(aie_ml_tensor_offset(in, "D"), std::out_of_range);
  const Instance pl = Registry::builtin().instance("gemm", "plena", "C1");
  EXPECT_THROW(aie_ml_tensor_offset(pl, "A"), std::invalid_argument);
}

TEST(AieMlLayout, Bf16RoundsToNearestEven) {
  EXPECT_EQ(aie_ml_bf16_bits(1.0), 0x3F80);
  // 1 + 2^-8 lies halfway between bf16 1.0 and 1 + 2^-7: ties to even gives 1.0.
  EXPECT_EQ(aie_ml_bf16_bits(1.00390625), 0x3F80);
  // 1 + 3 * 2^-8 lies halfway between 1 + 2^-7 (odd mantissa 1) and 1 + 2^-6: up to 0x3F82.
  EXPECT_EQ(aie_ml_bf16_bits(1.01171875), 0x3F82);
  EXPECT_EQ(aie_ml_bf16_bits(-2.0), 0xC000);
  EXPECT_DOUBLE_EQ(aie_ml_bf16_value(0x3F82), 1.015625);
}

TEST(AieMlLayout, EncodePoisonDecodeRoundTrip) {
  const Instance in = Registry::builtin().instance("relu", "aie_ml", "C1");
  const auto lay = in.layout();
  TensorSet inputs = in.generate_inputs(7);
  inputs[0].data[0] = 1.00390625;  // rounds to 1.0 when encoded
  FakeMemory mem;
  mem.apply(lay->encode_inputs(inputs));
  mem.apply(lay->poison_outputs());
  // x: 256 bf16 = 512 bytes at 0; y at 512. Element 0 of x: 0x3F80 little-endian.
  EXPECT_EQ(mem.bytes["ddr"][0], 0x80);
  EXPECT_EQ(mem.bytes["ddr"][1], 0x3F);
  EXPECT_EQ(mem.bytes["ddr"][512], 0xC1);
  EXPECT_EQ(mem.bytes["ddr"][513], 0x7F);
  // A kernel writes y[1] = -0.5 (0xBF00) only.
  mem.bytes["ddr"][514] = 0x00;
  mem.bytes["ddr"][515] = 0xBF;
  const DecodedOutputs d = lay->decode_outputs(mem.reader());
  ASSERT_EQ(d.tensors.size(), 1u);
  EXPECT_EQ(d.tensors[0].name, "y");
  EXPECT_EQ(d.tensors[0].data[1], -0.5);
  EXPECT_EQ(d.unwritten[0][0], 1);
  EXPECT_EQ(d.unwritten[0][1], 0);
  EXPECT_EQ(d.unwritten[0][255], 1);
}

TEST(AieMlLayout, WrongInputSizeIsReported) {
  const Instance in = Registry::builtin().instance("relu", "aie_ml", "C1");
  TensorSet inputs = in.generate_inputs(1);
  inputs[0].data.resize(10);
  try {
    in.layout()->encode_inputs(inputs);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("input 'x' has 10 values, the layout expects 256"), std::string::npos);
  }
}

TEST(AieMlLayout, LayerNormC5MovementPlan) {
  const Instance in = Registry::builtin().instance("layernorm", "aie_ml", "C5");
  const auto lay = in.layout();
  const auto& a = dynamic_cast<const AieMlLayout&>(*lay);
  // n = 16384 bf16 = 32768 bytes per tensor: x 0, gamma 32768, beta 65536, y 98304.
  EXPECT_EQ(a.placement("beta").address, 65536u);
  EXPECT_EQ(a.placement("y").address, 98304u);
  // Three input slices per block must fit 8 KB: 3 * 32768 / 16 = 6144 <= 8192, while
  // 8 blocks would need 12288. Slices of 1024 elements at block offsets 0, 2048, 4096.
  const auto& p = a.movement();
  ASSERT_TRUE(p.available) << p.reason;
  EXPECT_EQ(p.chunks, 16u);
  EXPECT_EQ(p.passes, 2u);
  EXPECT_EQ(p.in_block_bytes, 6144u);
  EXPECT_EQ(p.out_block_bytes, 2048u);
  EXPECT_EQ(p.in_slice_offset, (std::vector<uint64_t>{0, 2048, 4096}));
  EXPECT_EQ(p.in_slice_elems[2], 1024u);
  // mem0 -> tile: 512-word slices, 3 tensors 8192 words apart, 16 blocks, 2 passes.
  EXPECT_NE(p.yaml.find("length: 196608, dims: [[512, 1], [3, 8192], [16, 512], [2, 0]]"), std::string::npos) << p.yaml;
  EXPECT_NE(lay->text().find("ACQ 49, 1"), std::string::npos);
}

TEST(AieMlLayout, GemmC5HasNoDefaultMovement) {
  const Instance in = Registry::builtin().instance("gemm", "aie_ml", "C5");
  const auto lay = in.layout();
  const auto& a = dynamic_cast<const AieMlLayout&>(*lay);
  EXPECT_FALSE(a.movement().available);
  EXPECT_TRUE(a.default_movement().empty());
  EXPECT_NE(lay->text().find("must bring its\nown `.movement` section"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::tasks
