// PLENA's benchmark glue registers itself: its memory layout and its baseline generators.
#include <cstdlib>
#include <memory>

#include "platforms/plena/pack/baselines/generators.h"
#include "platforms/plena/pack/layout_plena.h"
#include "tasks/baselines/baseline.h"
#include "tasks/layout_registry.h"
#include "tasks/numerics.h"
#include "isa/isa_variant.h"
#include "platforms/isa_variant_area.h"
#include "platforms/plena/plena_area.h"
#include "platforms/plena/plena_platform.h"
#include "platforms/registry.h"

namespace tlmcraft::tasks {
namespace {

plena::PlenaArch plena_arch(const nlohmann::json& cfg) {
  plena::PlenaArch a;
  const auto& arch = cfg.at("arch");
  a.mlen = arch.at("mlen").get<uint32_t>();
  a.vlen = arch.at("vlen").get<uint32_t>();
  a.blen = arch.at("blen").get<uint32_t>();
  a.hlen = arch.at("hlen").get<uint32_t>();
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

// The variant in force over its base description, at the run's VLEN.
std::vector<AddedArea> plena_variant_area_at(const nlohmann::json& cfg) {
  if (isa::current_isa_variant().empty() && !std::getenv("TLMCRAFT_ISA_DIR")) return {};
  const isa::IsaSpec base = isa::IsaSpec::load(isa::isa_source("plena").path, {});
  return ::tlmcraft::plena::plena_variant_area(*isa::cached_isa_spec("plena"), base, cfg.at("arch").at("vlen").get<int64_t>());
}

}  // namespace

void register_plena_pack() {
  PlatformInfo info;
  info.name = "plena";
  info.display_name = "PLENA";
  info.isa_names = {"plena"};
  info.rank = 10;
  info.reference_isa = "plena";
  info.reference_from_yaml = true;
  info.cpu_programs = false;
  register_platform({std::move(info), [](const std::string& config, const std::vector<std::string>& overrides) {
                       return std::make_unique<::tlmcraft::plena::PlenaPlatform>(::tlmcraft::plena::load_plena_config(config, overrides));
                     }});
  register_isa_variant_area("plena", plena_variant_area_at);
  register_numerics(PlatformId("plena"), {"mxfp8", "bf16", /*stage_bf16=*/true, /*integer_formulation=*/""});
  register_layout(PlatformId("plena"), {[](const TaskSpec& task, const Params& params) {
                                        return std::make_unique<PlenaLayout>(task, params);
                                      },
                                      nullptr});
  register_baselines(PlatformId("plena"),
                     {[](const std::string& task) { return plena_generators().count(task) > 0; },
                      [](const Instance& inst, const nlohmann::json& cfg) {
                        return plena_generators().at(inst.task().name)(inst, plena_arch(cfg));
                      },
                      ".asm"});
}

}  // namespace tlmcraft::tasks
