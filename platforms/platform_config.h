// YAML helpers every platform's config loader shares: node locations for messages, the
// effective config as JSON, `--set KEY=VALUE` overrides and config-name resolution.
#pragma once
#include <string>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace tlmcraft {

// "file:line:col" of a node ("file" when the node has no position).
std::string yaml_where(const std::string& file, const YAML::Node& node);
// "file:line:col: cause" for a yaml-cpp exception (a subscript of a scalar, a bad
// conversion) thrown while a loader reads `file`'s tree.
std::string yaml_error_message(const std::string& file, const YAML::Exception& e);
// The YAML tree as JSON: integers (decimal or 0x), numbers and booleans become JSON
// values; quoted scalars stay strings.
nlohmann::json yaml_to_json(const YAML::Node& node);
// Applies one "a.b.c=value" override to `root`. The key must already exist, so a typo is
// an InputError listing the keys known at that level; `example` is shown in the usage text.
void apply_config_override(YAML::Node root, const std::string& text, const std::string& example);
// A config name ("default") resolves to platforms/<platform>/configs/<name>.yaml in the
// data folder (common/data_dir.h); anything with a '/' or ending in .yaml is taken as a path.
std::string platform_config_path(const std::string& platform, const std::string& name_or_path);

}  // namespace tlmcraft
