#include "platforms/registry.h"

#include "platforms/aie_ml/aie_platform.h"
#include "platforms/coral/coral_platform.h"
#include "platforms/plena/plena_platform.h"

namespace tlmcraft {

std::vector<std::string> platform_names() { return {"plena", "coral", "aie_ml"}; }

std::vector<std::string> platform_isa_names(const std::string& name) {
  if (name == "plena") return {"plena"};
  if (name == "aie_ml") return {"aie_ml"};
  return {};
}

std::unique_ptr<Platform> make_platform(const std::string& name, const std::string& config,
                                        const std::vector<std::string>& overrides) {
  if (name == "plena") return std::make_unique<plena::PlenaPlatform>(plena::load_plena_config(config, overrides));
  if (name == "coral") return std::make_unique<coral::CoralPlatform>(coral::load_coral_config(config, overrides));
  if (name == "aie_ml") return std::make_unique<aie_ml::AiePlatform>(aie_ml::load_aie_config(config, overrides));
  std::string known;
  for (const auto& n : platform_names()) known += (known.empty() ? "" : ", ") + n;
  throw InputError("unknown platform '" + name + "' (known: " + known + ")");
}

}  // namespace tlmcraft
