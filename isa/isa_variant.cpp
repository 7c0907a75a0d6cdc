#include "isa/isa_variant.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "isa/isa_spec.h"

namespace tlmcraft::isa {

namespace {

std::mutex process_mu;
IsaVariant process_variant;
thread_local std::shared_ptr<const IsaVariant> scoped_variant;

// FNV-1a of a file's bytes ("" when unreadable: the loader reports that file).
std::string content_hash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream ss;
  ss << in.rdbuf();
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : ss.str()) h = (h ^ c) * 1099511628211ull;
  return std::to_string(h);
}

}  // namespace

IsaVariant current_isa_variant() {
  if (scoped_variant) return *scoped_variant;
  std::lock_guard<std::mutex> lock(process_mu);
  return process_variant;
}

void set_process_isa_variant(const IsaVariant& variant) {
  std::lock_guard<std::mutex> lock(process_mu);
  process_variant = variant;
}

ScopedIsaVariant::ScopedIsaVariant(const IsaVariant& variant) : previous_(scoped_variant) {
  scoped_variant = std::make_shared<const IsaVariant>(variant);
}

ScopedIsaVariant::~ScopedIsaVariant() { scoped_variant = previous_; }

std::string IsaSource::cache_key() const {
  std::string k = path;
  for (const auto& o : overlays) k += "\n" + o + "#" + content_hash(o);
  return k;
}

IsaSource isa_source(const std::string& isa_name, const std::string& home_dir) {
  const IsaVariant v = current_isa_variant();
  return {isa_yaml_path(isa_name, home_dir), v.overlays};
}

IsaSpec load_isa_spec(const std::string& isa_name, const std::string& home_dir) {
  const IsaSource src = isa_source(isa_name, home_dir);
  return IsaSpec::load(src.path, src.overlays);
}

std::shared_ptr<const IsaSpec> cached_isa_spec(const std::string& isa_name, const std::string& home_dir) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const IsaSpec>> by_source;
  const IsaSource src = isa_source(isa_name, home_dir);
  const std::string key = src.cache_key();
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = by_source.find(key); it != by_source.end()) return it->second;
  }
  auto spec = std::make_shared<const IsaSpec>(IsaSpec::load(src.path, src.overlays));
  std::lock_guard<std::mutex> lock(mu);
  return by_source.emplace(key, spec).first->second;
}

}  // namespace tlmcraft::isa
