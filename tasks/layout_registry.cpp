#include "tasks/layout_registry.h"

#include <map>
#include <stdexcept>

#include "tasks/platform_packs.h"

namespace tlmcraft::tasks {
namespace {

std::map<PlatformId, LayoutRegistration>& layouts() {
  static std::map<PlatformId, LayoutRegistration> all;
  return all;
}

}  // namespace

void register_layout(PlatformId p, LayoutRegistration registration) {
  if (!registration.make)
    throw std::invalid_argument(std::string("layout registration for ") + platform_name(p) + " has no factory");
  if (!layouts().emplace(p, std::move(registration)).second)
    throw std::invalid_argument(std::string("platform ") + platform_name(p) + " registered a layout twice");
}

const LayoutRegistration* find_layout(PlatformId p) {
  ensure_platform_packs();
  auto it = layouts().find(p);
  return it == layouts().end() ? nullptr : &it->second;
}

}  // namespace tlmcraft::tasks
