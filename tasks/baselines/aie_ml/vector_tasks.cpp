// AIE-ML baselines for the vector tasks (elementwise, normalisation, softmax): single-tile
// kernels on compute tile (0,0) that rely on the task's default data movement
// (tasks/layout_aie_ml.h): input blocks arrive in ping/pong buffers, output blocks leave
// from ping/pong buffers, synchronised by the tile's locks.
#include <sstream>
#include <stdexcept>

#include "tasks/baselines/aie_ml/block_loop.h"
#include "tasks/baselines/aie_ml/generators.h"
#include "tasks/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {

namespace {

// ReLU: y = max(x, 0) on 16 bf16 lanes at a time; x2 holds zeros. VMAX.BF16 works on
// 512-bit registers; only the low half (w0 -> w2) carries data.
std::string relu(const Instance& inst, const nlohmann::json&) {
  const AieMlLayout layout(inst.task(), inst.params());
  BlockLoop k(layout, "relu");
  k.setup("VCLR x2", "zeros for max(x, 0)");
  const uint64_t vectors = layout.movement().in_slice_elems[0] / 16;
  k.pass(/*produces_output=*/true, [&](KernelText& t, const std::string& tag) {
    t.op("MOV p0, r0", "x block");
    t.op("MOV p1, r1", "y block");
    t.zero_overhead_loop(tag, vectors, {"VLDA w0, [p0], #32", "VMAX.BF16 x1, x0, x2", "VST w2, [p1], #32"});
  });
  return k.text();
}

}  // namespace

GeneratorMap vector_generators() { return {{"relu", relu}}; }

}  // namespace tlmcraft::tasks::aie_ml
