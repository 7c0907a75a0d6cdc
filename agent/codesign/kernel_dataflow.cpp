#include "agent/codesign/kernel_dataflow.h"

#include <map>
#include <stdexcept>

#include "agent/search/search_transformations.h"

namespace tlmcraft::agent::codesign {
namespace {

std::map<std::string, DataflowAdapter>& adapters() {
  static std::map<std::string, DataflowAdapter> a;
  return a;
}

}  // namespace

void register_dataflow_adapter(const std::string& platform, DataflowAdapter adapter) {
  if (!adapter.parse || !adapter.fusable || !adapter.cost || !adapter.overlay_entry || !adapter.use_overlay ||
      !adapter.overlay_area)
    throw std::invalid_argument("dataflow adapter of '" + platform + "': every function must be set");
  if (!adapters().emplace(platform, std::move(adapter)).second)
    throw std::invalid_argument("dataflow adapter of '" + platform + "' is registered twice");
}

const DataflowAdapter* find_dataflow_adapter(const std::string& platform) {
  // The packs register their adapters with their search transformations, once
  // per process.
  (void)search::candidate_generator_names();
  auto it = adapters().find(platform);
  return it == adapters().end() ? nullptr : &it->second;
}

}  // namespace tlmcraft::agent::codesign
