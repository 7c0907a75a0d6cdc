#include "common/registration.h"

#include <mutex>

namespace tlmcraft {

void ensure_builtin_registrations() {
  static std::once_flag once;
  // A registration that looks something up (a pack reading a registry) re-enters here on
  // the same thread while call_once runs: let it through.
  static thread_local bool registering = false;
  if (registering) return;
  std::call_once(once, [] {
    registering = true;
    if (register_platform_packs) register_platform_packs();
    registering = false;
  });
}

}  // namespace tlmcraft
