// MACs by operand format: each multiply op's `macs`/`format` in isa/aie_ml/aie_ml.yaml,
// counted per executed issue (a loop body counts once per iteration), summed over tiles.
#include "tests/platforms/aie_ml_test_util.h"

namespace tlmcraft::aie_ml::test {
namespace {

TEST(AieMlMacCount, EveryFormatOfTheIsaIsReportedAndCountedPerIssue) {
  // 3 VMAC.BF16 (4x8x4 = 128 each), 2 VMUL.I8 (4x8x8 = 256), 1 VMAC.E.S16 (32 lanes),
  // one VADD.32 (no MACs) on tile (0,0); one VMAC.I16 (4x4x4 = 64) on tile (1,0).
  const char* k = R"(.tile 0 0
  VMAC.BF16 bm0, bm0, x0, x1
  VMAC.BF16 bm0, bm0, x0, x1
  VMAC.BF16 bm0, bm0, x0, x1
  VMUL.I8 cm1, w0, x1
  VMUL.I8 cm1, w0, x1
  VMAC.E.S16 cm2, cm2, x0, x1
  VADD.32 x2, x0, x1
  DONE
.tile 1 0
  VMAC.I16 cm2, cm2, w0, w1
  DONE
)";
  auto p = make();
  load(*p, k);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  const std::map<std::string, uint64_t> want = {{"bf16", 3 * 128}, {"int16", 32 + 64}, {"int8", 2 * 256}};
  EXPECT_EQ(r.macs_by_format, want);
  const nlohmann::json j = r.to_json();
  EXPECT_EQ(j["macs_by_format"]["bf16"], 384);
  EXPECT_EQ(j["memory"]["cores"]["tile(1,0)"]["macs"], (nlohmann::json{{"bf16", 0}, {"int16", 64}, {"int8", 0}}));
}

TEST(AieMlMacCount, ALoopBodyCountsOncePerIteration) {
  const char* k = R"(.tile 0 0
  MOVXM ls, body
  MOVXM le, body
  MOVX r0, 5
  MOV lc, r0
  NOP
body:
  VMAC.I8 cm0, cm0, w0, x1
  DONE
)";
  auto p = make();
  load(*p, k);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.macs_by_format.at("int8"), 5u * 256);
  EXPECT_EQ(r.macs_by_format.at("bf16"), 0u);
}

}  // namespace
}  // namespace tlmcraft::aie_ml::test
