#include "platforms/isa_variant_area.h"

#include <map>
#include <mutex>

#include "common/registration.h"

namespace tlmcraft {
namespace {

std::mutex& pricing_mutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, IsaVariantAreaFn>& pricing() {
  static std::map<std::string, IsaVariantAreaFn> p;
  return p;
}

}  // namespace

void register_isa_variant_area(const std::string& platform, IsaVariantAreaFn price) {
  std::lock_guard<std::mutex> lock(pricing_mutex());
  pricing()[platform] = std::move(price);
}

std::optional<std::vector<AddedArea>> isa_variant_area(const std::string& platform,
                                                       const nlohmann::json& platform_config) {
  ensure_builtin_registrations();
  IsaVariantAreaFn price;
  {
    std::lock_guard<std::mutex> lock(pricing_mutex());
    const auto it = pricing().find(platform);
    if (it != pricing().end()) price = it->second;
  }
  if (!price) return std::nullopt;
  return price(platform_config);
}

double added_area_mm2(const std::vector<AddedArea>& lines) {
  double mm2 = 0;
  for (const AddedArea& a : lines) mm2 += a.mm2;
  return mm2;
}

}  // namespace tlmcraft
