#include "harness/run_report.h"

#include <cstdlib>

#include "harness/ppa_model.h"
#include "harness/provenance.h"
#include "harness/variant_uses.h"
#include "isa/isa_variant.h"

namespace tlmcraft::harness {

nlohmann::json evaluate_run(Platform& platform, const EvalOptions& o) {
  nlohmann::json report = evaluate(platform, o);
  VariantSpec variant;
  variant.platform_config = o.platform_config;
  variant.overrides = o.overrides;
  // The ISA variant in force (the command's --isa-dir/--isa-ext, isa/isa_variant.h).
  const isa::IsaVariant isa = isa::current_isa_variant();
  variant.isa_dir = isa.isa_dir;
  if (variant.isa_dir.empty())
    if (const char* isa_dir = std::getenv("TLMCRAFT_ISA_DIR")) variant.isa_dir = isa_dir;
  variant.isa_ext = isa.overlays;
  report["provenance"] = variant_provenance(o.platform, variant);
  add_run_estimates(report, platform);
  return report;
}

void add_run_estimates(nlohmann::json& report, const Platform& platform) {
  const auto added = isa_variant_area(platform.name(), platform.config());
  add_ppa_estimates(report, platform.config(), added);
  add_variant_uses(report, added);
}

}  // namespace tlmcraft::harness
