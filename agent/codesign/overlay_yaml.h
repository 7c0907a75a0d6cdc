// Overlays and candidate files as YAML (the format users edit), from their JSON
// form.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace YAML {
class Node;
}

namespace tlmcraft::agent::codesign {

// The JSON form of a YAML document: plain scalars that read as integers, numbers or
// booleans become those, everything else a string.
nlohmann::json json_of_yaml(const YAML::Node& node);

// Block-style YAML of a JSON document (objects keep their key order as nlohmann
// sorts them; strings that YAML would misread are quoted by yaml-cpp's
// emitter).
std::string to_yaml(const nlohmann::json& document);

}  // namespace tlmcraft::agent::codesign
