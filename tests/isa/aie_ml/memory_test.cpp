// Loads, stores and address generation: post-modify, 2-D / 3-D walks, buffered stores,
// scalar widths, a table lookup, and faults for misaligned or unmapped accesses.
#include "tests/isa/aie_ml/core_fixture.h"

namespace aie_test {
namespace {

TEST(AieMemory, VectorLoadStorePostIncrement) {
  CoreState s;
  FlatMemory m;
  std::vector<uint8_t> src(64);
  for (int i = 0; i < 64; ++i) src[size_t(i)] = uint8_t(i + 1);
  m.put<uint8_t>(256, src);
  run_text(
      "MOVX p0, 256\n"
      "MOVX p1, 1024\n"
      "VLDA wl0, [p0], #32 ;; VLDB wh0, [p0, #32]\n"  // ldb reads p0 before the post-increment
      "VST wl0, [p1], #32\n"                           // 1024, then p1 = 1056
      "VST wh0, [p1]\n"                                // 1056
      "VST wh0, [p1, #-64]\n"                          // 992, p1 unchanged
      "DONE\n",
      s, m);
  EXPECT_EQ(s.p[0], 288u);
  EXPECT_EQ(s.p[1], 1056u);
  EXPECT_EQ(m.get<uint8_t>(1024), 1);   // wl0 = bytes 1..32
  EXPECT_EQ(m.get<uint8_t>(1055), 32);
  EXPECT_EQ(m.get<uint8_t>(1056), 33);  // wh0 = bytes 33..64
  EXPECT_EQ(m.get<uint8_t>(1087), 64);
  EXPECT_EQ(m.get<uint8_t>(992), 33);
}

TEST(AieMemory, TwoDimensionalWalk) {
  // m0 = 4 inner step, dn0 = 3 elements per row, dj0 = 100 jump at the row end:
  // addresses 0, 4, 8, then 8 + 100 = 108, 112, 116, then 216.
  CoreState s;
  FlatMemory m;
  const AieProgram p = assemble_ok(
      "MOV m0, 4\nMOV dn0, 3\nMOV dj0, 100\n"
      "LDA r0, [p0], d0\nLDA r0, [p0], d0\nLDA r0, [p0], d0\nLDA r0, [p0], d0\n"
      "LDA r0, [p0], d0\nLDA r0, [p0], d0\nLDA r0, [p0], d0\nDONE\n");
  std::vector<uint32_t> addrs;
  while (!s.halted) {
    const BundleResult r = step(s, m, p);
    ASSERT_FALSE(r.fault) << r.fault_message;
    for (const auto& a : r.accesses) addrs.push_back(a.addr);
  }
  EXPECT_EQ(addrs, (std::vector<uint32_t>{0, 4, 8, 108, 112, 116, 216}));
  EXPECT_EQ(s.dc[0], 1u);
}

TEST(AieMemory, ThreeDimensionalWalk) {
  // Inner d0: m0 = 32, dn0 = 2, dj0 = 64; outer d1: dn1 = 2, dj1 = 1024.
  // 0 -> 32 (inner) -> 96 (+dj0, outer count 1) -> 128 -> 1152 (+dj1, both restart) -> 1184.
  CoreState s;
  FlatMemory m;
  const AieProgram p = assemble_ok(
      "MOV m0, 32\nMOV dn0, 2\nMOV dj0, 64\nMOV dn1, 2\nMOVX dj1, 1024\n"
      "VLDA w0, [p0], d0, d1\nVLDA w0, [p0], d0, d1\nVLDA w0, [p0], d0, d1\n"
      "VLDA w0, [p0], d0, d1\nVLDA w0, [p0], d0, d1\nVLDA w0, [p0], d0, d1\nDONE\n");
  std::vector<uint32_t> addrs;
  while (!s.halted) {
    const BundleResult r = step(s, m, p);
    ASSERT_FALSE(r.fault) << r.fault_message;
    for (const auto& a : r.accesses) addrs.push_back(a.addr);
  }
  EXPECT_EQ(addrs, (std::vector<uint32_t>{0, 32, 96, 128, 1152, 1184}));
}

TEST(AieMemory, StoresCommitAfterLoadsOfTheSameBundle) {
  CoreState s;
  FlatMemory m;
  m.put<uint32_t>(64, {111});
  run_text("MOVX p0, 64\nMOV r1, 7\n{ LDA r2, [p0] ;; ST r1, [p0] }\nDONE\n", s, m);
  EXPECT_EQ(s.r[2], 111u);
  EXPECT_EQ(m.get<uint32_t>(64), 7u);
}

TEST(AieMemory, ScalarWidthsAndTableLookup) {
  // A 4-entry bf16 table at 512 (a non-linear function's route: index -> address -> load).
  CoreState s;
  FlatMemory m;
  m.put<uint16_t>(512, {0x3F80, 0x4000, 0x4040, 0xBF80});  // 1, 2, 3, -1
  m.put<int8_t>(600, {-5});
  run_text(
      "MOVX p0, 512\nMOV r1, 3\n"
      "ADD r1, r1, r1\n"          // byte offset = 2 * index
      "MOV m1, r1\n"
      "LDA.U16 r2, [p0, m1]\n"
      "LDA.S16 r3, [p0, m1]\n"
      "MOVX p1, 600\n"
      "LDA.S8 r4, [p1]\n"
      "LDA.U8 r5, [p1]\n"
      "ST.S16 r2, [p1, #2]\n"
      "DONE\n",
      s, m);
  EXPECT_EQ(s.r[2], 0xBF80u);
  EXPECT_EQ(s.r[3], 0xFFFFBF80u);
  EXPECT_EQ(int32_t(s.r[4]), -5);
  EXPECT_EQ(s.r[5], 251u);
  EXPECT_EQ(m.get<uint16_t>(602), 0xBF80u);
}

TEST(AieMemory, MisalignedPointerFaultsAndCommitsNothing) {
  CoreState s;
  FlatMemory m;
  const AieProgram p = assemble_ok("MOVX p0, 48\n{ VLDA w0, [p0], #32 ;; MOV r1, 1 }\nDONE\n");
  step(s, m, p);
  const BundleResult r = step(s, m, p);
  EXPECT_TRUE(r.fault);
  EXPECT_EQ(r.fault_message, "line 2: VLDA: misaligned load: address 0x30 is not a multiple of 32");
  EXPECT_EQ(s.p[0], 48u);  // the post-increment did not commit
  EXPECT_EQ(s.r[1], 0u);
  EXPECT_EQ(s.pc, 1u);
}

TEST(AieMemory, UnmappedStoreFaults) {
  CoreState s;
  FlatMemory m;
  const AieProgram p = assemble_ok("MOVX p0, 65536\nST r0, [p0], #4\nDONE\n");
  step(s, m, p);
  const BundleResult r = step(s, m, p);
  EXPECT_TRUE(r.fault);
  EXPECT_EQ(r.fault_message, "line 2: store of 4 bytes at 0x10000 is outside the data memory this core can reach");
  EXPECT_EQ(s.p[0], 65536u);
}

}  // namespace
}  // namespace aie_test
