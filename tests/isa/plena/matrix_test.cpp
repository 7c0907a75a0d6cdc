// Matrix instructions with MLEN = VLEN = 8, BLEN = 2, HLEN = 4 (tiles of 64 elements,
// two heads for the batched forms).
#include <functional>

#include <gtest/gtest.h>

#include "test_machine.h"

using namespace plena_test;

namespace {
void fill_tile(Machine& m, uint32_t tile, const std::function<float(int, int)>& w) {
  for (int k = 0; k < 8; ++k)
    for (int n = 0; n < 8; ++n) m.msram[tile + k * 8 + n] = fmt::float_to_bf16(w(k, n));
}
void fill_rows(Machine& m, uint32_t addr, int rows, const std::function<float(int, int)>& x) {
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < 8; ++k) m.vram[addr + r * 8 + k] = fmt::float_to_bf16(x(r, k));
}
}  // namespace

TEST(PlenaMatrix, MmAccumulatesOverTwoTilesAndWritesWithAStride) {
  Machine m;
  fill_tile(m, 0, [](int, int n) { return float(n); });       // W0[k][n] = n
  fill_tile(m, 64, [](int, int) { return 1.0f; });            // W1[k][n] = 1
  fill_rows(m, 0, 2, [](int r, int) { return float(r + 1); });  // X0[r][k] = r + 1
  fill_rows(m, 16, 2, [](int, int k) { return float(k); });      // X1[r][k] = k
  // M_MM 0, gp1 (MSRAM 0 + column offset 2), gp2 (VRAM 0):
  //   acc[r][c] = sum_k (r+1) * (2 + c) = 8 (r+1)(2+c) -> [[16, 24], [32, 48]]
  m.s.gp[1] = 2;
  m.s.gp[2] = 0;
  auto r = m.exec(Opcode::M_MM, 0, 1, 2);
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(m.s.acc_mm, (std::vector<float>{16, 24, 32, 48}));
  ASSERT_EQ(r.n_reads, 2);
  EXPECT_EQ(r.reads[0].mem, pl::Memory::VRAM);  // BLEN rows of MLEN, pitch VLEN
  EXPECT_EQ(r.reads[0].rows, 2u);
  EXPECT_EQ(r.reads[0].stride, 8u);
  EXPECT_EQ(r.reads[1].mem, pl::Memory::MSRAM);  // BLEN columns in each of MLEN rows
  EXPECT_EQ(r.reads[1].first, 2u);
  EXPECT_EQ(r.reads[1].count, 2u);
  EXPECT_EQ(r.reads[1].rows, 8u);
  // M_MM 0, gp3 (tile 1, offset 2), gp4 (VRAM 16): acc += sum_k k * 1 = 28
  m.s.gp[3] = 66;
  m.s.gp[4] = 16;
  ASSERT_TRUE(m.exec(Opcode::M_MM, 0, 3, 4).ok());
  EXPECT_EQ(m.s.acc_mm, (std::vector<float>{44, 52, 60, 76}));

  // M_MM_WO gp5, gp6, 2: dest = 32 + 2 = 34, row stride 16 -> row 0 at 34, row 1 at 50.
  m.s.gp[5] = 32;
  m.s.gp[6] = 16;
  r = m.exec(Opcode::M_MM_WO, 5, 6, 0, 0, 0, 2);
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(m.v(34), 44.0f);
  EXPECT_EQ(m.v(35), 52.0f);
  EXPECT_EQ(m.v(50), 60.0f);
  EXPECT_EQ(m.v(51), 76.0f);
  EXPECT_EQ(m.vram[33], kPoison);
  EXPECT_EQ(m.vram[36], kPoison);
  EXPECT_EQ(m.vram[42], kPoison);
  ASSERT_EQ(r.n_writes, 1);
  EXPECT_EQ(r.writes[0].first, 34u);
  EXPECT_EQ(r.writes[0].rows, 2u);
  EXPECT_EQ(r.writes[0].stride, 16u);
  // The write-out cleared the accumulator; with rs1 = gp0 the stride is VLEN (8).
  EXPECT_EQ(m.s.acc_mm, std::vector<float>(4, 0.0f));
  ASSERT_TRUE(m.exec(Opcode::M_MM_WO, 5, 0, 0, 0, 0, 4).ok());
  EXPECT_EQ(m.v(36), 0.0f);
  EXPECT_EQ(m.v(44), 0.0f);
  EXPECT_EQ(m.vram[38], kPoison);
}

TEST(PlenaMatrix, AccumulatesInFloat32InAscendingK) {
  // X row 0 = {2^24, 1, -2^24, 0, ...}, W = 1: ascending k in float32 gives
  // 2^24 + 1 -> 2^24 (tie, even), - 2^24 -> 0. Any other order would give 1.
  Machine m;
  fill_tile(m, 0, [](int, int) { return 1.0f; });
  fill_rows(m, 0, 2, [](int r, int k) {
    if (r != 0) return 0.0f;
    return k == 0 ? 16777216.0f : k == 1 ? 1.0f : k == 2 ? -16777216.0f : 0.0f;
  });
  ASSERT_TRUE(m.exec(Opcode::M_MM, 0, 0, 0).ok());
  EXPECT_EQ(m.s.acc_mm[0], 0.0f);
  // Write-out rounds to bf16 once: a sum of 257 -> tie between 256 and 258 -> 256.
  m.s.acc_mm[1] = 257.0f;
  m.s.acc_mm[2] = 259.0f;  // tie between 258 and 260 -> 260
  ASSERT_TRUE(m.exec(Opcode::M_MM_WO, 0, 0, 0, 0, 0, 64).ok());
  EXPECT_EQ(m.v(65), 256.0f);
  EXPECT_EQ(m.v(72), 260.0f);
}

TEST(PlenaMatrix, TmmUsesTheTransposedTileAndSwappedOperands) {
  Machine m;
  fill_tile(m, 64, [](int i, int) { return float(i); });        // T[i][k] = i
  fill_rows(m, 8, 2, [](int r, int) { return float(r + 1); });   // X[r][k] = r + 1
  // M_TMM 0, gp1 (VRAM 8), gp2 (MSRAM tile 1 + 4 * MLEN: rows 4..5 of T = columns 4..5
  // of T^T): acc[r][c] = sum_k (r+1) * T[4+c][k] = 8 (r+1)(4+c) -> [[32, 40], [64, 80]]
  m.s.gp[1] = 8;
  m.s.gp[2] = 64 + 32;
  auto r = m.exec(Opcode::M_TMM, 0, 1, 2);
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(m.s.acc_mm, (std::vector<float>{32, 40, 64, 80}));
  EXPECT_EQ(r.reads[1].mem, pl::Memory::MSRAM);
  EXPECT_EQ(r.reads[1].first, 96u);
  EXPECT_EQ(r.reads[1].count, 16u);
  ASSERT_TRUE(m.exec(Opcode::M_MM_WO, 3, 0, 0, 0, 0, 0).ok());  // dest gp3 + 0 = 0
  EXPECT_EQ(m.vrow(0, 2), (std::vector<float>{32, 40}));
  EXPECT_EQ(m.vrow(8, 2), (std::vector<float>{64, 80}));
}

TEST(PlenaMatrix, MvAndTmvProduceAFullMlenRow) {
  Machine m;
  fill_tile(m, 0, [](int, int n) { return float(n + 1); });  // W[k][n] = n + 1
  fill_rows(m, 8, 1, [](int, int) { return 1.0f; });          // v = 1
  m.s.gp[1] = 0;
  m.s.gp[2] = 8;
  // acc[n] = sum_k 1 * (n+1) = 8 (n+1)
  ASSERT_TRUE(m.exec(Opcode::M_MV, 0, 1, 2).ok());
  m.s.gp[3] = 16;
  auto r = m.exec(Opcode::M_MV_WO, 3, 0, 0, 0, 0, 8);  // dest 24
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(m.vrow(24, 8), (std::vector<float>{8, 16, 24, 32, 40, 48, 56, 64}));
  EXPECT_EQ(m.s.acc_mv, std::vector<float>(8, 0.0f));
  // M_TMV: acc[n] = sum_k v[k] * W[n][k] = sum_k (k+1) = 36 for every n; twice -> 72.
  ASSERT_TRUE(m.exec(Opcode::M_TMV, 0, 1, 2).ok());
  ASSERT_TRUE(m.exec(Opcode::M_TMV, 0, 1, 2).ok());
  ASSERT_TRUE(m.exec(Opcode::M_MV_WO, 3, 0, 0, 0, 0, 0).ok());
  EXPECT_EQ(m.vrow(16, 8), std::vector<float>(8, 72.0f));
}

TEST(PlenaMatrix, BatchedTransposedMatmulPerHead) {
  // Q: MLEN = 8 token rows at VRAM 0; lane h*4+d of row s holds s + h.
  // K tile: T[k][c] = k. M_BTMM with gp[rs1] + gp[rd] = 0 + 4 -> columns 4..7 of T.
  // acc[h][s][k] = sum_d (s + h) * k = 4 (s + h) k.
  Machine m;
  fill_tile(m, 0, [](int k, int) { return float(k); });
  fill_rows(m, 0, 8, [](int s, int lane) { return float(s + lane / 4); });
  m.s.gp[1] = 0;
  m.s.gp[2] = 0;
  m.s.gp[7] = 4;
  auto r = m.exec(Opcode::M_BTMM, 7, 1, 2);
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(r.reads[1].first, 4u);
  EXPECT_EQ(r.reads[1].count, 4u);
  EXPECT_EQ(r.reads[1].rows, 8u);
  // M_BMM_WO gp3, 64: row h*8 + s at 64 + (h*8 + s) * 8 -> 16 rows, up to 192.
  m.s.gp[3] = 0;
  r = m.exec(Opcode::M_BMM_WO, 3, 0, 0, 0, 0, 64);
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(r.writes[0].rows, 16u);
  EXPECT_EQ(m.v(64 + (0 * 8 + 0) * 8 + 5), 0.0f);    // h0 s0 k5: 0
  EXPECT_EQ(m.v(64 + (0 * 8 + 3) * 8 + 5), 60.0f);   // h0 s3 k5: 4*3*5
  EXPECT_EQ(m.v(64 + (1 * 8 + 2) * 8 + 3), 36.0f);   // h1 s2 k3: 4*3*3
  EXPECT_EQ(m.v(64 + (1 * 8 + 7) * 8 + 7), 224.0f);  // h1 s7 k7: 4*8*7
  EXPECT_EQ(m.vram[192], kPoison);
  EXPECT_EQ(m.s.acc_bmm, std::vector<float>(m.s.acc_bmm.size(), 0.0f));
}

TEST(PlenaMatrix, BatchedMatmulAndMatVecPerHead) {
  // W tile 1: W[r][n] = r. M_BMM with gp[rs1] = 64 (tile 1) + gp[rd] = 32 (row 4):
  // rows 4..7 are contracted with each head's 4 lanes.
  // X lane h*4+d = h + 1 -> acc[h][s][n] = (h+1) * (4+5+6+7) = 22 (h+1).
  Machine m;
  fill_tile(m, 64, [](int r, int) { return float(r); });
  fill_rows(m, 0, 8, [](int, int lane) { return float(lane / 4 + 1); });
  m.s.gp[1] = 64;
  m.s.gp[2] = 0;
  m.s.gp[7] = 32;
  ASSERT_TRUE(m.exec(Opcode::M_BMM, 7, 1, 2).ok());
  ASSERT_TRUE(m.exec(Opcode::M_BMM_WO, 0, 0, 0, 0, 0, 64).ok());
  EXPECT_EQ(m.v(64 + 0 * 8 + 0), 22.0f);
  EXPECT_EQ(m.v(64 + (1 * 8 + 5) * 8 + 6), 44.0f);

  // M_BMV: one query row (VRAM 0) -> acc_bmv[h][n] = 22 (h+1); M_BMV_WO writes 2 rows.
  ASSERT_TRUE(m.exec(Opcode::M_BMV, 7, 1, 2).ok());
  auto r = m.exec(Opcode::M_BMV_WO, 0, 0, 0, 0, 0, 196);
  ASSERT_FALSE(r.ok());  // 196 is not VLEN-aligned; the fault leaves the accumulator alone
  r = m.exec(Opcode::M_BMV_WO, 0, 0, 0, 0, 0, 192);
  ASSERT_TRUE(r.ok()) << r.fault;
  EXPECT_EQ(m.vrow(192, 8), std::vector<float>(8, 22.0f));
  EXPECT_EQ(m.vrow(200, 8), std::vector<float>(8, 44.0f));

  // M_BTMV: query lanes h*4+d = h+1, K tile 1 columns 0..3 (T[k][c] = k):
  // acc[h][k] = sum_d (h+1) * k = 4 (h+1) k.
  m.s.gp[7] = 0;
  ASSERT_TRUE(m.exec(Opcode::M_BTMV, 7, 1, 2).ok());
  ASSERT_TRUE(m.exec(Opcode::M_BMV_WO, 0, 0, 0, 0, 0, 192).ok());
  EXPECT_EQ(m.vrow(192, 8), (std::vector<float>{0, 4, 8, 12, 16, 20, 24, 28}));
  EXPECT_EQ(m.vrow(200, 8), (std::vector<float>{0, 8, 16, 24, 32, 40, 48, 56}));
}

TEST(PlenaMatrix, CountsItsBf16MacsPerInstruction) {
  // MLEN 8, BLEN 2, HLEN 4 (2 heads): M_MM / M_TMM BLEN x BLEN x MLEN = 32, M_MV / M_TMV
  // MLEN x MLEN = 64, M_BMM / M_BTMM heads x MLEN rows x HLEN x MLEN = 512, M_BMV / M_BTMV
  // heads x 1 row x HLEN x MLEN = 64; write-outs and faulting instructions none.
  Machine m;
  m.s.gp[1] = 0;  // MSRAM tile 0
  m.s.gp[2] = 0;  // VRAM 0
  const std::pair<Opcode, uint64_t> steps[] = {
      {Opcode::M_MM, 32}, {Opcode::M_TMM, 32}, {Opcode::M_MV, 64}, {Opcode::M_TMV, 64},
      {Opcode::M_BMM, 512}, {Opcode::M_BTMM, 512}, {Opcode::M_BMV, 64}, {Opcode::M_BTMV, 64}};
  uint64_t want = 0;
  for (const auto& [op, macs] : steps) {
    ASSERT_TRUE(m.exec(op, 0, 1, 2).ok());
    want += macs;
    EXPECT_EQ(m.s.matrix_macs, want);
  }
  ASSERT_TRUE(m.exec(Opcode::M_MM_WO, 0, 0, 0, 0, 0, 0).ok());
  m.s.gp[3] = 3;  // not a tile base: M_MV faults
  EXPECT_FALSE(m.exec(Opcode::M_MV, 0, 3, 2).ok());
  EXPECT_EQ(m.s.matrix_macs, 1344u);
  m.s.reset();
  EXPECT_EQ(m.s.matrix_macs, 0u);
}
