// Double buffering of a loop's matrix-tile prefetch: the loop is unrolled by 2 and the
// second copy prefetches into (and reads from) a free MSRAM tile, so the next
// iteration's H_PREFETCH_M no longer waits for the current iteration's matrix reads of
// the same tile (a WAR hazard) and its transfer overlaps them. Only the pipelined timing
// mode overlaps anything; in serial mode (the reference simulator) every instruction
// starts when the previous one ends, so this gains nothing there (docs/search-agent.md,
// "Expert transformations on PLENA's GEMM-like tasks").
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "platforms/plena/pack/agent/plena_analysis.h"
#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {

// Double-buffers the first H_PREFETCH_M of loop `id` (a loop without inner loops and an
// even count). Legal when every MSRAM address in the kernel is a known constant, the
// prefetched tile is touched nowhere outside the loop and, inside it, only read after
// the prefetch (no value carried between iterations), by M_MM/M_TMM/M_MV/M_TMV; a free
// tile (`msram_elements` in all) and a free gp register exist. Returns false with `why`.
bool double_buffer_prefetch(Kernel& kernel, int id, const Arch& arch, int64_t msram_elements, std::string& why);

// The MSRAM tiles (first element) each top-level node of `code` uses; false when an MSRAM
// address there is not a known constant.
bool msram_tiles_of_each(const Block& code, const Arch& arch, std::vector<std::set<int64_t>>& tiles);

}  // namespace tlmcraft::agent::search::plena
