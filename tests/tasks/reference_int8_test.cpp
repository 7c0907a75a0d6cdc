// Coral's integer formulation (platforms/coral/pack/int8_*.h, reached through the
// registry of tasks/integer_formulation.h) against hand-computed cases (exact).
#include <gtest/gtest.h>

#include "platforms/coral/pack/int8_math.h"
#include "tasks/generator.h"
#include "tasks/integer_formulation.h"
#include "tasks/numerics.h"
#include "tasks/reference/reference.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks {
namespace {

Tensor T(const std::string& name, std::vector<int64_t> shape, std::vector<double> v) {
  Tensor t(name, std::move(shape));
  t.data = std::move(v);
  return t;
}

std::vector<double> run(const std::string& task, const Params& params, const TensorSet& in) {
  return reference(Registry::builtin().task(task), PlatformId("coral"), params, in).at(0).data;
}

std::vector<double> table(const char* name) {
  const auto t = lookup_table(name);
  return std::vector<double>(t.begin(), t.end());
}

TEST(CoralInt, RoundingHelpers) {
  EXPECT_EQ(coral::rdiv(7, 2), 4);    // 3.5 rounds up
  EXPECT_EQ(coral::rdiv(-7, 2), -3);  // -3.5 rounds up too (half up, not away)
  EXPECT_EQ(coral::rdiv(5, 3), 2);    // 1.67
  EXPECT_EQ(coral::rdiv(-5, 3), -2);  // -1.67
  EXPECT_EQ(coral::rshift(5, 1), 3);  // 2.5 -> 3
  EXPECT_EQ(coral::rshift(-5, 1), -2);  // -2.5 -> -2
  EXPECT_EQ(coral::rshift(6, 2), 2);  // 1.5 -> 2
  EXPECT_EQ(coral::isqrt(0), 0);
  EXPECT_EQ(coral::isqrt(15), 3);
  EXPECT_EQ(coral::isqrt(16), 4);
  EXPECT_EQ(coral::isqrt(int64_t(1) << 40), int64_t(1) << 20);
  EXPECT_EQ(coral::isqrt(2147483647), 46340);  // 46340^2 = 2147395600, 46341^2 = 2147488281
  EXPECT_EQ(coral::sat8(200), 127);
  EXPECT_EQ(coral::sat8(-200), -128);
  EXPECT_EQ(round_half_away(-2.5), -3);
  EXPECT_EQ(round_half_away(2.5), 3);
  EXPECT_EQ(round_half_away(-2.4), -2);
  EXPECT_EQ(round_half_away(0.5), 1);
}

TEST(CoralInt, Tables) {
  const auto gelu = lookup_table("gelu_lut"), silu = lookup_table("silu_lut"), e = lookup_table("exp_q15");
  EXPECT_EQ(gelu[128], 0);         // x = 0
  EXPECT_EQ(gelu[160], 27);        // x = 1: 32 * 0.841192 = 26.92
  EXPECT_EQ(gelu[0], 0);           // x = -4: gelu = -7e-5
  EXPECT_EQ(silu[160], 23);        // x = 1: 32 * 0.7310586 = 23.39
  EXPECT_EQ(silu[255], 125);       // x = 3.96875: 32 * 3.8951 = 124.64
  EXPECT_EQ(e[0], 32767);
  EXPECT_EQ(e[16], 12054);         // 32767 / e = 12054.3
  EXPECT_EQ(gelu, coral::gelu_table());  // the registry hands out the pack's tables
  try {
    lookup_table("tanh_lut");
    FAIL() << "an unknown table was found";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown table 'tanh_lut' (exp_q15, gelu_lut, silu_lut)");
  }
}

TEST(CoralInt, ShiftsFollowTheDocumentedFormula) {
  // shift = round(log2(73.9^2 sqrt(K) / 32)): K = 1 -> log2(170.7) = 7.4 -> 7;
  // K = 2 -> log2(241.4) = 7.9 -> 8; K = 9 -> log2(512.0) -> 9.
  EXPECT_EQ(coral::constant("gemm", {{"M", 1}, {"K", 1}, {"N", 1}}, "shift"), 7);
  EXPECT_EQ(coral::constant("gemm", {{"M", 1}, {"K", 2}, {"N", 1}}, "shift"), 8);
  EXPECT_EQ(coral::constant("conv2d", {{"H", 3}, {"c_in", 1}, {"c_out", 1}, {"k", 3}}, "shift"), 9);
  // FFN: shift2 = round(log2(20 * 73.9 * 1 / 32)) = round(5.53) = 6.
  EXPECT_EQ(coral::constant("ffn", {{"n", 1}, {"h", 1}, {"h_i", 1}}, "shift2"), 6);
  EXPECT_TRUE(coral::constants("relu", {{"n", 4}}).empty());
  EXPECT_THROW(coral::constant("relu", {{"n", 4}}, "shift"), std::out_of_range);
}

TEST(CoralReference, ElementwiseAndLookups) {
  EXPECT_EQ(run("relu", {{"n", 3}}, {T("x", {3}, {-5, 0, 7})}), (std::vector<double>{0, 0, 7}));
  EXPECT_EQ(run("gelu", {{"n", 2}}, {T("x", {2}, {0, 32}), T("lut", {256}, table("gelu_lut"))}),
            (std::vector<double>{0, 27}));
  EXPECT_EQ(run("silu", {{"n", 2}}, {T("x", {2}, {32, 127}), T("lut", {256}, table("silu_lut"))}),
            (std::vector<double>{23, 125}));
}

TEST(CoralReference, Softmax) {
  // Equal inputs: e = [32767, 32767], S = 65534, y = rdiv(128 * 32767, 65534) = 64.
  EXPECT_EQ(run("softmax", {{"n", 2}}, {T("x", {2}, {0, 0}), T("exp_table", {256}, table("exp_q15"))}),
            (std::vector<double>{64, 64}));
  // x = [16, 0]: e = [32767, exp_q15[16] = 12054], S = 44821;
  // y = [rdiv(4194176, 44821) = 93.58 -> 94, rdiv(1542912, 44821) = 34.42 -> 34].
  EXPECT_EQ(run("softmax", {{"n", 2}}, {T("x", {2}, {16, 0}), T("exp_table", {256}, table("exp_q15"))}),
            (std::vector<double>{94, 34}));
}

TEST(CoralReference, LayerNormOfFour) {
  // x = [1,2,3,4]: mean = rdiv(10, 4) = 3 (2.5 up); c = [-2,-1,0,1]; var = rdiv(6, 4) = 2;
  // sd = isqrt(256 * 3 = 768) = 27; z = rdiv(512 c, 27) = [-38, -19, 0, 19]
  // (-37.93, -18.96, 0, 18.96); gamma 64 (1.0 in Q6) keeps z; beta 1 adds 1.
  EXPECT_EQ(run("layernorm", {{"n", 4}},
                {T("x", {4}, {1, 2, 3, 4}), T("gamma", {4}, {64, 64, 64, 64}), T("beta", {4}, {1, 1, 1, 1})}),
            (std::vector<double>{-37, -18, 1, 20}));
}

TEST(CoralReference, RmsNormOfTwo) {
  // sum of squares 25, ms = rdiv(25, 2) = 13, sd = isqrt(256 * 14 = 3584) = 59;
  // z = [rdiv(1536, 59) = 26 (26.03), rdiv(2048, 59) = 35 (34.71)];
  // gamma 32 (0.5): [rdiv(832, 64) = 13, rdiv(1120, 64) = 18 (17.5 up)].
  EXPECT_EQ(run("rmsnorm", {{"n", 2}}, {T("x", {2}, {3, 4}), T("gamma", {2}, {32, 32})}), (std::vector<double>{13, 18}));
}

TEST(CoralReference, MatmulsRequantise) {
  // K = 2 -> shift 8. acc = [[100*100 + 100*100, 100*27 + 100*-128], [-100*100 + 50*100, -100*27 + 50*-128]]
  //   = [[20000, -10100], [-5000, -9100]]; (acc + 128) >> 8 = [[78, -39], [-20, -36]].
  EXPECT_EQ(run("gemm", {{"M", 2}, {"K", 2}, {"N", 2}},
                {T("A", {2, 2}, {100, 100, -100, 50}), T("B", {2, 2}, {100, 27, 100, -128})}),
            (std::vector<double>{78, -39, -20, -36}));
  // y = A x: acc = [100*100 + 100*50, 100*100 - 100*50] = [15000, 5000] -> [59, 20].
  EXPECT_EQ(run("gemv", {{"M", 2}, {"N", 2}}, {T("A", {2, 2}, {100, 100, 100, -100}), T("x", {2}, {100, 50})}),
            (std::vector<double>{59, 20}));
  // Linear with bias: acc = 127*127*2 + 20000 = 52258 -> 204 saturates to 127; bias -52258 -> 0.
  EXPECT_EQ(run("linear", {{"M", 1}, {"K", 2}, {"N", 2}},
                {T("x", {1, 2}, {127, 127}), T("W", {2, 2}, {127, 0, 127, 0}), T("bias", {2}, {20000, 0})}),
            (std::vector<double>{127, 0}));
  // Batches of 1x1x1 (K = 1, shift 7): [10000, -10000] -> [(10064 >> 7) = 78, (-9936 >> 7) = -78].
  EXPECT_EQ(run("batchmatmul", {{"b", 2}, {"M", 1}, {"K", 1}, {"N", 1}},
                {T("A", {2, 1, 1}, {100, -100}), T("B", {2, 1, 1}, {100, 100})}),
            (std::vector<double>{78, -78}));
}

TEST(CoralReference, Conv2dOneChannel3x3) {
  // x = 10..90, filter of 100s, K = 9 -> shift 9. Corner: (10+20+40+50) * 100 = 12000 ->
  // (12000 + 256) >> 9 = 23; edge (0,1): 21000 -> 41; centre: 45000 -> 88.
  const std::vector<double> x{10, 20, 30, 40, 50, 60, 70, 80, 90}, w(9, 100.0);
  const auto conv = run("conv2d", {{"H", 3}, {"c_in", 1}, {"c_out", 1}, {"k", 3}}, {T("x", {3, 3, 1}, x), T("w", {3, 3, 1, 1}, w)});
  EXPECT_EQ(conv[0], 23);
  EXPECT_EQ(conv[1], 41);
  EXPECT_EQ(conv[4], 88);
  EXPECT_EQ(run("depthwise_conv", {{"H", 3}, {"c", 1}, {"k", 3}}, {T("x", {3, 3, 1}, x), T("w", {3, 3, 1}, w)}), conv);
}

TEST(CoralReference, FfnSwigluConvBlock) {
  // FFN (shift1 7, shift2 6): a = (100*64 + 64) >> 7 = 50; silu_lut[178]: 32 silu(1.5625)
  // = 32 * 1.29174 = 41.3 -> 41; y = (41*100 + 32) >> 6 = 64.
  EXPECT_EQ(run("ffn", {{"n", 1}, {"h", 1}, {"h_i", 1}},
                {T("x", {1, 1}, {100}), T("W1", {1, 1}, {64}), T("W2", {1, 1}, {100}), T("silu_lut", {256}, table("silu_lut"))}),
            (std::vector<double>{64}));
  // SwiGLU: g = 50 -> s = 41; u = (4000 + 64) >> 7 = 31; a = (41*31 + 16) >> 5 = 40;
  // y = (40*100 + 32) >> 6 = 63.
  EXPECT_EQ(run("swiglu", {{"n", 1}, {"h", 1}, {"h_i", 1}},
                {T("x", {1, 1}, {100}), T("W_gate", {1, 1}, {64}), T("W_up", {1, 1}, {40}), T("W_down", {1, 1}, {100}),
                 T("silu_lut", {256}, table("silu_lut"))}),
            (std::vector<double>{63}));
  // ConvBlock, k = 1 (shift 7): acc [10000, -10000] -> t [78, -78]; BN in Q6:
  // (78*64 + 640 + 32) >> 6 = 88, (-78*64 + 0 + 32) >> 6 = -78 -> ReLU 0.
  EXPECT_EQ(run("conv_block", {{"H", 1}, {"c_in", 1}, {"c_out", 2}, {"k", 1}},
                {T("x", {1, 1, 1}, {100}), T("w", {1, 1, 1, 2}, {100, -100}), T("bn_mult", {2}, {64, 64}),
                 T("bn_bias", {2}, {640, 0})}),
            (std::vector<double>{88, 0}));
}

TEST(CoralReference, RopeOfTwoPositions) {
  // s = 2, h = d = 4 (half 2). Row 0: cos 127 (1.0 saturated), sin 0: y = (127 x + 64) >> 7:
  // 100 -> 12764 >> 7 = 99 (99.7); -50 -> -6286 >> 7 = -50 (-49.1 floors); 3 -> 445 >> 7 = 3;
  // -128 -> -16192 >> 7 = -127 (-126.5 floors).
  // Row 1 (theta = 1, 0.01): cos [69, 127, 69, 127], sin [108, 1, 108, 1], x = [127, 127, -128, 64]:
  // j=0: 127*69 - (-128)*108 = 22587 -> 22651 >> 7 = 176 -> sat 127;
  // j=1: 127*127 - 64*1 = 16065 -> 16129 >> 7 = 126;
  // j=2: -128*69 + 127*108 = 4884 -> 4948 >> 7 = 38;
  // j=3: 64*127 + 127*1 = 8255 -> 8319 >> 7 = 64.
  EXPECT_EQ(run("rope", {{"s", 2}, {"h", 4}},
                {T("x", {2, 4}, {100, -50, 3, -128, 127, 127, -128, 64}),
                 T("cos", {2, 4}, {127, 127, 127, 127, 69, 127, 69, 127}),
                 T("sin", {2, 4}, {0, 0, 0, 0, 108, 1, 108, 1})}),
            (std::vector<double>{99, -50, 3, -127, 127, 126, 38, 64}));
}

TEST(CoralReference, RopeTablesAreQ7) {
  // cos(0) = 1 -> 128, saturated to 127 by the int8 memory; p = 1, d = 4: theta = 1, 0.01:
  // cos 1 = 0.5403 -> 69.2 -> 69, cos 0.01 = 0.99995 -> 128 -> 127, sin 1 = 0.8415 -> 107.7
  // -> 108, sin 0.01 = 0.0099998 -> 1.28 -> 1.
  const auto in = generate_inputs(Registry::builtin().task("rope"), PlatformId("coral"), {{"s", 2}, {"h", 4}}, 3);
  EXPECT_EQ(find(in, "cos").data, (std::vector<double>{127, 127, 127, 127, 69, 127, 69, 127}));
  EXPECT_EQ(find(in, "sin").data, (std::vector<double>{0, 0, 0, 0, 108, 1, 108, 1}));
}

TEST(CoralReference, RopeSaturatingRangeSaturatesManyOutputs) {
  // x in [96, 127]: the second half's x cos + x' sin reaches 127 * 181 / 128 = 180 wherever
  // cos and sin are both large, so many outputs sit at 127 (ordinary inputs: a few).
  const TaskSpec& rope = Registry::builtin().task("rope");
  const Params p{{"s", 64}, {"h", 64}};
  auto saturated = [&](const std::string& range) {
    const TensorSet in = generate_inputs(rope, PlatformId("coral"), p, 7, range);
    int n = 0;
    for (double v : reference(rope, PlatformId("coral"), p, in).at(0).data) n += v == 127 || v == -128;
    return n;
  };
  EXPECT_GT(saturated("saturating"), 64 * 64 / 10);
  EXPECT_LT(saturated("ordinary"), saturated("saturating"));
}

TEST(CoralReference, WrongInputShapeIsRejectedByName) {
  try {
    run("rope", {{"s", 2}, {"h", 4}}, {T("x", {8}, std::vector<double>(8, 0)), T("cos", {2, 4}, std::vector<double>(8, 0)),
                                       T("sin", {2, 4}, std::vector<double>(8, 0))});
    FAIL() << "a wrong shape was accepted";
  } catch (const std::exception& e) {
    EXPECT_EQ(std::string(e.what()), "reference of rope: input 'x' has shape [8], the spec says [2, 4]");
  }
}

// Decoders at s = 1, h = 2, heads = 1, h_i = 1: one key, so every softmax is
// min(127, rdiv(128 * 32767, 32767)) = 127 whatever the logits, and o = sat8((127 v + 64) >> 7).
// Shifts: shift_qkv = shift1 = round(log2(32 * 73.9 * sqrt(2) / 32)) = round(6.71) = 7,
// shift_o = round(log2(16 * 73.9 * sqrt(2) / 32)) = round(5.71) = 6, shift2 = round(log2(20 * 73.9 / 32)) = 6.
const Params kDecoder{{"s", 1}, {"h", 2}, {"heads", 1}, {"h_i", 1}};

TEST(CoralReference, DecoderShifts) {
  EXPECT_EQ(coral::constant("llama_decoder", kDecoder, "shift_qkv"), 7);
  EXPECT_EQ(coral::constant("llama_decoder", kDecoder, "shift_o"), 6);
  EXPECT_EQ(coral::constant("t5_decoder", kDecoder, "shift1"), 7);
  EXPECT_EQ(coral::constant("t5_decoder", kDecoder, "shift2"), 6);
}

TEST(CoralReference, LlamaDecoderOfOneToken) {
  // a = RMSNorm([64, 0], gamma 64): ms = 2048, sd = isqrt(256 * 2049) = 724, z = rdiv(32768, 724) = 45 -> a = [45, 0].
  // v = requant(45 * [100, -50], 7) = [(4500 + 64) >> 7 = 35, (-2250 + 64) >> 7 = -18];
  // o = [(4445 + 64) >> 7 = 35, (-2286 + 64) >> 7 = -18]; Wo = 64 I: proj = [(2240 + 32) >> 6 = 35,
  // (-1152 + 32) >> 6 = -18]; x2 = [99, -18].
  // b = RMSNorm(x2): ms = rdiv(10125, 2) = 5063, sd = isqrt(256 * 5064) = 1138, z = [rdiv(50688, 1138) = 45,
  // rdiv(-9216, 1138) = -8] -> b = [45, -8].
  // SwiGLU: g = (45 * 64 + 64) >> 7 = 23; u = (45 * 100 + 64) >> 7 = 35; silu_lut[151] = round(32 silu(0.71875)
  // = 15.46) = 15; a = (15 * 35 + 16) >> 5 = 16; f = [(16 * 64 + 32) >> 6 = 16, (-2048 + 32) >> 6 = -32];
  // y = x2 + f = [115, -50]. (RoPE at position 0: cos 127, sin 0; Wq and Wk only move the single logit.)
  EXPECT_EQ(run("llama_decoder", kDecoder,
                {T("x", {1, 2}, {64, 0}), T("cos", {1, 2}, {127, 127}), T("sin", {1, 2}, {0, 0}),
                 T("g_attn", {2}, {64, 64}), T("Wq", {2, 2}, {1, 2, 3, 4}), T("Wk", {2, 2}, {-5, 6, 7, -8}),
                 T("Wv", {2, 2}, {100, -50, 9, 9}), T("Wo", {2, 2}, {64, 0, 0, 64}), T("g_ffn", {2}, {64, 64}),
                 T("W_gate", {2, 1}, {64, 0}), T("W_up", {2, 1}, {100, 0}), T("W_down", {1, 2}, {64, -128}),
                 T("silu_lut", {256}, table("silu_lut")), T("exp_table", {256}, table("exp_q15"))}),
            (std::vector<double>{115, -50}));
}

TEST(CoralReference, T5DecoderOfOneToken) {
  // Self-attention as in LlamaDecoderOfOneToken: x2 = [99, -18]. Cross: v = requant(enc Wv_c, 7) with
  // enc = [32, 32]: [(6400 + 64) >> 7 = 50, (1600 + 64) >> 7 = 13]; o = [(6350 + 64) >> 7 = 50,
  // (1651 + 64) >> 7 = 13]; proj = [(3200 + 32) >> 6 = 50, (832 + 32) >> 6 = 13]; x3 = sat8([149, -5]) = [127, -5].
  // c = RMSNorm(x3): ms = rdiv(16154, 2) = 8077, sd = isqrt(256 * 8078) = 1438,
  // z = [rdiv(65024, 1438) = 45, rdiv(-2560, 1438) = -2]; r = (45 * 64 - 2 * 64 + 64) >> 7 = 22 (ReLU keeps it);
  // f = [(1408 + 32) >> 6 = 22, (-2816 + 32) >> 6 = -44]; y = sat8([149, -49]) = [127, -49].
  EXPECT_EQ(run("t5_decoder", kDecoder,
                {T("x", {1, 2}, {64, 0}), T("enc", {1, 2}, {32, 32}), T("g_self", {2}, {64, 64}),
                 T("Wq_s", {2, 2}, {1, 2, 3, 4}), T("Wk_s", {2, 2}, {-5, 6, 7, -8}), T("Wv_s", {2, 2}, {100, -50, 9, 9}),
                 T("Wo_s", {2, 2}, {64, 0, 0, 64}), T("g_cross", {2}, {64, 64}), T("Wq_c", {2, 2}, {1, 1, 1, 1}),
                 T("Wk_c", {2, 2}, {2, 2, 2, 2}), T("Wv_c", {2, 2}, {100, 0, 100, 50}), T("Wo_c", {2, 2}, {64, 0, 0, 64}),
                 T("g_ffn", {2}, {64, 64}), T("W1", {2, 1}, {64, 64}), T("W2", {1, 2}, {64, -128}),
                 T("exp_table", {256}, table("exp_q15"))}),
            (std::vector<double>{127, -49}));
}

}  // namespace
}  // namespace tlmcraft::tasks
