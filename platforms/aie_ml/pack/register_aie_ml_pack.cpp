// AIE-ML's benchmark glue registers itself: its memory layout and its baseline generators.
#include <cstdlib>
#include <memory>

#include "isa/aie_ml/wait_insertion.h"
#include "platforms/aie_ml/pack/baselines/generators.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"
#include "tasks/baselines/baseline.h"
#include "tasks/layout_registry.h"
#include "tasks/numerics.h"
#include "isa/isa_variant.h"
#include "platforms/aie_ml/aie_area.h"
#include "platforms/aie_ml/aie_platform.h"
#include "platforms/isa_variant_area.h"
#include "platforms/registry.h"

namespace tlmcraft::tasks {
namespace {

const aie_ml::GeneratorMap& aie_ml_generators() {
  static const aie_ml::GeneratorMap g = [] {
    aie_ml::GeneratorMap all = aie_ml::vector_generators();
    for (auto& [name, gen] : aie_ml::matmul_generators()) all[name] = gen;
    for (auto& [name, gen] : aie_ml::attention_generators()) all[name] = gen;
    for (auto& [name, gen] : aie_ml::flash_attention_generators()) all[name] = gen;
    for (auto& [name, gen] : aie_ml::conv_generators()) all[name] = gen;
    for (auto& [name, gen] : aie_ml::mlp_generators()) all[name] = gen;
    for (auto& [name, gen] : aie_ml::decoder_generators()) all[name] = gen;
    return all;
  }();
  return g;
}

}  // namespace

void register_aie_ml_pack() {
  PlatformInfo info;
  info.name = "aie_ml";
  info.display_name = "AIE-ML";
  info.isa_names = {"aie_ml"};
  info.rank = 20;
  // A kernel is a file of core programs, data movement and phases: the platform doc's section
  info.reference_isa = "aie-ml";
  info.reference_from_yaml = false;
  info.reference_section = "The kernel file";
  info.cpu_programs = false;
  register_platform({std::move(info), [](const std::string& config, const std::vector<std::string>& overrides) {
                       return std::make_unique<::tlmcraft::aie_ml::AiePlatform>(::tlmcraft::aie_ml::load_aie_config(config, overrides));
                     }});
  register_isa_variant_area("aie_ml", [](const nlohmann::json& cfg) {
    if (isa::current_isa_variant().empty() && !std::getenv("TLMCRAFT_ISA_DIR")) return std::vector<AddedArea>{};
    return ::tlmcraft::aie_ml::aie_variant_area(isa::aie_ml::AieIsa::get(), ::tlmcraft::aie_ml::compute_tiles(cfg));
  });
  register_numerics(PlatformId("aie_ml"), {"bf16", "bf16", /*stage_bf16=*/false, /*integer_formulation=*/""});
  register_layout(PlatformId("aie_ml"), {[](const TaskSpec& task, const Params& params) {
                                        return std::make_unique<AieMlLayout>(task, params);
                                      },
                                      nullptr});
  register_baselines(PlatformId("aie_ml"),
                     {[](const std::string& task) { return aie_ml_generators().count(task) > 0; },
                      [](const Instance& inst, const nlohmann::json& cfg) {
                        std::string kernel = aie_ml_generators().at(inst.task().name)(inst, cfg);
                        // On the exposed pipeline (no interlocks) the baseline carries explicit
                        // waits for the configuration's read stages, so it computes what it
                        // computes with interlocks (isa/aie_ml/wait_insertion.h;
                        // docs/platforms/aie-ml.md, "Cores").
                        if (!::tlmcraft::aie_ml::exposed_pipeline_in(cfg)) return kernel;
                        return isa::aie_ml::insert_waits(kernel, ::tlmcraft::aie_ml::read_stages_in(cfg));
                      },
                      ".asm"});
}

}  // namespace tlmcraft::tasks
