// Platform packs: each platform's benchmark glue (memory layout, baseline generators)
// lives in platforms/<p>/pack/ and registers itself into the registries of tasks/
// (layout_registry.h, baselines/baseline.h) through one function, register_<p>_pack().
// CMake generates tlmcraft::register_platform_packs() (common/registration.h) from the
// folders platforms/*/pack/, so adding a platform adds its folder and edits no shared file.
// The registries call ensure_platform_packs() before their first lookup; an out-of-tree
// platform calls the register_* functions itself from its plugin entry point
// (platforms/plugins.h).
#pragma once

#include "common/registration.h"

namespace tlmcraft::tasks {

// tlmcraft::ensure_builtin_registrations(): every in-tree pack, once per process.
inline void ensure_platform_packs() { ensure_builtin_registrations(); }

}  // namespace tlmcraft::tasks
