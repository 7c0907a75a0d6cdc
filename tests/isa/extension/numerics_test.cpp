// Exact numerics of the semantics language: bf16 rounding after every operation, fma's
// single rounding, integer wrap, saturation and rounding shifts at ties of both signs,
// conversions, reductions, the activation functions, and read-before-write aliasing.
// Each expected value is derived by hand in its comment.
#include <gtest/gtest.h>

#include <cmath>

#include "isa/formats/bf16.h"
#include "tests/isa/extension/test_support.h"

namespace tlmcraft::isa::extension::test {
namespace {

using formats::bf16_to_float;
using formats::float_to_bf16;

// Compiles `text` with two inputs a, b and one output y, all `lanes`-lane vectors of f.
ExprProgram binary_program(const std::string& text, ElemFormat f, uint32_t lanes, ElemFormat out = ElemFormat::Bool) {
  if (out == ElemFormat::Bool) out = f;
  return compile_semantics(text, block(),
                           {{"y", vector_of(out, lanes), Role::Output},
                            {"a", vector_of(f, lanes), Role::Input},
                            {"b", vector_of(f, lanes), Role::Input}});
}

std::vector<uint16_t> run_bf16(const std::string& text, const std::vector<uint16_t>& a, const std::vector<uint16_t>& b) {
  const ExprProgram p = binary_program(text, ElemFormat::BF16, uint32_t(a.size()));
  return evaluate(p, {Value::from_bf16_bits(a, true), Value::from_bf16_bits(b, true)})[0].bf16_bits();
}

std::vector<int64_t> run_int(const std::string& text, ElemFormat f, const std::vector<int64_t>& a,
                             const std::vector<int64_t>& b, ElemFormat out = ElemFormat::Bool) {
  const ExprProgram p = binary_program(text, f, uint32_t(a.size()), out);
  return evaluate(p, {Value::vector_int(f, a), Value::vector_int(f, b)})[0].ints;
}

TEST(SemanticsNumerics, Bf16AddRoundsToNearestEven) {
  // 1.0 (0x3F80) + 2^-8 (0x3B80) = 1 + 2^-8, halfway between 1.0 and 1 + 2^-7 (0x3F81):
  // ties to even -> 0x3F80. (1 + 2^-7) + 2^-8 is halfway between 0x3F81 and 0x3F82 -> 0x3F82.
  EXPECT_EQ(run_bf16("y = a + b", {0x3F80, 0x3F81}, {0x3B80, 0x3B80}), (std::vector<uint16_t>{0x3F80, 0x3F82}));
}

TEST(SemanticsNumerics, Bf16RoundsAfterEveryOperation) {
  // (1 + 2^-8) rounds to 1.0 before the subtraction, so (a + b) - a = 0 (in f32 it would
  // be 2^-8 = 0x3B80).
  EXPECT_EQ(run_bf16("y = (a + b) - a", {0x3F80}, {0x3B80}), (std::vector<uint16_t>{0x0000}));
}

TEST(SemanticsNumerics, FmaRoundsOnce) {
  // a = b = 1 + 2^-4 (0x3F88): a*b = 1 + 2^-3 + 2^-8 exactly. With c = -1.125 (0xBF90),
  // fma = 2^-8 (0x3B80). a*b + c rounds the product first: 1 + 2^-3 + 2^-8 is a tie
  // between 1.125 and 1.1328125, to even 1.125, so the sum is 0.
  const ExprProgram p = compile_semantics("y = fma(a, a, c)\nz = a * a + c", block(),
                                          {{"y", vector_of(ElemFormat::BF16, 1), Role::Output},
                                           {"z", vector_of(ElemFormat::BF16, 1), Role::Output},
                                           {"a", vector_of(ElemFormat::BF16, 1), Role::Input},
                                           {"c", vector_of(ElemFormat::BF16, 1), Role::Input}});
  const auto out = evaluate(p, {Value::from_bf16_bits({0x3F88}, true), Value::from_bf16_bits({0xBF90}, true)});
  EXPECT_EQ(out[0].bf16_bits(), std::vector<uint16_t>{0x3B80});
  EXPECT_EQ(out[1].bf16_bits(), std::vector<uint16_t>{0x0000});
}

TEST(SemanticsNumerics, Bf16FmaRoundsOnceEvenWhenTheAddendIsTiny) {
  // a*a = 1.125 + 2^-8 is exactly a bf16 tie; c = +-2^-60 (0x2180 / 0xA180) decides it:
  // + rounds up to 1.1328125 (0x3F91), - rounds down to 1.125 (0x3F90). Rounding the
  // sum to double first would lose c and give the even 0x3F90 for both.
  EXPECT_EQ(run_bf16("y = fma(a, a, b)", {0x3F88, 0x3F88}, {0x2180, 0xA180}),
            (std::vector<uint16_t>{0x3F91, 0x3F90}));
}

TEST(SemanticsNumerics, F32FmaRoundsOnce) {
  // a = 1 + 2^-12: a*a = 1 + 2^-11 + 2^-24; minus (1 + 2^-11) leaves 2^-24 with fma, 0
  // when a*a is first rounded to f32 (2^-24 is a tie below 1 + 2^-11's last bit, even).
  const float a = 1.0f + std::ldexp(1.0f, -12), c = -(1.0f + std::ldexp(1.0f, -11));
  const ExprProgram p = binary_program("y = fma(a, a, b)", ElemFormat::F32, 1);
  EXPECT_EQ(evaluate(p, {Value::vector_float(ElemFormat::F32, {a}), Value::vector_float(ElemFormat::F32, {c})})[0].floats[0],
            std::ldexp(1.0f, -24));
}

TEST(SemanticsNumerics, IntegersWrapAtTheirWidth) {
  // i8: 100 + 100 = 200 - 256 = -56; -128 - 1 = 127; 64 * 4 = 256 -> 0. u8: 3 - 5 = 254.
  EXPECT_EQ(run_int("y = a + b", ElemFormat::I8, {100, -128}, {100, -1}), (std::vector<int64_t>{-56, 127}));
  EXPECT_EQ(run_int("y = a * b", ElemFormat::I8, {64}, {4}), (std::vector<int64_t>{0}));
  EXPECT_EQ(run_int("y = a - b", ElemFormat::U8, {3}, {5}), (std::vector<int64_t>{254}));
  // Shifts: i8 -128 >> 1 = -64 (arithmetic); u8 128 >> 1 = 64; the amount is taken mod 8.
  EXPECT_EQ(run_int("y = a >> b", ElemFormat::I8, {-128, 1}, {1, 9}), (std::vector<int64_t>{-64, 0}));
  EXPECT_EQ(run_int("y = a >> b", ElemFormat::U8, {128}, {1}), (std::vector<int64_t>{64}));
  // Division: 7 / -2 = -3 (toward zero), 7 % -2 = 1; x / 0 = -1, x % 0 = x; -128 / -1 wraps to -128.
  EXPECT_EQ(run_int("y = a / b", ElemFormat::I8, {7, 5, -128}, {-2, 0, -1}), (std::vector<int64_t>{-3, -1, -128}));
  EXPECT_EQ(run_int("y = a % b", ElemFormat::I8, {7, 5, -128}, {-2, 0, -1}), (std::vector<int64_t>{1, 5, 0}));
}

TEST(SemanticsNumerics, SaturationToInt8) {
  // sat(a + b, i8) with the sum in i32: 200 -> 127, -200 -> -128, 127 and -128 and 5 stay.
  EXPECT_EQ(run_int("y = sat(a + b, i8)", ElemFormat::I32, {100, -100, 127, -128, 5}, {100, -100, 0, 0, 0},
                    ElemFormat::I8),
            (std::vector<int64_t>{127, -128, 127, -128, 5}));
}

TEST(SemanticsNumerics, SrsRoundsHalfAwayFromZeroAndSaturates) {
  // a / 2^b: 3/2 = 1.5 -> 2, -3/2 = -1.5 -> -2, 5/2 = 2.5 -> 3, -5/2 -> -3, 6/4 = 1.5 -> 2,
  // -10/4 = -2.5 -> -3, 255/2 = 127.5 -> 128 -> sat 127, -257/2 = -128.5 -> -129 -> sat -128.
  EXPECT_EQ(run_int("y = srs(a, b, i8)", ElemFormat::I32, {3, -3, 5, -5, 6, -10, 255, -257}, {1, 1, 1, 1, 2, 2, 1, 1},
                    ElemFormat::I8),
            (std::vector<int64_t>{2, -2, 3, -3, 2, -3, 127, -128}));
}

TEST(SemanticsNumerics, RneRoundsHalfToEven) {
  // 1.5 -> 2, -1.5 -> -2, 2.5 -> 2, -2.5 -> -2, 6/4 = 1.5 -> 2, -10/4 = -2.5 -> -2,
  // 127.5 -> 128 -> sat 127, -128.5 -> -128 (even), 7/4 = 1.75 -> 2, -7/4 -> -2.
  EXPECT_EQ(run_int("y = rne(a, b, i8)", ElemFormat::I32, {3, -3, 5, -5, 6, -10, 255, -257, 7, -7},
                    {1, 1, 1, 1, 2, 2, 1, 1, 2, 2}, ElemFormat::I8),
            (std::vector<int64_t>{2, -2, 2, -2, 2, -2, 127, -128, 2, -2}));
}

TEST(SemanticsNumerics, FloatToIntRoundsToEvenAndSaturates) {
  // 2.5 -> 2, 3.5 -> 4, -2.5 -> -2, 300 -> 127, -1e9 -> -128, NaN -> 0.
  const ExprProgram p = compile_semantics("y = i8(a)", block(),
                                          {{"y", vector_of(ElemFormat::I8, 6), Role::Output},
                                           {"a", vector_of(ElemFormat::F32, 6), Role::Input}});
  const auto out = evaluate(p, {Value::vector_float(ElemFormat::F32, {2.5f, 3.5f, -2.5f, 300.0f, -1e9f, NAN})});
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{2, 4, -2, 127, -128, 0}));
}

TEST(SemanticsNumerics, IntToBf16RoundsOnce) {
  // 257 = 2^8 + 1 lies halfway between 256 and 258 -> 256 (0x4380, even); 259 halfway
  // between 258 and 260 -> 260 (0x4382); 2^64 - 1 rounds up to 2^64 (0x5F80).
  const ExprProgram p = compile_semantics("y = bf16(a)", block(),
                                          {{"y", vector_of(ElemFormat::BF16, 3), Role::Output},
                                           {"a", vector_of(ElemFormat::U64, 3), Role::Input}});
  const auto out = evaluate(p, {Value::vector_int(ElemFormat::U64, {257, 259, -1})});
  EXPECT_EQ(out[0].bf16_bits(), (std::vector<uint16_t>{0x4380, 0x4382, 0x5F80}));
}

TEST(SemanticsNumerics, Bf16SumAccumulatesInF32AndRoundsOnce) {
  // 1 + 2^-8 + 2^-8 = 1 + 2^-7 exactly in f32 -> 0x3F81. Rounding after each add would
  // give 1.0 twice (ties to even).
  const ExprProgram p = compile_semantics("s = sum(a)\nm = max(a)\nn = min(a)", block(),
                                          {{"s", scalar_of(ElemFormat::BF16), Role::Output},
                                           {"m", scalar_of(ElemFormat::BF16), Role::Output},
                                           {"n", scalar_of(ElemFormat::BF16), Role::Output},
                                           {"a", vector_of(ElemFormat::BF16, 3), Role::Input}});
  const auto out = evaluate(p, {Value::from_bf16_bits({0x3F80, 0x3B80, 0x3B80}, true)});
  EXPECT_EQ(out[0].bf16_bits(), std::vector<uint16_t>{0x3F81});
  EXPECT_EQ(out[1].bf16_bits(), std::vector<uint16_t>{0x3F80});
  EXPECT_EQ(out[2].bf16_bits(), std::vector<uint16_t>{0x3B80});
}

TEST(SemanticsNumerics, IntegerSumWraps) {
  // i8: 100 + 100 + 100 = 300 - 256 = 44.
  const ExprProgram p = compile_semantics("s = sum(a)", block(),
                                          {{"s", scalar_of(ElemFormat::I8), Role::Output},
                                           {"a", vector_of(ElemFormat::I8, 3), Role::Input}});
  EXPECT_EQ(evaluate(p, {Value::vector_int(ElemFormat::I8, {100, 100, 100})})[0].ints, std::vector<int64_t>{44});
}

TEST(SemanticsNumerics, SigmoidSiluGeluMatchTheirFormulas) {
  // The formulas, in f32, rounded to bf16 once:
  //   sigmoid(x) = 1 / (1 + e^-x); silu(x) = x * sigmoid(x);
  //   gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))  (the tanh form).
  // By hand: sigmoid(0) = 0.5 -> 0x3F00. sigmoid(1) = 0.731059; bf16 spacing in [0.5, 1) is
  // 2^-8, 0.731059 * 256 = 187.15 -> 187/256 = 1.4609375 * 2^-1 -> 0x3F3B; silu(1) the same.
  // sigmoid(-2) = 0.119203, spacing 2^-11: 244.13 -> 244 -> 1.90625 * 2^-4 -> 0x3DF4;
  // silu(-2) = -0.238406, spacing 2^-10: 244.13 -> -1.90625 * 2^-3 -> 0xBE74.
  // gelu(1) = 0.841192, spacing 2^-8: 215.35 -> 215/256 = 1.6796875 * 2^-1 -> 0x3F57.
  const std::vector<float> xs = {0.0f, 1.0f, -2.0f, 3.5f};
  const ExprProgram p = compile_semantics("s = sigmoid(a)\nl = silu(a)\ng = gelu(a)", block(),
                                          {{"s", vector_of(ElemFormat::BF16, 4), Role::Output},
                                           {"l", vector_of(ElemFormat::BF16, 4), Role::Output},
                                           {"g", vector_of(ElemFormat::BF16, 4), Role::Output},
                                           {"a", vector_of(ElemFormat::BF16, 4), Role::Input}});
  const auto out = evaluate(p, {Value::vector_float(ElemFormat::BF16, xs)});
  const auto s = out[0].bf16_bits(), l = out[1].bf16_bits(), g = out[2].bf16_bits();
  EXPECT_EQ(s[0], 0x3F00);
  EXPECT_EQ(s[1], 0x3F3B);
  EXPECT_EQ(l[1], 0x3F3B);
  EXPECT_EQ(s[2], 0x3DF4);
  EXPECT_EQ(l[2], 0xBE74);
  EXPECT_EQ(g[1], 0x3F57);
  EXPECT_EQ(l[0], 0x0000);
  for (size_t i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    const double sig = 1.0 / (1.0 + std::exp(-x));
    const double gelu = 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
    // Within half a bf16 ulp of the double formula plus the f32 steps' error.
    EXPECT_NEAR(bf16_to_float(s[i]), sig, std::fabs(sig) * 0x1p-8 + 1e-6) << x;
    EXPECT_NEAR(bf16_to_float(l[i]), x * sig, std::fabs(x * sig) * 0x1p-8 + 1e-6) << x;
    EXPECT_NEAR(bf16_to_float(g[i]), gelu, std::fabs(gelu) * 0x1p-8 + 1e-6) << x;
  }
}

TEST(SemanticsNumerics, ExpRecipRsqrtAreF32ThenRounded) {
  // exp(0) = 1 (0x3F80); recip(4) = 0.25 (0x3E80); rsqrt(4) = 0.5 (0x3F00); sqrt(2) =
  // 1.41421 -> spacing 2^-7: 181.02 -> 181/128 -> 0x3FB5; log(1) = 0.
  const ExprProgram p = compile_semantics("e = exp(a - a)\nr = recip(a)\nq = rsqrt(a)\nt = sqrt(a * 0.5)\nl = log(a * 0.25)",
                                          block(),
                                          {{"e", scalar_of(ElemFormat::BF16), Role::Output},
                                           {"r", scalar_of(ElemFormat::BF16), Role::Output},
                                           {"q", scalar_of(ElemFormat::BF16), Role::Output},
                                           {"t", scalar_of(ElemFormat::BF16), Role::Output},
                                           {"l", scalar_of(ElemFormat::BF16), Role::Output},
                                           {"a", scalar_of(ElemFormat::BF16), Role::Input}});
  const auto out = evaluate(p, {Value::scalar_float(ElemFormat::BF16, 4.0f)});
  EXPECT_EQ(out[0].bf16_bits()[0], 0x3F80);
  EXPECT_EQ(out[1].bf16_bits()[0], 0x3E80);
  EXPECT_EQ(out[2].bf16_bits()[0], 0x3F00);
  EXPECT_EQ(out[3].bf16_bits()[0], 0x3FB5);
  EXPECT_EQ(out[4].bf16_bits()[0], 0x0000);
}

TEST(SemanticsNumerics, SelectComparisonsMinMaxRelu) {
  // relu(-1.5) = 0, relu(2) = 2; select(a > b, a, b) = max; min/max propagate NaN.
  const ExprProgram p = compile_semantics("r = relu(a)\ns = select(a > b, a, b)\nm = min(a, b)", block(),
                                          {{"r", vector_of(ElemFormat::F32, 3), Role::Output},
                                           {"s", vector_of(ElemFormat::F32, 3), Role::Output},
                                           {"m", vector_of(ElemFormat::F32, 3), Role::Output},
                                           {"a", vector_of(ElemFormat::F32, 3), Role::Input},
                                           {"b", vector_of(ElemFormat::F32, 3), Role::Input}});
  const auto out = evaluate(p, {Value::vector_float(ElemFormat::F32, {-1.5f, 2.0f, NAN}),
                                Value::vector_float(ElemFormat::F32, {1.0f, -3.0f, 0.0f})});
  EXPECT_EQ(out[0].floats[0], 0.0f);
  EXPECT_EQ(out[0].floats[1], 2.0f);
  EXPECT_TRUE(std::isnan(out[0].floats[2]));
  EXPECT_EQ(out[1].floats[0], 1.0f);
  EXPECT_EQ(out[1].floats[1], 2.0f);
  EXPECT_EQ(out[1].floats[2], 0.0f);  // NaN > 0 is false: select picks b
  EXPECT_EQ(out[2].floats[0], -1.5f);
  EXPECT_EQ(out[2].floats[1], -3.0f);
  EXPECT_TRUE(std::isnan(out[2].floats[2]));
}

TEST(SemanticsNumerics, ScalarsBroadcastAndLiteralsTakeTheFormat) {
  // rd = rs1 * f1 + 1.0 per lane, bf16: 2 * 3 + 1 = 7 (0x40E0); 0.5 * 3 + 1 = 2.5 (0x4020).
  const ExprProgram p = compile_semantics("rd = rs1 * f1 + 1.0", block(),
                                          {{"rd", vector_of(ElemFormat::BF16, 2), Role::Output},
                                           {"rs1", vector_of(ElemFormat::BF16, 2), Role::Input},
                                           {"f1", scalar_of(ElemFormat::BF16), Role::Input}});
  const auto out = evaluate(p, {Value::vector_float(ElemFormat::BF16, {2.0f, 0.5f}), Value::scalar_float(ElemFormat::BF16, 3.0f)});
  EXPECT_EQ(out[0].bf16_bits(), (std::vector<uint16_t>{0x40E0, 0x4020}));
}

TEST(SemanticsNumerics, ScalarResultBroadcastsToAVectorOutput) {
  const ExprProgram p = compile_semantics("rd = sum(rs1)", block(),
                                          {{"rd", vector_of(ElemFormat::I32, 0), Role::Output},
                                           {"rs1", vector_of(ElemFormat::I32, 0), Role::Input}});
  const auto out = evaluate(p, {Value::vector_int(ElemFormat::I32, {1, 2, 3})});
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{6, 6, 6}));
  EXPECT_TRUE(out[0].vector);
}

TEST(SemanticsAliasing, EveryOutputIsComputedFromTheOldInputs) {
  // x and y are both read and written (InOut): a swap. y = x reads x's old value even
  // though x is assigned on the line before.
  const ExprProgram p = compile_semantics("x = y\ny = x", block(),
                                          {{"x", scalar_of(ElemFormat::I32), Role::InOut},
                                           {"y", scalar_of(ElemFormat::I32), Role::InOut}});
  const auto out = evaluate(p, {Value::scalar_int(ElemFormat::I32, 1), Value::scalar_int(ElemFormat::I32, 2)});
  EXPECT_EQ(out[0].ints[0], 2);
  EXPECT_EQ(out[1].ints[0], 1);
}

TEST(SemanticsAliasing, DestinationEqualToSourceRow) {
  // A platform with rd == rs1 (V_SILU_V gp3, gp3): one storage row is both input and
  // output. The caller reads the row, evaluates, then stores: every lane comes from the
  // old row. Row {1, -2}: silu = {0x3F3B, 0xBE74} (SigmoidSiluGelu... above), and
  // rd2 = rs1 + rd-old... the second output uses rs1 again after rd is assigned.
  const ExprProgram p = compile_semantics("rd = silu(rs1)\nrd2 = rs1 * 2.0", block(),
                                          {{"rd", vector_of(ElemFormat::BF16, 2), Role::Output},
                                           {"rd2", vector_of(ElemFormat::BF16, 2), Role::Output},
                                           {"rs1", vector_of(ElemFormat::BF16, 2), Role::Input}});
  std::vector<uint16_t> row = {0x3F80, 0xC000};  // 1.0, -2.0
  const auto out = evaluate(p, {Value::from_bf16_bits(row, true)});
  row = out[0].bf16_bits();  // rd aliases the row
  EXPECT_EQ(row, (std::vector<uint16_t>{0x3F3B, 0xBE74}));
  EXPECT_EQ(out[1].bf16_bits(), (std::vector<uint16_t>{0x4000, 0xC080}));  // 2 * old {1, -2}
}

TEST(SemanticsAliasing, AccumulatorInOut) {
  // acc = acc + sum(v): 10 + (1 + 2 + 3) = 16.
  const ExprProgram p = compile_semantics("acc = acc + sum(v)", block(),
                                          {{"acc", scalar_of(ElemFormat::I32), Role::InOut},
                                           {"v", vector_of(ElemFormat::I32, 3), Role::Input}});
  EXPECT_EQ(evaluate(p, {Value::scalar_int(ElemFormat::I32, 10), Value::vector_int(ElemFormat::I32, {1, 2, 3})})[0].ints[0],
            16);
}

TEST(SemanticsEvaluate, InputsThatDoNotMatchTheDeclarationsAreRejected) {
  const ExprProgram p = compile_semantics("rd = rs1", block(),
                                          {{"rd", vector_of(ElemFormat::I32, 0), Role::Output},
                                           {"rs1", vector_of(ElemFormat::I32, 0), Role::Input},
                                           {"rs2", vector_of(ElemFormat::I32, 0), Role::Input}});
  EXPECT_THROW(evaluate(p, {Value::vector_int(ElemFormat::I32, {1})}), std::invalid_argument);
  EXPECT_THROW(evaluate(p, {Value::vector_int(ElemFormat::I32, {1}), Value::vector_int(ElemFormat::I32, {1, 2})}),
               std::invalid_argument);
  EXPECT_THROW(evaluate(p, {Value::vector_int(ElemFormat::I32, {1}), Value::vector_int(ElemFormat::I16, {1})}),
               std::invalid_argument);
  const std::map<std::string, Value> by_name = {{"rs1", Value::vector_int(ElemFormat::I32, {4, 5})},
                                                {"rs2", Value::vector_int(ElemFormat::I32, {0, 0})}};
  EXPECT_EQ(evaluate_named(p, by_name).at("rd").ints, (std::vector<int64_t>{4, 5}));
}

}  // namespace
}  // namespace tlmcraft::isa::extension::test
