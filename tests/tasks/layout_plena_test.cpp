// The PLENA memory-layout contract: addresses, formats, SCALE values, constants, and the
// encode -> poison -> decode round trip a harness performs.
#include "platforms/plena/pack/layout_plena.h"

#include <gtest/gtest.h>

#include <map>

#include "isa/formats/bf16.h"
#include "isa/formats/mxfp8.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks {
namespace {

namespace fmt = tlmcraft::isa::formats;

// A byte-addressed fake of the platform memories.
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

TEST(PlenaLayout, SiluC1) {
  const Instance in = Registry::builtin().instance("silu", "plena", "C1");
  const auto lay = in.layout();
  ASSERT_EQ(lay->tensors().size(), 2u);
  const TensorPlacement& x = lay->placement("x");
  EXPECT_EQ(x.address, 0u);
  EXPECT_EQ(x.format, "mxfp8");
  EXPECT_EQ(x.precision, 0);
  EXPECT_EQ(x.bytes, 288u);  // 256 elements + 256/8 scales
  EXPECT_EQ(x.scale, 256);
  EXPECT_EQ(x.view, (std::vector<int64_t>{4, 64}));
  EXPECT_EQ(x.strides, (std::vector<int64_t>{64, 1}));
  EXPECT_EQ(x.a_register, "a0");
  const TensorPlacement& y = lay->placement("y");
  EXPECT_EQ(y.address, 4096u);
  EXPECT_EQ(y.format, "bf16");
  EXPECT_EQ(y.precision, 2);
  EXPECT_EQ(y.bytes, 512u);
  EXPECT_EQ(y.scale, -1);
  EXPECT_EQ(y.a_register, "a1");
  // FP_MEM 0.0, 1.0, -1.0 as little-endian BF16: 0000, 3F80, BF80.
  const auto writes = lay->encode_inputs(in.generate_inputs(1));
  ASSERT_EQ(writes.back().memory, "fp_mem");
  EXPECT_EQ(writes.back().bytes, (std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3F, 0x80, 0xBF}));
  EXPECT_THROW(lay->placement("z"), std::out_of_range);
}

TEST(PlenaLayout, GqaC5AlignsEveryTensorAndMarksKv) {
  // s = 128, h = 512, heads = 8, kv_heads = 2: Q 65536 elements -> 73728 bytes at 0;
  // K, V [128, 128] = 16384 elements -> 18432 bytes, precision 1; addresses rounded up to
  // 4096: K at 73728 (= 18 * 4096), V at 94208 (92160 rounded up), O at 114688.
  const auto lay = Registry::builtin().instance("gqa", "plena", "C5").layout();
  EXPECT_EQ(lay->placement("Q").bytes, 73728u);
  EXPECT_EQ(lay->placement("K").address, 73728u);
  EXPECT_EQ(lay->placement("K").precision, 1);
  EXPECT_EQ(lay->placement("K").scale, 16384);
  EXPECT_EQ(lay->placement("V").address, 94208u);
  EXPECT_EQ(lay->placement("O").address, 114688u);
  EXPECT_EQ(lay->placement("O").bytes, 2u * 128 * 512);
}

TEST(PlenaLayout, ConstantsPerTask) {
  const Registry& reg = Registry::builtin();
  // LayerNorm C1 (n = 256): 0, 1, 1/256 (exact in BF16), eps 1e-5 rounded to BF16.
  const auto c = reg.instance("layernorm", "plena", "C1").layout()->constants();
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[2].value, 1.0 / 256);
  EXPECT_EQ(c[3].value, double(fmt::bf16_to_float(fmt::double_to_bf16(1e-5))));
  // Attention C2 (h = 128): 1/sqrt(128) = 0.0883883 -> BF16 0.08837890625 (181 * 2^-11).
  const auto a = reg.instance("scaled_dot_product", "plena", "C2").layout()->constants();
  EXPECT_EQ(a.at(2).value, 181.0 / 2048);
  // The decoder blocks have 13 tensors; only a0..a7 are suggested.
  const auto d = reg.instance("llama_decoder", "plena", "C1").layout();
  EXPECT_EQ(d->tensors()[7].a_register, "a7");
  EXPECT_EQ(d->tensors()[8].a_register, "");
}

TEST(PlenaLayout, EncodePoisonDecodeRoundTripAndCheck) {
  const Instance in = Registry::builtin().instance("rmsnorm", "plena", "C1");
  const auto lay = in.layout();
  const TensorSet inputs = in.generate_inputs(5);
  FakeMemory mem;
  mem.apply(lay->encode_inputs(inputs));
  mem.apply(lay->poison_outputs());

  // The HBM bytes of every input decode to exactly the generated values.
  for (const Tensor& t : inputs) {
    const TensorPlacement& p = lay->placement(t.name);
    const auto bytes = mem.reader()("hbm", p.address, p.bytes);
    std::vector<float> back(p.elements);
    fmt::dequantize_mx(bytes.data(), bytes.data() + p.elements, p.elements, back.data());
    for (size_t i = 0; i < p.elements; ++i) ASSERT_EQ(double(back[i]), t.data[i]) << t.name << " " << i;
  }

  // Nothing written yet: every element is reported unwritten.
  const TensorSet want = in.reference_outputs(inputs);
  DecodedOutputs got = lay->decode_outputs(mem.reader());
  CheckResult r = in.check(got, want);
  EXPECT_EQ(r.unwritten, 256);
  EXPECT_EQ(r.mismatches, 256);
  EXPECT_EQ(r.summary(), "match 0.00% (256 of 256 wrong; output never written: 256)");

  // Write the first half of the reference as BF16: half right, half never written.
  const TensorPlacement& y = lay->placement("y");
  MemoryWrite w{"hbm", y.address, {}};
  for (size_t i = 0; i < 128; ++i) {
    const uint16_t b = fmt::double_to_bf16(want[0].data[i]);
    w.bytes.push_back(uint8_t(b & 0xFF));
    w.bytes.push_back(uint8_t(b >> 8));
  }
  mem.apply({w});
  r = in.check(lay->decode_outputs(mem.reader()), want);
  EXPECT_EQ(r.unwritten, 128);
  EXPECT_DOUBLE_EQ(r.match_rate, 0.5);
  ASSERT_FALSE(r.first_mismatches.empty());
  EXPECT_EQ(r.first_mismatches[0].index, (std::vector<int64_t>{2, 0}));  // element 128 = row 2 of 64

  // All of it: passes.
  for (size_t i = 128; i < 256; ++i) {
    const uint16_t b = fmt::double_to_bf16(want[0].data[i]);
    mem.bytes["hbm"][y.address + 2 * i] = uint8_t(b & 0xFF);
    mem.bytes["hbm"][y.address + 2 * i + 1] = uint8_t(b >> 8);
  }
  EXPECT_TRUE(in.check(lay->decode_outputs(mem.reader()), want).passed());
}

TEST(PlenaLayout, TextTellsTheAgentAddressesFormatsAndConstants) {
  const std::string t = Registry::builtin().instance("layernorm", "plena", "C1").layout()->text();
  EXPECT_NE(t.find("PLENA memory layout for task layernorm (n = 256)"), std::string::npos) << t;
  EXPECT_NE(t.find("gamma"), std::string::npos);
  EXPECT_NE(t.find("0x1000 (4096)"), std::string::npos);
  EXPECT_NE(t.find("SCALE"), std::string::npos);
  EXPECT_NE(t.find("2: 0.00390625  (1/n)"), std::string::npos) << t;
  EXPECT_NE(t.find("0x7FC1"), std::string::npos);
  const auto j = Registry::builtin().instance("layernorm", "plena", "C1").layout()->to_json();
  EXPECT_EQ(j["tensors"][0]["scale"], 256);
  EXPECT_EQ(j["tensors"][3]["format"], "bf16");
}

TEST(PlenaLayout, UnsupportedTaskHasNoLayout) {
  // Every benchmark task runs on PLENA now: a copy of conv2d with its PLENA section off.
  TaskSpec t = Registry::builtin().task("conv2d");
  t.platforms[PlatformId("plena")].supported = false;
  EXPECT_THROW(make_layout(t, PlatformId("plena"), {{"H", 8}, {"c_in", 8}, {"c_out", 8}, {"k", 1}}),
               std::invalid_argument);
}

}  // namespace
}  // namespace tlmcraft::tasks
