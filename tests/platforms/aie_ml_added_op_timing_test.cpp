// Timing of an op added to the AIE-ML ISA by data (docs/platforms/aie-ml.md, "Cores"):
// its slot, its own latency and its initiation interval (ii cycles of slot occupancy),
// with cycle counts derived by hand.
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "isa/isa_spec.h"
#include "tests/isa_overlay_dir.h"
#include "tests/platforms/aie_ml_test_util.h"

namespace tlmcraft::aie_ml::test {
namespace {

// ADD3 (new semantics on the scalar slot), latency 3, holding its slot 2 cycles.
const char* kAdd3 = R"(
  - mnemonic: ADD3
    slot: alu
    latency: 3
    ii: 2
    operands:
      - {name: d, class: r, role: write}
      - {name: a, class: r}
      - {name: b, class: r}
      - {name: c, class: r}
    semantics: "d = a + b + c"
)";

struct IsaDir : ::tlmcraft::test::IsaOverlayDir {
  IsaDir() : IsaOverlayDir("aie_ml", kAdd3, "aie-ml-added-op-timing") {}
};

TEST(AieMlAddedOp, SlotLatencyAndInitiationInterval) {
  IsaDir isa;
  const char* k = R"(.tile 0 0
  MOVXM p0, 0x70000             ; cycle 0 (mv)
  MOV r1, #1                    ; 1
  MOV r2, #2                    ; 2
  MOV r3, #3                    ; 3; r3 readable at 4
  ADD3 r4, r1, r2, r3           ; 4 (alu, ii 2: the slot is held at 4 and 5); r4 lands 3 later
  ADD3 r5, r1, r1, r1           ; independent, tried at 5: slot held, issues at 6 (slot held 6, 7)
  NOP                           ; tried at 7: a NOP takes the alu slot too: issues at 8
  NOP                           ; 9
  ADD r6, r4, r5                ; 10: r5 has landed; r6 readable at 11
  ST r6, [p0]                   ; 11
  DONE                          ; 12: the core halts at 13
)";
  // The pipeline is exposed (the default): a result lands `latency` issued bundles after its
  // op (slot stalls freeze the pipeline, so they do not count). r5 (ADD3 at 6) lands for the
  // third bundle issued after it: 8 (NOP), 9 (NOP), 10 (ADD). With one NOP the ADD would
  // read the old r5 = 0 and store 6.
  auto p = make();
  load(*p, k);
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 13u);
  // Waits: 2 cycles for the slot (5 -> 6, 7 -> 8); none for registers (the NOPs are the wait).
  EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["stall_slot"], 2);
  EXPECT_EQ(r.memory["cores"]["tile(0,0)"]["stall_register"], 0);
  // (1 + 2 + 3) + (1 + 1 + 1) = 9: the semantics ran.
  EXPECT_EQ(word(p->read_memory("tile_0_0", 0, 4)), 9u);
  uint64_t busy = 0;
  for (const auto& u : r.units)
    if (u.name == "tile(0,0).alu") busy = u.busy_cycles;
  EXPECT_EQ(busy, 2u * 2u + 4u);  // two ADD3 of ii 2; two NOPs, ADD and DONE one cycle each
}

}  // namespace
}  // namespace tlmcraft::aie_ml::test
