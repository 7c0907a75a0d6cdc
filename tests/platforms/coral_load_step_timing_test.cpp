// The timing of a custom instruction with a load step (platforms/coral/core_timing.cpp,
// dispatch_custom_load): its load is charged as `lw` is, then its add on the ALU. Cycles
// derived by hand from the documented rules for a few lines with and without clwadd
// (examples/isa_ext/coral/load_add.yaml: rd = mem32[rs1] + rs2).
#include <string>

#include "tests/platforms/coral_test_util.h"

namespace tlmcraft::coral {
namespace {

const std::string kOverlay = std::string(TLMCRAFT_SOURCE_DIR) + "/examples/isa_ext/coral/load_add.yaml";

const char* kDtcmSetup = "  li a0, 0\n  la a2, buf\n  la a3, buf + 4\n  li a5, 0\n  nop\n";  // 7 instructions
// The same in external memory (behind the AXI port): 7 instructions too.
const char* kExtSetup = "  li a0, 0\n  li a2, 0x20000000\n  li a3, 0x20000004\n  li a5, 0\n  nop\n  nop\n";

std::string program(const std::string& body, const std::string& setup = kDtcmSetup) {
  return "  .text\n  .globl main\n  .balign 16\nmain:\n" + setup + "  csrr s0, mcycle\n" + body +
         "  csrr s1, mcycle\n  sub a0, s1, s0\n  la t0, result\n  sw a0, 0(t0)\n  la t0, sum\n  sw a5, 0(t0)\n  ret\n"
         "  .data\n  .balign 16\nresult: .word 0\nsum: .word 0\nbuf: .word 1, 2, 3, 4, 5, 6, 7, 8\n";
}

struct Measured {
  uint32_t cycles, sum;
};

Measured measure(const std::string& body, const std::vector<std::string>& overrides = {},
                 const std::string& setup = kDtcmSetup) {
  CoralConfig cfg = load_coral_config("default", overrides);
  set_isa_extensions(cfg, {kOverlay});
  CoralPlatform p(cfg);
  const isa::Program prog = testing::build(p, program(body, setup));
  p.load(prog);
  const RunResult r = p.run({}, {});
  EXPECT_TRUE(r.ok()) << r.message;
  return {testing::read_u32(p, testing::symbol(prog, "result")), testing::read_u32(p, testing::symbol(prog, "sum"))};
}

// The rules (docs/platforms/coral.md, "Timing model"): `csrr s0` dispatches at T; a DTCM
// load holds the LSU slot 1 + lsu.load_tail (3) = 4 cycles from its dispatch, its value
// usable at the end; an ALU result is usable a cycle after dispatch and written back a
// cycle later; the closing `csrr s1` dispatches once everything older is written back.
// The result is s1 - s0.
const std::string kPair = "  lw a4, 0(a2)\n  add a5, a4, a0\n";
const std::string kFused = "  clwadd a5, a2, a0\n";

TEST(CoralLoadStepTiming, ChargedAsTheLoadItReplaces) {
  // lw at T+1, LSU [T+1, T+5); add at T+5, usable T+6, written back T+7: csrr at T+7.
  const Measured plain = measure(kPair);
  EXPECT_EQ(plain.cycles, 7u);
  EXPECT_EQ(plain.sum, 1u);  // buf[0] + 0
  // clwadd at T+1, its load [T+1, T+5), its add at T+5: usable T+6, written back T+7. The
  // same: the add only ever waited for the load.
  const Measured fused = measure(kFused);
  EXPECT_EQ(fused.cycles, 7u);
  EXPECT_EQ(fused.sum, 1u);
  // lsu.load_tail 5: the slot holds each load 6 cycles, both 2 cycles longer (9).
  EXPECT_EQ(measure(kPair, {"scalar.lsu.load_tail=5"}).cycles, 9u);
  EXPECT_EQ(measure(kFused, {"scalar.lsu.load_tail=5"}).cycles, 9u);
  // From external memory: one AXI transaction, 1 + memory.axi.read_latency (24) + load_tail
  // (3) = 28 cycles in the slot, [T+1, T+29); the add at T+29, written back T+31: 31 both.
  EXPECT_EQ(measure(kPair, {}, kExtSetup).cycles, 31u);
  EXPECT_EQ(measure(kFused, {}, kExtSetup).cycles, 31u);
}

TEST(CoralLoadStepTiming, NeverFasterThanTheLsuAllows) {
  // Two loads accumulated into a5. Plain: lw at T+1 [T+1, T+5); add and the second lw at
  // T+5, its slot [T+5, T+9); add at T+9, written back T+11: 11.
  const Measured plain = measure("  lw a4, 0(a2)\n  add a5, a4, a5\n  lw a4, 0(a3)\n  add a5, a4, a5\n");
  EXPECT_EQ(plain.cycles, 11u);
  EXPECT_EQ(plain.sum, 3u);  // 0 + buf[0] + buf[1]
  // Fused: the second clwadd dispatches at T+2 (it reads a5, the field the first writes in
  // T+1), but the slot is busy until T+5: its load [T+5, T+9), its add at T+9: 11 again.
  const Measured fused = measure("  clwadd a5, a2, a5\n  clwadd a5, a3, a5\n");
  EXPECT_EQ(fused.cycles, 11u);
  EXPECT_EQ(fused.sum, 3u);
}

TEST(CoralLoadStepTiming, IndependentWorkNoLongerWaitsBehindTheAdd) {
  // Four independent addi after the pair. Plain: the add waits for the load until T+5 and
  // in-order dispatch holds the addi behind it: add and three addi at T+5 (4 lanes), the
  // fourth at T+6, written back T+8: 8. Fused: clwadd and three addi at T+1, the fourth at
  // T+2; the add of clwadd at T+5 is written back at T+7: 7.
  const std::string work = "  addi t1, t1, 1\n  addi t2, t2, 1\n  addi t3, t3, 1\n  addi t4, t4, 1\n";
  EXPECT_EQ(measure(kPair + work).cycles, 8u);
  EXPECT_EQ(measure(kFused + work).cycles, 7u);
}

}  // namespace
}  // namespace tlmcraft::coral
