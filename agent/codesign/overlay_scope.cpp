#include "agent/codesign/overlay_scope.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "agent/codesign/overlay_yaml.h"
#include "common/sha256.h"

namespace tlmcraft::agent::codesign {

ScopedOverlay::ScopedOverlay(const nlohmann::json& overlay, const std::string& tag) {
  const std::string text = to_yaml(overlay);
  // Per process and thread: explore searches kernels on several threads, each with its
  // own file (one thread's removal never pulls another's from under it).
  const std::string owner =
      std::to_string(::getpid()) + "-" + std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id()));
  path_ = (std::filesystem::temp_directory_path() /
           ("tlmcraft-" + tag + "-overlay-" + owner + "-" + sha256_hex(text).substr(0, 16) + ".yaml"))
              .string();
  std::ofstream(path_, std::ios::binary | std::ios::trunc) << text;
  isa::IsaVariant v = isa::current_isa_variant();
  v.overlays.push_back(path_);
  scope_ = std::make_unique<isa::ScopedIsaVariant>(v);
}

ScopedOverlay::~ScopedOverlay() {
  scope_.reset();
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

}  // namespace tlmcraft::agent::codesign
