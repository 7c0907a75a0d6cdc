// A test plugin (platforms/plugins.h): registers the platform "twin", which runs PLENA's
// model under another name, with PLENA's layout, baselines, numerics and search-agent
// transformations, and adds a twin section to the built-in task relu through an overlay
// (twin_data/tasks/relu.yaml). The plugin tests (tests/plugins/CMakeLists.txt) load it
// into the tlmcraft executable and check that twin's cycles equal PLENA's and that the
// search agent transforms twin's kernels.
#include <memory>
#include <stdexcept>

#include "agent/search/search_transformations.h"
#include "common/data_dir.h"
#include "platforms/plena/plena_config.h"
#include "platforms/plena/plena_platform.h"
#include "platforms/plugins.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/layout_registry.h"
#include "tasks/numerics.h"

namespace {

const char* const kModel = "plena";
const char* const kModelTransformations = "plena assembly";  // the generator PLENA's pack registers

}  // namespace

TLMCRAFT_PLUGIN_ENTRY(const tlmcraft::PluginContext* context) {
  using namespace tlmcraft;
  if (context->api_version != kPluginApiVersion) throw std::runtime_error("built for another plugin API version");
  const tasks::PlatformId model(kModel);
  const tasks::LayoutRegistration* layout = tasks::find_layout(model);
  const tasks::BaselineRegistration* baselines = tasks::find_baselines(model);
  const agent::search::CandidateGeneratorRegistration* transformations =
      agent::search::find_candidate_generator(kModelTransformations);
  if (!layout || !baselines || !transformations)
    throw std::runtime_error(std::string("the host has no platform '") + kModel + "' to twin");

  PlatformInfo info;
  info.name = "twin";
  info.display_name = "Twin";
  info.isa_names = platform_isa_names(kModel);
  info.data_dir = TWIN_DATA_DIR;
  info.config_dir = data::data_path("platforms/plena/configs");  // PLENA's configs, by name
  register_platform({info, [](const std::string& config, const std::vector<std::string>& overrides) {
                       // PLENA's model under twin's name: evaluate() looks the task section up by it.
                       return std::make_unique<plena::PlenaPlatform>(plena::load_plena_config(config, overrides), "twin");
                     }});
  const tasks::PlatformId twin("twin");
  tasks::register_numerics(twin, tasks::platform_numerics(model));
  tasks::register_layout(twin, *layout);
  tasks::register_baselines(twin, *baselines);
  // PLENA's transformations for twin's assembly kernels (the same ISA and model).
  agent::search::register_candidate_generator(
      {"twin assembly",
       [](const agent::search::SearchContext& ctx) { return ctx.platform == "twin" && ctx.language.empty(); },
       transformations->generate, transformations->uses_profile});
}
