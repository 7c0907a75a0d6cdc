// The AIE-ML core's exposed pipeline (compute.pipeline=exposed, platforms/aie_ml/exposed_pipeline.h):
// registers are read and written at their pipeline stages, so a kernel that reads a register
// before an in-flight result lands computes with the old value, as on the hardware; hazards
// the hardware does not compute reliably are faults naming the kernel line and the register.
// This is the default; the interlocked mode (compute.pipeline=interlocked) computes in
// program order and counts the reads it held.
// Stages used below (isa/aie_ml/aie_ml.yaml, the stages of AMD's AIE2 scheduling model):
// a load's result lands 7 cycles after issue, a multiply 6 (VMUL/VMAC) or 2 (scalar MUL), an
// ALU result or a move 1; a pipeline cycle is a bundle issued (no other stalls here).
#include <gtest/gtest.h>

#include "isa/aie_ml/aie_core.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"
#include "tests/platforms/aie_ml_test_util.h"

namespace tlmcraft::aie_ml::test {
namespace {

const char* kExposed = "compute.pipeline=exposed";

std::vector<uint8_t> lanes16(int16_t v, int n = 16) {
  std::vector<uint8_t> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(static_cast<uint8_t>(v & 0xff));
    out.push_back(static_cast<uint8_t>((v >> 8) & 0xff));
  }
  return out;
}

// Loads w0 = a (low half of x0) and w2 = b (low half of x1) (cycles 1 and 2) and waits until
// both have landed (cycle 9). The high halves stay 0, so lanes 16-31 of an int16 element-wise
// multiply of x0 and x1 are 0 and its low accumulator half (bm0 of cm0, bm2 of cm1) holds a*b.
const std::string kLoadAB = R"(.tile 0 0
  MOVXM p0, 0x70000                  ; 0
  VLDA w0, [p0, #0]                  ; 1: w0 = a lands at 8
  VLDB w2, [p0, #32]                 ; 2: w2 = b lands at 9
  NOP                                ; 3
  NOP                                ; 4
  NOP                                ; 5
  NOP                                ; 6
  NOP                                ; 7
  NOP                                ; 8
)";

// Runs `kernel` on the exposed pipeline, which must stop it with a fault; the message up to
// the core location appended in brackets.
std::string hazard_of(const char* kernel) {
  auto p = make({kExposed});
  load(*p, kernel);
  const RunResult r = run(*p);
  EXPECT_EQ(r.stop, StopReason::Fault);
  return r.message.substr(0, r.message.find(" ["));
}

TEST(AieMlPipeline, StagesAssumedByTheseTests) {
  const auto& lat = isa::aie_ml::AieIsa::get().latency;
  EXPECT_EQ(lat.at("load"), 7u);
  EXPECT_EQ(lat.at("vmac"), 6u);
  EXPECT_EQ(lat.at("mul"), 2u);
  EXPECT_EQ(lat.at("alu"), 1u);
  EXPECT_EQ(lat.at("mov"), 1u);
}

const char* kScalarEarlyRead = R"(.tile 0 0
  MOVXM p0, 0x70000     ; 0: p0 readable at 1
  MOV r1, 5             ; 1: r1 = 5 readable at 2
  LDA r1, [p0]          ; 2: r1 = 37 lands at 2 + 7 = 9
  ADD r2, r1, r1        ; 3: exposed: the load is in flight, r1 is still 5: r2 = 10
  ST r2, [p0, #4]       ; 4
  NOP                   ; 5
  NOP                   ; 6
  NOP                   ; 7
  NOP                   ; 8
  ADD r3, r1, r1        ; 9: the load has landed: r3 = 74
  ST r3, [p0, #8]       ; 10
  DONE                  ; 11: the core halts at 12
)";

TEST(AieMlPipeline, ScalarReadBeforeTheLoadLandsSeesTheOldValue) {
  // Exposed is the default: the same with and without the override.
  for (const std::vector<std::string>& set : {std::vector<std::string>{kExposed}, std::vector<std::string>{}}) {
    auto p = make(set);
    load(*p, kScalarEarlyRead);
    p->write_memory("tile_0_0", 0, {37, 0, 0, 0});
    const RunResult r = run(*p);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(r.cycles, 12u);  // one bundle per cycle: no register stalls
    EXPECT_EQ(word(p->read_memory("tile_0_0", 4, 4)), 10u);
    EXPECT_EQ(word(p->read_memory("tile_0_0", 8, 4)), 74u);
    const auto& pipe = r.memory["cores"]["tile(0,0)"]["pipeline"];
    EXPECT_EQ(pipe["mode"], "exposed");
    EXPECT_EQ(pipe["early_reads"], 1);
    EXPECT_EQ(pipe["notes"][0],
              "line 5 (ADD) reads r1 6 cycle(s) before the result of line 4 (LDA) lands: it reads the old value");
    EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["stall_register"], 0);
  }
}

TEST(AieMlPipeline, InterlockedModeComputesInProgramOrderAndCountsTheHeldRead) {
  // Interlocked: the ADD at cycle 3 waits for the load until 9 (r2 = 74), everything after
  // it moves 6 cycles: ST 10, NOPs 11-14, ADD 15, ST 16, DONE 17, halt at 18.
  auto p = make({"compute.pipeline=interlocked"});
  load(*p, kScalarEarlyRead);
  p->write_memory("tile_0_0", 0, {37, 0, 0, 0});
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 18u);
  EXPECT_EQ(word(p->read_memory("tile_0_0", 4, 4)), 74u);
  EXPECT_EQ(word(p->read_memory("tile_0_0", 8, 4)), 74u);
  const auto& pipe = r.memory["cores"]["tile(0,0)"]["pipeline"];
  EXPECT_EQ(pipe["mode"], "interlocked");
  EXPECT_EQ(pipe["held_reads"], 1);
  EXPECT_EQ(pipe["notes"][0], "line 5 (ADD) waits 6 cycle(s) for r1 from line 4");
}

TEST(AieMlPipeline, VectorReloadedWhileTheMultiplyStillReadsTheOldValue) {
  // The pattern of software-pipelined AIE2 kernels (the Hello-XDNA bf16 kernel reloads
  // registers that in-flight VMACs still read): the reload of w0 issues before the multiply
  // that uses w0's previous contents, and lands after the multiply has read them.
  const std::string k = kLoadAB + R"(  VLDA w0, [p0, #64]                 ; 9: the reload, w0 = c (5s), lands at 16
  VMUL.E.S16 cm0, x0, x1             ; 10: reads w0 = a, w2 = b: cm0 = 6s, lands at 16
  NOP                                ; 11
  NOP                                ; 12
  NOP                                ; 13
  NOP                                ; 14
  NOP                                ; 15
  VMUL.E.S16 cm1, x0, x1             ; 16: w0 = c: cm1 = 15s, lands at 22
  VST.SRS.S16.S32 bm0, [p0, #128], 0 ; 17: cm0 landed at 16
  NOP                                ; 18
  NOP                                ; 19
  NOP                                ; 20
  NOP                                ; 21
  VST.SRS.S16.S32 bm2, [p0, #160], 0 ; 22: cm1's low half
  DONE                               ; 23: halts at 24
)";
  std::vector<uint8_t> in = lanes16(2), b = lanes16(3), c = lanes16(5);
  in.insert(in.end(), b.begin(), b.end());
  in.insert(in.end(), c.begin(), c.end());
  for (const char* mode : {"compute.pipeline=exposed", "compute.pipeline=interlocked"}) {
    auto p = make({mode});
    load(*p, k);
    p->write_memory("tile_0_0", 0, in);
    const RunResult r = run(*p);
    ASSERT_TRUE(r.ok()) << r.message;
    const bool exposed = std::string(mode) == kExposed;
    // Interlocked: the first multiply waits for the reload (9 + 7 = 16) and reads c, 6
    // cycles later than exposed; the rest of the program keeps its spacing.
    EXPECT_EQ(r.cycles, exposed ? 24u : 30u) << mode;
    EXPECT_EQ(p->read_memory("tile_0_0", 128, 32), lanes16(exposed ? 6 : 15)) << mode;
    EXPECT_EQ(p->read_memory("tile_0_0", 160, 32), lanes16(15)) << mode;
  }
}

TEST(AieMlPipeline, AccumulatorInputIsReadInStageThree) {
  // With compute.acc_read_cycles=2 (AIE2: accumulator read in stage 3) the VMAC issued at 13
  // reads cm0 at 15, when the VMUL's result (issued 9, + 6) has landed: 6 + 2*3 = 12. Read at
  // issue (0), cm0 still holds its initial 0: 0 + 6 = 6.
  const std::string k = kLoadAB + R"(  VMUL.E.S16 cm0, x0, x1             ; 9: cm0 = 6s lands at 15
  NOP                                ; 10
  NOP                                ; 11
  NOP                                ; 12
  VMAC.E.S16 cm1, cm0, x0, x1        ; 13: lands at 19
  NOP                                ; 14
  NOP                                ; 15
  NOP                                ; 16
  NOP                                ; 17
  NOP                                ; 18
  VST.SRS.S16.S32 bm2, [p0, #128], 0 ; 19: cm1's low half
  DONE                               ; 20: halts at 21
)";
  std::vector<uint8_t> in = lanes16(2), b = lanes16(3);
  in.insert(in.end(), b.begin(), b.end());
  for (const auto& [acc_read, expected, early] : std::vector<std::tuple<std::string, int16_t, int>>{
           {"compute.acc_read_cycles=2", 12, 0}, {"compute.acc_read_cycles=0", 6, 1}}) {
    auto p = make({kExposed, acc_read});
    load(*p, k);
    p->write_memory("tile_0_0", 0, in);
    const RunResult r = run(*p);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(r.cycles, 21u) << acc_read;
    EXPECT_EQ(p->read_memory("tile_0_0", 128, 32), lanes16(expected)) << acc_read;
    EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["pipeline"]["early_reads"], early) << acc_read;
  }
}

TEST(AieMlPipeline, ResultsLandingOutOfOrderAreAHazard) {
  // The MOV (cycle 2, lands 3) would be overwritten by the load issued before it (lands 8).
  const char* k = R"(.tile 0 0
  MOVXM p0, 0x70000
  LDA r1, [p0]
  MOV r1, 3
  DONE
)";
  EXPECT_EQ(hazard_of(k),
            "k.s:4: pipeline hazard: line 4 (MOV) writes r1 5 cycle(s) before the earlier write of line 3 (LDA) "
            "lands, which would overwrite it (results land out of order)");
}

TEST(AieMlPipeline, TwoResultsLandingInOneCycleAreAHazard) {
  // LDA at 2 lands at 9; MUL at 7 (+2) also at 9.
  const char* k = R"(.tile 0 0
  MOVXM p0, 0x70000
  MOV r2, 6
  LDA r1, [p0]
  NOP
  NOP
  NOP
  NOP
  MUL r1, r2, r2
  DONE
)";
  EXPECT_EQ(hazard_of(k),
            "k.s:9: pipeline hazard: line 4 (LDA) and line 9 (MUL) both write r1 in the same cycle (a write-port "
            "collision: undefined)");
}

TEST(AieMlPipeline, ReadingAResultInFlightAcrossATakenBranchIsAHazard) {
  // The load (cycle 1) lands at 8; the branch target's ADD issues at 3.
  const char* k = R"(.tile 0 0
  MOVXM p0, 0x70000
  LDA r1, [p0]
  J target
  NOP
target:
  ADD r2, r1, r1
  DONE
)";
  EXPECT_EQ(hazard_of(k),
            "k.s:7: pipeline hazard: line 7 (ADD) reads r1 5 cycle(s) before the result of line 3 (LDA) lands, and "
            "that result is in flight across a taken branch: this model has no branch delay slots, so the hardware "
            "reads it at another time (let it land before the branch)");
}

TEST(AieMlPipeline, BaselinesCarryWaitsWhenGeneratedForTheExposedPipeline) {
  // gemm C1 generated for each configuration (the generator reads compute.pipeline): with
  // interlocks the kernel relies on them (no wait bundles, 3,452 cycles); for the exposed
  // pipeline it carries NOP waits and takes 3,460: the waits a loop pays on entry as well
  // (bench/aie_ml_fidelity/pipeline_sweep.py measures every cell; it passes its check there).
  const auto inst = tasks::Registry::builtin().instance("gemm", "aie_ml", "C1");
  for (const auto& [mode, waits, cycles] :
       std::vector<std::tuple<std::string, bool, uint64_t>>{{"interlocked", false, 3452}, {"exposed", true, 3460}}) {
    auto p = make({"compute.pipeline=" + mode});
    const std::string kernel = tasks::baseline_kernel(inst, p->config());
    EXPECT_EQ(kernel.find("wait (exposed pipeline)") != std::string::npos, waits) << mode;
    load(*p, kernel);
    const RunResult r = run(*p);
    ASSERT_TRUE(r.ok()) << mode << ": " << r.message;
    EXPECT_EQ(r.cycles, cycles) << mode;
  }
}

TEST(AieMlPipeline, BadModeIsNamed) {
  std::string what;
  try {
    load_aie_config("default", {"compute.pipeline=fast"});
  } catch (const InputError& e) {
    what = e.what();
  }
  EXPECT_NE(what.find("compute.pipeline must be 'interlocked' or 'exposed', got 'fast'"), std::string::npos) << what;
}

}  // namespace
}  // namespace tlmcraft::aie_ml::test
