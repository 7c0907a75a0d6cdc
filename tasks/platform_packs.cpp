#include "tasks/platform_packs.h"

#include <mutex>

namespace tlmcraft::tasks {

void ensure_platform_packs() {
  static std::once_flag once;
  std::call_once(once, register_platform_packs);
}

}  // namespace tlmcraft::tasks
