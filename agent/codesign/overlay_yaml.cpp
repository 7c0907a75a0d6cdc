#include "agent/codesign/overlay_yaml.h"

#include <yaml-cpp/yaml.h>

namespace tlmcraft::agent::codesign {
namespace {

YAML::Node node_of(const nlohmann::json& j) {
  YAML::Node n;
  if (j.is_object()) {
    n = YAML::Node(YAML::NodeType::Map);
    for (auto it = j.begin(); it != j.end(); ++it) n[it.key()] = node_of(it.value());
  } else if (j.is_array()) {
    n = YAML::Node(YAML::NodeType::Sequence);
    for (const auto& e : j) n.push_back(node_of(e));
  } else if (j.is_string()) {
    n = j.get<std::string>();
  } else if (j.is_boolean()) {
    n = j.get<bool>();
  } else if (j.is_number_integer()) {
    n = j.get<int64_t>();
  } else if (j.is_number()) {
    n = j.get<double>();
  }
  return n;
}

}  // namespace

std::string to_yaml(const nlohmann::json& document) {
  YAML::Emitter out;
  out << node_of(document);
  return std::string(out.c_str()) + "\n";
}

}  // namespace tlmcraft::agent::codesign
