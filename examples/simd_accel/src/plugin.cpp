// The plugin entry point: everything simd_accel brings registers here, by the same calls
// tlmcraft's in-tree platform packs make (docs/platform-sdk.md, "Registering a platform").
#include <memory>
#include <stdexcept>

#include "baselines.h"
#include "isa_tools.h"
#include "layout.h"
#include "platforms/plugins.h"
#include "platforms/registry.h"
#include "search.h"
#include "simd_platform.h"
#include "tasks/baselines/baseline.h"
#include "tasks/layout_registry.h"
#include "tasks/numerics.h"

namespace simd_accel {
namespace {

void register_model() {
  tlmcraft::PlatformRegistration r;
  r.info.name = kPlatformName;
  r.info.display_name = "SIMD accel";
  r.info.data_dir = data_dir();                // tasks/<task>.yaml sections and tasks/platforms.yaml
  r.info.config_dir = data_dir() + "/configs";  // --platform-config NAME
  r.info.reference_isa = "simd";                 // the agent's ISA reference: rendered by simd_isa_tools()
  r.info.reference_from_yaml = true;
  r.info.isa_names = {"simd"};                   // provenance hashes isa/simd/simd.yaml ...
  r.info.isa_dir = isa_dir();                    // ... from the plugin's own data folder
  r.make = [](const std::string& config, const std::vector<std::string>& overrides) {
    return std::make_unique<SimdPlatform>(load_config(config, overrides));
  };
  tlmcraft::register_platform(std::move(r));
}

void register_benchmark_glue() {
  namespace tk = tlmcraft::tasks;
  const tk::PlatformId id(kPlatformName);
  tk::NumericsRegistration numerics;
  numerics.input_type = "bf16";
  numerics.output_type = "bf16";
  tk::register_numerics(id, numerics);
  tk::register_layout(id, {[](const tk::TaskSpec& task, const tk::Params& params) {
                             return std::make_unique<SimdLayout>(task, params);
                           },
                           nullptr});
  tk::register_baselines(id, {has_baseline, baseline_kernel, ".sasm"});
}

}  // namespace
}  // namespace simd_accel

TLMCRAFT_PLUGIN_ENTRY(const tlmcraft::PluginContext* context) {
  if (context->api_version != tlmcraft::kPluginApiVersion)
    throw std::runtime_error("built for plugin API version " + std::to_string(tlmcraft::kPluginApiVersion) +
                             ", the tlmcraft executable has " + std::to_string(context->api_version) +
                             ": rebuild simd_accel against this tlmcraft");
  simd_accel::register_model();
  simd_accel::register_benchmark_glue();
  tlmcraft::isa::register_isa_tools(simd_accel::simd_isa_tools());
  simd_accel::register_search_transformations();
}
