// Coral's benchmark glue registers itself: its memory layout (whose poison byte is a
// valid value, so decoded outputs are resolved against the expected values) and its C
// baseline templates.
#include <memory>

#include "platforms/coral/pack/baselines/c_baseline.h"
#include "platforms/coral/pack/layout_coral.h"
#include "tasks/baselines/baseline.h"
#include "tasks/layout_registry.h"

namespace tlmcraft::tasks {

void register_coral_pack() {
  register_layout(PlatformId::Coral, {[](const TaskSpec& task, const Params& params) {
                                        return std::make_unique<CoralLayout>(task, params);
                                      },
                                      coral_resolve_unwritten});
  register_baselines(PlatformId::Coral,
                     {coral::has_c_baseline,
                      [](const Instance& inst, const nlohmann::json&) { return coral::c_baseline(inst); }, ".c"});
}

}  // namespace tlmcraft::tasks
