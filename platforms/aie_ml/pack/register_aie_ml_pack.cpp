// AIE-ML's benchmark glue registers itself: its memory layout and its baseline generators.
#include <memory>

#include "platforms/aie_ml/pack/baselines/generators.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"
#include "tasks/baselines/baseline.h"
#include "tasks/layout_registry.h"

namespace tlmcraft::tasks {
namespace {

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

void register_aie_ml_pack() {
  register_layout(PlatformId::AieMl, {[](const TaskSpec& task, const Params& params) {
                                        return std::make_unique<AieMlLayout>(task, params);
                                      },
                                      nullptr});
  register_baselines(PlatformId::AieMl,
                     {[](const std::string& task) { return aie_ml_generators().count(task) > 0; },
                      [](const Instance& inst, const nlohmann::json& cfg) {
                        return aie_ml_generators().at(inst.task().name)(inst, cfg);
                      },
                      ".asm"});
}

}  // namespace tlmcraft::tasks
