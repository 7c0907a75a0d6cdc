// Coral source transformations: exact text in, exact text out, and their refusals.
#include <gtest/gtest.h>

#include <string>

#include "platforms/coral/pack/agent/coral_candidates.h"
#include "platforms/coral/pack/agent/coral_source.h"
#include "platforms/coral/pack/agent/coral_transforms.h"

namespace tlmcraft::agent::search::coral {
namespace {

const char* kRelu =
    "#define DIM_N 512\n"
    "#define X_ADDR 0x20000000u  /* int8 [512] input */\n"
    "#define X_ELEMS 512\n"
    "#define Y_ADDR 0x20000200u  /* int8 [512] output */\n"
    "#define Y_ELEMS 512\n"
    "#include <riscv_vector.h>\n"
    "int main(void) {\n"
    "  const int8_t* x = (const int8_t*)X_ADDR;\n"
    "  int8_t* y = (int8_t*)Y_ADDR;\n"
    "  for (size_t i = 0; i < DIM_N;) {\n"
    "    size_t vl = __riscv_vsetvl_e8m4(DIM_N - i);\n"
    "    vint8m4_t v = __riscv_vle8_v_i8m4(x + i, vl);\n"
    "    __riscv_vse8_v_i8m4(y + i, __riscv_vmax_vx_i8m4(v, 0, vl), vl);\n"
    "    i += vl;\n"
    "  }\n"
    "  return 0;\n"
    "}\n";

TEST(CoralSource, FindsLoopsFunctionsDefinesAndTensors) {
  const auto loops = find_loops(kRelu);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].init, "size_t i = 0");
  EXPECT_EQ(loops[0].cond, "i < DIM_N");
  EXPECT_EQ(loops[0].step, "");
  EXPECT_EQ(loops[0].indent, "  ");
  EXPECT_TRUE(loops[0].starts_line);
  const auto fns = find_functions(kRelu);
  ASSERT_EQ(fns.size(), 1u);
  EXPECT_EQ(fns[0].name, "main");
  const auto defs = integer_defines(kRelu);
  EXPECT_EQ(defs.at("DIM_N"), 512);
  EXPECT_EQ(defs.at("Y_ADDR"), 0x20000200);
  // (512 + 8) / 4 * 2 - 1 = 259
  EXPECT_EQ(evaluate("(DIM_N + 8) / 4 * 2 - 1", defs).value(), 259);
  EXPECT_FALSE(evaluate("DIM_Q * 2", defs).has_value());
  const auto tensors = layout_tensors(kRelu);
  ASSERT_EQ(tensors.size(), 2u);
  EXPECT_EQ(tensors[0].macro, "X");
  EXPECT_EQ(tensors[0].role, "input");
  EXPECT_EQ(tensors[0].bytes, 512);
  EXPECT_EQ(tensors[1].role, "output");
}

TEST(CoralSource, LoopBodiesWithoutBracesAndCommentsAreDelimited) {
  const std::string src =
      "void f(void) {\n"
      "  for (int r = 0; r < 4; ++r)\n"
      "    for (int c = 0; c < 4; ++c) /* for ( */\n"
      "      g(r, c);\n"
      "  h();\n"
      "}\n";
  const auto loops = find_loops(src);
  ASSERT_EQ(loops.size(), 2u);
  EXPECT_EQ(src.substr(loops[0].for_pos, loops[0].end - loops[0].for_pos),
            "for (int r = 0; r < 4; ++r)\n    for (int c = 0; c < 4; ++c) /* for ( */\n      g(r, c);");
  EXPECT_EQ(loops[1].depth, 1);
  EXPECT_EQ(loops[0].depth, 0);
}

TEST(CoralLmul, ScalesEveryTypeOfAStripMinedLoop) {
  std::string s = kRelu, why;
  ASSERT_TRUE(is_strip_mined(s, 0));
  ASSERT_TRUE(scale_lmul(s, 0, 2, why)) << why;
  EXPECT_EQ(s.substr(s.find("  for")),
            "  for (size_t i = 0; i < DIM_N;) {\n"
            "    size_t vl = __riscv_vsetvl_e8m8(DIM_N - i);\n"
            "    vint8m8_t v = __riscv_vle8_v_i8m8(x + i, vl);\n"
            "    __riscv_vse8_v_i8m8(y + i, __riscv_vmax_vx_i8m8(v, 0, vl), vl);\n"
            "    i += vl;\n"
            "  }\n"
            "  return 0;\n"
            "}\n");
}

TEST(CoralLmul, RefusesBeyondM8) {
  std::string s = kRelu, why;
  EXPECT_FALSE(scale_lmul(s, 0, 4, why));
  EXPECT_EQ(why, "'__riscv_vsetvl_e8m4' would need LMUL 16 (at most m8)");
  EXPECT_EQ(s, kRelu);
}

// A widening reduction: the source group scales with the loop, the m1 accumulator does not.
TEST(CoralLmul, KeepsTheM1ResultOfAReduction) {
  const std::string body =
      "int main(void) {\n"
      "  vint32m1_t s = __riscv_vmv_s_x_i32m1(0, 1);\n"
      "  for (size_t i = 0; i < 64;) {\n"
      "    size_t vl = __riscv_vsetvl_e8m1(64 - i);\n"
      "    vint8m1_t v = __riscv_vle8_v_i8m1(x + i, vl);\n"
      "    s = __riscv_vwredsum_vs_i16m2_i32m1(__riscv_vwmul_vv_i16m2(v, v, vl), s, vl);\n"
      "    i += vl;\n"
      "  }\n"
      "  return __riscv_vmv_x_s_i32m1_i32(s);\n"
      "}\n";
  std::string s = body, why;
  ASSERT_TRUE(scale_lmul(s, 0, 4, why)) << why;
  EXPECT_EQ(s,
            "int main(void) {\n"
            "  vint32m1_t s = __riscv_vmv_s_x_i32m1(0, 1);\n"
            "  for (size_t i = 0; i < 64;) {\n"
            "    size_t vl = __riscv_vsetvl_e8m4(64 - i);\n"
            "    vint8m4_t v = __riscv_vle8_v_i8m4(x + i, vl);\n"
            "    s = __riscv_vwredsum_vs_i16m8_i32m1(__riscv_vwmul_vv_i16m8(v, v, vl), s, vl);\n"
            "    i += vl;\n"
            "  }\n"
            "  return __riscv_vmv_x_s_i32m1_i32(s);\n"
            "}\n");
  // x8 would make the widened i16 source group m16 (the reduction is met first).
  std::string t = body;
  EXPECT_FALSE(scale_lmul(t, 0, 8, why));
  EXPECT_EQ(why, "'__riscv_vwredsum_vs_i16m2_i32m1' would need LMUL 16 (at most m8)");
}

// Helpers with vector types in their signature are cloned with scaled types.
TEST(CoralLmul, ClonesVectorHelpersTheLoopCalls) {
  const std::string src =
      "static inline vint8m1_t narrow(vint16m2_t h, size_t vl) {\n"
      "  return __riscv_vnclip_wx_i8m1(h, 0, vl);\n"
      "}\n"
      "int main(void) {\n"
      "  for (int j = 0; j < 64;) {\n"
      "    size_t vl = __riscv_vsetvl_e16m2((size_t)(64 - j));\n"
      "    vint16m2_t a = __riscv_vle16_v_i16m2(p + j, vl);\n"
      "    __riscv_vse8_v_i8m1(q + j, narrow(a, vl), vl);\n"
      "    j += (int)vl;\n"
      "  }\n"
      "}\n";
  std::string s = src, why;
  ASSERT_TRUE(scale_lmul(s, 0, 2, why)) << why;
  EXPECT_EQ(s,
            "static inline vint8m1_t narrow(vint16m2_t h, size_t vl) {\n"
            "  return __riscv_vnclip_wx_i8m1(h, 0, vl);\n"
            "}\n"
            "static inline vint8m2_t narrow_lmul2(vint16m4_t h, size_t vl) {\n"
            "  return __riscv_vnclip_wx_i8m2(h, 0, vl);\n"
            "}\n"
            "int main(void) {\n"
            "  for (int j = 0; j < 64;) {\n"
            "    size_t vl = __riscv_vsetvl_e16m4((size_t)(64 - j));\n"
            "    vint16m4_t a = __riscv_vle16_v_i16m4(p + j, vl);\n"
            "    __riscv_vse8_v_i8m2(q + j, narrow_lmul2(a, vl), vl);\n"
            "    j += (int)vl;\n"
            "  }\n"
            "}\n");
  // Scaling the clone's loop again names the next clone by the total factor.
  std::string again = s;
  ASSERT_TRUE(scale_lmul(again, 0, 2, why)) << why;
  EXPECT_NE(again.find("static inline vint8m4_t narrow_lmul4(vint16m8_t h, size_t vl) {"), std::string::npos);
  EXPECT_NE(again.find("narrow_lmul4(a, vl)"), std::string::npos);
}

TEST(CoralLmul, RefusesLoopsThatAreNotStripMinedOrReadOuterVectors) {
  const std::string counted =
      "int main(void) {\n"
      "  for (int k = 0; k < 8; ++k) {\n"
      "    s += k;\n"
      "  }\n"
      "}\n";
  std::string s = counted, why;
  EXPECT_FALSE(scale_lmul(s, 0, 2, why));
  EXPECT_EQ(why, "loop 0 is not strip-mined by one vsetvl");
  const std::string outer =
      "int main(void) {\n"
      "  vint32m4_t acc = __riscv_vmv_v_x_i32m4(0, 16);\n"
      "  for (size_t i = 0; i < 64;) {\n"
      "    size_t vl = __riscv_vsetvl_e32m4(64 - i);\n"
      "    acc = __riscv_vadd_vv_i32m4(acc, __riscv_vle32_v_i32m4(p + i, vl), vl);\n"
      "    i += vl;\n"
      "  }\n"
      "}\n";
  s = outer;
  EXPECT_FALSE(scale_lmul(s, 0, 2, why));
  EXPECT_EQ(why, "the loop uses the vector variable 'acc' (vint32m4_t) declared outside it");
  EXPECT_EQ(s, outer);
  // The row loop around a strip-mined loop is not strip-mined itself: scaling it would
  // scale the m1 accumulator it declares.
  const std::string rows =
      "int main(void) {\n"
      "  for (int m = 0; m < 4; ++m) {\n"
      "    vint32m1_t s = __riscv_vmv_s_x_i32m1(0, 1);\n"
      "    for (size_t i = 0; i < 64;) {\n"
      "      size_t vl = __riscv_vsetvl_e8m1(64 - i);\n"
      "      s = __riscv_vwredsum_vs_i16m2_i32m1(__riscv_vwmul_vv_i16m2(v, v, vl), s, vl);\n"
      "      i += vl;\n"
      "    }\n"
      "  }\n"
      "}\n";
  EXPECT_FALSE(is_strip_mined(rows, 0));
  EXPECT_TRUE(is_strip_mined(rows, 1));
  s = rows;
  EXPECT_FALSE(scale_lmul(s, 0, 2, why));
  EXPECT_EQ(why, "loop 0 is not strip-mined by one vsetvl");
  std::string r = kRelu;
  EXPECT_FALSE(scale_lmul(r, 0, 3, why));
  EXPECT_EQ(why, "LMUL factor must be 2, 4 or 8");
}

TEST(CoralUnroll, InsertsPragmasOnTheirOwnLine) {
  std::string s = kRelu, why;
  ASSERT_TRUE(add_unroll_pragma(s, 0, 4, why)) << why;
  EXPECT_NE(s.find("  int8_t* y = (int8_t*)Y_ADDR;\n  #pragma clang loop unroll_count(4)\n  for (size_t i = 0;"),
            std::string::npos);
  // A second pragma on the same loop is refused.
  EXPECT_FALSE(add_unroll_pragma(s, 0, 2, why));
  EXPECT_EQ(why, "the loop already has a loop pragma");
}

TEST(CoralUnroll, FullUnrollOnlyForSmallConstantTrips) {
  const std::string src =
      "#define DIM_K 3\n"
      "void f(int n) {\n"
      "  for (int dr = 0; dr < DIM_K; ++dr) {\n"
      "    for (int i = 0; i < n; ++i) g(dr, i);\n"
      "  }\n"
      "}\n";
  std::string s = src, why;
  ASSERT_TRUE(add_unroll_pragma(s, 0, 0, why)) << why;
  EXPECT_EQ(s,
            "#define DIM_K 3\n"
            "void f(int n) {\n"
            "  #pragma clang loop unroll(full)\n"
            "  for (int dr = 0; dr < DIM_K; ++dr) {\n"
            "    for (int i = 0; i < n; ++i) g(dr, i);\n"
            "  }\n"
            "}\n");
  s = src;
  EXPECT_FALSE(add_unroll_pragma(s, 1, 0, why));
  EXPECT_EQ(why, "the trip count 'n' is not a constant");
  EXPECT_FALSE(add_unroll_pragma(s, 0, 0, why, 2));
  EXPECT_EQ(why, "the trip count 3 exceeds 2");
  std::string r = kRelu;
  EXPECT_FALSE(add_unroll_pragma(r, 0, 0, why));
  EXPECT_EQ(why, "the loop is not `i < N; ++i`");
  const std::string same_line = "void f(void) { for (int i = 0; i < 4; ++i) g(i); }\n";
  s = same_line;
  EXPECT_FALSE(add_unroll_pragma(s, 0, 2, why));
  EXPECT_EQ(why, "the loop does not start its line");
}

// Factors multiply along a nest: a full unroll of 3 inside unroll_count(8) is 24 copies.
TEST(CoralUnroll, RefusesNestsThatWouldOutgrowTheItcm) {
  std::string s =
      "#define DIM_K 3\n"
      "void f(int n) {\n"
      "  for (int i = 0; i < n; ++i) {\n"
      "    for (int dr = 0; dr < DIM_K; ++dr) g(i, dr);\n"
      "  }\n"
      "}\n";
  std::string why;
  ASSERT_TRUE(add_unroll_pragma(s, 0, 8, why)) << why;
  EXPECT_FALSE(add_unroll_pragma(s, 1, 0, why));
  EXPECT_EQ(why, "unrolling would replicate the loop nest 24 times (at most 16)");
  // 8 x 3 = 24 fits a limit of 32.
  EXPECT_TRUE(add_unroll_pragma(s, 1, 0, why, 16, 32)) << why;
}

TEST(CoralStage, CopiesAnInputIntoDtcmAndRedirectsItsUses) {
  std::string s = kRelu, why;
  ASSERT_TRUE(stage_in_dtcm(s, "X", why)) << why;
  EXPECT_EQ(s,
            "#define DIM_N 512\n"
            "#define X_ADDR 0x20000000u  /* int8 [512] input */\n"
            "#define X_ELEMS 512\n"
            "#define Y_ADDR 0x20000200u  /* int8 [512] output */\n"
            "#define Y_ELEMS 512\n"
            "#include <riscv_vector.h>\n"
            "static int8_t stage_x[512] __attribute__((aligned(16)));  /* DTCM copy of X (search agent) */\n"
            "int main(void) {\n"
            "  /* search agent: X staged in DTCM (read from external memory once) */\n"
            "  for (size_t stage_i = 0; stage_i < 512;) {\n"
            "    size_t stage_vl = __riscv_vsetvl_e8m8(512 - stage_i);\n"
            "    __riscv_vse8_v_i8m8((int8_t*)stage_x + stage_i, __riscv_vle8_v_i8m8((const int8_t*)X_ADDR + stage_i, "
            "stage_vl), stage_vl);\n"
            "    stage_i += stage_vl;\n"
            "  }\n"
            "  const int8_t* x = (const int8_t*)((uintptr_t)stage_x);\n"
            "  int8_t* y = (int8_t*)Y_ADDR;\n"
            "  for (size_t i = 0; i < DIM_N;) {\n"
            "    size_t vl = __riscv_vsetvl_e8m4(DIM_N - i);\n"
            "    vint8m4_t v = __riscv_vle8_v_i8m4(x + i, vl);\n"
            "    __riscv_vse8_v_i8m4(y + i, __riscv_vmax_vx_i8m4(v, 0, vl), vl);\n"
            "    i += vl;\n"
            "  }\n"
            "  return 0;\n"
            "}\n");
  EXPECT_FALSE(stage_in_dtcm(s, "X", why));
  EXPECT_EQ(why, "X is already staged");
}

TEST(CoralStage, ComputesAnOutputInDtcmAndCopiesItOutBeforeReturn) {
  std::string s = kRelu, why;
  ASSERT_TRUE(stage_in_dtcm(s, "Y", why)) << why;
  EXPECT_EQ(s.substr(s.find("#include <riscv_vector.h>\n")),
            "#include <riscv_vector.h>\n"
            "static int8_t stage_y[512] __attribute__((aligned(16)));  /* DTCM copy of Y (search agent) */\n"
            "int main(void) {\n"
            "  const int8_t* x = (const int8_t*)X_ADDR;\n"
            "  int8_t* y = (int8_t*)((uintptr_t)stage_y);\n"
            "  for (size_t i = 0; i < DIM_N;) {\n"
            "    size_t vl = __riscv_vsetvl_e8m4(DIM_N - i);\n"
            "    vint8m4_t v = __riscv_vle8_v_i8m4(x + i, vl);\n"
            "    __riscv_vse8_v_i8m4(y + i, __riscv_vmax_vx_i8m4(v, 0, vl), vl);\n"
            "    i += vl;\n"
            "  }\n"
            "  /* search agent: Y computed in DTCM, written to external memory once */\n"
            "  for (size_t stage_i = 0; stage_i < 512;) {\n"
            "    size_t stage_vl = __riscv_vsetvl_e8m8(512 - stage_i);\n"
            "    __riscv_vse8_v_i8m8((int8_t*)Y_ADDR + stage_i, __riscv_vle8_v_i8m8((const int8_t*)stage_y + stage_i, "
            "stage_vl), stage_vl);\n"
            "    stage_i += stage_vl;\n"
            "  }\n"
            "  return 0;\n"
            "}\n");
  // An early return would skip the copy-out.
  std::string early = kRelu;
  early.replace(early.find("  for (size_t i"), 0, "  if (DIM_N == 0) return 0;\n");
  EXPECT_FALSE(stage_in_dtcm(early, "Y", why));
  EXPECT_EQ(why, "main has 2 return statements (the copy-out needs exactly one, last)");
}

TEST(CoralStage, AddsTheVectorHeaderToAScalarProgram) {
  // A CPU program's baseline is scalar C without <riscv_vector.h>; the staging copy loops
  // are RVV intrinsics, so the header comes with the buffer (else clang-16 stops at the
  // undeclared __riscv_vsetvl_e8m8).
  std::string s =
      "#define A_ADDR 0x20000000u  /* int32 [4] input */\n"
      "#define A_ELEMS 4\n"
      "#include <stdint.h>\n"
      "int main(void) {\n"
      "  const uint32_t* a = (const uint32_t*)A_ADDR;\n"
      "  return (int)a[0];\n"
      "}\n";
  std::string why;
  ASSERT_TRUE(stage_in_dtcm(s, "A", why)) << why;
  EXPECT_EQ(s.substr(0, s.find("int main")),
            "#define A_ADDR 0x20000000u  /* int32 [4] input */\n"
            "#define A_ELEMS 4\n"
            "#include <stdint.h>\n"
            "#include <riscv_vector.h>\n"
            "static int32_t stage_a[4] __attribute__((aligned(16)));  /* DTCM copy of A (search agent) */\n");
  // A source that has the header does not get a second one (kRelu above: one include).
  std::string relu = kRelu;
  ASSERT_TRUE(stage_in_dtcm(relu, "X", why)) << why;
  EXPECT_EQ(relu.find("#include <riscv_vector.h>"), relu.rfind("#include <riscv_vector.h>"));
}

TEST(CoralStage, RefusesKvUnknownTensorsAndWhatDoesNotFit) {
  std::string s = kRelu, why;
  std::string kv = std::string(kRelu) + "#define K_ADDR 0x20000400u  /* int8 [4] kv */\n#define K_ELEMS 4\n";
  EXPECT_FALSE(stage_in_dtcm(kv, "K", why));
  EXPECT_EQ(why, "K is a kv tensor (only inputs, weights and outputs are staged)");
  EXPECT_FALSE(stage_in_dtcm(s, "W", why));
  EXPECT_EQ(why, "no tensor W in the layout");
  // 512 bytes of static arrays + 512 staged + 4096 reserved = 5120 > 5000.
  std::string t = std::string(kRelu);
  t.replace(t.find("int main"), 0, "static int32_t acc[DIM_N / 4];\n");
  EXPECT_FALSE(stage_in_dtcm(t, "X", why, 5000));
  EXPECT_EQ(why, "X (512 bytes) does not fit in DTCM next to 512 bytes of arrays and 4096 reserved");
  EXPECT_EQ(s, kRelu);
}

TEST(CoralCandidates, RelUBaselineGivesLmulStagingAndUnrollCandidatesInPreferenceOrder) {
  SearchContext ctx;
  ctx.language = "c";
  const auto c = generate_coral_candidates(kRelu, ctx);
  std::vector<std::string> names;
  for (const auto& x : c) names.push_back(x.name);
  // x8 and x4 exceed m8 from e8m4; x2 is legal. Input X before output Y. Loop 0 has no
  // constant `++i` trip, so it is not fully unrolled.
  EXPECT_EQ(names, (std::vector<std::string>{"LMUL x2 in loop 0", "stage X in DTCM", "stage Y in DTCM", "unroll loop 0 x4",
                                             "unroll loop 0 x2", "unroll loop 0 x8"}));
}

// With a profile, the loop holding the hottest lines is unrolled first and a loop none of
// them fall in comes last.
TEST(CoralCandidates, HotLinesOrderTheUnrollCandidates) {
  const std::string src =
      "void f(int n) {\n"                           // line 1
      "  for (int i = 0; i < n; ++i) {\n"           // line 2: loop 0
      "    for (int k = 0; k < n; ++k) g(i, k);\n"  // line 3: loop 1 (hot)
      "  }\n"
      "  for (int j = 0; j < n; ++j) h(j);\n"       // line 5: loop 2 (not profiled)
      "}\n";
  SearchContext ctx;
  ctx.language = "c";
  std::vector<std::string> names;
  for (const auto& c : generate_coral_candidates(src, ctx)) names.push_back(c.name);
  // No profile: deeper loops first (loop 1 at depth 1), then text order (loop 0, loop 2).
  EXPECT_EQ(names, (std::vector<std::string>{"unroll loop 1 x4", "unroll loop 0 x4", "unroll loop 2 x4",
                                             "unroll loop 1 x2", "unroll loop 0 x2", "unroll loop 2 x2",
                                             "unroll loop 1 x8", "unroll loop 0 x8", "unroll loop 2 x8"}));
  // Line 2 (loop 0's own line) 100 cycles, line 3 (loop 1) 900: own shares 0.1 and 0.9;
  // loop 2 holds no hot line.
  ctx.hot_lines = {{3, 900}, {2, 100}};
  names.clear();
  for (const auto& c : generate_coral_candidates(src, ctx)) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"unroll loop 1 x4", "unroll loop 1 x2", "unroll loop 1 x8",
                                             "unroll loop 0 x4", "unroll loop 0 x2", "unroll loop 0 x8",
                                             "unroll loop 2 x4", "unroll loop 2 x2", "unroll loop 2 x8"}));
}

}  // namespace
}  // namespace tlmcraft::agent::search::coral
