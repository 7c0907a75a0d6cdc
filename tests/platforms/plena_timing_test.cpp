// Golden timing tests: every expected count is derived by hand in the comment above it
// from docs/platforms/plena.md (latencies: add/mul/exp 1, reci 2, max 4, sum 8, matrix
// 64, scalar/control 1; pipelined: one issue per cycle, matrix II 4) and docs/models.md
// (HBM2 preset, DMA and scratchpad formulas).
#include "tests/platforms/plena_test_util.h"

namespace tlmcraft::plena {
namespace {

using testing::run;

// Four vector ops on VRAM row 0, each reading the previous result.
const char* kDependentChain = R"(
V_ADD_VV gp0, gp0, gp0, 0
V_EXP_V gp0, gp0, 0
V_RECI_V gp0, gp0, 0
V_RED_SUM f1, gp0
)";

TEST(PlenaTiming, DependentVectorChainSerial) {
  // 1 + 1 + 2 + 8
  EXPECT_EQ(run("serial", kDependentChain).cycles, 12u);
}

TEST(PlenaTiming, DependentVectorChainPipelined) {
  // ADD issue 0 done 1; EXP waits for row 0 (RAW) issue 1 done 2; RECI issue 2 done 4;
  // RED_SUM issue 4 done 12. A dependent chain cannot overlap: 12, as in serial mode.
  EXPECT_EQ(run("pipelined", kDependentChain).cycles, 12u);
}

// Three address set-ups, then four reciprocals on four different rows (banks 0..3).
const char* kIndependent = R"(
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 192
V_RECI_V gp0, gp0, 0
V_RECI_V gp1, gp1, 0
V_RECI_V gp2, gp2, 0
V_RECI_V gp3, gp3, 0
)";

TEST(PlenaTiming, IndependentVectorOpsSerial) {
  // 3 x 1 + 4 x 2
  EXPECT_EQ(run("serial", kIndependent).cycles, 11u);
}

TEST(PlenaTiming, IndependentVectorOpsPipelined) {
  // S_ADDI at 0, 1, 2 (gp3 ready at 3); RECI issue 3, 4, 5, 6 (one per cycle, vector II 1),
  // the last done at 6 + 2 = 8.
  EXPECT_EQ(run("pipelined", kIndependent).cycles, 8u);
}

// Four accumulations of one BLEN x BLEN block over an MSRAM tile, then the write-out.
const char* kMatrixLoop = R"(
S_ADDI_INT gp1, gp0, 0
S_ADDI_INT gp2, gp0, 0
S_ADDI_INT gp3, gp0, 512
C_LOOP_START gp4, 4
  M_MM 0, gp1, gp2
C_LOOP_END gp4
M_MM_WO gp3, gp0, 0
)";

TEST(PlenaTiming, MatrixTileLoopSerial) {
  // 3 + 1 (loop start) + 4 x (64 + 1 loop end) + 1 (write-out)
  EXPECT_EQ(run("serial", kMatrixLoop).cycles, 265u);
}

TEST(PlenaTiming, MatrixTileLoopPipelined) {
  // S_ADDI 0..2, LOOP_START 3; M_MM issue 4 (done 68), LOOP_END 5; the matrix unit takes a
  // new block every 4 cycles: M_MM 8, 12, 16 (done 80), LOOP_ENDs 9, 13, 17;
  // M_MM_WO waits for the last accumulation: issue 80, done 81.
  EXPECT_EQ(run("pipelined", kMatrixLoop).cycles, 81u);
}

// 3 outer x 2 inner iterations around a dependent increment.
const char* kNestedLoops = R"(
C_LOOP_START gp1, 3
  C_LOOP_START gp2, 2
    S_ADDI_INT gp3, gp3, 1
  C_LOOP_END gp2
C_LOOP_END gp1
)";

TEST(PlenaTiming, NestedLoops) {
  // Executed: 1 outer start + 3 x (1 inner start + 2 x (addi + inner end) + 1 outer end) = 19
  // instructions of 1 cycle. Pipelined: zero-overhead loops issue one per cycle, and the
  // increment chain (latency 1) never stalls: also 19.
  for (const char* mode : {"serial", "pipelined"}) {
    PlenaPlatform p(testing::config(mode));
    const RunResult r = testing::run(p, kNestedLoops);
    EXPECT_EQ(r.instructions, 19u) << mode;
    EXPECT_EQ(r.cycles, 19u) << mode;
  }
}

// H_PREFETCH_V of 4 MXFP8 rows from HBM 0 (SCALE 256) issued at cycle 2, on the HBM2
// command engine (docs/models.md), derivation:
//   blocks: data 0, 64, 128, 192 and, per row, the scale block 256 (the four rows' scales
//         share it): 8 blocks = 32 requests of 16 B, all offered at cycle 2.
//   MOP4CLXOR: request k of block b goes to channel (b/64) XOR k, pseudo-channel 0, bank
//         group 0, bank 0, row 0, column k: channels 0-3 get one request of each data
//         block (columns 0..3), channels 4-7 four requests each to one scale address.
//   per channel: ACT in the step at cycle 2 (clock 3); RDs at clocks 10, 14, 18, 22 (tRCD 7,
//         then nBL 4 apart on the pseudo-channel bus); the last data at clock 22 + 11 = 33,
//         served in the step at cycle 32. Serial: the prefetch ends at 32 (30 cycles).
//   pipelined: the SRAM side (4 rows x 128 B at 64 B/cycle = 8 cycles, 2..10) streams
//   alongside: done max(32, 10) = 32.
constexpr uint64_t kPrefetchDone = 32, kPrefetchDonePipelined = 32;
const char* kPrefetchThenIndependent = R"(
S_ADDI_INT gp1, gp0, 256
C_SET_SCALE_REG gp1
H_PREFETCH_V gp0, gp0, a0, 0, 0
S_ADDI_INT gp2, gp0, 512
V_EXP_V gp2, gp2, 0
)";
const char* kPrefetchThenDependent = R"(
S_ADDI_INT gp1, gp0, 256
C_SET_SCALE_REG gp1
H_PREFETCH_V gp0, gp0, a0, 0, 0
S_ADDI_INT gp2, gp0, 512
V_EXP_V gp2, gp0, 0
)";

TEST(PlenaTiming, PrefetchThenUseSerial) {
  // Serial: the prefetch blocks until 32, then S_ADDI and V_EXP: 34 for either use.
  EXPECT_EQ(run("serial", kPrefetchThenIndependent).cycles, kPrefetchDone + 2);
  EXPECT_EQ(run("serial", kPrefetchThenDependent).cycles, kPrefetchDone + 2);
}

TEST(PlenaTiming, PrefetchThenUsePipelined) {
  // Independent: S_ADDI 3, V_EXP on row 8 at 4 (done 5); the run ends when the prefetch
  // completes at 32. Dependent: V_EXP reads row 0, written by the prefetch: issue 32, done 33.
  EXPECT_EQ(run("pipelined", kPrefetchThenIndependent).cycles, kPrefetchDonePipelined);
  EXPECT_EQ(run("pipelined", kPrefetchThenDependent).cycles, kPrefetchDonePipelined + 1);
}

TEST(PlenaTiming, CountsDoNotDependOnTheQuantum) {
  for (const char* mode : {"serial", "pipelined"}) {
    std::vector<uint64_t> cycles;
    for (const char* q : {"1", "7", "1000000"}) {
      const RunResult r = run(mode, std::string(kPrefetchThenDependent) + kMatrixLoop + kNestedLoops,
                              {std::string("timing.quantum_cycles=") + q});
      ASSERT_TRUE(r.ok()) << r.message;
      cycles.push_back(r.cycles);
    }
    EXPECT_EQ(cycles[0], cycles[1]) << mode;
    EXPECT_EQ(cycles[0], cycles[2]) << mode;
  }
}

TEST(PlenaTiming, SlowDatapathVariantFromConfig) {
  // The reference simulator's slower variant: add 2, exp 6, reci 7, sum 20 -> 2+6+7+20.
  EXPECT_EQ(run("serial", kDependentChain,
                {"timing.latency.vector_add=2", "timing.latency.vector_exp=6", "timing.latency.vector_reci=7",
                 "timing.latency.vector_sum=20"})
                .cycles,
            35u);
}

}  // namespace
}  // namespace tlmcraft::plena
