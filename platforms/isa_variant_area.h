// The area an ISA variant adds to a platform (docs/energy-area.md, "Area under an ISA
// variant"): each platform registers the function that prices the instructions and
// register-file ports its ISA variant adds over the base description. `isa check`, the
// co-design tools (codesign mine/explore/architect) and the area of a run's report all use
// that one function, so the three figures agree. Nothing here names a platform.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tlmcraft {

// One piece of hardware the variant adds, before ppa.area_scale. `unpriced` says why the
// model has no figure for it (mm2 is then 0 and no total includes it).
struct AddedArea {
  std::string name;  // the instruction's mnemonic, or "<class> write port"
  std::string kind;  // "instruction" or "register_port"
  double mm2 = 0;
  std::string unpriced;
};

// Prices the ISA variant in force (isa/isa_variant.h, and the environment's variables the
// platform reads) at a platform's effective config; empty for the shipped ISA.
using IsaVariantAreaFn = std::function<std::vector<AddedArea>(const nlohmann::json& platform_config)>;

// Registers (or replaces) `platform`'s pricing.
void register_isa_variant_area(const std::string& platform, IsaVariantAreaFn price);

// What the variant in force adds on `platform` (empty for the shipped ISA); nullopt for a
// platform that registered no pricing (a plugin's). Throws what the platform's pricing
// throws for a variant that does not load (a run has loaded it already by then).
std::optional<std::vector<AddedArea>> isa_variant_area(const std::string& platform,
                                                       const nlohmann::json& platform_config);

// The sum of the priced lines, mm2.
double added_area_mm2(const std::vector<AddedArea>& lines);

}  // namespace tlmcraft
