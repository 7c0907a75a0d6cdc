#include "tasks/baselines/baseline.h"

#include <functional>
#include <map>

#include "tasks/baselines/coral/c_baseline.h"
#include "tasks/baselines/aie_ml/generators.h"
#include "tasks/baselines/plena/generators.h"

namespace tlmcraft::tasks {
namespace {

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

const plena::GeneratorMap& plena_generators() {
  static const plena::GeneratorMap g = [] {
    plena::GeneratorMap all = plena::level1_generators();
    for (auto& [name, gen] : plena::level23_generators()) all[name] = gen;
    return all;
  }();
  return g;
}

const aie_ml::GeneratorMap& aie_ml_generators() {
  static const aie_ml::GeneratorMap g = [] {
    aie_ml::GeneratorMap all = aie_ml::vector_generators();
    for (auto& [name, gen] : aie_ml::matmul_generators()) all[name] = gen;
    for (auto& [name, gen] : aie_ml::attention_generators()) all[name] = gen;
    for (auto& [name, gen] : aie_ml::conv_generators()) all[name] = gen;
    for (auto& [name, gen] : aie_ml::mlp_generators()) all[name] = gen;
    for (auto& [name, gen] : aie_ml::decoder_generators()) all[name] = gen;
    return all;
  }();
  return g;
}

}  // namespace

bool has_baseline(const Instance& inst) {
  if (inst.platform() == PlatformId::Coral) return coral::has_c_baseline(inst.task().name);
  if (inst.platform() == PlatformId::AieMl) return aie_ml_generators().count(inst.task().name) > 0;
  return inst.platform() == PlatformId::Plena && plena_generators().count(inst.task().name);
}

std::string baseline_kernel(const Instance& inst, const nlohmann::json& platform_config) {
  if (!has_baseline(inst))
    throw TaskError(std::string("no baseline kernel for task '") + inst.task().name + "' on " +
                    platform_name(inst.platform()) + " yet");
  if (inst.platform() == PlatformId::Coral) return coral::c_baseline(inst);
  if (inst.platform() == PlatformId::AieMl) return aie_ml_generators().at(inst.task().name)(inst, platform_config);
  return plena_generators().at(inst.task().name)(inst, plena_arch(platform_config));
}

std::string baseline_file_name(const Instance& inst) {
  const std::string stem = "baseline_" + inst.task().name + "_" + inst.config().name;
  return stem + (inst.platform() == PlatformId::Coral ? ".c" : ".asm");
}

}  // namespace tlmcraft::tasks
