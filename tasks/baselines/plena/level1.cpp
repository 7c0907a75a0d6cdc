// PLENA template baselines for the level-1 tasks.
#include "tasks/baselines/plena/generators.h"

namespace tlmcraft::tasks::plena {
namespace {

std::string gemm(const Instance& inst, const PlenaArch& a) {
  const auto layout = inst.layout();
  const auto& p = inst.params();
  GemmKernel g;
  g.m = uint32_t(p.at("M"));
  g.k = uint32_t(p.at("K"));
  g.n = uint32_t(p.at("N"));
  g.x_addr = layout->placement("A").address;
  g.w_addr = layout->placement("B").address;
  g.y_addr = layout->placement("C").address;
  return plena_gemm_kernel(g, a);
}

}  // namespace

GeneratorMap level1_generators() { return {{"gemm", gemm}}; }

}  // namespace tlmcraft::tasks::plena
