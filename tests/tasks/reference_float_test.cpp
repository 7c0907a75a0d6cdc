// Float references (PLENA staged BF16, AIE-ML full precision) against small cases
// computed by hand. Expected values carry their derivation; outputs are BF16, so the
// comparison allows half a BF16 ulp (2^-9 relative) plus the PLENA staging error.
#include <gtest/gtest.h>

#include <cmath>

#include "tasks/numerics.h"
#include "tasks/reference/float_ops.h"
#include "tasks/reference/reference.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks {
namespace {

Tensor T(const std::string& name, std::vector<int64_t> shape, std::vector<double> v) {
  Tensor t(name, std::move(shape));
  EXPECT_EQ(t.data.size(), v.size()) << name;
  t.data = std::move(v);
  return t;
}

std::vector<double> run(const std::string& task, PlatformId p, const Params& params, const TensorSet& in) {
  return reference(Registry::builtin().task(task), p, params, in).at(0).data;
}

void expect_near_all(const std::vector<double>& got, const std::vector<double>& want, double rel) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], rel * std::fabs(want[i]) + 1e-6) << "element " << i;
}

const PlatformId kBoth[] = {PlatformId("plena"), PlatformId("aie_ml")};

TEST(FloatReference, Gemm2x2) {
  // [[1,2],[3,4]] [[5,6],[7,8]] = [[1*5+2*7, 1*6+2*8], [3*5+4*7, 3*6+4*8]]; all exact in BF16.
  for (PlatformId p : kBoth)
    EXPECT_EQ(run("gemm", p, {{"M", 2}, {"K", 2}, {"N", 2}},
                  {T("A", {2, 2}, {1, 2, 3, 4}), T("B", {2, 2}, {5, 6, 7, 8})}),
              (std::vector<double>{19, 22, 43, 50}));
}

TEST(FloatReference, GemvLinearBatchMatMul) {
  // y = A x: [1*1 + 2*1, 3*1 + 4*1].
  EXPECT_EQ(run("gemv", PlatformId("plena"), {{"M", 2}, {"N", 2}}, {T("A", {2, 2}, {1, 2, 3, 4}), T("x", {2}, {1, 1})}),
            (std::vector<double>{3, 7}));
  // [1, 2] I + [0.5, -1] = [1.5, 1].
  EXPECT_EQ(run("linear", PlatformId("aie_ml"), {{"M", 1}, {"K", 2}, {"N", 2}},
                {T("x", {1, 2}, {1, 2}), T("W", {2, 2}, {1, 0, 0, 1}), T("bias", {2}, {0.5, -1})}),
            (std::vector<double>{1.5, 1}));
  // Two 1x1 products: 2*4, 3*5.
  EXPECT_EQ(run("batchmatmul", PlatformId("plena"), {{"b", 2}, {"M", 1}, {"K", 1}, {"N", 1}},
                {T("A", {2, 1, 1}, {2, 3}), T("B", {2, 1, 1}, {4, 5})}),
            (std::vector<double>{8, 15}));
}

TEST(FloatReference, SoftmaxOfThreeValues) {
  // exp([1,2,3] - 3) = [e^-2, e^-1, 1] = [0.1353353, 0.3678794, 1]; sum 1.5032147;
  // y = [0.0900306, 0.2447285, 0.6652410].
  expect_near_all(run("softmax", PlatformId("aie_ml"), {{"n", 3}}, {T("x", {3}, {1, 2, 3})}),
                  {0.0900306, 0.2447285, 0.6652410}, 4e-3);  // half a BF16 ulp is up to 2^-8 relative
  // PLENA stages in BF16 (8 significant bits: spacing 2^(e-7) in [2^e, 2^(e+1))):
  // e = [bf16(0.1353353) = 139 * 2^-10 = 0.1357422, bf16(0.3678794) = 188 * 2^-9 = 0.3671875, 1];
  // sum 1.5029297 -> 1.5; r = bf16(1/1.5) = 171 * 2^-8 = 0.66796875;
  // y = [bf16(0.0906723) = 186 * 2^-11, bf16(0.2452698) = 251 * 2^-10, 0.66796875].
  EXPECT_EQ(run("softmax", PlatformId("plena"), {{"n", 3}}, {T("x", {3}, {1, 2, 3})}),
            (std::vector<double>{186.0 / 2048, 251.0 / 1024, 0.66796875}));
}

TEST(FloatReference, LayerNormOfFour) {
  // mean 2.5, var (2.25 + 0.25 + 0.25 + 2.25) / 4 = 1.25, sqrt(1.25 + 1e-5) = 1.1180384;
  // z = [-1.3416355, -0.4472118, 0.4472118, 1.3416355]; gamma [1,2,1,1], beta [0,0,0.5,0].
  for (PlatformId p : kBoth)
    expect_near_all(run("layernorm", p, {{"n", 4}},
                        {T("x", {4}, {1, 2, 3, 4}), T("gamma", {4}, {1, 2, 1, 1}), T("beta", {4}, {0, 0, 0.5, 0})}),
                    {-1.3416355, -0.8944236, 0.9472118, 1.3416355}, 6e-3);
}

TEST(FloatReference, RmsNormOfTwo) {
  // mean square (9 + 16) / 2 = 12.5, rms 3.5355339: [3, 4] / rms = [0.8485281, 1.1313708].
  for (PlatformId p : kBoth)
    expect_near_all(run("rmsnorm", p, {{"n", 2}}, {T("x", {2}, {3, 4}), T("gamma", {2}, {1, 1})}),
                    {0.8485281, 1.1313708}, 6e-3);
}

TEST(FloatReference, Activations) {
  // silu(1) = 1 / (1 + e^-1) = 0.7310586; silu(-1) = -0.2689414.
  // gelu(1) = 0.5 (1 + tanh(0.7978846 * 1.044715)) = 0.5 (1 + 0.6823799) = 0.8411920;
  // gelu(-1) = -1 + gelu(1) = -0.1588080.
  for (PlatformId p : kBoth) {
    expect_near_all(run("silu", p, {{"n", 3}}, {T("x", {3}, {0, 1, -1})}), {0, 0.7310586, -0.2689414}, 8e-3);
    expect_near_all(run("gelu", p, {{"n", 3}}, {T("x", {3}, {0, 1, -1})}), {0, 0.8411920, -0.1588080}, 1e-2);
    EXPECT_EQ(run("relu", p, {{"n", 2}}, {T("x", {2}, {-1, 0.5})}), (std::vector<double>{0, 0.5}));
  }
}

TEST(FloatReference, PlenaRoundsEveryStageAieDoesNot) {
  // silu(3) = 3 / (1 + e^-3) = 2.8577223. AIE-ML: one rounding -> bf16(2.8577223) = 2.859375.
  // PLENA: e = bf16(0.0497871) = 0.04980469; d = bf16(1.04980469) = 1.046875 (BF16 has
  // 8 significant bits: spacing 2^-7 in [1, 2)); r = bf16(0.9552239) = 0.95703125;
  // y = bf16(3 * 0.95703125 = 2.87109375) = 2.875.
  EXPECT_EQ(run("silu", PlatformId("aie_ml"), {{"n", 1}}, {T("x", {1}, {3})}), (std::vector<double>{2.859375}));
  EXPECT_EQ(run("silu", PlatformId("plena"), {{"n", 1}}, {T("x", {1}, {3})}), (std::vector<double>{2.875}));
}

TEST(FloatReference, ReductionsFollowVRedSum) {
  // 64 ones then 64 values of 0.001: row sums 64 and 0.064 (float32). PLENA adds rows into
  // a BF16 register: bf16(64 + 0.064) = 64 (spacing 0.5 in [64, 128)); AIE-ML sums exactly.
  std::vector<double> v(128, 1.0);
  for (size_t i = 64; i < 128; ++i) v[i] = 0.001;
  EXPECT_EQ(ref::reduce_sum(v.data(), 128, FloatNumerics::for_platform(PlatformId("plena"))), 64.0);
  EXPECT_NEAR(ref::reduce_sum(v.data(), 128, FloatNumerics::for_platform(PlatformId("aie_ml"))), 64.064, 1e-12);
  // Small rows first are kept: f = bf16(0.064) = 0.06396484375 (131 * 2^-11), then
  // bf16(64.06396) = 64 again; 3 elements (a partial row) are one float32 sum: 1 + 2 + 4.
  std::vector<double> w(v.rbegin(), v.rend());
  EXPECT_EQ(ref::reduce_sum(w.data(), 64, FloatNumerics::for_platform(PlatformId("plena"))), 131.0 / 2048);
  EXPECT_EQ(ref::reduce_sum(w.data(), 128, FloatNumerics::for_platform(PlatformId("plena"))), 64.0);
  const double three[] = {1, 2, 4};
  EXPECT_EQ(ref::reduce_sum(three, 3, FloatNumerics::for_platform(PlatformId("plena"))), 7.0);
}

TEST(FloatReference, Conv2dOneChannel3x3AndDepthwise) {
  // x = 1..9 in a 3x3 image, a 3x3 filter of ones, zero padding 1: the centre sums all
  // (45), the corner (0,0) sums 1+2+4+5 = 12, the edge (0,1) sums 1+2+3+4+5+6 = 21.
  const std::vector<double> x{1, 2, 3, 4, 5, 6, 7, 8, 9}, ones(9, 1.0);
  const std::vector<double> want{12, 21, 16, 27, 45, 33, 24, 39, 28};
  EXPECT_EQ(run("conv2d", PlatformId("aie_ml"), {{"H", 3}, {"c_in", 1}, {"c_out", 1}, {"k", 3}},
                {T("x", {3, 3, 1}, x), T("w", {3, 3, 1, 1}, ones)}),
            want);
  EXPECT_EQ(run("depthwise_conv", PlatformId("aie_ml"), {{"H", 3}, {"c", 1}, {"k", 3}},
                {T("x", {3, 3, 1}, x), T("w", {3, 3, 1}, ones)}),
            want);
}

TEST(FloatReference, Conv2dChannelsMixAndConvBlock) {
  // 1x1 image, k = 1: y[o] = sum_i x[i] w[i][o] = [1*1 + 2*3, 1*2 + 2*4] = [7, 10].
  EXPECT_EQ(run("conv2d", PlatformId("aie_ml"), {{"H", 1}, {"c_in", 2}, {"c_out", 2}, {"k", 1}},
                {T("x", {1, 1, 2}, {1, 2}), T("w", {1, 1, 2, 2}, {1, 2, 3, 4})}),
            (std::vector<double>{7, 10}));
  // conv 2*3 = 6; BN (6 - 2) / sqrt(1 + 1e-5) * 2 + beta: beta -1 -> 6.99996 -> bf16 7;
  // beta -10 -> -2.00004 -> ReLU 0. PLENA's stages: t = 4; bf16(1 + bf16(1e-5)) = 1, so
  // sqrt and 1/sqrt are 1; 4 * 1 * 2 = 8; 8 - 1 = 7 and 8 - 10 = -2 -> 0: the same values.
  for (PlatformId p : kBoth)
    for (double beta : {-1.0, -10.0})
      EXPECT_EQ(run("conv_block", p, {{"H", 1}, {"c_in", 1}, {"c_out", 1}, {"k", 1}},
                    {T("x", {1, 1, 1}, {2}), T("w", {1, 1, 1, 1}, {3}), T("gamma", {1}, {2}), T("beta", {1}, {beta}),
                     T("mean", {1}, {2}), T("var", {1}, {1})}),
                (std::vector<double>{beta == -1.0 ? 7.0 : 0.0}));
}

TEST(FloatReference, PlenaConv2dAccumulatesInFloat32) {
  // 1x1 image, k = 1, three channels, weights 1: the sum 1 + 2^-8 + 2^-25. Float32 (PLENA's
  // matrix unit) keeps 24 bits: 1 + 2^-8 is exact, adding 2^-25 (a quarter of float32's ulp
  // 2^-23 at 1) rounds back to 1 + 2^-8, the midpoint of BF16 neighbours 1 and 1 + 2^-7,
  // which rounds to even: 1. AIE-ML sums in double: just past the midpoint, 1 + 2^-7.
  const TensorSet in{T("x", {1, 1, 3}, {1, std::ldexp(1.0, -8), std::ldexp(1.0, -25)}),
                     T("w", {1, 1, 3, 1}, {1, 1, 1})};
  const Params p{{"H", 1}, {"c_in", 3}, {"c_out", 1}, {"k", 1}};
  EXPECT_EQ(run("conv2d", PlatformId("plena"), p, in), (std::vector<double>{1.0}));
  EXPECT_EQ(run("conv2d", PlatformId("aie_ml"), p, in), (std::vector<double>{1.0078125}));
}

TEST(FloatReference, PlenaDepthwiseRoundsEveryTap) {
  // A 3x3 image of ones, padding 1: at pixel (0, 0) the taps (1,1), (1,2), (2,1), (2,2) are
  // inside, in that order, with weights 1, 2^-8, 2^-8, 0. PLENA rounds every step to BF16:
  // acc = 1; bf16(1 + 2^-8) = 1 (a tie between 1 and 1 + 2^-7, to even), twice; + 0 = 1.
  // AIE-ML sums in double: 1 + 2^-8 + 2^-8 = 1 + 2^-7, a BF16 value.
  const std::vector<double> x(9, 1.0);
  std::vector<double> w(9, 0.0);
  w[4] = 1;                    // (1, 1)
  w[5] = std::ldexp(1.0, -8);  // (1, 2)
  w[7] = std::ldexp(1.0, -8);  // (2, 1)
  const Params p{{"H", 3}, {"c", 1}, {"k", 3}};
  const TensorSet in{T("x", {3, 3, 1}, x), T("w", {3, 3, 1}, w)};
  EXPECT_EQ(run("depthwise_conv", PlatformId("plena"), p, in).at(0), 1.0);
  EXPECT_EQ(run("depthwise_conv", PlatformId("aie_ml"), p, in).at(0), 1.0078125);
}

TEST(FloatReference, RopeOnOnePair) {
  // Position 0: cos 1, sin 0 -> y = x. Position 1, theta_0 = 1: x = [1, 0] ->
  // [1 cos 1 - 0 sin 1, 0 cos 1 + 1 sin 1] = [0.5403023, 0.8414710].
  const double c1 = std::cos(1.0), s1 = std::sin(1.0);
  expect_near_all(run("rope", PlatformId("aie_ml"), {{"s", 2}, {"h", 2}},
                      {T("x", {2, 2}, {0.5, -2, 1, 0}), T("cos", {2, 2}, {1, 1, c1, c1}), T("sin", {2, 2}, {0, 0, s1, s1})}),
                  {0.5, -2, 0.5403023, 0.8414710}, 4e-3);
}

TEST(FloatReference, AttentionWithTwoTokens) {
  // d = 1, scale 1. Token 0: q = 1, scores [0, 1] -> softmax [0.2689414, 0.7310586],
  // o = 0.2689414 * 1 + 0.7310586 * 3 = 2.4621172. Token 1: q = 0 -> [0.5, 0.5] -> o = 2.
  const TensorSet in{T("Q", {2, 1}, {1, 0}), T("K", {2, 1}, {0, 1}), T("V", {2, 1}, {1, 3})};
  for (PlatformId p : kBoth)
    for (const char* task : {"scaled_dot_product", "flash_attention"})
      expect_near_all(run(task, p, {{"s", 2}, {"h", 1}}, in), {2.4621172, 2}, 8e-3);
}

TEST(FloatReference, HeadsUseTheirOwnColumnsAndShareKvGroups) {
  // MHA, 2 heads of d = 1: head 0 is the two-token case above (column 0, V column 0 =
  // [1, 3]); head 1 has q = 0 -> uniform weights over V column 1 = [10, 20] -> 15.
  expect_near_all(run("mha", PlatformId("aie_ml"), {{"s", 2}, {"h", 2}, {"heads", 2}},
                      {T("Q", {2, 2}, {1, 0, 0, 0}), T("K", {2, 2}, {0, 0, 1, 0}), T("V", {2, 2}, {1, 10, 3, 20})}),
                  {2.4621172, 15, 2, 15}, 8e-3);
  // GQA / MQA with one shared KV head: head 1 (q = 0) averages V = [1, 3] -> 2.
  const TensorSet in{T("Q", {2, 2}, {1, 0, 0, 0}), T("K", {2, 1}, {0, 1}), T("V", {2, 1}, {1, 3})};
  expect_near_all(run("gqa", PlatformId("plena"), {{"s", 2}, {"h", 2}, {"heads", 2}, {"kv_heads", 1}}, in),
                  {2.4621172, 2, 2, 2}, 8e-3);
  expect_near_all(run("mqa", PlatformId("plena"), {{"s", 2}, {"h", 2}, {"heads", 2}}, in), {2.4621172, 2, 2, 2}, 8e-3);
}

TEST(FloatReference, FfnAndSwiGluOnScalars) {
  // silu(2) = 2 / (1 + e^-2) = 1.7615942. FFN: x = 2... W1 = 1, W2 = 3 -> 5.2847826.
  // SwiGLU: silu(1 * 2) * (1 * 3) * 1 = 5.2847826.
  for (PlatformId p : kBoth) {
    expect_near_all(run("ffn", p, {{"n", 1}, {"h", 1}, {"h_i", 1}},
                        {T("x", {1, 1}, {2}), T("W1", {1, 1}, {1}), T("W2", {1, 1}, {3})}),
                    {5.2847826}, 1e-2);
    expect_near_all(run("swiglu", p, {{"n", 1}, {"h", 1}, {"h_i", 1}},
                        {T("x", {1, 1}, {1}), T("W_gate", {1, 1}, {2}), T("W_up", {1, 1}, {3}), T("W_down", {1, 1}, {1})}),
                    {5.2847826}, 1e-2);
  }
}

TEST(FloatReference, DecoderBlocksOnOneToken) {
  // One token, h = 2, one head: attention over one key is exactly v. With Wv = Wo = I:
  // a = RMSNorm([3, 4]) = [0.8485281, 1.1313708] (mean square 12.5), x2 = x + a =
  // [3.8485281, 5.1313708]. W_gate = 0 gives SiLU(0) = 0, so the FFN adds nothing: y = x2.
  const std::vector<double> I{1, 0, 0, 1}, Z{0, 0}, g{1, 1};
  const Params p{{"s", 1}, {"h", 2}, {"heads", 1}, {"h_i", 1}};
  for (PlatformId pl : kBoth)
    expect_near_all(run("llama_decoder", pl, p,
                        {T("x", {1, 2}, {3, 4}), T("cos", {1, 2}, {1, 1}), T("sin", {1, 2}, {0, 0}), T("g_attn", {2}, g),
                         T("Wq", {2, 2}, {0.3, 0.1, -0.2, 0.5}), T("Wk", {2, 2}, {1, 2, 3, 4}), T("Wv", {2, 2}, I),
                         T("Wo", {2, 2}, I), T("g_ffn", {2}, g), T("W_gate", {2, 1}, Z), T("W_up", {2, 1}, {1, 1}),
                         T("W_down", {1, 2}, {1, 1})}),
                    {3.8485281, 5.1313708}, 6e-3);
  // T5: the same self-attention step, then cross-attention over one encoder token gives
  // enc Wv_c Wo_c = enc = [1, -1]: x3 = [4.8485281, 4.1313708]; W1 = 0 -> ReLU(0) = 0.
  for (PlatformId pl : kBoth)
    expect_near_all(run("t5_decoder", pl, p,
                        {T("x", {1, 2}, {3, 4}), T("enc", {1, 2}, {1, -1}), T("g_self", {2}, g),
                         T("Wq_s", {2, 2}, {1, 1, 1, 1}), T("Wk_s", {2, 2}, {2, 0, 0, 2}), T("Wv_s", {2, 2}, I),
                         T("Wo_s", {2, 2}, I), T("g_cross", {2}, g), T("Wq_c", {2, 2}, I), T("Wk_c", {2, 2}, I),
                         T("Wv_c", {2, 2}, I), T("Wo_c", {2, 2}, I), T("g_ffn", {2}, g), T("W1", {2, 1}, Z),
                         T("W2", {1, 2}, {5, 5})}),
                    {4.8485281, 4.1313708}, 6e-3);
}

TEST(FloatReference, RejectsInputsThatDoNotMatchTheSpec) {
  const TaskSpec& gemm = Registry::builtin().task("gemm");
  const Params p{{"M", 2}, {"K", 2}, {"N", 2}};
  EXPECT_THROW(reference(gemm, PlatformId("plena"), p, {T("A", {2, 2}, {1, 2, 3, 4})}), std::invalid_argument);
  try {
    reference(gemm, PlatformId("plena"), p, {T("A", {4}, {1, 2, 3, 4}), T("B", {2, 2}, {1, 2, 3, 4})});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "reference of gemm: input 'A' has shape [4], the spec says [2, 2]");
  }
  EXPECT_THROW(reference(Registry::builtin().task("rope"), PlatformId("coral"), {{"s", 2}, {"h", 2}}, {}),
               std::invalid_argument);
}

}  // namespace
}  // namespace tlmcraft::tasks
