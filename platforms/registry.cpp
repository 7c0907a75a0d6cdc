#include "platforms/registry.h"

#include <map>
#include <mutex>
#include <stdexcept>

#include "common/registration.h"

namespace tlmcraft {
namespace {

std::mutex& factories_mutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, PlatformFactory>& factories() {
  static std::map<std::string, PlatformFactory> f;
  return f;
}

}  // namespace

void register_platform(PlatformRegistration registration) {
  if (!registration.make)
    throw std::invalid_argument("platform '" + registration.info.name + "' is registered without a factory");
  const std::string name = registration.info.name;
  register_platform_info(std::move(registration.info));  // validates the name, rejects duplicates
  std::lock_guard<std::mutex> lock(factories_mutex());
  factories()[name] = std::move(registration.make);
}

std::vector<std::string> platform_names() { return registered_platform_names(); }

std::string default_platform() {
  const std::vector<std::string> names = registered_platform_names();
  if (names.empty()) throw InputError("no platform is registered");
  return names.front();
}

std::vector<std::string> platform_isa_names(const std::string& name) {
  const PlatformInfo* info = find_platform_info(name);
  return info ? info->isa_names : std::vector<std::string>{};
}

std::vector<std::string> platform_overlay_isas(const std::string& name) {
  const PlatformInfo* info = find_platform_info(name);
  if (!info) return {};
  std::vector<std::string> all = info->isa_names;
  all.insert(all.end(), info->overlay_only_isas.begin(), info->overlay_only_isas.end());
  return all;
}

std::string platform_isa_dir(const std::string& name) {
  const PlatformInfo* info = find_platform_info(name);
  return info ? info->isa_dir : std::string();
}

std::unique_ptr<Platform> make_platform(const std::string& name, const std::string& config,
                                        const std::vector<std::string>& overrides) {
  ensure_builtin_registrations();
  PlatformFactory make;
  {
    std::lock_guard<std::mutex> lock(factories_mutex());
    const auto it = factories().find(name);
    if (it != factories().end()) make = it->second;
  }
  if (!make) throw InputError("unknown platform '" + name + "' (known: " + registered_platform_list() + ")");
  return make(config, overrides);
}

}  // namespace tlmcraft
