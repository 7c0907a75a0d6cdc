// Scalar ALU, branches, the zero-overhead loop and locks, executed bundle by bundle.
#include "tests/isa/aie_ml/core_fixture.h"

namespace aie_test {
namespace {

TEST(AieScalar, AluOps) {
  CoreState s;
  FlatMemory m;
  run_text(
      "MOVXM r1, 0x80000001\n"
      "MOV r2, -3\n"
      "ADD r3, r1, r2 ;; MOV r9, 4\n"   // 0x80000001 - 3 = 0x7FFFFFFE (wraps)
      "MUL r4, r2, r2 ;; MOV r10, -4\n" // 9
      "LSHL r5, r1, r10\n"              // logical right by 4: 0x08000000
      "ASHL r6, r1, r10\n"              // arithmetic right by 4: 0xF8000000
      "LSHL r7, r2, r9\n"               // -3 << 4 = -48
      "LT r8, r1, r2\n"                 // INT_MIN+1 < -3 signed: 1
      "LTU r11, r1, r2\n"               // 0x80000001 < 0xFFFFFFFD unsigned: 1
      "SEL.EQZ r12, r9, r10, r0\n"      // r0 == 0 -> r9
      "DONE\n",
      s, m);
  EXPECT_EQ(s.r[3], 0x7FFFFFFEu);
  EXPECT_EQ(s.r[4], 9u);
  EXPECT_EQ(s.r[5], 0x08000000u);
  EXPECT_EQ(s.r[6], 0xF8000000u);
  EXPECT_EQ(int32_t(s.r[7]), -48);
  EXPECT_EQ(s.r[8], 1u);
  EXPECT_EQ(s.r[11], 1u);
  EXPECT_EQ(s.r[12], 4u);
}

TEST(AieScalar, BundleReadsOldValues) {
  // Both slots read r1 = 5 before the bundle: the swap through MOV and ADD sees old values.
  CoreState s;
  FlatMemory m;
  run_text("MOV r1, 5\nMOV r2, 7\n{ ADD r1, r2, 0 ;; MOV r2, r1 }\nDONE\n", s, m);
  EXPECT_EQ(s.r[1], 7u);
  EXPECT_EQ(s.r[2], 5u);
}

TEST(AieControl, CountedLoopWithJnzd) {
  // r0 = 3: JNZD jumps while the old value is non-zero, so the body runs 4 times (3,2,1,0).
  CoreState s;
  FlatMemory m;
  const AieProgram p = run_text("MOV r0, 3\nbody:\n  ADD r1, r1, 2\n  JNZD r0, r0, body\nDONE\n", s, m);
  EXPECT_EQ(s.r[1], 8u);
  EXPECT_EQ(int32_t(s.r[0]), -1);
  // 1 + 4 * 2 + 1 bundles.
  EXPECT_EQ(s.bundles_retired, 10u);
}

TEST(AieControl, ZeroOverheadLoopRunsLcTimes) {
  // Body = bundles 4..5 (ls = label top, le = label last); lc = 5 so r1 = 5 * (1 + 10).
  CoreState s;
  FlatMemory m;
  const std::string prog =
      "MOVXM ls, top\n"
      "MOVXM le, last\n"
      "MOV lc, 5\n"
      "NOP\n"
      "top:\n"
      "  ADD r1, r1, 1\n"
      "last:\n"
      "  ADD r1, r1, 10\n"
      "DONE\n";
  const AieProgram p = assemble_ok(prog);
  size_t loop_backs = 0;
  while (!s.halted) {
    const BundleResult r = step(s, m, p);
    ASSERT_FALSE(r.fault) << r.fault_message;
    loop_backs += r.loop_back;
  }
  EXPECT_EQ(s.r[1], 55u);
  EXPECT_EQ(loop_backs, 4u);  // the 5th pass falls through
  EXPECT_EQ(s.lc, 0u);
  EXPECT_EQ(s.bundles_retired, 4u + 5u * 2u + 1u);
}

TEST(AieControl, CallAndReturn) {
  CoreState s;
  FlatMemory m;
  run_text("JL fn\nADD r2, r1, 1\nDONE\nfn:\n  MOV r1, 40\n  RET lr\n", s, m);
  EXPECT_EQ(s.r[2], 41u);
  EXPECT_EQ(s.lr, 1u);
}

TEST(AieControl, LockAcquireStallsWithoutChangingState) {
  CoreState s;
  FlatMemory m;
  Locks locks;
  const AieProgram p = assemble_ok("{ ACQ 48, 1 ;; MOV r1, 9 }\nREL 49, 1\nDONE\n");
  BundleResult r = step(s, m, p, &locks);
  EXPECT_TRUE(r.stalled);
  EXPECT_EQ(s.pc, 0u);
  EXPECT_EQ(s.r[1], 0u);
  ASSERT_EQ(r.locks.size(), 1u);
  EXPECT_EQ(r.locks[0].id, 48u);
  locks.value[48] = 1;  // the producer releases
  r = step(s, m, p, &locks);
  EXPECT_FALSE(r.stalled);
  EXPECT_EQ(s.r[1], 9u);
  EXPECT_EQ(locks.value[48], 0);
  r = step(s, m, p, &locks);
  EXPECT_EQ(r.locks[0].kind, LockRequest::Kind::Release);
  EXPECT_EQ(locks.value[49], 1);
}

TEST(AieControl, RunningPastTheEndFaults) {
  CoreState s;
  FlatMemory m;
  const AieProgram p = assemble_ok("NOP\n");
  step(s, m, p);
  const BundleResult r = step(s, m, p);
  EXPECT_TRUE(r.fault);
  EXPECT_EQ(r.fault_message, "pc 1 is past the end of the program (1 bundles; a core program must end with DONE)");
}

}  // namespace
}  // namespace aie_test

namespace aie_test {
namespace {

TEST(AieControl, LoopedInt8MacOverMemory) {
  // C (4x8) = sum over 3 K-blocks of A_b (4x8, all b + 1) * B_b (8x8, all 1):
  // each block adds 8 * (b + 1) per lane: 8 + 16 + 24 = 48. A blocks are 32 bytes apart,
  // B blocks 64 bytes apart; the loop body is three bundles run lc = 3 times. (Loading w3 in
  // the VMAC bundle would feed VMAC the previous w3: a bundle reads registers as they were.)
  CoreState s;
  FlatMemory m;
  for (int b = 0; b < 3; ++b) {
    m.put<int8_t>(uint32_t(32 * b), std::vector<int8_t>(32, int8_t(b + 1)));
    m.put<int8_t>(uint32_t(1024 + 64 * b), std::vector<int8_t>(64, 1));
  }
  const AieProgram p = assemble_ok(
      "MOVX p1, 1024\n"
      "MOVXM ls, body\n"
      "MOVXM le, last\n"
      "MOV lc, 3\n"
      "VCLR cm0\n"
      "body:\n"
      "  { VLDA w0, [p0], #32 ;; VLDB w2, [p1], #32 }\n"
      "  VLDB w3, [p1], #32\n"
      "last:\n"
      "  VMAC.I8 cm0, cm0, w0, x1\n"
      "MOVX p2, 2048\n"
      "VST.SRS.S8.S32 cm0, [p2], 0\n"
      "DONE\n");
  run(p, s, m);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(m.get<int8_t>(2048 + uint32_t(i)), 48) << i;
  EXPECT_EQ(s.p[0], 96u);
  EXPECT_EQ(s.p[1], 1024u + 192u);
  EXPECT_EQ(s.bundles_retired, 5u + 3u * 3u + 3u);
}

}  // namespace
}  // namespace aie_test
