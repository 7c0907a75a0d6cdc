// The small trace shared by the writer and profile tests, recorded out of time order:
//   plena.vector        vadd [0,4), vmul [4,6) (back to back), instant "halt" at 6
//   plena.pc            counter 0 @0, 1 @4, 2 @6
//   plena.dma.prefetch  load [2,5), load [3,7) (overlapping)
// Strings are interned in first-use order (names before their args): "" 0, vmul 1, pc 2,
// line 3, kernel.asm:2 4, load 5, bytes 6, vadd 7, kernel.asm:1 8, halt 9; so the VCD
// slice-name index (dense, in that order) is vmul 1, load 2, vadd 3.
#pragma once
#include "traces/trace_recorder.h"

namespace tlmcraft::traces::test {

inline void record_example(TraceRecorder& rec) {
  int vector = rec.track("plena", "vector");
  int pc = rec.track("plena", "pc");
  int dma = rec.track("plena", "dma.prefetch");
  rec.slice(vector, 4, 6, "vmul", {{"pc", 1}, {"line", "kernel.asm:2"}});
  rec.counter(pc, 4, 1);
  rec.slice(dma, 3, 7, "load", {{"bytes", 64}});
  rec.slice(vector, 0, 4, "vadd", {{"pc", 0}, {"line", "kernel.asm:1"}});
  rec.counter(pc, 0, 0);
  rec.instant(vector, 6, "halt");
  rec.slice(dma, 2, 5, "load", {{"bytes", 32}});
  rec.counter(pc, 6, 2);
}

}  // namespace tlmcraft::traces::test
