// Golden tests of the vector backend timing, counts derived by hand from the rules in
// docs/platforms/coral.md. Each program measures with mcycle around the vector code; the
// second csrr waits until everything older (vector micro-ops included) is complete.
//
// Common derivation facts (D = cycle of the first csrr): vector instructions dispatch 2
// per cycle from D+1; a command is decoded into micro-ops the cycle after dispatch, at
// most 2 commands per cycle; micro-ops issue in order to the earliest free unit of their
// kind (2 ALUs, 2 multipliers) once their source registers are ready; ALU latency 2,
// multiply latency 3; the csrr reads the cycle at which everything has completed.
#include <string>

#include "tests/platforms/coral_test_util.h"

namespace tlmcraft::coral {
namespace {

using testing::build;
using testing::read_u32;
using testing::symbol;

// 3 setup instructions + csrr fill the first fetch line (as in the RTL calibration).
std::string program(const std::string& setup, const std::string& body) {
  return "  .text\n  .globl main\n  .balign 16\nmain:\n" + setup + "  csrr s0, mcycle\n" + body +
         "  csrr s1, mcycle\n  sub a0, s1, s0\n  la t0, result\n  sw a0, 0(t0)\n  ret\n"
         "  .data\n  .balign 16\nresult: .word 0\nbuf: .space 256\n";
}

const char* kE8M1 = "  vsetivli zero, 16, e8, m1, ta, ma\n  li a0, 0\n  la a2, buf\n";  // la = 2 instructions
const char* kE8M1Short = "  vsetivli zero, 16, e8, m1, ta, ma\n  li a0, 0\n  li a1, 0\n";
const char* kE8M4 = "  li t1, 64\n  vsetvli zero, t1, e8, m4, ta, ma\n  li a1, 0\n";

uint32_t measure(const std::string& source, const std::vector<std::string>& overrides = {}) {
  CoralPlatform p = testing::make_platform(overrides);
  const isa::Program prog = build(p, source);
  p.load(prog);
  const RunResult r = p.run({}, {});
  EXPECT_TRUE(r.ok()) << r.message;
  return read_u32(p, symbol(prog, "result"));
}

TEST(CoralVectorTiming, IndependentAddsUseBothAlus) {
  // 8 independent vadd.vv: dispatch 2/cycle D+1..D+4, decode D+2..D+5, two issue per
  // cycle (ALU0, ALU1) D+2..D+5, the last done at D+5+2 = D+7.
  std::string body;
  for (int i = 0; i < 8; ++i) body += "  vadd.vv v" + std::to_string(i + 1) + ", v20, v21\n";
  EXPECT_EQ(measure(program(kE8M1Short, body)), 7u);
}

TEST(CoralVectorTiming, DependentAddsChainOnTheAluLatency) {
  // v1 = v1 + v2, four times: issue at D+2, D+4, D+6, D+8 (each waits 2 for the previous),
  // the last done at D+10.
  EXPECT_EQ(measure(program(kE8M1Short, "  vadd.vv v1, v1, v2\n  vadd.vv v1, v1, v2\n  vadd.vv v1, v1, v2\n  vadd.vv v1, v1, v2\n")),
            10u);
}

TEST(CoralVectorTiming, Lmul4IsFourMicroOps) {
  // One vadd.vv with LMUL=4: 4 micro-ops, 2 per cycle at D+2, D+3: done D+5.
  EXPECT_EQ(measure(program(kE8M4, "  vadd.vv v4, v8, v12\n")), 5u);
  // A dependent LMUL=4 add: its micro-op j reads v4+j, ready at D+4 (j<2) / D+5 (j>=2):
  // issue D+4, D+4, D+5, D+5, done D+7.
  EXPECT_EQ(measure(program(kE8M4, "  vadd.vv v4, v8, v12\n  vadd.vv v16, v4, v12\n")), 7u);
}

TEST(CoralVectorTiming, MultipliesUseBothMultipliers) {
  // 4 independent vmul.vv: issue D+2, D+2, D+3, D+3 on MUL0/MUL1, latency 3: D+6.
  EXPECT_EQ(measure(program(kE8M1Short, "  vmul.vv v1, v20, v21\n  vmul.vv v2, v20, v21\n"
                                        "  vmul.vv v3, v20, v21\n  vmul.vv v4, v20, v21\n")),
            6u);
}

TEST(CoralVectorTiming, ScalarReadOfAVectorResultWaits) {
  // vadd at D+1 (done D+4); vmv.x.s at D+1 issues when v1 is ready, D+4, done D+5, and
  // reaches a0 2 cycles later (D+7); the dependent addi dispatches at D+7 and is
  // written back at D+9.
  EXPECT_EQ(measure(program(kE8M1Short, "  vadd.vv v1, v2, v3\n  vmv.x.s a0, v1\n  addi a1, a0, 1\n")), 9u);
  // An independent scalar instruction runs ahead: everything is done when a0 arrives, D+7.
  EXPECT_EQ(measure(program(kE8M1Short, "  vadd.vv v1, v2, v3\n  vmv.x.s a0, v1\n  addi a1, a1, 1\n")), 7u);
}

TEST(CoralVectorTiming, VectorLoadFromDtcmAndExternalMemory) {
  // vle8.v of 16 bytes from DTCM: issue D+2, one 16-byte beat, load latency 4: D+6.
  EXPECT_EQ(measure(program(kE8M1, "  vle8.v v1, (a2)\n")), 6u);
  // From external memory: issue D+2, 1 beat + AXI read latency 24: D+27.
  EXPECT_EQ(measure(program("  vsetivli zero, 16, e8, m1, ta, ma\n  li a0, 0\n  li a2, 0x20000000\n",
                            "  vle8.v v1, (a2)\n")),
            27u);
  // The AXI latency comes from the configuration.
  EXPECT_EQ(measure(program("  vsetivli zero, 16, e8, m1, ta, ma\n  li a0, 0\n  li a2, 0x20000000\n",
                            "  vle8.v v1, (a2)\n"),
                    {"memory.axi.read_latency=40"}),
            43u);
}

TEST(CoralVectorTiming, ReductionsAccumulateSerially) {
  // vredsum.vs over an LMUL=4 group: 4 micro-ops, each waiting for the previous one
  // (latency 4): issue D+2, D+6, D+10, D+14, done D+18.
  EXPECT_EQ(measure(program(kE8M4, "  vredsum.vs v1, v4, v2\n")), 18u);
}

TEST(CoralVectorTiming, ScalarLoadsWaitForVectorStores) {
  // vse8.v to DTCM: issue D+2, one beat, store latency 4: done D+6.
  EXPECT_EQ(measure(program(kE8M1, "  vse8.v v1, (a2)\n")), 6u);
  // A scalar load of the stored data dispatches after the vector store completes (D+6):
  // data at D+10.
  EXPECT_EQ(measure(program(kE8M1, "  vse8.v v1, (a2)\n  lw a1, 0(a2)\n")), 10u);
}

TEST(CoralVectorTiming, ReorderBufferLimitsMicroOpsInFlight) {
  // 12 LMUL=4 loads from external memory = 48 micro-ops through the single vector LSU
  // (1 beat each: busy 1 cycle, done 25 cycles after issue). The 16-entry ROB lets 16
  // micro-ops be in flight: micro-op k >= 16 issues when micro-op k-16 retires, so they
  // go in waves of 16, 25 cycles apart: k = 16w + i issues at D+2+25w+i. The last
  // (w=2, i=15) issues at D+67 and is done at D+92 (without the ROB limit: D+49+25 = D+74).
  std::string body;
  for (int i = 0; i < 12; ++i) body += "  vle8.v v" + std::to_string((i % 7) * 4 + 4) + ", (a2)\n";
  EXPECT_EQ(measure(program("  li t1, 64\n  vsetvli zero, t1, e8, m4, ta, ma\n  li a2, 0x20000000\n", body)), 92u);
  EXPECT_EQ(measure(program("  li t1, 64\n  vsetvli zero, t1, e8, m4, ta, ma\n  li a2, 0x20000000\n", body), {"vector.rob=64"}),
            74u);
}

}  // namespace
}  // namespace tlmcraft::coral
