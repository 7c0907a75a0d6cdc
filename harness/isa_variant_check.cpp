#include "harness/isa_variant_check.h"

#include <algorithm>

#include "isa/isa_overlay.h"
#include "isa/isa_tools.h"
#include "platforms/platform.h"
#include "platforms/registry.h"

namespace tlmcraft::harness {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// Every overlay names (`isa:`) an ISA the platform reads.
void check_overlay_targets(const std::string& platform, const std::vector<std::string>& overlays) {
  const std::vector<std::string> isas = platform_isa_names(platform);
  for (const auto& path : overlays) {
    std::string where, name;
    try {
      name = isa::overlay_isa_name(path, &where);
    } catch (const isa::OverlayError& e) {
      throw InputError(e.what());
    }
    if (std::find(isas.begin(), isas.end(), name) != isas.end()) continue;
    throw InputError(where + ": this overlay extends ISA '" + name + "', but platform " + platform +
                     (isas.empty() ? std::string(" reads no ISA description an overlay can extend")
                                   : " reads ISA " + joined(isas)));
  }
}

}  // namespace

void check_isa_variant(const std::string& platform, const isa::IsaVariant& variant) {
  if (variant.empty()) return;
  check_overlay_targets(platform, variant.overlays);
  // Each ISA merged with the overlays, validated by its own checker (the variant in force).
  const isa::ScopedIsaVariant scope(variant);
  std::string errors;
  for (const auto& name : platform_isa_names(platform)) {
    const isa::IsaTools* tools = isa::find_isa_tools(name);
    if (!tools || !tools->check) continue;
    for (const auto& e : tools->check("").errors) errors += (errors.empty() ? "" : "\n") + e;
  }
  if (!errors.empty()) throw InputError(errors);
}

}  // namespace tlmcraft::harness
