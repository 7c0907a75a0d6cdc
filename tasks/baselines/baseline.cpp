#include "tasks/baselines/baseline.h"

#include <functional>
#include <map>

#include "tasks/baselines/plena/gemm.h"

namespace tlmcraft::tasks {
namespace {

using Generator = std::function<std::string(const Instance&, const plena::PlenaArch&)>;

plena::PlenaArch plena_arch(const nlohmann::json& cfg) {
  plena::PlenaArch a;
  const auto& arch = cfg.at("arch");
  a.mlen = arch.at("mlen").get<uint32_t>();
  a.vlen = arch.at("vlen").get<uint32_t>();
  a.blen = arch.at("blen").get<uint32_t>();
  a.v_rows = arch.at("v_prefetch_rows").get<uint32_t>();
  const auto& mem = cfg.at("memory");
  a.msram_tiles = mem.at("msram").at("elements").get<uint32_t>() / (a.mlen * a.mlen);
  a.vram_rows = mem.at("vram").at("elements").get<uint32_t>() / a.vlen;
  return a;
}

std::string plena_gemm(const Instance& inst, const plena::PlenaArch& a) {
  const auto layout = inst.layout();
  const auto& p = inst.params();
  plena::GemmKernel g;
  g.m = uint32_t(p.at("M"));
  g.k = uint32_t(p.at("K"));
  g.n = uint32_t(p.at("N"));
  g.x_addr = layout->placement("A").address;
  g.w_addr = layout->placement("B").address;
  g.y_addr = layout->placement("C").address;
  return plena::plena_gemm_kernel(g, a);
}

const std::map<std::string, Generator>& plena_generators() {
  static const std::map<std::string, Generator> g = {{"gemm", plena_gemm}};
  return g;
}

}  // namespace

bool has_baseline(const Instance& inst) {
  return inst.platform() == PlatformId::Plena && plena_generators().count(inst.task().name);
}

std::string baseline_kernel(const Instance& inst, const nlohmann::json& platform_config) {
  if (!has_baseline(inst))
    throw TaskError(std::string("no baseline kernel for task '") + inst.task().name + "' on " +
                    platform_name(inst.platform()) + " yet");
  return plena_generators().at(inst.task().name)(inst, plena_arch(platform_config));
}

}  // namespace tlmcraft::tasks
