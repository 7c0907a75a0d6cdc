// Tiling to the matrix unit (plena_matrix_rows.h): a matmul written as BLEN x BLEN M_MM
// blocks of a whole weight tile becomes BLEN M_MV row products, exact text in and out;
// the rewritten kernel passes the harness on the GEMM task with a quarter of the matrix
// passes; kernels where the blocks' order matters (output over the activations, an
// accumulation spanning a loop) are left unchanged.
#include "platforms/plena/pack/agent/plena_matrix_rows.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "harness/evaluate.h"
#include "platforms/plena/pack/agent/plena_candidates.h"
#include "platforms/plena/pack/agent/plena_transforms.h"
#include "platforms/registry.h"
#include "tests/agent/search/plena_test_kernels.h"

namespace tlmcraft::agent::search::plena {
namespace {

// GEMM C1's task layout (Y[4,64] = X[4,64] W[64,64]; X at HBM 0 = a0's reset value, W at
// 4096, Y at 12288): X's 4 rows to VRAM 0..255, W to MSRAM tile 0, then 16 column blocks
// of BLEN = 4, each one M_MM (K = MLEN = 64) written out at Y (VRAM 256) + 4c, stride 64.
const std::string kLoads =
    "S_ADDI_INT gp1, gp0, 4096\n"
    "C_SET_ADDR_REG a1, gp0, gp1\n"
    "S_ADDI_INT gp1, gp0, 12288\n"
    "C_SET_ADDR_REG a2, gp0, gp1\n"
    "S_ADDI_INT gp1, gp0, 256\n"
    "C_SET_SCALE_REG gp1\n"
    "S_ADDI_INT gp1, gp0, 64\n"
    "C_SET_STRIDE_REG gp1\n"
    "H_PREFETCH_V gp0, gp0, a0, 1, 0\n"
    "S_ADDI_INT gp1, gp0, 4096\n"
    "C_SET_SCALE_REG gp1\n"
    "H_PREFETCH_M gp0, gp0, a1, 1, 0\n"
    "S_ADDI_INT gp8, gp0, 64\n";
std::string column_blocks(const std::string& y_row) {
  return "S_ADDI_INT gp3, gp0, " + y_row +
         "\n"
         "S_ADDI_INT gp7, gp0, 0\n"
         "C_LOOP_START gp11, 16\n"
         "  M_MM 0, gp7, gp0\n"
         "  S_ADD_INT gp1, gp3, gp7\n"
         "  M_MM_WO gp1, gp8, 0\n"
         "  S_ADDI_INT gp7, gp7, 4\n"
         "C_LOOP_END gp11\n"
         "H_STORE_V gp3, gp0, a2, 1, 2\n";
}

// The column-block loop unrolled and simplified (the search agent's "unroll matmul loops").
Kernel unrolled(const std::string& text) {
  Kernel k = parse(text);
  std::string why;
  EXPECT_TRUE(unroll(k, 0, 16, why)) << why;
  simplify(k);
  return k;
}

TEST(PlenaMatrixRows, WholeTileBlocksBecomeRowProductsAndPassTheHarness) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const std::string text = kLoads + column_blocks("256");
  Kernel k = unrolled(text);
  std::string why;
  ASSERT_EQ(matmul_rows_to_matrix_vector(k, Arch{}, why), 1) << why;
  simplify(k);
  // Row r: X row r (VRAM 64r) times the whole tile 0, written to Y row r (VRAM 256 + 64r);
  // the column-block set-up and the M_MM_WO stride are dead and removed by simplify.
  EXPECT_EQ(print_kernel(k), kLoads.substr(0, kLoads.rfind("S_ADDI_INT gp8")) +
                                 "S_ADDI_INT gp3, gp0, 256\n"
                                 "M_MV 0, gp0, gp0                     ; row products: tile reused per row\n"
                                 "M_MV_WO gp0, 0, 256                  ; output row 0 of the block\n"
                                 "S_ADDI_INT gp4, gp0, 64\n"
                                 "M_MV 0, gp0, gp4\n"
                                 "M_MV_WO gp0, 0, 320                  ; output row 1 of the block\n"
                                 "S_ADDI_INT gp4, gp0, 128\n"
                                 "M_MV 0, gp0, gp4\n"
                                 "M_MV_WO gp0, 0, 384                  ; output row 2 of the block\n"
                                 "S_ADDI_INT gp4, gp0, 192\n"
                                 "M_MV 0, gp0, gp4\n"
                                 "M_MV_WO gp0, 0, 448                  ; output row 3 of the block\n"
                                 "H_STORE_V gp3, gp0, a2, 1, 2\n");

  auto p = make_platform("plena");
  EvalOptions o;
  o.task = "gemm";
  o.config = "C1";
  o.seed = 2311;
  o.trials = 2;
  o.kernel_source = print_kernel(k);
  const nlohmann::json rows = evaluate(*p, o);
  ASSERT_EQ(rows["status"], "pass") << rows.dump(1);
  o.kernel_source = text;
  const nlohmann::json blocks = evaluate(*p, o);
  ASSERT_EQ(blocks["status"], "pass") << blocks.dump(1);
  // Serial matrix busy cycles: 16 M_MM x 64 + 16 M_MM_WO x 1 = 1040 before,
  // 4 M_MV x 64 + 4 M_MV_WO x 1 = 260 after.
  EXPECT_EQ(busy(blocks, "matrix"), 1040);
  EXPECT_EQ(busy(rows, "matrix"), 260);
}

TEST(PlenaMatrixRows, TwoKTilesInALoopUseTheRowBlocksRegister) {
  // Two row blocks (gp6 = 0, 256 at run time, unknown to the analysis inside the loop),
  // K = 2 tiles (MSRAM 0 and 4096; X k-tile 1 at gp6 + 512), Y at gp6 + 1024 + 4c.
  Kernel k = parse(
      "S_ADDI_INT gp8, gp0, 64\n"
      "S_ADDI_INT gp6, gp0, 0\n"
      "C_LOOP_START gp10, 2\n"
      "  S_ADDI_INT gp7, gp0, 0\n"
      "  C_LOOP_START gp11, 16\n"
      "    M_MM 0, gp7, gp6\n"
      "    S_ADDI_INT gp1, gp7, 4096\n"
      "    S_ADDI_INT gp2, gp6, 512\n"
      "    M_MM 0, gp1, gp2\n"
      "    S_ADDI_INT gp1, gp6, 1024\n"
      "    S_ADD_INT gp1, gp1, gp7\n"
      "    M_MM_WO gp1, gp8, 0\n"
      "    S_ADDI_INT gp7, gp7, 4\n"
      "  C_LOOP_END gp11\n"
      "  S_ADDI_INT gp6, gp6, 256\n"
      "C_LOOP_END gp10\n");
  std::string why;
  ASSERT_TRUE(unroll(k, 1, 16, why)) << why;
  simplify(k);
  ASSERT_EQ(matmul_rows_to_matrix_vector(k, Arch{}, why), 1) << why;
  simplify(k);
  // Row r: k-tile 0 (tile 0, X at gp6 + 64r), k-tile 1 (tile 4096 in gp3, X at gp6 + 512 +
  // 64r), then Y row r at gp6 + 1024 + 64r; gp4 (a free register) carries the addresses.
  EXPECT_EQ(print_kernel(k),
            "S_ADDI_INT gp6, gp0, 0\n"
            "C_LOOP_START gp10, 2\n"
            "  M_MV 0, gp0, gp6                   ; row products: tile reused per row\n"
            "  S_ADDI_INT gp3, gp0, 4096\n"
            "  S_ADDI_INT gp4, gp6, 512\n"
            "  M_MV 0, gp3, gp4\n"
            "  M_MV_WO gp6, 0, 1024               ; output row 0 of the block\n"
            "  S_ADDI_INT gp4, gp6, 64\n"
            "  M_MV 0, gp0, gp4\n"
            "  S_ADDI_INT gp4, gp6, 576\n"
            "  M_MV 0, gp3, gp4\n"
            "  M_MV_WO gp6, 0, 1088               ; output row 1 of the block\n"
            "  S_ADDI_INT gp4, gp6, 128\n"
            "  M_MV 0, gp0, gp4\n"
            "  S_ADDI_INT gp4, gp6, 640\n"
            "  M_MV 0, gp3, gp4\n"
            "  M_MV_WO gp6, 0, 1152               ; output row 2 of the block\n"
            "  S_ADDI_INT gp4, gp6, 192\n"
            "  M_MV 0, gp0, gp4\n"
            "  S_ADDI_INT gp4, gp6, 704\n"
            "  M_MV 0, gp3, gp4\n"
            "  M_MV_WO gp6, 0, 1216               ; output row 3 of the block\n"
            "  S_ADDI_INT gp6, gp6, 256\n"
            "C_LOOP_END gp10\n");
}

// The generator ranks the rewrite first on the loop form: 4 M_MV (4 x 64) instead of
// 16 M_MM (16 x 64) is the largest estimated saving of any candidate.
TEST(PlenaMatrixRows, TheSearchAgentTriesTheRowProductsFirst) {
  SearchContext ctx;
  ctx.platform = "plena";
  ctx.hardware = {{"timing_mode", "serial"}};
  const std::vector<Candidate> c = generate_plena_candidates(kLoads + column_blocks("256"), ctx);
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.front().name, "unroll matmul loops + matrix rows (M_MV)");
}

TEST(PlenaMatrixRows, OutputOverTheActivationsIsLeftUnchanged) {
  // Y at VRAM 0 overwrites X's rows: block c reads columns that blocks 0..c-1 already
  // replaced, so computing whole rows at once would give other values.
  Kernel k = unrolled(kLoads + column_blocks("0"));
  const std::string before = print_kernel(k);
  std::string why;
  EXPECT_EQ(matmul_rows_to_matrix_vector(k, Arch{}, why), 0);
  EXPECT_EQ(why, "no run of MLEN/BLEN accumulations covering whole weight tiles");
  EXPECT_EQ(print_kernel(k), before);
}

TEST(PlenaMatrixRows, AnAccumulationAcrossALoopIsLeftUnchanged) {
  // The accumulator is open when the loop starts: which products it holds depends on
  // the iterations, so no straight-line run can be proven to start from a clear one.
  Kernel k = parse(kLoads +
                   "M_MM 0, gp0, gp0\n"
                   "C_LOOP_START gp11, 2\n"
                   "  M_MM 0, gp0, gp0\n"
                   "C_LOOP_END gp11\n"
                   "M_MM_WO gp8, gp8, 0\n");
  const std::string before = print_kernel(k);
  std::string why;
  EXPECT_EQ(matmul_rows_to_matrix_vector(k, Arch{}, why), 0);
  EXPECT_EQ(why, "an accumulation spans a loop boundary");
  EXPECT_EQ(print_kernel(k), before);
}

}  // namespace
}  // namespace tlmcraft::agent::search::plena
