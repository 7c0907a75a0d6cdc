// The in-tree platforms register themselves: CMake generates register_platform_packs()
// from the folders platforms/*/pack/ (platforms/CMakeLists.txt), one call per platform,
// compiled into every executable that links tlm_packs. Registries call
// ensure_builtin_registrations() before their first lookup. Plugins (platforms/plugins.h)
// register after it, at start-up.
#pragma once

namespace tlmcraft {

// Generated (build/platforms/register_packs.cpp). Not idempotent: use the function below.
void register_platform_packs();
// register_platform_packs() once per process (thread-safe; a nested call from a
// registration returns at once instead of deadlocking).
void ensure_builtin_registrations();

}  // namespace tlmcraft
