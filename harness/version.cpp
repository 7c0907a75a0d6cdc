#include "harness/version.h"

#include "harness/build_info.h"

namespace tlmcraft::harness {

const std::string& tlmcraft_version() {
  static const std::string version = std::string(build_version()) + " (commit " + build_commit() +
                                     (build_dirty() ? ", modified" : "") + ")";
  return version;
}

}  // namespace tlmcraft::harness
