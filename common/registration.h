// The in-tree platforms register themselves: CMake generates register_platform_packs()
// from the folders platforms/*/pack/ (platforms/CMakeLists.txt), one call per platform,
// compiled into every executable that links tlm_packs. Registries call
// ensure_builtin_registrations() before their first lookup. Plugins (platforms/plugins.h)
// register after it, at start-up.
#pragma once

namespace tlmcraft {

// Generated (build/platforms/register_packs.cpp), compiled into executables that link
// tlm_packs. Weak: a program without it (a model test that builds one platform by hand)
// links and sees no registered platform. Not idempotent: use the function below.
__attribute__((weak)) void register_platform_packs();
// register_platform_packs() once per process (thread-safe; a nested call from a
// registration returns at once instead of deadlocking).
void ensure_builtin_registrations();

}  // namespace tlmcraft
