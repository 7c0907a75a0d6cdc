#include "common/platform_catalog.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "common/registration.h"

namespace tlmcraft {
namespace {

std::mutex& catalog_mutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, std::unique_ptr<PlatformInfo>>& catalog() {
  static std::map<std::string, std::unique_ptr<PlatformInfo>> c;
  return c;
}

// Names are CLI arguments, YAML keys and file-name parts: lower case, digits, '_'.
bool valid_name(const std::string& s) {
  if (s.empty() || !std::islower(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

}  // namespace

void register_platform_info(PlatformInfo info) {
  if (!valid_name(info.name))
    throw std::invalid_argument("platform name '" + info.name + "' is not valid (lower-case letters, digits, '_')");
  std::lock_guard<std::mutex> lock(catalog_mutex());
  if (catalog().count(info.name)) throw std::invalid_argument("platform '" + info.name + "' is registered twice");
  const std::string name = info.name;
  catalog().emplace(name, std::make_unique<PlatformInfo>(std::move(info)));
}

const PlatformInfo* find_platform_info(const std::string& name) {
  ensure_builtin_registrations();
  std::lock_guard<std::mutex> lock(catalog_mutex());
  const auto it = catalog().find(name);
  return it == catalog().end() ? nullptr : it->second.get();
}

std::vector<const PlatformInfo*> registered_platforms() {
  ensure_builtin_registrations();
  std::lock_guard<std::mutex> lock(catalog_mutex());
  std::vector<const PlatformInfo*> out;
  for (const auto& [name, info] : catalog()) out.push_back(info.get());
  std::stable_sort(out.begin(), out.end(), [](const PlatformInfo* a, const PlatformInfo* b) { return a->rank < b->rank; });
  return out;
}

std::vector<std::string> registered_platform_names() {
  std::vector<std::string> out;
  for (const PlatformInfo* p : registered_platforms()) out.push_back(p->name);
  return out;
}

std::string registered_platform_list() {
  std::string out;
  for (const auto& n : registered_platform_names()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace tlmcraft
