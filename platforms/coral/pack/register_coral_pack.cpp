// Coral's benchmark glue registers itself: its int8 numerics and integer formulation
// (references, requantisation shifts, lookup tables), its memory layout (whose poison
// byte is a valid value, so decoded outputs are resolved against the expected values)
// and its C baseline templates.
#include <memory>

#include "platforms/coral/pack/baselines/c_baseline.h"
#include "platforms/coral/pack/int8_formulation.h"
#include "platforms/coral/pack/layout_coral.h"
#include "tasks/baselines/baseline.h"
#include "tasks/integer_formulation.h"
#include "tasks/layout_registry.h"
#include "tasks/numerics.h"
#include "platforms/coral/coral_area.h"
#include "platforms/coral/coral_platform.h"
#include "platforms/isa_variant_area.h"
#include "platforms/registry.h"

namespace tlmcraft::tasks {

void register_coral_pack() {
  PlatformInfo info;
  info.name = "coral";
  info.display_name = "Coral";
  info.isa_names = {};
  info.overlay_only_isas = {"riscv"};  // custom-0..3 instructions (isa/riscv/custom_ext.h)
  info.rank = 30;
  // docs/isa/coral.md: the kernel writer's page (docs/isa/riscv*.md are the ISS's internals)
  info.reference_isa = "coral";
  info.reference_from_yaml = false;
  info.cpu_programs = true;
  register_platform({std::move(info), [](const std::string& config, const std::vector<std::string>& overrides) {
                       return std::make_unique<::tlmcraft::coral::CoralPlatform>(::tlmcraft::coral::load_coral_config(config, overrides));
                     }});
  register_isa_variant_area("coral", [](const nlohmann::json&) { return ::tlmcraft::coral::coral_variant_area_in_force(); });
  register_integer_formulation("coral_int8", coral::int8_formulation());
  register_numerics(PlatformId("coral"), {"int8", "int8", /*stage_bf16=*/false, /*integer_formulation=*/"coral_int8"});
  register_layout(PlatformId("coral"), {[](const TaskSpec& task, const Params& params) {
                                        return std::make_unique<CoralLayout>(task, params);
                                      },
                                      coral_resolve_unwritten});
  register_baselines(PlatformId("coral"),
                     {coral::has_c_baseline,
                      [](const Instance& inst, const nlohmann::json&) { return coral::c_baseline(inst); }, ".c"});
}

}  // namespace tlmcraft::tasks
