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

nlohmann::json json_of_yaml(const YAML::Node& n) {
  if (n.IsMap()) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& kv : n) j[kv.first.as<std::string>()] = json_of_yaml(kv.second);
    return j;
  }
  if (n.IsSequence()) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& e : n) j.push_back(json_of_yaml(e));
    return j;
  }
  if (!n.IsScalar()) return nullptr;
  const std::string s = n.Scalar();
  if (n.Tag() != "!") {  // plain scalars: numbers and booleans as YAML reads them
    try {
      size_t used = 0;
      const long long i = std::stoll(s, &used, 0);
      if (used == s.size()) return i;
    } catch (...) {
    }
    try {
      size_t used = 0;
      const double d = std::stod(s, &used);
      if (used == s.size()) return d;
    } catch (...) {
    }
    if (s == "true" || s == "false") return s == "true";
  }
  return s;
}

std::string to_yaml(const nlohmann::json& document) {
  YAML::Emitter out;
  out << node_of(document);
  return std::string(out.c_str()) + "\n";
}

}  // namespace tlmcraft::agent::codesign
