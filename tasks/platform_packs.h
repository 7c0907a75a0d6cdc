// Platform packs: each platform's benchmark glue (memory layout, baseline generators)
// lives in platforms/<p>/pack/ and registers itself into the registries of tasks/
// (layout_registry.h, baselines/baseline.h) through one function, register_<p>_pack().
// CMake generates register_platform_packs() from the folders platforms/*/pack/, so
// adding a platform adds its folder and edits no shared file. The registries call
// ensure_platform_packs() before their first lookup; an out-of-tree platform may also
// call the register_* functions itself.
#pragma once

namespace tlmcraft::tasks {

// Calls register_<p>_pack() of every platform folder with a pack (generated, see
// platforms/CMakeLists.txt). Not idempotent: call ensure_platform_packs() instead.
void register_platform_packs();
// register_platform_packs() once per process (thread-safe).
void ensure_platform_packs();

}  // namespace tlmcraft::tasks
