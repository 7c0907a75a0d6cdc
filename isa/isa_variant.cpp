#include "isa/isa_variant.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "isa/isa_overlay.h"
#include "isa/isa_spec.h"

namespace tlmcraft::isa {

namespace {
// The process-wide cache of parsed descriptions, by source (defined below).
std::shared_ptr<const IsaSpec> shared_cache_lookup(const std::string& isa_name, const std::string& home_dir);

std::mutex process_mu;
IsaVariant process_variant;
thread_local std::shared_ptr<const IsaVariant> scoped_variant;
std::atomic<uint64_t> generation{1};

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
  ++generation;
}

uint64_t isa_variant_generation() { return generation.load(); }

ScopedIsaVariant::ScopedIsaVariant(const IsaVariant& variant) : previous_(scoped_variant) {
  scoped_variant = std::make_shared<const IsaVariant>(variant);
  ++generation;
}

ScopedIsaVariant::~ScopedIsaVariant() {
  scoped_variant = previous_;
  ++generation;
}

std::string IsaSource::cache_key() const {
  std::string k = path;
  for (const auto& o : overlays) k += "\n" + o + "#" + content_hash(o);
  return k;
}

IsaSource isa_source(const std::string& isa_name, const std::string& home_dir) {
  IsaSource src{isa_yaml_path(isa_name, home_dir), {}};
  // Overlays for another ISA belong to another platform of the same process (an agent's
  // tool may look at a second platform); one without a readable `isa:` is kept, so the
  // merge reports it.
  for (const auto& path : current_isa_variant().overlays) {
    try {
      if (overlay_isa_name(path) != isa_name) continue;
    } catch (const OverlayError&) {
    }
    src.overlays.push_back(path);
  }
  return src;
}

IsaSpec load_isa_spec(const std::string& isa_name, const std::string& home_dir) {
  const IsaSource src = isa_source(isa_name, home_dir);
  return IsaSpec::load(src.path, src.overlays);
}

std::shared_ptr<const IsaSpec> cached_isa_spec(const std::string& isa_name, const std::string& home_dir) {
  // Fast path: this thread asked for the same ISA since the variant last changed.
  // (TLMCRAFT_ISA_DIR is compared too: tests switch it between platforms.)
  struct Last {
    uint64_t generation = 0;
    std::string env_dir;
    std::shared_ptr<const IsaSpec> spec;
  };
  thread_local std::map<std::string, Last> last;
  Last& mine = last[isa_name + "\n" + home_dir];
  const uint64_t now = isa_variant_generation();
  const char* env = std::getenv("TLMCRAFT_ISA_DIR");
  const std::string env_dir = env ? env : "";
  if (mine.spec && mine.generation == now && mine.env_dir == env_dir) return mine.spec;
  mine = {now, env_dir, shared_cache_lookup(isa_name, home_dir)};
  return mine.spec;
}

namespace {
std::shared_ptr<const IsaSpec> shared_cache_lookup(const std::string& isa_name, const std::string& home_dir) {
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
}  // namespace

}  // namespace tlmcraft::isa
