// Coral's integer attention core (platforms/coral/pack/int8_attention.h) against
// hand-computed cases (exact). exp_q15[0] = 32767, [16] = 12054, [144] = 4.
#include <gtest/gtest.h>

#include "platforms/coral/pack/int8_attention.h"
#include "platforms/coral/pack/int8_math.h"
#include "tasks/reference/reference.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks::coral {
namespace {

ref::Vec exp_table() {
  const auto t = exp_q15_table();
  return ref::Vec(t.begin(), t.end());
}

Tensor T(const std::string& name, std::vector<int64_t> shape, std::vector<double> v) {
  Tensor t(name, std::move(shape));
  t.data = std::move(v);
  return t;
}

// The task's Coral reference (through the registry) on Q, K, V and the exp table.
ref::Vec run(const std::string& task, const Params& p, int64_t kv_width, ref::Vec q, ref::Vec k, ref::Vec v) {
  const int64_t s = p.at("s"), h = p.at("h");
  const TensorSet in{T("Q", {s, h}, std::move(q)), T("K", {s, kv_width}, std::move(k)),
                     T("V", {s, kv_width}, std::move(v)), T("exp_table", {256}, exp_table())};
  return reference(Registry::builtin().task(task), PlatformId("coral"), p, in).at(0).data;
}

TEST(CoralAttention, LogitsRequantiseAndSaturate) {
  // q = [1, 2], k rows [3, 4], [-5, -1], [100, 100]: S = 11, -7, 300; shift 1:
  // (11 + 1) >> 1 = 6, (-7 + 1) >> 1 = -3, (300 + 1) >> 1 = 150 -> 127.
  EXPECT_EQ(int8_logits({1, 2}, {3, 4, -5, -1, 100, 100}, 1, 3, 2, 1), (ref::Vec{6, -3, 127}));
}

TEST(CoralAttention, SoftmaxIsTheCoralSoftmaxTasks) {
  // t = [16, 0]: e = [32767, 12054], L = 44821; p = rdiv(128 e, L):
  // 4194176 / 44821 = 93.58 -> 94, 1542912 / 44821 = 34.42 -> 34.
  const ref::Vec t{16, 0};
  EXPECT_EQ(int8_softmax_q7(t.data(), 2, exp_table()), (ref::Vec{94, 34}));
}

TEST(CoralAttention, OneHeadTwoKeys) {
  // q = 32, k = [1, 0] (d = 1), shift 1: t = [16, 0], p = [94, 34] (above);
  // v = [100, -50]: P V = 9400 - 1700 = 7700; (7700 + 64) >> 7 = 60 (float: 59.7).
  EXPECT_EQ(int8_attention({32}, {1, 0}, {100, -50}, 1, 2, 1, 1, 1, 1, exp_table()), (ref::Vec{60}));
}

TEST(CoralAttention, QueryHeadsShareTheKeyValueHead) {
  // heads = 2, kv_heads = 1, d = 1: head 0 (q = 32) is the case above -> 60. Head 1 (q = -32):
  // S = [-32, 0], t = [-16, 0], m = 0, e = [12054, 32767], p = [34, 94];
  // P V = 3400 - 4700 = -1300; (-1300 + 64) >> 7 = floor(-9.66) = -10.
  EXPECT_EQ(int8_attention({32, -32}, {1, 0}, {100, -50}, 1, 2, 2, 1, 1, 1, exp_table()), (ref::Vec{60, -10}));
  // kv_heads = 2 (k = [[1, 0], [0, 1]], v = [[100, 7], [-50, 7]]): head 0 sees column 0 (-> 60);
  // head 1 sees k = [0, 1]: t = [0, -16], p = [94, 34], v = [7, 7]: (128 * 7 + 64) >> 7 = 7.
  EXPECT_EQ(int8_attention({32, -32}, {1, 0, 0, 1}, {100, 7, -50, 7}, 1, 2, 2, 2, 1, 1, exp_table()),
            (ref::Vec{60, 7}));
}

TEST(CoralAttention, FlashRescalesWhenTheMaximumGrows) {
  // Blocks of one key, k = [0, 1] (t = [0, 16]), v = [-50, 100]:
  // key 0: m = 0 (from -128: rescale of zeros), e = 32767, l = 32767, acc = -1638350.
  // key 1: m grows to 16, a = exp_q15[16] = 12054: l = (32767 * 12054 + 2^14) >> 15 = 12054,
  //   acc = (-1638350 * 12054 + 2^14) >> 15 = floor(-602681.1) = -602682;
  //   e = 32767: l = 44821, acc = 2674018. O = rdiv(2674018, 44821) = round(59.66) = 60.
  // Without the rescale: acc = 1638350, l = 65534 -> 25.
  EXPECT_EQ(int8_flash_attention({32}, {0, 1}, {-50, 100}, 1, 2, 1, 1, 1, 1, 1, exp_table()), (ref::Vec{60}));
  // One block of both keys: m = 16 at once, acc = -50 12054 + 100 32767 = 2674000 -> 60.
  EXPECT_EQ(int8_flash_attention({32}, {0, 1}, {-50, 100}, 1, 2, 1, 1, 1, 1, 2, exp_table()), (ref::Vec{60}));
  // A negative result rounds half up: v = [-50, -100]: acc = -50 32767 + -100 12054 = -2843750,
  // one block, keys [1, 0] (t = [16, 0]); rdiv = floor((2 acc + l) / 2l) = floor(-63.45) -> -63.
  EXPECT_EQ(int8_flash_attention({32}, {1, 0}, {-50, -100}, 1, 2, 1, 1, 1, 1, 2, exp_table()), (ref::Vec{-63}));
}

TEST(CoralAttention, ShiftFoldsTheScaleOfTheHeadWidth) {
  // shift_qk = round(log2(73.9^2 sqrt(d) / 32)): d = 16 -> log2(682.6) = 9.41 -> 9;
  // d = 64 -> log2(1365.3) = 10.41 -> 10 (mha: d = h / heads).
  EXPECT_EQ(constant("scaled_dot_product", {{"s", 8}, {"h", 16}}, "shift_qk"), 9);
  EXPECT_EQ(constant("mha", {{"s", 8}, {"h", 128}, {"heads", 2}}, "shift_qk"), 10);
  EXPECT_EQ(constant("flash_attention", {{"s", 8}, {"h", 64}}, "block"), 16);
}

// The five tasks through the registry, d = 1 (shift_qk = round(log2(73.9^2 / 32)) = 7):
// Q [[64], [-64]] against K [[32], [0]]: S = [2048, 0] -> t = [16, 0] (row 0) and
// [-16, 0] (row 1); with V [[100], [-50]] row 0 gives 60 and row 1 -10 (the cases above).
TEST(CoralAttentionTasks, ScaledDotProductAndFlashOnTwoTokens) {
  EXPECT_EQ(run("scaled_dot_product", {{"s", 2}, {"h", 1}}, 1, {64, -64}, {32, 0}, {100, -50}), (ref::Vec{60, -10}));
  // One block (16 keys): row 0 acc = 100 * 32767 - 50 * 12054 = 2674000, l = 44821 -> 60;
  // row 1 acc = 100 * 12054 - 50 * 32767 = -432950 -> floor((-865900 + 44821) / 89642) = -10.
  EXPECT_EQ(run("flash_attention", {{"s", 2}, {"h", 1}}, 1, {64, -64}, {32, 0}, {100, -50}), (ref::Vec{60, -10}));
}

TEST(CoralAttentionTasks, HeadsShareKeyValueHeadsAsEachTaskSays) {
  // Q [[64, -64], [0, 0]] (two heads of d = 1). Row 1 has t = [0, 0]: p = rdiv(128 * 32767,
  // 65534) = 64 for both keys.
  // MHA, K [[32, 32], [0, 0]], V [[100, 7], [-50, 7]]: head 0 row 0 -> 60, row 1
  // (64 * 100 - 64 * 50 + 64) >> 7 = 25; head 1 (t = [-16, 0], then [0, 0]) averages 7s -> 7.
  EXPECT_EQ(run("mha", {{"s", 2}, {"h", 2}, {"heads", 2}}, 2, {64, -64, 0, 0}, {32, 32, 0, 0}, {100, 7, -50, 7}),
            (ref::Vec{60, 7, 25, 7}));
  // GQA with one key/value head and MQA: both query heads read K [[32], [0]], V [[100], [-50]]:
  // head 0 row 0 -> 60, head 1 row 0 -> -10, row 1 -> 25 for both.
  const ref::Vec want{60, -10, 25, 25};
  EXPECT_EQ(run("gqa", {{"s", 2}, {"h", 2}, {"heads", 2}, {"kv_heads", 1}}, 1, {64, -64, 0, 0}, {32, 0}, {100, -50}),
            want);
  EXPECT_EQ(run("mqa", {{"s", 2}, {"h", 2}, {"heads", 2}}, 1, {64, -64, 0, 0}, {32, 0}, {100, -50}), want);
}

TEST(CoralAttention, RejectsBadShapes) {
  const ref::Vec k(129, 0);
  try {
    int8_attention({1}, k, k, 1, 129, 1, 1, 1, 1, exp_table());
    FAIL() << "129 keys were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "int8 attention: 129 keys exceed the int32 bound of 128");
  }
  EXPECT_THROW(int8_attention({1, 1, 1}, {1}, {1}, 1, 1, 3, 2, 1, 1, exp_table()), std::invalid_argument);
  EXPECT_THROW(int8_attention({1}, {1, 2}, {1}, 1, 1, 1, 1, 1, 1, exp_table()), std::invalid_argument);
}

}  // namespace
}  // namespace tlmcraft::tasks::coral
