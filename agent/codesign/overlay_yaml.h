// Overlays and candidate files as YAML (the format users edit), from their JSON
// form.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace tlmcraft::agent::codesign {

// Block-style YAML of a JSON document (objects keep their key order as nlohmann
// sorts them; strings that YAML would misread are quoted by yaml-cpp's
// emitter).
std::string to_yaml(const nlohmann::json& document);

}  // namespace tlmcraft::agent::codesign
