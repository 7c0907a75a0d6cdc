// The events of one phase ("X", "C", "M", ...) of a parsed Perfetto/Chrome trace, for the
// trace writer's tests.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tlmcraft::traces::test {

inline std::vector<nlohmann::json> events_with(const nlohmann::json& trace, const std::string& ph) {
  std::vector<nlohmann::json> out;
  for (const nlohmann::json& e : trace["traceEvents"])
    if (e["ph"] == ph) out.push_back(e);
  return out;
}

}  // namespace tlmcraft::traces::test
