#include "tasks/baselines/baseline.h"

#include <map>
#include <stdexcept>

#include "tasks/platform_packs.h"

namespace tlmcraft::tasks {
namespace {

std::map<PlatformId, BaselineRegistration>& registrations() {
  static std::map<PlatformId, BaselineRegistration> all;
  return all;
}

}  // namespace

const BaselineRegistration* find_baselines(const PlatformId& p) {
  ensure_platform_packs();
  auto it = registrations().find(p);
  return it == registrations().end() ? nullptr : &it->second;
}

void register_baselines(PlatformId p, BaselineRegistration registration) {
  if (!registration.has || !registration.kernel || registration.extension.empty())
    throw std::invalid_argument(std::string("baseline registration for ") + platform_name(p) +
                                " needs has, kernel and extension");
  if (!registrations().emplace(p, std::move(registration)).second)
    throw std::invalid_argument(std::string("platform ") + platform_name(p) + " registered baselines twice");
}

bool has_baseline(const Instance& inst) {
  const BaselineRegistration* r = find_baselines(inst.platform());
  return r && r->has(inst.task().name);
}

std::string baseline_kernel(const Instance& inst, const nlohmann::json& platform_config) {
  if (!has_baseline(inst))
    throw TaskError(std::string("no baseline kernel for task '") + inst.task().name + "' on " +
                    platform_name(inst.platform()) + " yet");
  return find_baselines(inst.platform())->kernel(inst, platform_config);
}

std::string baseline_file_name(const Instance& inst) {
  const std::string stem = "baseline_" + inst.task().name + "_" + inst.config().name;
  const BaselineRegistration* r = find_baselines(inst.platform());
  return stem + (r ? r->extension : ".asm");
}

}  // namespace tlmcraft::tasks
