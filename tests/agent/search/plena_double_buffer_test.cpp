// Double buffering of a matrix-tile prefetch (plena_double_buffer.h): a hand-written GEMV
// whose loop streams weight tiles through MSRAM tile 0 gets a second buffer (tile 1) for
// every other iteration, exact text out; the rewritten kernel passes the harness in both
// timing modes and is faster in the pipelined one (where the next tile's transfer
// overlaps the current M_TMV) and not in the serial one (where nothing overlaps). Loops
// whose tile carries a value between iterations or is used after the loop are refused.
#include "platforms/plena/pack/agent/plena_double_buffer.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "harness/evaluate.h"
#include "platforms/plena/pack/agent/plena_candidates.h"
#include "platforms/plena/pack/agent/plena_regions.h"
#include "platforms/plena/pack/agent/plena_transforms.h"
#include "platforms/registry.h"
#include "tests/agent/search/plena_test_kernels.h"

namespace tlmcraft::agent::search::plena {
namespace {

// GEMV C1's layout (y[64] = A[64,512] x[512]; A at HBM 0 = a0's reset value, x at 36864,
// y at 40960): x to VRAM rows 0..7, then 8 tiles of A^T through MSRAM tile 0, each one
// M_TMV; y to row 704, copied to rows 768..896 so the 4-row store (STRIDE 0) writes it.
const std::string kBefore =
    "S_ADDI_INT gp1, gp0, 36864\n"
    "C_SET_ADDR_REG a1, gp0, gp1\n"
    "S_ADDI_INT gp1, gp0, 40960\n"
    "C_SET_ADDR_REG a2, gp0, gp1\n"
    "S_ADDI_INT gp1, gp0, 512\n"
    "C_SET_SCALE_REG gp1\n"
    "H_PREFETCH_V gp0, gp0, a1, 0, 0\n"
    "S_ADDI_INT gp1, gp0, 256\n"
    "H_PREFETCH_V gp1, gp1, a1, 0, 0\n"
    "S_ADDI_INT gp1, gp0, 32768\n"
    "C_SET_SCALE_REG gp1\n"
    "S_ADDI_INT gp1, gp0, 512\n"
    "C_SET_STRIDE_REG gp1\n"
    "S_ADDI_INT gp3, gp0, 0\n"
    "S_ADDI_INT gp4, gp0, 0\n";
const std::string kLoop =
    "C_LOOP_START gp11, 8\n"
    "  H_PREFETCH_M gp0, gp4, a0, 1, 0\n"
    "  M_TMV 0, gp0, gp3\n"
    "  S_ADDI_INT gp3, gp3, 64\n"
    "  S_ADDI_INT gp4, gp4, 64\n"
    "C_LOOP_END gp11\n";
const std::string kAfter =
    "S_ADDI_INT gp5, gp0, 704\n"
    "M_MV_WO gp5, 0, 0\n"
    "S_ADDI_INT gp1, gp0, 768\n"
    "V_ADD_VF gp1, gp5, f0, 0\n"
    "S_ADDI_INT gp1, gp0, 832\n"
    "V_ADD_VF gp1, gp5, f0, 0\n"
    "S_ADDI_INT gp1, gp0, 896\n"
    "V_ADD_VF gp1, gp5, f0, 0\n"
    "C_SET_STRIDE_REG gp0\n"
    "H_STORE_V gp5, gp0, a2, 1, 2\n";

nlohmann::json run(const std::string& kernel, const std::string& mode) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  auto p = make_platform("plena", "default", {"timing.mode=" + mode});
  EvalOptions o;
  o.task = "gemv";
  o.config = "C1";
  o.seed = 4242;
  o.trials = 2;
  o.kernel_source = kernel;
  return evaluate(*p, o);
}

TEST(PlenaDoubleBuffer, SecondTileForOddIterationsPassesAndOverlapsInPipelinedMode) {
  const std::string text = kBefore + kLoop + kAfter;
  Kernel k = parse(text);
  std::string why;
  ASSERT_TRUE(double_buffer_prefetch(k, 0, Arch{}, 16384, why)) << why;
  simplify(k);
  // Iterations 2i use tile 0, iterations 2i+1 tile 1 (4096, the first tile no instruction
  // touches), addressed through gp2, the first gp register the kernel does not use.
  const std::string doubled = kBefore +
                              "C_LOOP_START gp11, 4\n"
                              "  H_PREFETCH_M gp0, gp4, a0, 1, 0\n"
                              "  M_TMV 0, gp0, gp3\n"
                              "  S_ADDI_INT gp3, gp3, 64\n"
                              "  S_ADDI_INT gp4, gp4, 64\n"
                              "  S_ADDI_INT gp2, gp0, 4096          ; double buffer: tile at 4096\n"
                              "  H_PREFETCH_M gp2, gp4, a0, 1, 0\n"
                              "  M_TMV 0, gp2, gp3\n"
                              "  S_ADDI_INT gp3, gp3, 64\n"
                              "  S_ADDI_INT gp4, gp4, 64\n"
                              "C_LOOP_END gp11\n" +
                              kAfter;
  EXPECT_EQ(print_kernel(k), doubled);

  const nlohmann::json piped = run(doubled, "pipelined"), piped_base = run(text, "pipelined");
  ASSERT_EQ(piped["status"], "pass") << piped.dump(1);
  ASSERT_EQ(piped_base["status"], "pass") << piped_base.dump(1);
  EXPECT_LT(piped["cycles"].get<int64_t>(), piped_base["cycles"].get<int64_t>());
  // Serial: every transfer starts at the same cycle as before (iteration 2i+1's set-up
  // S_ADDI_INT takes the cycle iteration 2i's C_LOOP_END took), so the count is the same.
  const nlohmann::json serial = run(doubled, "serial"), serial_base = run(text, "serial");
  ASSERT_EQ(serial["status"], "pass") << serial.dump(1);
  EXPECT_EQ(serial["cycles"], serial_base["cycles"]);
}

// The generator offers the candidate in the pipelined mode only, ranked first there: its
// estimate is the serial one (4 more S_ADDI_INT, 4 fewer C_LOOP_END, so unchanged) minus
// what it can hide, 8 executions x min(prefetch 600, M_TMV 64 + 2 S_ADDI_INT) = 528.
TEST(PlenaDoubleBuffer, OfferedInThePipelinedModeOnlyRankedByTheOverlap) {
  SearchContext ctx;
  ctx.platform = "plena";
  ctx.hardware = {{"timing_mode", "serial"}};
  const std::string text = kBefore + kLoop + kAfter;
  auto names = [&] {
    std::vector<std::string> out;
    for (const Candidate& c : generate_plena_candidates(text, ctx)) out.push_back(c.name);
    return out;
  };
  for (const std::string& n : names()) EXPECT_EQ(n.find("double buffer"), std::string::npos) << n;
  ctx.hardware = {{"timing_mode", "pipelined"}};
  const std::vector<Candidate> piped = generate_plena_candidates(text, ctx);
  ASSERT_FALSE(piped.empty());
  EXPECT_EQ(piped.front().name, "double buffer L0 + schedule");  // then prefetch-first scheduled
  Kernel k = parse(text);
  EXPECT_DOUBLE_EQ(piped.front().estimate, estimate_cycles(k.code, Arch{}) - 528);
}

TEST(PlenaDoubleBuffer, SoftwarePipelinedLoopIsLeftUnchanged) {
  // Each iteration's M_TMV reads the tile prefetched before it (by the previous iteration,
  // or before the loop): a second buffer would hand it the wrong tile. Refused because the
  // tile is also written outside the loop.
  Kernel k = parse(kBefore +
                   "H_PREFETCH_M gp0, gp4, a0, 1, 0\n"
                   "C_LOOP_START gp11, 8\n"
                   "  M_TMV 0, gp0, gp3\n"
                   "  S_ADDI_INT gp4, gp4, 64\n"
                   "  H_PREFETCH_M gp0, gp4, a0, 1, 0\n"
                   "  S_ADDI_INT gp3, gp3, 64\n"
                   "C_LOOP_END gp11\n" +
                   kAfter);
  const std::string before = print_kernel(k);
  std::string why;
  EXPECT_FALSE(double_buffer_prefetch(k, 0, Arch{}, 16384, why));
  EXPECT_EQ(why, "the prefetched tile is used outside the loop");
  EXPECT_EQ(print_kernel(k), before);
}

TEST(PlenaDoubleBuffer, RefusalsNameTheReason) {
  std::string why;
  Kernel odd = parse(kBefore +
                     "C_LOOP_START gp11, 3\n  H_PREFETCH_M gp0, gp4, a0, 1, 0\n  M_TMV 0, gp0, gp3\nC_LOOP_END gp11\n");
  EXPECT_FALSE(double_buffer_prefetch(odd, 0, Arch{}, 16384, why));
  EXPECT_EQ(why, "the loop count is not even");
  Kernel carried = parse(
      kBefore + "C_LOOP_START gp11, 8\n  M_TMV 0, gp0, gp3\n  H_PREFETCH_M gp0, gp4, a0, 1, 0\nC_LOOP_END gp11\n");
  EXPECT_FALSE(double_buffer_prefetch(carried, 0, Arch{}, 16384, why));
  EXPECT_EQ(why, "the tile is read before the prefetch (a value carried between iterations)");
  Kernel full = parse(kBefore + kLoop + kAfter);
  EXPECT_FALSE(double_buffer_prefetch(full, 0, Arch{}, 4096, why));  // MSRAM of one tile
  EXPECT_EQ(why, "no free MSRAM tile");
}

// Searched as a region (plena_regions.h), the loop sees the MSRAM tiles the code after it
// uses: a tile read after the loop is never double-buffered, and a second buffer never
// takes a tile used there, though the region alone uses neither.
TEST(PlenaDoubleBuffer, ARegionRespectsTheTilesUsedAfterIt) {
  SearchContext ctx;
  ctx.platform = "plena";
  ctx.hardware = {{"timing_mode", "pipelined"}};
  auto double_buffered = [&](const std::string& after) {
    const auto regions = split_regions(parse(kBefore + kLoop + after), Arch{});
    EXPECT_EQ(regions.size(), 2u);
    EXPECT_TRUE(regions[0].around.is_region);
    for (const Candidate& c : generate_plena_candidates(region_text(regions[0]), ctx, regions[0].around))
      if (c.name.rfind("double buffer", 0) == 0) return c.text;
    return std::string();
  };
  // Alone, the region's loop is double-buffered into tile 4096 (the first it does not use).
  int offered = 0;
  for (const Candidate& c : generate_plena_candidates(kBefore + kLoop, ctx))
    if (c.name.rfind("double buffer", 0) == 0) {
      ++offered;
      EXPECT_NE(c.text.find("S_ADDI_INT gp2, gp0, 4096"), std::string::npos) << c.text;
    }
  EXPECT_EQ(offered, 1);
  // Tile 0 (the prefetched one) read after the loop: refused, as for the whole kernel.
  EXPECT_EQ(double_buffered("M_TMV 0, gp0, gp3\n" + kAfter), "");
  // Tile 4096 read after it: the second buffer is tile 8192.
  const std::string text = double_buffered("S_ADDI_INT gp5, gp0, 4096\nM_TMV 0, gp5, gp3\n" + kAfter);
  EXPECT_NE(text.find("S_ADDI_INT gp2, gp0, 8192"), std::string::npos) << text;
}

}  // namespace
}  // namespace tlmcraft::agent::search::plena
