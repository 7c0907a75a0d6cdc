// Core timing on the AIE-ML array: one bundle per cycle in order, register-use stalls
// from the ISA's latency table, bank conflicts (within a bundle and against DMA), lock
// waits, and a double-buffered loop whose compute and transfers overlap as predicted.
// Every count is derived by hand in the comments (docs/platforms/aie-ml.md).
#include <gtest/gtest.h>

#include "isa/aie_ml/aie_core.h"
#include "tests/platforms/aie_ml_test_util.h"

namespace tlmcraft::aie_ml::test {
namespace {

uint32_t latency(const char* cls) { return isa::aie_ml::AieIsa::get().latency.at(cls); }

TEST(AieMlCore, LatencyTableAssumedByTheseTests) {
  // The derivations below use these values of isa/aie_ml/aie_ml.yaml.
  EXPECT_EQ(latency("load"), 7u);
  EXPECT_EQ(latency("mul"), 2u);
  EXPECT_EQ(latency("alu"), 1u);
  EXPECT_EQ(latency("mov"), 1u);
}

TEST(AieMlCore, PostModifiedPointerComesFromTheAguNotTheLoad) {
  // A load's data takes the load latency; its pointer post-modify is an AGU result,
  // readable the next cycle (latency class agu = 1; AM027 "Load and Store Unit"). On the
  // exposed pipeline (the default) a read of p0 before it lands would load from base twice
  // (r3 = 60); the NOPs are the wait for r2 the kernel needs on the hardware.
  EXPECT_EQ(latency("agu"), 1u);
  const char* k = R"(.tile 0 0
  MOVXM p0, 0x70000     ; cycle 0; p0 readable at 1
  LDA r1, [p0], #4      ; 1: r1 readable at 8, p0 (+4) at 2
  LDA r2, [p0], #4      ; 2: p0 = base + 4 already; r2 readable at 9
  NOP                   ; 3
  NOP                   ; 4
  NOP                   ; 5
  NOP                   ; 6
  NOP                   ; 7
  NOP                   ; 8
  ADD r3, r1, r2        ; 9
  ST r3, [p0]           ; 10 (p0 = base + 8)
  DONE                  ; 11: the core halts at 12
)";
  auto p = make();
  load(*p, k);
  p->write_memory("tile_0_0", 0, {30, 0, 0, 0, 12, 0, 0, 0});
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 12u);
  EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["stall_register"], 0);
  EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["pipeline"]["early_reads"], 0);
  EXPECT_EQ(word(p->read_memory("tile_0_0", 8, 4)), 42u);
}

TEST(AieMlCore, AccumulatorInputReadLateWhenConfigured) {
  // compute.acc_read_cycles (default 2): a multiply-accumulate reads its accumulator input
  // that many cycles after issue, as AMD's AIE2 itineraries read it in stage 3 (= 2). Timed
  // here by the interlocks' stalls (the exposed pipeline's values: AieMlPipeline tests).
  EXPECT_EQ(latency("vmac"), 6u);
  const char* k = R"(.tile 0 0
  MOVXM p0, 0x70000            ; 0
  VLDA am0, [p0, #0]           ; 1: bm0 readable at 8
  VMAC.BF16 bm0, bm0, x0, x1   ; at 8 (default) or 6 (read 2 late); result 6 later
  VMAC.BF16 bm1, bm0, x0, x1   ; accumulator input bm0: at 14 / 10
  VADD.F bm2, bm1, bm1         ; an ordinary read of bm1: at 20 / 16
  DONE                         ; 21 / 17: halts at 22 / 18
)";
  for (const auto& [set, cycles] : std::vector<std::pair<std::string, uint64_t>>{
           {"compute.acc_read_cycles=0", 22}, {"compute.acc_read_cycles=2", 18}}) {
    auto p = make({set, "compute.pipeline=interlocked"});
    load(*p, k);
    const RunResult r = run(*p);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(r.cycles, cycles) << set;
  }
}

// compute.branch_delay_nops = N charges the N NOP bundles a kernel written without delay
// slots needs after every branch op on the hardware (its five delay slots, none filled):
// taken or not, they execute. JNZD r1 with r1 = 2 runs three times (taken at r1 = 2 and 1,
// falls through at 0): 1 + 3 x 2 + 1 (DONE) = 8 bundles, halt at 8; with N = 5 three
// branch ops add 15 cycles: 23. The loop's r1 chain is an ALU result (1 cycle), no stall.
TEST(AieMlCore, UnfilledBranchDelaySlotsCostTheirNopsPerBranchOp) {
  const char* k = R"(.tile 0 0
  MOV r1, #2
top:
  NOP
  JNZD r1, r1, top
  DONE
)";
  for (const auto& [nops, cycles] :
       {std::pair<const char*, uint64_t>{"compute.branch_delay_nops=0", 8}, {"compute.branch_delay_nops=5", 23}}) {
    auto p = make({nops});
    load(*p, k);
    const RunResult r = run(*p);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(r.cycles, cycles) << nops;
    EXPECT_EQ(r.memory["cores"]["tile(0,0)"].value("stall_branch_delay", 0), cycles == 23 ? 15 : 0) << nops;
  }
}

// The interlocked mode (compute.pipeline=interlocked): register-use stalls, each charged to
// the line that waited.
TEST(AieMlCore, BundleSequenceWithRegisterStalls) {
  const char* k = R"(.tile 0 0
  MOVXM p0, 0x70000     ; cycle 0; p0 readable at 1
  MOV r1, 5             ; 1
  LDA r2, [p0]          ; 2: r2 = 37, readable at 2 + 7 = 9
  ADD r3, r2, r1        ; tried at 3, waits 6 cycles, issues at 9; r3 readable at 10
  MUL r4, r3, r3        ; 10; r4 readable at 12
  ADD r5, r4, r1        ; tried at 11, waits 1, issues at 12; r5 readable at 13
  ST r5, [p0, #4]       ; 13
  DONE                  ; 14: the core halts at 15
)";
  auto p = make({"compute.pipeline=interlocked"});
  load(*p, k);
  p->write_memory("tile_0_0", 0, {37, 0, 0, 0});
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 15u);
  EXPECT_EQ(r.instructions, 8u);
  EXPECT_EQ(word(p->read_memory("tile_0_0", 4, 4)), 42u * 42u + 5u);
  EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["stall_register"], 7);
  const UnitStats* core = unit(r, "tile(0,0).core");
  ASSERT_NE(core, nullptr);
  EXPECT_EQ(core->instructions, 8u);
  EXPECT_EQ(core->busy_cycles, 8u);
  EXPECT_EQ(core->stall_cycles, 7u);
  EXPECT_EQ(unit(r, "tile(0,0).lda")->instructions, 1u);
  EXPECT_EQ(unit(r, "tile(0,0).alu")->instructions, 4u);  // ADD, MUL, ADD, DONE
  EXPECT_EQ(unit(r, "tile(0,0).mv")->instructions, 2u);
  EXPECT_EQ(r.instructions_by_class.at("st"), 1u);
  // The ADD that waited on the load is charged its 7 cycles (3..9 stalled, 9 issued).
  bool found = false;
  for (const auto& l : r.lines)
    if (l.line == 5) {
      found = true;
      EXPECT_EQ(l.cycles, 7u);
    }
  EXPECT_TRUE(found);
}

TEST(AieMlCore, BankConflictsSerialiseAccessesOfOneBundle) {
  // Banks are 8 KB address ranges: 0x70000 and 0x70020 share bank 0, 0x72000 is bank 1.
  const char* k = R"(
  MOVXM p0, 0x70000                                   ; 0
  MOVXM p1, 0x70020                                   ; 1
  MOVXM p2, 0x72000                                   ; 2 (p2 readable at 3)
  { VLDA w0, [p0] ;; VLDB w2, [p2] }                  ; 3: banks 0 and 1, no conflict
  { VLDA w0, [p0] ;; VLDB w2, [p1] }                  ; 4: both bank 0 -> 2 cycles (4, 5)
  { VLDA w0, [p0] ;; VLDB w2, [p1] ;; VST w4, [p0, #64] }  ; 6: three in bank 0 -> 6, 7, 8
  DONE                                                ; 9: halt at 10
)";
  auto p = make();
  load(*p, k);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 10u);
  EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["stall_bank"], 3);
}

TEST(AieMlCore, DmaWritesTakeTheBankFromTheCore) {
  // tile(1,0) streams 16 words into tile(0,0) bank 0 (address 0) while the core loads from
  // bank 0 (0x70100) every cycle. The segment starts at 4 (BD setup) and lands one hop
  // later: stream word i is written at 5 + i, one 128-bit bank word per 4 stream words,
  // so the DMA holds bank 0 in cycles 5, 9, 13 and 17.
  std::string k = ".tile 0 0\n  MOVXM p0, 0x70100\n";  // cycle 0
  for (int i = 0; i < 12; ++i) k += "  VLDA w0, [p0]\n";  // 1-4, 6-8 (5 taken), 10-12, 14-15
  k += "  DONE\n";                                       // 16: halt at 17
  k += R"(.movement
buffers:
  - {name: s, tile: [1, 0], address: 0, size: 64}
  - {name: d, tile: [0, 0], address: 0, size: 64}
bds:
  - {name: s, tile: [1, 0], channel: mm2s0, buffer: s, length: 64}
  - {name: d, tile: [0, 0], channel: s2mm0, buffer: d, length: 64}
routes:
  - {from: {tile: [1, 0], port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}
)";
  auto p = make();
  load(*p, k);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["halt_cycle"], 17);
  EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["stall_bank"], 3);  // at 5, 9 and 13
  EXPECT_EQ(r.cycles, 21u);  // the DMA's BD completes at 4 + 16 + 1
}

// Four 64-byte blocks stream from tile(1,0) into ping/pong buffers of tile(0,0) (locks:
// 0 = empty slots, init 2; 1 = full slots). The core takes a full slot (ACQ 49 = own lock
// 1), reads the block's first word, computes 30 NOP cycles, adds, frees the slot (REL 48).
std::string double_buffer_kernel(int nops) {
  std::string body_nops;
  for (int i = 0; i < nops; ++i) body_nops += "  NOP\n";
  std::string k = ".tile 0 0\n"
                  "  MOVXM p0, 0x70000\n"
                  "  MOVXM p1, 0x72000\n"
                  "  MOV r0, 1\n"
                  "loop:\n"
                  "  ACQ 49, 1\n"
                  "  LDA r2, [p0]\n" + body_nops +
                  "  ADD r5, r5, r2\n"
                  "  REL 48, 1\n"
                  "  ACQ 49, 1\n"
                  "  LDA r2, [p1]\n" + body_nops +
                  "  ADD r5, r5, r2\n"
                  "  REL 48, 1\n"
                  "  JNZD r0, r0, loop\n"
                  "  ST r5, [p0, #256]\n"
                  "  DONE\n";
  k += R"(.movement
locks:
  - {tile: [0, 0], id: 0, init: 2}
  - {tile: [0, 0], id: 1, init: 0}
buffers:
  - {name: src, tile: [1, 0], address: 0, size: 256}
  - {name: ping, tile: [0, 0], address: 0x0000, size: 64}
  - {name: pong, tile: [0, 0], address: 0x2000, size: 64}
bds:
  - {name: send, tile: [1, 0], channel: mm2s0, buffer: src, length: 256}
  - {name: in_ping, tile: [0, 0], channel: s2mm0, buffer: ping, length: 64, next: in_pong,
     acquire: {lock: 0, value: 1}, release: {lock: 1, value: 1}}
  - {name: in_pong, tile: [0, 0], channel: s2mm0, buffer: pong, length: 64, next: in_ping,
     acquire: {lock: 0, value: 1}, release: {lock: 1, value: 1}}
routes:
  - {from: {tile: [1, 0], port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}
)";
  return k;
}

std::vector<uint8_t> blocks() {
  std::vector<uint8_t> src(256, 0);
  for (int b = 0; b < 4; ++b) src[b * 64] = static_cast<uint8_t>(10 * (b + 1));  // first words 10, 20, 30, 40
  return src;
}

TEST(AieMlCore, DoubleBufferedLoopOverlapsComputeAndTransfer) {
  // Compute-bound (34 cycles per block, a transfer takes 16 + 4 setup + 1 hop):
  //  DMA: in_ping [4, 20) lands 21 (lock1 0->1, wakes the core at 22); in_pong takes lock0
  //       (1->0) at 21, ready 25, [25, 41) lands 42 (lock1 -> 1); in_ping waits for lock0.
  //  core: MOVXM 0, MOVXM 1, MOV 2, ACQ tried at 3, granted at 22 (19 lock-wait cycles).
  //       Block 1: ACQ 22, LDA 23, NOPs 24-53, ADD 54, REL 55 (lock0 -> 1: in_ping wakes
  //       at 56, ready 60, [60, 76) lands 77). Block 2: ACQ 56 (lock1 = 1 since 42),
  //       LDA 57, NOPs 58-87, ADD 88, REL 89 (in_pong wakes 90, [94, 110) lands 111),
  //       JNZD 90 (taken). Block 3: ACQ 91 (full since 77) ... REL 124. Block 4: ACQ 125
  //       (full since 111) ... REL 158, JNZD 159 (falls through), ST 160, DONE 161.
  //  The core never waits after the first block: total = 22 + 4 x 34 + 2 + 2 = 162.
  auto p = make();
  load(*p, double_buffer_kernel(30));
  p->write_memory("tile_1_0", 0, blocks());
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 162u);
  EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["stall_lock"], 19);
  EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["stall_register"], 0);
  EXPECT_EQ(word(p->read_memory("tile_0_0", 256, 4)), 100u);
  EXPECT_EQ(r.memory["dma"]["tile(0,0).s2mm0"]["bds"], 4);
}

TEST(AieMlCore, CountsDoNotDependOnTheQuantumOrOnReloading) {
  auto p = make({"timing.quantum_cycles=7"});
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  ASSERT_TRUE(p->assemble(double_buffer_kernel(30), "k.s", prog, diags));
  EXPECT_EQ(prog.code.size(), 3u + 2u * 34u + 3u);  // prologue, two blocks (ACQ, LDA, 30 NOP, ADD, REL), JNZD ST DONE
  for (int i = 0; i < 2; ++i) {
    p->load(prog);
    p->write_memory("tile_1_0", 0, blocks());
    const RunResult r = run(*p);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(r.cycles, 162u);
    EXPECT_EQ(word(p->read_memory("tile_0_0", 256, 4)), 100u);
  }
}

TEST(AieMlCore, DoubleBufferedLoopTransferBound) {
  // With the six NOPs the load needs (the fewest: the ADD reads r2 when it lands) a block
  // costs the core ACQ a, LDA a+1, NOPs a+2..a+7, ADD a+8, REL a+9, so the core frees each slot long before the next block lands: the DMA sets
  // the pace. Each S2MM BD takes its empty slot as soon as the previous one lands (the
  // core has freed it by then): lands 21, 42, 63, 84 (21 = 4 setup + 16 + 1 hop apart).
  //  Block 1: ACQ 22, LDA 23, ADD 30, REL 31; ACQ tried 32, granted at the wake 43.
  //  Block 2: ACQ 43, LDA 44, ADD 51, REL 52, JNZD 53; ACQ tried 54, granted 64.
  //  Block 3: ACQ 64, LDA 65, ADD 72, REL 73; ACQ tried 74, granted 85.
  //  Block 4: ACQ 85, LDA 86, ADD 93, REL 94, JNZD 95, ST 96, DONE 97: halt at 98.
  auto p = make();
  load(*p, double_buffer_kernel(6));
  p->write_memory("tile_1_0", 0, blocks());
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 98u);
  // Lock waits: 3..22 (19), 32..43 (11), 54..64 (10), 74..85 (11).
  EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["stall_lock"], 51);
  EXPECT_EQ(word(p->read_memory("tile_0_0", 256, 4)), 100u);
}

TEST(AieMlCore, NeighbourMemoryIsSharedThroughTheAddressMap) {
  // tile(1,0) writes into its west neighbour tile(0,0) (window 0x50000) and its north
  // neighbour tile(1,1) (window 0x60000).
  const char* k = R"(.tile 1 0
  MOVXM p0, 0x50040
  MOVXM p1, 0x60080
  MOV r1, 99
  ST r1, [p0] ;; NOP
  ST r1, [p1]
  DONE
)";
  auto p = make();
  load(*p, k);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(word(p->read_memory("tile_0_0", 0x40, 4)), 99u);
  EXPECT_EQ(word(p->read_memory("tile_1_1", 0x80, 4)), 99u);
}

TEST(AieMlCore, CoresSynchroniseThroughANeighboursLock) {
  // tile(1,0) releases lock 0 of its west neighbour (id 16 + 0); tile(0,0) waits for it as
  // its own lock 0 (id 48). Release at cycle 1 -> the waiter retries at 2: ACQ 2, DONE 3,
  // halt at 4.
  const char* k = ".tile 0 0\n  ACQ 48, 1\n  DONE\n.tile 1 0\n  NOP\n  REL 16, 1\n  DONE\n";
  auto p = make();
  load(*p, k);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 4u);
  EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["stall_lock"], 2);
  EXPECT_EQ(r.memory["cores"]["tile(1,0)"]["halt_cycle"], 3);
}

TEST(AieMlCore, FaultNamesTilePcLineAndBundle) {
  // tile(0,0) has no south neighbour in the compute grid (0x40000 = south window).
  const char* k = ".tile 0 0\n  MOVXM p0, 0x40000\n  LDA r1, [p0]\n  DONE\n";
  auto p = make();
  load(*p, k);
  const RunResult r = run(*p);
  EXPECT_EQ(r.stop, StopReason::Fault);
  EXPECT_NE(r.message.find("tile(0,0) pc 1 line 3 'LDA r1, [p0]'"), std::string::npos) << r.message;
}

TEST(AieMlCore, DeadlockNamesTheWaitingCore) {
  const char* k = ".tile 2 1\n  ACQ 50, 1\n  DONE\n";
  auto p = make();
  load(*p, k);
  const RunResult r = run(*p);
  EXPECT_EQ(r.stop, StopReason::Fault);
  EXPECT_NE(r.message.find("deadlock: tile(2,1) pc 0 line 2"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("waits for lock 2 (value 0, needs 1)"), std::string::npos) << r.message;
}

TEST(AieMlCore, InstructionLimitStopsALoop) {
  const char* k = "top:\n  J top\n";
  auto p = make();
  load(*p, k);
  RunLimits lim;
  lim.max_instructions = 100;
  const RunResult r = p->run(lim, TraceOptions{});
  EXPECT_EQ(r.stop, StopReason::InstructionLimit);
  EXPECT_EQ(r.instructions, 100u);
  EXPECT_NE(r.message.find("tile(0,0) pc 0 line 2"), std::string::npos) << r.message;
}

TEST(AieMlCore, ProgramLargerThanProgramMemoryIsRejected) {
  // 16 KB / 16 bytes per bundle = 1024 bundles; 1025 do not fit.
  std::string k = ".tile 0 1\n";
  for (int i = 0; i < 1024; ++i) k += "  NOP\n";
  k += "  DONE\n";
  auto p = make();
  const auto d = reject(*p, k);
  ASSERT_EQ(d.size(), 1u) << joined(d);
  EXPECT_EQ(d[0].line, 1u);
  EXPECT_NE(d[0].message.find("tile(0,1) has 1025 bundles; program memory holds 1024"), std::string::npos) << d[0].message;
}

TEST(AieMlCore, TwoTilesRunConcurrently) {
  // Each tile runs 3 bundles; they share no resource, so the array finishes at 3.
  const char* k = ".tile 0 0\n  MOV r1, 1\n  MOV r2, 2\n  DONE\n.tile 3 3\n  MOV r1, 1\n  MOV r2, 2\n  DONE\n";
  auto p = make();
  load(*p, k);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 3u);
  EXPECT_EQ(r.instructions, 6u);
  EXPECT_EQ(r.memory["cores"]["tile(3,3)"]["halt_cycle"], 3);
}

}  // namespace
}  // namespace tlmcraft::aie_ml::test
